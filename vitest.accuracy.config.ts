import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// `npm run accuracy`: measurements of the engine on drawn photos with known truth, in workerd like
// production, outside `npm test` (they take minutes of CPU). Each file prints its table.
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: { bindings: { FILES_SIGNING_SECRET: "accuracy-secret-0123456789abcdef" } },
    }),
  ],
  test: { include: ["test/accuracy/**/*.accuracy.ts"], testTimeout: 1_200_000 },
});
