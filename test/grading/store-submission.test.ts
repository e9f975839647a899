import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createDatabase } from "../../src/db/client";
import { isUniqueViolation } from "../../src/db/errors";
import { submissions } from "../../src/db/schema";
import { settleDeps } from "../../src/grading/settle-deps";
import { type NewSubmission, storeSubmission } from "../../src/grading/submit";
import { createPublicClient } from "../helpers/factories";

// The row and both photos are written at once; whichever write fails, nothing is left behind.

function depsWith(images: R2Bucket) {
  return settleDeps({ ...env, IMAGES: images });
}

async function input(overrides: Partial<NewSubmission> = {}): Promise<NewSubmission> {
  const client = await createPublicClient();
  return {
    clientId: client.clientId,
    apiKeyId: client.apiKeyId,
    quotaWindowStart: null,
    externalRef: null,
    hints: {},
    images: {
      front: { bytes: new Uint8Array([1, 2, 3]), contentType: "image/jpeg" },
      back: { bytes: new Uint8Array([4, 5]), contentType: "image/png" },
    },
    requestOrigin: "https://api.test",
    idempotencyKey: null,
    fingerprint: "fp",
    ...overrides,
  };
}

async function storedKeys() {
  return (await env.IMAGES.list({ prefix: "submissions/" })).objects.map((o) => o.key).sort();
}

async function rowsOf(clientId: number) {
  return createDatabase(env.DB).select().from(submissions).where(eq(submissions.clientId, clientId));
}

/** The real bucket, except that putting a key ending in `back.png` fails. */
function failingBackPut(): R2Bucket {
  return new Proxy(env.IMAGES, {
    get(target, property) {
      if (property === "put") {
        return (key: string, value: Uint8Array, options?: R2PutOptions) =>
          key.endsWith("back.png") ? Promise.reject(new Error("R2 is down")) : target.put(key, value, options);
      }
      const member = Reflect.get(target, property);
      return typeof member === "function" ? member.bind(target) : member;
    },
  });
}

describe("storeSubmission", () => {
  it("writes the row and both photos under the grading id", async () => {
    const submission = await input();
    const row = await storeSubmission(depsWith(env.IMAGES), submission);
    expect(row.frontImageKey).toBe(`submissions/${row.gradingId}/front.jpg`);
    expect(row.backImageKey).toBe(`submissions/${row.gradingId}/back.png`);
    expect((await rowsOf(submission.clientId)).map((r) => r.gradingId)).toEqual([row.gradingId]);
    const front = await env.IMAGES.get(row.frontImageKey);
    expect(new Uint8Array((await front?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(new Uint8Array([1, 2, 3]));
    expect((await env.IMAGES.head(row.backImageKey))?.httpMetadata?.contentType).toBe("image/png");
  });

  it("removes the row and the stored photo when one photo cannot be stored, and throws", async () => {
    const submission = await input();
    const before = await storedKeys();
    await expect(storeSubmission(depsWith(failingBackPut()), submission)).rejects.toThrow("R2 is down");
    expect(await rowsOf(submission.clientId)).toEqual([]);
    // The front photo had been stored beside the failing back; it is gone again.
    expect(await storedKeys()).toEqual(before);
  });

  it("removes the photos when the row is refused (Idempotency-Key taken) and throws the D1 error", async () => {
    const first = await input({ idempotencyKey: "same-key" });
    const kept = await storeSubmission(depsWith(env.IMAGES), first);
    const before = await storedKeys();
    const refused = await storeSubmission(depsWith(env.IMAGES), { ...first, fingerprint: "other" }).catch((e) => e);
    expect(isUniqueViolation(refused, "submissions", ["client_id", "idempotency_key"])).toBe(true);
    expect(isUniqueViolation(refused, "submissions", ["client_id"])).toBe(false);
    expect(await storedKeys()).toEqual(before);
    expect((await rowsOf(first.clientId)).map((r) => r.gradingId)).toEqual([kept.gradingId]);
  });
});
