// Ed25519 keys that sign certificate attestations. The first key comes from the
// ATTESTATION_SIGNING_KEY secret (a private JWK); the operator API rotates to a key generated here,
// whose private JWK is kept encrypted with SECRETS_KEY (like webhook secrets). Every public key,
// current or retired, stays in `attestation_keys` and in the JWKS, so old certificates verify.
// Private keys never leave this module: no log line, error or response carries one.
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from "jose";
import type { Database } from "../db/client";
import { type AttestationKeyRow, attestationKeys } from "../db/schema";
import { type Config, surfaceUnavailable } from "../env";
import { ApiError } from "../errors/api-error";
import { decryptSecret, encryptSecret } from "../webhooks/secret-box";

export const ATTESTATION_ALG = "EdDSA";

// 32-byte Ed25519 values are 43 base64url characters.
const base64url32 = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
const PrivateJwk = z.object({ kty: z.literal("OKP"), crv: z.literal("Ed25519"), x: base64url32, d: base64url32 });
type PrivateJwk = z.infer<typeof PrivateJwk>;

export interface PublicJwk {
  kty: string;
  crv: string;
  x: string;
}

export interface SigningKey {
  kid: string;
  key: CryptoKey;
}

/** The RFC 7638 thumbprint of the public key: the same key always has the same `kid`. */
export function kidOf(jwk: PublicJwk): Promise<string> {
  return calculateJwkThumbprint({ kty: jwk.kty, crv: jwk.crv, x: jwk.x }, "sha256");
}

/** Parses the secret; a malformed one is a deployment error whose message names no key material. */
export function parsePrivateJwk(text: string): PrivateJwk {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("ATTESTATION_SIGNING_KEY is not JSON (expected an Ed25519 private JWK)");
  }
  const parsed = PrivateJwk.safeParse(json);
  if (!parsed.success) throw new Error("ATTESTATION_SIGNING_KEY is not an Ed25519 private JWK (kty OKP, crv Ed25519)");
  return parsed.data;
}

// Imported keys per kid, per isolate: a kid names one key pair for good, so the entry never goes stale.
const importedKeys = new Map<string, CryptoKey>();

async function importPrivate(kid: string, jwk: PrivateJwk): Promise<SigningKey> {
  let key = importedKeys.get(kid);
  if (!key) {
    const imported = await importJWK({ ...jwk, alg: ATTESTATION_ALG }, ATTESTATION_ALG, { extractable: false });
    if (!(imported instanceof CryptoKey)) throw new Error("attestation key import gave no CryptoKey");
    key = imported;
    importedKeys.set(kid, key);
  }
  return { kid, key };
}

const publicPart = (jwk: PrivateJwk): PublicJwk => ({ kty: jwk.kty, crv: jwk.crv, x: jwk.x });

/** Makes `kid` the current key (retiring whichever was), in one transaction. */
async function makeCurrent(
  db: Database,
  row: { kid: string; publicJwk: PublicJwk; privateJwkEncrypted: string | null },
) {
  const now = new Date().toISOString();
  await db.batch([
    db.update(attestationKeys).set({ status: "retired", retiredAt: now }).where(eq(attestationKeys.status, "current")),
    db
      .insert(attestationKeys)
      .values({ ...row, status: "current", createdAt: now, retiredAt: null })
      .onConflictDoUpdate({ target: attestationKeys.kid, set: { status: "current", retiredAt: null } }),
  ]);
  return now;
}

/**
 * The key that signs new attestations. The current row's own (encrypted) private key when it has
 * one; otherwise the secret's key, registered as current the first time it is seen (first start,
 * or after the operator replaced the secret).
 */
export async function currentSigningKey(config: Config, db: Database): Promise<SigningKey> {
  const current = await db.query.attestationKeys.findFirst({ where: eq(attestationKeys.status, "current") });
  if (current?.privateJwkEncrypted) {
    const cached = importedKeys.get(current.kid);
    if (cached) return { kid: current.kid, key: cached };
    if (!config.SECRETS_KEY) throw surfaceUnavailable("attestations");
    const jwk = PrivateJwk.parse(JSON.parse(await decryptSecret(config.SECRETS_KEY, current.privateJwkEncrypted)));
    return importPrivate(current.kid, jwk);
  }
  if (!config.ATTESTATION_SIGNING_KEY) throw surfaceUnavailable("attestations");
  const jwk = parsePrivateJwk(config.ATTESTATION_SIGNING_KEY);
  const kid = await kidOf(jwk);
  if (current?.kid !== kid) await makeCurrent(db, { kid, publicJwk: publicPart(jwk), privateJwkEncrypted: null });
  return importPrivate(kid, jwk);
}

/** Every public key, current first then newest retired first; registers the secret's key if none is known. */
export async function publishedKeys(config: Config, db: Database): Promise<AttestationKeyRow[]> {
  let rows = await db.select().from(attestationKeys);
  if (rows.length === 0 && config.ATTESTATION_SIGNING_KEY) {
    await currentSigningKey(config, db);
    rows = await db.select().from(attestationKeys);
  }
  return rows.sort((a, b) =>
    a.status === b.status ? b.createdAt.localeCompare(a.createdAt) : a.status === "current" ? -1 : 1,
  );
}

/** Rotation: a new key pair becomes current; the previous key is retired and stays published. */
export async function rotateSigningKey(config: Config, db: Database) {
  if (!config.SECRETS_KEY) {
    throw new ApiError(
      "invalid_request",
      "Rotation needs the SECRETS_KEY secret to keep the new private key encrypted.",
    );
  }
  const { privateKey } = await generateKeyPair("Ed25519", { extractable: true });
  const jwk = PrivateJwk.parse(await exportJWK(privateKey));
  const kid = await kidOf(jwk);
  const previous = await db.query.attestationKeys.findFirst({ where: eq(attestationKeys.status, "current") });
  const createdAt = await makeCurrent(db, {
    kid,
    publicJwk: publicPart(jwk),
    privateJwkEncrypted: await encryptSecret(config.SECRETS_KEY, JSON.stringify(jwk)),
  });
  return { kid, public_jwk: publicPart(jwk), created_at: createdAt, retired_kid: previous?.kid ?? null };
}
