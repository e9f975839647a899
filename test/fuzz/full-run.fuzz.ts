import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { runFuzz } from "./malformed-requests";

// `npm run fuzz`: FUZZ_COUNT (default 10000) seeded requests (FUZZ_SEED) within FUZZ_SECONDS.
const seed = Number(env.FUZZ_SEED ?? "12648430");
const count = Number(env.FUZZ_COUNT ?? "10000");
const budgetSeconds = Number(env.FUZZ_SECONDS ?? "900");

it(`answers ${count} seeded malformed requests without a 5xx or a leak`, {
  timeout: (budgetSeconds + 120) * 1000,
}, async () => {
  const report = await runFuzz(seed, count, budgetSeconds);
  console.log(
    JSON.stringify({
      fuzz: {
        seed,
        sent: report.sent,
        seconds: report.seconds,
        statuses: report.statuses,
        failures: report.failures.length,
      },
    }),
  );
  expect(report.failures).toEqual([]);
  expect(report.sent).toBe(count);
});
