import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// `npm run accuracy`: how the engine does on sets of photos, in workerd like production, outside
// `npm test`. Every `test/accuracy/**/*.accuracy.ts` prints its own table.
export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: { bindings: { FILES_SIGNING_SECRET: "accuracy-secret-0123456789abcdef" } },
    }),
  ],
  test: { include: ["test/accuracy/**/*.accuracy.ts"], testTimeout: 1_200_000 },
});
