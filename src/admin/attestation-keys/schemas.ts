// Schemas shared by the operator API's attestation-keys routes.
import { z } from "@hono/zod-openapi";

export const KeySchema = z
  .object({
    kid: z.string().openapi({ example: "3mDbZrLKtyT7fZ9Vq0tTq1y2GmUXhxLq2lJ1s0pQwzY" }),
    status: z.enum(["current", "retired"]).openapi({ example: "current" }),
    public_jwk: z
      .object({ kty: z.string(), crv: z.string(), x: z.string() })
      .openapi({ description: "The public key only." }),
    source: z.enum(["secret", "rotation"]).openapi({
      description: "`secret`: the ATTESTATION_SIGNING_KEY secret; `rotation`: made by a rotation here.",
      example: "rotation",
    }),
    created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
    retired_at: z.string().nullable().openapi({ example: null }),
  })
  .openapi("AdminAttestationKey");
