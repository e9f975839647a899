import { availableParallelism } from "node:os";
import path from "node:path";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

const TEST_FILES_SIGNING_SECRET = "test-files-signing-secret-0123456789";
const TEST_ADMIN_TOKEN = "test-admin-token-0123456789";
const TEST_SECRETS_KEY = "test-secrets-key-0123456789-0123456789";
// An Ed25519 private JWK made for the tests only (tests read its public half from the JWKS).
const TEST_ATTESTATION_SIGNING_KEY =
  '{"kty":"OKP","crv":"Ed25519","x":"KIgQXenRyfhvJ3mcGVmmEuD0VIbyqCzn0TuiLPHJhB0","d":"GV98g8VLQyHA8lmxn--1lP7IhmEzGzjxBGN9J6ZTSPg"}';
// wrangler.toml lists FILES_SIGNING_SECRET as required; giving it here keeps a checkout without
// .dev.vars from warning about it (the binding below is what the tests actually use).
process.env.FILES_SIGNING_SECRET ??= TEST_FILES_SIGNING_SECRET;
process.env.ADMIN_TOKEN ??= TEST_ADMIN_TOKEN;
process.env.SECRETS_KEY ??= TEST_SECRETS_KEY;
process.env.ATTESTATION_SIGNING_KEY ??= TEST_ATTESTATION_SIGNING_KEY;

const ENGINE_TEST_FILES = [
  "bevelled-rim",
  "border-sides",
  "centering-accuracy",
  "chromatic",
  "decode",
  "downscale",
  "edge-crossing",
  "engine",
  "evidence",
  "find-card",
  "folds",
  "frame",
  "holder-shape",
  "hough",
  "outer-border",
  "real-photos",
  "rectify",
  "reference-difference",
  "reference-print",
  "refine-outline",
  "screenshot-margins",
  "sleeve",
  "surface",
  "table-pattern",
  "value",
  "wear",
].map((name) => `test/grading/${name}.test.ts`);

// Service tests that need a runtime of their own: they change the Worker's env, count rows that
// other files' tests would add (catalog entries, keys, deliveries), or set catalog reference
// images that would identify other files' photos.
const ISOLATED_SERVICE_FILES = [
  "admin/operator-api",
  "admin/partner-view-maintenance",
  "grading/every-outcome",
  "grading/housekeeping",
  "pages/verify-section",
  "public/declared-fields",
  "public/gradings",
  "scripts/demo-photos",
].map((name) => `test/${name}.test.ts`);

// `npm run fuzz` (FUZZ_RUN=1) runs the full seeded fuzz run in test/fuzz/*.fuzz.ts instead of the suite.
const fuzzRun = process.env.FUZZ_RUN === "1";

export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, "migrations"));
  return {
    plugins: [
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            // Test-only: the migrations the setup file applies to each isolated D1.
            TEST_MIGRATIONS: migrations,
            // Pinned so a developer's .dev.vars (written by `npm start`) cannot change test results.
            FILES_SIGNING_SECRET: TEST_FILES_SIGNING_SECRET,
            ADMIN_TOKEN: TEST_ADMIN_TOKEN,
            SECRETS_KEY: TEST_SECRETS_KEY,
            ATTESTATION_SIGNING_KEY: TEST_ATTESTATION_SIGNING_KEY,
            WEBHOOK_RETRY_BASE_SECONDS: "5",
            PARTNER_HOURLY_QUOTA: "1000",
            ALLOW_HTTP_WEBHOOKS: "false",
            PRIVATE_HOSTS_ALLOWED: "",
            PRESIGNED_URL_TTL_SECONDS: "300",
            KEY_CACHE_TTL_SECONDS: "30",
            CACHE_REPURGE_SECONDS: "0",
            FUZZ_SEED: process.env.FUZZ_SEED ?? "12648430",
            FUZZ_COUNT: process.env.FUZZ_COUNT ?? "10000",
            FUZZ_SECONDS: process.env.FUZZ_SECONDS ?? "900",
          },
        },
      }),
    ],
    test: {
      // (Each project names its own files: a project extending this config adds its lists to these.)
      include: fuzzRun ? ["test/fuzz/**/*.fuzz.ts"] : [],
      // A fresh runner per file (its own workerd, storage and module state) costs ~3 s of start-up
      // on this machine. The engine's own tests (a pure library: no bindings, no storage) share
      // theirs. So do the service tests, whose every test seeds its own client, keys and rows and
      // reads only those: they pass in any order of files and tests (`--sequence.shuffle`, several
      // seeds), and sharing cut the 46 files from 160 s to 102 s of vitest on two cores. The
      // files in ISOLATED_SERVICE_FILES, which need a world no other file has touched, keep a
      // runner each.
      projects: fuzzRun
        ? undefined
        : [
            { extends: true, test: { name: "engine", include: ENGINE_TEST_FILES, isolate: false } },
            {
              extends: true,
              test: {
                name: "service",
                include: ["test/**/*.test.ts"],
                exclude: [...ENGINE_TEST_FILES, ...ISOLATED_SERVICE_FILES],
                isolate: false,
              },
            },
            { extends: true, test: { name: "service-isolated", include: ISOLATED_SERVICE_FILES } },
          ],
      setupFiles: ["./test/apply-migrations.ts"],
      // Vitest's default outside watch mode is one worker fewer than the machine's cores: a single
      // worker on the 2-core machines CI runs on. The grading tests are CPU-bound image work, so
      // two files at a time nearly halve the run (measured in the README's "Measured" section).
      maxWorkers: Math.max(2, availableParallelism() - 1),
      // Two files at a time on two cores: a test that grades a photo pair through the API (1–3 s
      // alone) can take twice as long beside a grading test file. Files that grade many photos
      // set longer timeouts of their own.
      testTimeout: 20_000,
    },
  };
});
