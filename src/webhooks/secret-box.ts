// Webhook signing secrets at rest (docs/decisions.md §8): AES-256-GCM, keyed by the SECRETS_KEY secret
// (any string of 32+ characters; the AES key is its SHA-256). Stored as base64(iv ‖ ciphertext).
// Self-contained (Web Crypto only; type imports are erased) so the local seed script encrypts the
// demo secret the same way. A rotated-out secret keeps signing for a grace period (below).
import type { RetiredSecret } from "../db/schema";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const IV_BYTES = 12;

async function aesKey(secretsKey: string): Promise<CryptoKey> {
  const raw = await crypto.subtle.digest("SHA-256", encoder.encode(secretsKey));
  return crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

// Its own encoder rather than src/net/body.ts's: this file imports nothing (see above).
function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export async function encryptSecret(secretsKey: string, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await aesKey(secretsKey), encoder.encode(plaintext)),
  );
  const out = new Uint8Array(IV_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, IV_BYTES);
  return toBase64(out);
}

/** Throws when the ciphertext was not sealed with this key (or was altered). */
export async function decryptSecret(secretsKey: string, stored: string): Promise<string> {
  const bytes = Uint8Array.from(atob(stored), (c) => c.charCodeAt(0));
  const opened = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.subarray(0, IV_BYTES) },
    await aesKey(secretsKey),
    bytes.subarray(IV_BYTES),
  );
  return decoder.decode(opened);
}

/** A new signing secret: `whsec_` and 32 random bytes in hex. */
export function generateSigningSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return `whsec_${hex}`;
}

/** A rotated-out signing secret still signs deliveries this long. */
export const SECRET_GRACE_MS = 24 * 3600 * 1000;
/** Retired secrets kept at most (each adds a signature to every delivery); older ones drop out first. */
export const MAX_RETIRED_SECRETS = 5;

/** The retired secrets still inside their grace period at `now`, newest first. */
export function liveRetiredSecrets(retired: RetiredSecret[] | null, now = Date.now()): RetiredSecret[] {
  return (retired ?? [])
    .filter((entry) => Date.parse(entry.valid_until) > now)
    .sort((a, b) => b.valid_until.localeCompare(a.valid_until));
}

/**
 * The retired secrets after `current` (encrypted; null when there was none) is rotated out at `now`:
 * it joins the ones still in their grace period (a second rotation within 24 h must not cut off the
 * first secret early); expired ones are dropped. `validUntil` is the end of its grace period.
 */
export function retireSecret(
  current: string | null,
  retired: RetiredSecret[] | null,
  now: number,
): { retired: RetiredSecret[]; validUntil: string } {
  const validUntil = new Date(now + SECRET_GRACE_MS).toISOString();
  return {
    retired: [
      ...(current ? [{ secret: current, valid_until: validUntil }] : []),
      ...liveRetiredSecrets(retired, now),
    ].slice(0, MAX_RETIRED_SECRETS),
    validUntil,
  };
}
