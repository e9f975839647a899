// Key material helpers shared by the auth middleware, the seed script and (later) the operator API.
// Only SHA-256 hex digests of keys are stored (docs/decisions.md §8).
import { createHash } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export const PARTNER_KEY_PREFIX = "svcp_";
/** Characters of a key kept for display: the prefix and four of the secret. */
export const KEY_START_LENGTH = PARTNER_KEY_PREFIX.length + 4;

/**
 * SHA-256 of `value` (UTF-8), hex. Every authenticated request hashes its key: `node:crypto` hashes
 * synchronously and natively (workerd's nodejs_compat), without WebCrypto's promise and copies.
 */
export async function sha256Hex(value: string): Promise<string> {
  return createHash("sha256").update(value).digest("hex");
}

export function toHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** A random base62 string; 32 characters carry ~190 bits. Rejection sampling keeps it unbiased. */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      // 248 = 62 * 4: bytes at or above it would favour the first characters.
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function generatePartnerKey(): string {
  return `${PARTNER_KEY_PREFIX}${randomBase62(32)}`;
}

/** Compares two strings in time that depends only on their lengths. */
export function timingSafeEqualStrings(a: string, b: string): boolean {
  const left = new TextEncoder().encode(a);
  const right = new TextEncoder().encode(b);
  let diff = left.length ^ right.length;
  const length = Math.max(left.length, right.length);
  for (let i = 0; i < length; i++) diff |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return diff === 0;
}

export const PUBLIC_KEY_PREFIX = "svck_";
/** Characters of a public key kept for display: the prefix and four of the key id. */
export const PUBLIC_KEY_START_LENGTH = PUBLIC_KEY_PREFIX.length + 4;
const PUBLIC_KEY_PATTERN = /^svck_([A-Za-z0-9]{8,32})_([A-Za-z0-9]{16,128})$/;

/** A public API key `svck_<key id>_<secret>`; the key id is the lookup key, only the hash is stored. */
export function generatePublicKey(): { key: string; keyId: string } {
  const keyId = randomBase62(12);
  return { key: `${PUBLIC_KEY_PREFIX}${keyId}_${randomBase62(32)}`, keyId };
}

/** The key id segment of a well-formed public key, or null. */
export function publicKeyId(key: string): string | null {
  return PUBLIC_KEY_PATTERN.exec(key)?.[1] ?? null;
}
