// The keys that sign certificate attestations: list them, and rotate to a new one. Rotation makes a
// new Ed25519 key current (its private JWK kept encrypted with SECRETS_KEY); the previous key is
// retired and stays in the JWKS so the certificates it signed still verify. No response carries a
// private key.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { desc } from "drizzle-orm";
import { rotateSigningKey } from "../attestation/keys";
import { attestationKeys } from "../db/schema";
import type { AppEnv } from "../env";
import { errorResponses } from "../errors/openapi";

const security = [{ adminToken: [] }];

const KeySchema = z
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

const listKeysRoute = createRoute({
  method: "get",
  path: "/attestation-keys",
  tags: ["Operator"],
  summary: "List attestation signing keys (public halves)",
  security,
  responses: {
    200: {
      description: "Every key, newest first.",
      content: { "application/json": { schema: z.object({ keys: z.array(KeySchema) }) } },
    },
    ...errorResponses,
  },
});

const rotateKeyRoute = createRoute({
  method: "post",
  path: "/attestation-keys/rotate",
  tags: ["Operator"],
  summary: "Rotate the attestation signing key",
  description:
    "A new Ed25519 key signs every certificate issued from now on; the previous one is retired and stays published at /.well-known/jwks.json. Needs SECRETS_KEY (400 without it).",
  security,
  responses: {
    201: {
      description: "The new current key and the kid it retired.",
      content: {
        "application/json": {
          schema: z
            .object({
              kid: z.string(),
              public_jwk: z.object({ kty: z.string(), crv: z.string(), x: z.string() }),
              created_at: z.string(),
              retired_kid: z.string().nullable().openapi({ description: "Null when no key was current." }),
            })
            .openapi("RotatedAttestationKey"),
        },
      },
    },
    ...errorResponses,
  },
});

export function registerAttestationKeyRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(listKeysRoute, async (c) => {
    const rows = await c.var.db.select().from(attestationKeys).orderBy(desc(attestationKeys.createdAt));
    const keys = rows.map((row) => ({
      kid: row.kid,
      status: row.status,
      public_jwk: { kty: row.publicJwk.kty, crv: row.publicJwk.crv, x: row.publicJwk.x },
      source: row.privateJwkEncrypted === null ? ("secret" as const) : ("rotation" as const),
      created_at: row.createdAt,
      retired_at: row.retiredAt,
    }));
    return c.json({ keys }, 200);
  });

  app.openapi(rotateKeyRoute, async (c) => {
    const rotated = await rotateSigningKey(c.var.config, c.var.db);
    return c.json(rotated, 201);
  });
}
