import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// `npm run bench:engine`: the engine benchmark, in workerd like production, outside `npm test`.
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: { bindings: { FILES_SIGNING_SECRET: "bench-secret-0123456789abcdef" } },
    }),
  ],
  test: { include: ["test/bench/**/*.bench-run.ts"], testTimeout: 600_000 },
});
