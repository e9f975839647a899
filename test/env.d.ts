import type { D1Migration } from "cloudflare:test";

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** `npm run fuzz` settings (vitest.config.ts). */
      FUZZ_SEED?: string;
      FUZZ_COUNT?: string;
      FUZZ_SECONDS?: string;
    }
  }
}
