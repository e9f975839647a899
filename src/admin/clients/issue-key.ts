// POST /clients/{id}/keys: another public API key, shown once.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { generatePublicKey, PUBLIC_KEY_START_LENGTH, sha256Hex } from "../../auth/api-keys";
import { apiKeys } from "../../db/schema";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../errors/openapi";
import { adminSecurity, IdParams, IssuedKeySchema } from "../schemas";
import { requireClient } from "./require-client";

export const issueClientKeyRoute = createRoute({
  method: "post",
  path: "/clients/{id}/keys",
  operationId: "issueClientKey",
  tags: ["Operator"],
  summary: "Issue a public API key for a client (shown once)",
  description:
    "A further key for the client, alongside its live ones (for rotating without downtime). The whole key is in this response only; the service keeps its SHA-256 digest and its first characters (`start`).",
  security: adminSecurity,
  request: { params: IdParams },
  responses: {
    201: { description: "The new key.", content: { "application/json": { schema: IssuedKeySchema } } },
    ...errorResponses,
  },
});

export function registerIssueClientKey(app: OpenAPIHono<AppEnv>) {
  app.openapi(issueClientKeyRoute, async (c) => {
    const { id } = c.req.valid("param");
    await requireClient(c.var.db, id);
    const { key, keyId } = generatePublicKey();
    const [row] = await c.var.db
      .insert(apiKeys)
      .values({
        clientId: id,
        keyId,
        keyHash: await sha256Hex(key),
        start: key.slice(0, PUBLIC_KEY_START_LENGTH),
        createdAt: new Date().toISOString(),
      })
      .returning();
    if (!row) throw new Error("key insert returned nothing");
    return c.json({ id: row.id, name: null, start: row.start, key, created_at: row.createdAt }, 201);
  });
}
