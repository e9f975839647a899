// Offline verification of a certificate attestation: the compact JWS and the JWK Set are all it
// needs (no request to the service), with `jose`. Used by `npm run admin -- verify` and by the
// tests, so the README's example is the code that runs.
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from "jose";
import { digestHex } from "../../src/attestation/digest.ts";

/** The certificate inside an attestation's payload (the fields a verifier checks). */
export interface AttestedCertificate {
  number: string;
  url: string;
  issued_at: string;
  grade: { overall: number; centering: number; corners: number; edges: number; surface: number };
  images: { front: { sha256: string }; back: { sha256: string } };
  [field: string]: unknown;
}

export interface Verified {
  kid: string;
  issuer: string;
  certificate: AttestedCertificate;
  /** Each image given, and whether its SHA-256 is the attested one. */
  images: { face: "front" | "back"; sha256: string; matches: boolean }[];
}

/**
 * Verifies `jws` against `jwks` (EdDSA only; the key named by its `kid`), checks that its subject
 * is the certificate it carries, and compares any images given with the attested digests.
 * Throws (jose's errors) when the signature, the algorithm or the key does not verify.
 */
export async function verifyAttestation(
  jws: string,
  jwks: JSONWebKeySet,
  images: { front?: Uint8Array; back?: Uint8Array } = {},
): Promise<Verified> {
  const { payload } = await jwtVerify(jws.trim(), createLocalJWKSet(jwks), {
    algorithms: ["EdDSA"],
    typ: "svc-certificate+jwt",
  });
  const certificate = payload.certificate as AttestedCertificate | undefined;
  if (!certificate || payload.sub !== certificate.number) {
    throw new Error("The attestation's subject is not the certificate it carries.");
  }
  const checks: Verified["images"] = [];
  for (const face of ["front", "back"] as const) {
    const bytes = images[face];
    if (!bytes) continue;
    const sha256 = await digestHex(bytes);
    checks.push({ face, sha256, matches: sha256 === certificate.images[face].sha256 });
  }
  return {
    kid: decodeProtectedHeader(jws.trim()).kid ?? "",
    issuer: payload.iss ?? "",
    certificate,
    images: checks,
  };
}
