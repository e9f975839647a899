// Signing and verifying public webhook deliveries (README "Receiving webhooks", docs/decisions.md
// §4): hex HMAC-SHA256 keyed with the client's signing secret over `<svc-timestamp>.<raw body>`, sent as
// `svc-signature: sha256=<hex>`. While a rotated-out secret is still honoured, the header carries one
// signature per secret, space-separated; a receiver accepts the delivery when any of them matches.
//
// Self-contained (Web Crypto only, no imports) so the receiver example in scripts/ and the tests use
// this very code under Node as well as in the Worker.

/** Deliveries older or newer than this (seconds) are refused as replays. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const encoder = new TextEncoder();

export async function hmacSha256Hex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  let hex = "";
  for (const byte of mac) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** The `svc-signature` header value for a body sent at `timestamp` (unix seconds), one entry per secret. */
export async function signatureHeader(secrets: readonly string[], timestamp: number, body: string): Promise<string> {
  const signatures = await Promise.all(
    secrets.map(async (secret) => `sha256=${await hmacSha256Hex(secret, `${timestamp}.${body}`)}`),
  );
  return signatures.join(" ");
}

function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export type VerifyResult = { ok: true } | { ok: false; reason: "malformed" | "stale" | "mismatch" };

/**
 * The receiver's check, by the document's rules: recompute the HMAC over `<timestamp>.<raw body>`,
 * compare it in constant time with each signature in the header (a `sha256=` prefix is optional),
 * and refuse a timestamp more than 300 s from now.
 */
export async function verifyWebhookSignature(args: {
  secret: string;
  timestamp: string | null;
  signature: string | null;
  body: string;
  now?: number;
  toleranceSeconds?: number;
}): Promise<VerifyResult> {
  const { secret, timestamp, signature, body } = args;
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || !signature) return { ok: false, reason: "malformed" };
  const nowSeconds = Math.floor((args.now ?? Date.now()) / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > (args.toleranceSeconds ?? SIGNATURE_TOLERANCE_SECONDS)) {
    return { ok: false, reason: "stale" };
  }
  const expected = await hmacSha256Hex(secret, `${timestamp}.${body}`);
  const candidates = signature
    .split(/[\s,]+/)
    .filter((part) => part.length > 0)
    .map((part) => part.replace(/^sha256=/, "").toLowerCase());
  // Compare against every candidate (no early exit), so timing does not tell which one matched.
  let matched = false;
  for (const candidate of candidates) matched = constantTimeEqual(candidate, expected) || matched;
  return matched ? { ok: true } : { ok: false, reason: "mismatch" };
}
