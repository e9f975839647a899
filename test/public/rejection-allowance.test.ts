import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { submissions } from "../../src/db/schema";
import { encodeBase64 } from "../../src/net/body";
import { encodeJpeg } from "../helpers/card-images";
import { createPublicClient, db } from "../helpers/factories";
import { callWithEnv } from "../helpers/request";
import { jsonSubmission, rawPair } from "../helpers/submissions";
import { clearOfWindowEnd } from "../helpers/windows";

// A photo the engine refuses at once (too small to grade): a rejection that costs almost nothing.
const tiny = encodeBase64(encodeJpeg({ width: 64, height: 48, data: new Uint8Array(64 * 48 * 4).fill(90) }, 80));
const garbage = { front_image: { base64: tiny }, back_image: { base64: tiny } };

function submit(key: string, body: unknown, allowance: number) {
  return callWithEnv(
    "/api/public/v1/gradings",
    { REJECTION_REFUND_HOURLY_ALLOWANCE: String(allowance) },
    { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) },
  );
}

const remaining = (res: { headers: Headers }) => res.headers.get("ratelimit")?.match(/r=(\d+)/)?.[1];

// Tests here fill or read hourly quota windows: keep each clear of the end of the hour.
beforeEach(() => clearOfWindowEnd(3600, 20), 30_000);

describe("rejections: unbilled, refunded up to an hourly allowance, then counted", { timeout: 60_000 }, () => {
  it("refunds the first rejections within the allowance, counts the rest, and answers 429 once the quota is used", async () => {
    const client = await createPublicClient({ hourlyQuota: 3 });
    const results: { status: number; remaining: string | undefined }[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await submit(client.key, garbage, 1);
      results.push({ status: res.status, remaining: remaining(res) });
    }
    // Each answer's RateLimit counts the request itself; a refund comes after the answer is made.
    expect(results.map((r) => r.status)).toEqual([422, 422, 422, 422, 429]);
    // The first unit came back (2 left again), then each rejection kept its unit until none were left.
    expect(results.map((r) => r.remaining)).toEqual(["2", "2", "1", "0", "0"]);
    const rows = await db().select().from(submissions).where(eq(submissions.clientId, client.clientId));
    expect(rows.map((row) => row.billing).sort()).toEqual(["counted", "counted", "counted", "refunded"]);
    expect(rows.every((row) => row.status === "rejected")).toBe(true);
  });

  it("a graded submission is billed; rejections within the allowance leave the quota untouched", async () => {
    const client = await createPublicClient({ hourlyQuota: 2 });
    for (let i = 0; i < 4; i++) expect((await submit(client.key, garbage, 10)).status).toBe(422);
    const graded = await submit(client.key, jsonSubmission(rawPair()), 10);
    expect(graded.status).toBe(201);
    expect(remaining(graded)).toBe("1");
    const rows = await db().select().from(submissions).where(eq(submissions.clientId, client.clientId));
    expect(rows.map((row) => row.billing).sort()).toEqual(["billed", "refunded", "refunded", "refunded", "refunded"]);
  });

  it("keeps one allowance per client", async () => {
    const client = await createPublicClient({ hourlyQuota: 50 });
    const other = await createPublicClient({ hourlyQuota: 50 });
    for (let i = 0; i < 3; i++) await submit(client.key, garbage, 2);
    await submit(other.key, garbage, 2);
    const billing = async (clientId: number) =>
      (await db().select().from(submissions).where(eq(submissions.clientId, clientId)))
        .map((row) => row.billing)
        .sort();
    expect(await billing(client.clientId)).toEqual(["counted", "refunded", "refunded"]);
    // Another client's allowance is its own.
    expect(await billing(other.clientId)).toEqual(["refunded"]);
  });
});
