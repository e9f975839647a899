// POST /api-keys/{id}/revoke: a public API key.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import { apiKeys } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponses } from "../../errors/openapi";
import { adminSecurity, IdParams, RevokedSchema } from "../schemas";

export const revokeClientKeyRoute = createRoute({
  method: "post",
  path: "/api-keys/{id}/revoke",
  operationId: "revokeClientKey",
  tags: ["Operator"],
  summary: "Revoke a public API key (effective within KEY_CACHE_TTL_SECONDS)",
  description:
    "The key is refused from then on; an edge location that checked it in the last `KEY_CACHE_TTL_SECONDS` (30 by default) may still accept it until its cached check expires. A key already revoked, or unknown, is 404 `not_found`.",
  security: adminSecurity,
  request: { params: IdParams },
  responses: {
    200: { description: "Revoked.", content: { "application/json": { schema: RevokedSchema } } },
    ...errorResponses,
  },
});

export function registerRevokeClientKey(app: OpenAPIHono<AppEnv>) {
  app.openapi(revokeClientKeyRoute, async (c) => {
    const { id } = c.req.valid("param");
    const revokedAt = new Date().toISOString();
    const [row] = await c.var.db
      .update(apiKeys)
      .set({ revokedAt })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    if (!row) throw new ApiError("not_found", `No live API key ${id}.`);
    return c.json({ id: row.id, revoked_at: revokedAt }, 200);
  });
}
