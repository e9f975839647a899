// Schemas shared by the operator API's attestation-keys routes.
import { z } from "@hono/zod-openapi";

/** The public half of an Ed25519 key, as a JWK. */
export const PublicJwkSchema = z
  .object({
    kty: z.string().openapi({ description: "Key type.", example: "OKP" }),
    crv: z.string().openapi({ description: "Curve.", example: "Ed25519" }),
    x: z
      .string()
      .openapi({ description: "The public key, base64url.", example: "KIgQXenRyfhvJ3mcGVmmEuD0VIbyqCzn0TuiLPHJhB0" }),
  })
  .openapi({ description: "The public key only." });

export const KeySchema = z
  .object({
    kid: z.string().openapi({ example: "3mDbZrLKtyT7fZ9Vq0tTq1y2GmUXhxLq2lJ1s0pQwzY" }),
    status: z.enum(["current", "retired"]).openapi({ example: "current" }),
    public_jwk: PublicJwkSchema,
    source: z.enum(["secret", "rotation"]).openapi({
      description: "`secret`: the ATTESTATION_SIGNING_KEY secret; `rotation`: made by a rotation here.",
      example: "rotation",
    }),
    created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
    retired_at: z.string().nullable().openapi({ example: null }),
  })
  .openapi("AdminAttestationKey");
