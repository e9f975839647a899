// The attestation: the certificate as a compact JWS (EdDSA over Ed25519, `kid` in the header) that
// anyone can verify offline with the public keys at /.well-known/jwks.json. It is signed once, when
// the certificate is issued, and stored with it (README "Verifiable certificates" says why);
// certificates issued before attestations existed are signed on their first request.
import { and, eq, isNull } from "drizzle-orm";
import { SignJWT } from "jose";
import type { Database } from "../db/client";
import { type CertificateRow, certificates } from "../db/schema";
import type { Config } from "../env";
import { certificateUrl } from "../grading/certificate-number";
import { digestHex } from "./digest";
import { ATTESTATION_ALG, currentSigningKey, type SigningKey } from "./keys";

/** The JWS `typ`: a JWT whose claims are a certificate. */
export const ATTESTATION_TYP = "svc-certificate+jwt";

type CardField = "player" | "year" | "brand" | "set" | "card_number" | "variant" | "category";

/** The claims of an attestation besides iss, sub and iat. */
export function attestationClaims(row: CertificateRow, certificateUrl: string) {
  if (!row.frontImageSha256 || !row.backImageSha256) throw new Error("certificate has no image digests");
  // Catalog fields were matched to a reference image; hints and a hosted model's fields are the
  // submitter's (or the model's) word.
  const status = row.cardSource === "catalog" ? "verified" : "declared";
  const values: Record<CardField, string | null> = {
    player: row.player,
    year: row.year,
    brand: row.brand,
    set: row.setName,
    card_number: row.cardNumber,
    variant: row.variant,
    category: row.category,
  };
  const fields: Partial<Record<CardField, { value: string; status: "verified" | "declared" }>> = {};
  for (const [name, value] of Object.entries(values) as [CardField, string | null][]) {
    if (value !== null) fields[name] = { value, status };
  }
  return {
    certificate: {
      number: row.number,
      url: certificateUrl,
      issued_at: row.issuedAt,
      grade: {
        overall: row.overall,
        centering: row.centering,
        corners: row.corners,
        edges: row.edges,
        surface: row.surface,
        centering_offset: { horizontal: row.centeringHorizontal, vertical: row.centeringVertical },
      },
      card: { catalog_id: row.cardId, source: row.cardSource ?? "none", fields },
      engine: { id: row.pipelineEngine, model_version: row.modelVersion },
      graded_by: row.pipelineGradedBy,
      images: { front: { sha256: row.frontImageSha256 }, back: { sha256: row.backImageSha256 } },
      previous_certificates: row.previousCertificates.map((p) => ({ number: p.number, overall: p.overall })),
    },
  };
}

export async function signAttestation(
  key: SigningKey,
  row: CertificateRow,
  args: { issuer: string; certificateUrl: string },
): Promise<string> {
  return new SignJWT(attestationClaims(row, args.certificateUrl))
    .setProtectedHeader({ alg: ATTESTATION_ALG, kid: key.kid, typ: ATTESTATION_TYP })
    .setIssuer(args.issuer)
    .setSubject(row.number)
    .setIssuedAt(Math.floor(Date.parse(row.issuedAt) / 1000))
    .sign(key.key);
}

/**
 * A certificate's attestation: the stored one, or (for a certificate issued before attestations
 * existed) one signed now with the current key over the images' digests read from R2, then stored
 * so every later request serves the same JWS. Null when an image is missing from storage.
 */
export async function ensureAttestation(
  deps: { env: Env; config: Config; db: Database },
  row: CertificateRow,
  origin: string,
): Promise<string | null> {
  if (row.attestation) return row.attestation;
  const digestOf = async (key: string) => {
    const object = await deps.env.IMAGES.get(key);
    return object ? digestHex(await object.arrayBuffer()) : null;
  };
  const [front, back] = await Promise.all([
    row.frontImageSha256 ?? digestOf(row.frontImageKey),
    row.backImageSha256 ?? digestOf(row.backImageKey),
  ]);
  if (!front || !back) return null;
  const key = await currentSigningKey(deps.config, deps.db);
  const withDigests = { ...row, frontImageSha256: front, backImageSha256: back };
  const issuer = (deps.config.PUBLIC_BASE_URL ?? origin).replace(/\/$/, "");
  const jws = await signAttestation(key, withDigests, {
    issuer,
    certificateUrl: certificateUrl(deps.config, origin, row.number),
  });
  // Conditional: two first requests racing store one JWS, and both then serve the stored one.
  await deps.db
    .update(certificates)
    .set({ attestation: jws, attestationKid: key.kid, frontImageSha256: front, backImageSha256: back })
    .where(and(eq(certificates.number, row.number), isNull(certificates.attestation)));
  const [stored] = await deps.db
    .select({ attestation: certificates.attestation })
    .from(certificates)
    .where(eq(certificates.number, row.number));
  return stored?.attestation ?? jws;
}
