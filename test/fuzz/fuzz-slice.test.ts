import { expect, it } from "vitest";
import { runFuzz } from "./malformed-requests";

// A short seeded slice of `npm run fuzz` in every `npm test`: the same generator, 300 requests.
it("answers 300 seeded malformed requests across all routes without a 5xx or a leak", {
  timeout: 120_000,
}, async () => {
  const report = await runFuzz(20261123, 300, 100);
  expect(report.failures).toEqual([]);
  expect(report.sent).toBe(300);
});
