import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import { ensureAttestation } from "../../attestation/sign";
import { certificateCacheKey, readCertificate } from "../../cache/certificate-cache";
import { type CertificateRow, certificates } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponse, publicErrorResponses } from "../../errors/openapi";
import { AttestationSchema, CertificateNumberParams } from "./schemas";

export const getAttestationRoute = createRoute({
  method: "get",
  path: "/certificates/{number}/attestation",
  operationId: "getCertificateAttestation",
  tags: ["Certificates"],
  summary: "The certificate's signed attestation (compact JWS)",
  description:
    "A compact JWS (`alg` EdDSA over Ed25519, `kid` in the header, `typ` `svc-certificate+jwt`) whose payload is the certificate: number, issue time, grade and subgrades, centering offsets, card fields each marked `verified` (matched to a catalog reference) or `declared` (the submitter's hints), the engine and its version, the SHA-256 of the front and back images as stored, any `previous_certificates` of the same physical card, plus `iss`, `sub` (the number) and `iat`. Verify it offline with the public keys at `/.well-known/jwks.json`; it was signed when the certificate was issued, so it stays the same on every request. Revoked and unknown numbers answer 404 (a verifier learns about revocation from `/c/{number}/status`). Authentication and quota as for every Public API request.",
  security: [{ publicKey: [] }],
  request: { params: CertificateNumberParams },
  responses: {
    200: {
      description: "The compact JWS, as `application/jose`.",
      headers: { "Cache-Control": { description: "`public, max-age=3600`.", schema: { type: "string" } } },
      content: { "application/jose": { schema: AttestationSchema } },
    },
    ...publicErrorResponses,
    403: errorResponse(
      "`access_denied`: the service has no attestation signing key configured (the message names the secret).",
    ),
  },
});

export function registerGetAttestation(app: OpenAPIHono<AppEnv>) {
  app.openapi(getAttestationRoute, async (c) => {
    const { number } = c.req.valid("param");
    // The certificate cache holds the stored row, attestation included: a hit reads no database.
    let row = (await readCertificate<CertificateRow>(c.var.config, number))?.value;
    if (!row?.attestation) {
      const [fresh] = await c.var.db
        .select()
        .from(certificates)
        .where(and(eq(certificates.number, number), isNull(certificates.revokedAt)))
        .limit(1);
      if (!fresh) throw new ApiError("not_found", `No live certificate ${number}.`);
      row = fresh;
    }
    const hadAttestation = row.attestation !== null;
    const jws = await ensureAttestation(
      { env: c.env, config: c.var.config, db: c.var.db },
      row,
      new URL(c.req.url).origin,
    );
    if (!jws) throw new ApiError("not_found", `Certificate ${number} has no stored photos to attest.`);
    // A certificate signed just now was cached without its attestation: drop this data centre's
    // entry (elsewhere a cached row without one makes the request read the database, which has it).
    if (!hadAttestation) {
      c.executionCtx.waitUntil(caches.default.delete(certificateCacheKey(c.var.config, number, "api")));
    }
    return c.body(jws, 200, { "content-type": "application/jose", "cache-control": "public, max-age=3600" });
  });
}
