import { describe, expect, it } from "vitest";
import { RETRY_MULTIPLES, retryDelaySeconds } from "../../src/webhooks/schedule";
import { decryptSecret, encryptSecret, generateSigningSecret } from "../../src/webhooks/secret-box";
import { signatureHeader, verifyWebhookSignature } from "../../src/webhooks/signature";

const BODY = '{"event":"grading.completed","api_version":"v1"}';
const TIMESTAMP = 1795334400;
// Computed independently: python3 -c "import hmac,hashlib; print(hmac.new(b'whsec_test_vector',
//   b'1795334400.{\"event\":\"grading.completed\",\"api_version\":\"v1\"}', hashlib.sha256).hexdigest())"
const VECTOR = "ae2cdc6c35010970d598c08865cafa0eaf4a575a4d9391c3321b999362abc32e";
const VECTOR_PREVIOUS = "72db655567c6f12d599f4e34909bf6b92a8a4cfd2f244226fc4919feb4260d47";
const AT = TIMESTAMP * 1000;

describe("webhook signatures", () => {
  it("sign `<timestamp>.<raw body>` with HMAC-SHA256, hex, prefixed sha256=", async () => {
    expect(await signatureHeader(["whsec_test_vector"], TIMESTAMP, BODY)).toBe(`sha256=${VECTOR}`);
  });

  it("carry one signature per secret during a rotation, space-separated", async () => {
    expect(await signatureHeader(["whsec_test_vector", "whsec_previous"], TIMESTAMP, BODY)).toBe(
      `sha256=${VECTOR} sha256=${VECTOR_PREVIOUS}`,
    );
  });

  it("verify with or without the prefix, and with either secret of a rotation", async () => {
    const check = (secret: string, signature: string) =>
      verifyWebhookSignature({ secret, timestamp: String(TIMESTAMP), signature, body: BODY, now: AT });
    expect(await check("whsec_test_vector", `sha256=${VECTOR}`)).toEqual({ ok: true });
    expect(await check("whsec_test_vector", VECTOR.toUpperCase())).toEqual({ ok: true });
    const both = `sha256=${VECTOR} sha256=${VECTOR_PREVIOUS}`;
    expect(await check("whsec_test_vector", both)).toEqual({ ok: true });
    expect(await check("whsec_previous", both)).toEqual({ ok: true });
  });

  it("refuse a changed body, a wrong secret, a stale or future timestamp, and missing headers", async () => {
    const base = {
      secret: "whsec_test_vector",
      timestamp: String(TIMESTAMP),
      signature: `sha256=${VECTOR}`,
      body: BODY,
    };
    expect(await verifyWebhookSignature({ ...base, body: `${BODY} `, now: AT })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(await verifyWebhookSignature({ ...base, secret: "whsec_other", now: AT })).toEqual({
      ok: false,
      reason: "mismatch",
    });
    expect(await verifyWebhookSignature({ ...base, now: AT + 301_000 })).toEqual({ ok: false, reason: "stale" });
    expect(await verifyWebhookSignature({ ...base, now: AT - 301_000 })).toEqual({ ok: false, reason: "stale" });
    expect(await verifyWebhookSignature({ ...base, now: AT + 300_000 })).toEqual({ ok: true });
    expect(await verifyWebhookSignature({ ...base, timestamp: null, now: AT })).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(await verifyWebhookSignature({ ...base, signature: null, now: AT })).toEqual({
      ok: false,
      reason: "malformed",
    });
    expect(await verifyWebhookSignature({ ...base, timestamp: "12ab", now: AT })).toEqual({
      ok: false,
      reason: "malformed",
    });
  });
});

describe("retry schedule", () => {
  it("waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up after the 8th attempt", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelaySeconds(attempt, 5, 0.5));
    expect(delays).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(retryDelaySeconds(8, 5, 0.5)).toBeNull();
    const total = RETRY_MULTIPLES.reduce((sum, m) => sum + m * 5, 0) / 3600;
    expect(total).toBeGreaterThan(27);
    expect(total).toBeLessThan(29);
  });

  it("jitters by ±10 % and never waits under a second", () => {
    expect(retryDelaySeconds(2, 5, 0)).toBe(270);
    expect(retryDelaySeconds(2, 5, 0.999999)).toBe(330);
    expect(retryDelaySeconds(1, 0.05, 0.5)).toBe(1);
    expect(retryDelaySeconds(2, 0.05, 0.5)).toBe(3);
  });
});

describe("signing secrets at rest", () => {
  it("round-trip through AES-GCM, differ on every encryption, and fail under another key", async () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const key = "k".repeat(40);
    const a = await encryptSecret(key, secret);
    const b = await encryptSecret(key, secret);
    expect(a).not.toBe(b);
    expect(a).not.toContain(secret.slice(6, 20));
    expect(await decryptSecret(key, a)).toBe(secret);
    await expect(decryptSecret("z".repeat(40), a)).rejects.toThrow();
  });
});
