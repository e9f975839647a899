// POST /attestation-keys/rotate: a new current key; the previous one is retired and stays in the JWKS.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { rotateSigningKey } from "../../attestation/keys";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../errors/openapi";
import { adminSecurity } from "../schemas";
import { PublicJwkSchema } from "./schemas";

export const rotateKeyRoute = createRoute({
  method: "post",
  path: "/attestation-keys/rotate",
  operationId: "rotateAttestationKey",
  tags: ["Operator"],
  summary: "Rotate the attestation signing key",
  description:
    "A new Ed25519 key signs every certificate issued from now on; the previous one is retired and stays published at /.well-known/jwks.json. Needs SECRETS_KEY (400 without it).",
  security: adminSecurity,
  responses: {
    201: {
      description: "The new current key and the kid it retired.",
      content: {
        "application/json": {
          schema: z
            .object({
              kid: z.string().openapi({
                description: "The new current key's RFC 7638 thumbprint.",
                example: "3mDbZrLKtyT7fZ9Vq0tTq1y2GmUXhxLq2lJ1s0pQwzY",
              }),
              public_jwk: PublicJwkSchema,
              created_at: z
                .string()
                .openapi({ description: "When the key was made.", example: "2026-11-22T10:00:00.000Z" }),
              retired_kid: z.string().nullable().openapi({ description: "Null when no key was current." }),
            })
            .openapi("RotatedAttestationKey"),
        },
      },
    },
    ...errorResponses,
  },
});

export function registerRotateAttestationKey(app: OpenAPIHono<AppEnv>) {
  app.openapi(rotateKeyRoute, async (c) => {
    const rotated = await rotateSigningKey(c.var.config, c.var.db);
    return c.json(rotated, 201);
  });
}
