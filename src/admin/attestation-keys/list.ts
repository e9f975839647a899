// GET /attestation-keys: current and retired keys (public halves only).
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { desc } from "drizzle-orm";
import { attestationKeys } from "../../db/schema";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../errors/openapi";
import { adminSecurity } from "../schemas";
import { KeySchema } from "./schemas";

export const listKeysRoute = createRoute({
  method: "get",
  path: "/attestation-keys",
  operationId: "listAttestationKeys",
  tags: ["Operator"],
  summary: "List attestation signing keys (public halves)",
  description:
    "Every Ed25519 key that has signed certificate attestations, current and retired, with its public JWK (never the private half) and where it came from: the `ATTESTATION_SIGNING_KEY` secret or a rotation. `/.well-known/jwks.json` serves the same public keys to verifiers.",
  security: adminSecurity,
  responses: {
    200: {
      description: "Every key, newest first.",
      content: { "application/json": { schema: z.object({ keys: z.array(KeySchema) }) } },
    },
    ...errorResponses,
  },
});

export function registerListAttestationKeys(app: OpenAPIHono<AppEnv>) {
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
}
