// GET /.well-known/jwks.json: the public keys that sign certificate attestations, current and
// retired (a certificate stays verifiable after its key is retired). No key needed; cacheable for
// five minutes, so a rotation is visible to verifiers within that time. Certificates are signed
// with the current key only, so a verifier that cached an older JWKS can refetch on an unknown kid.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { publishedKeys } from "../attestation/keys";
import type { AppEnv } from "../env";

export const JWKS_MAX_AGE_SECONDS = 300;

const JwkSchema = z
  .object({
    kty: z.literal("OKP").openapi({ example: "OKP" }),
    crv: z.literal("Ed25519").openapi({ example: "Ed25519" }),
    x: z
      .string()
      .openapi({ description: "The public key, base64url.", example: "KIgQXenRyfhvJ3mcGVmmEuD0VIbyqCzn0TuiLPHJhB0" }),
    kid: z.string().openapi({
      description: "The key's RFC 7638 thumbprint; the attestation's header names it.",
      example: "3mDbZrLKtyT7fZ9Vq0tTq1y2GmUXhxLq2lJ1s0pQwzY",
    }),
    alg: z.literal("EdDSA").openapi({ example: "EdDSA" }),
    use: z.literal("sig").openapi({ example: "sig" }),
    status: z.enum(["current", "retired"]).openapi({
      description: "Additive member: `current` signs new certificates; `retired` keys still verify older ones.",
      example: "current",
    }),
  })
  .openapi("AttestationJwk");

const jwksRoute = createRoute({
  method: "get",
  path: "/.well-known/jwks.json",
  operationId: "getJwks",
  tags: ["Verification"],
  summary: "Public keys of certificate attestations (JWKS)",
  description:
    "Every Ed25519 key that has signed certificate attestations, current first then retired ones newest first. No key needed. `Cache-Control: public, max-age=300`.",
  security: [],
  responses: {
    200: {
      description: "The JWK Set.",
      headers: { "Cache-Control": { description: "`public, max-age=300`.", schema: { type: "string" } } },
      content: {
        "application/json": {
          schema: z
            .object({
              keys: z.array(JwkSchema).openapi({
                description:
                  "The keys: the current one first, then retired ones (they still verify older certificates).",
              }),
            })
            .openapi("Jwks"),
        },
      },
    },
  },
});

export function registerJwks(app: OpenAPIHono<AppEnv>) {
  app.openapi(jwksRoute, async (c) => {
    const rows = await publishedKeys(c.var.config, c.var.db);
    const keys = rows.map((row) => ({
      kty: "OKP" as const,
      crv: "Ed25519" as const,
      x: row.publicJwk.x,
      kid: row.kid,
      alg: "EdDSA" as const,
      use: "sig" as const,
      status: row.status,
    }));
    c.header("Cache-Control", `public, max-age=${JWKS_MAX_AGE_SECONDS}`);
    return c.json({ keys }, 200);
  });
}
