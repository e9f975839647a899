// POST /partner-keys/{id}/revoke.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import { partnerApiKeys } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponses } from "../../errors/openapi";
import { adminSecurity, IdParams, RevokedSchema } from "../schemas";

export const revokePartnerKeyRoute = createRoute({
  method: "post",
  path: "/partner-keys/{id}/revoke",
  operationId: "revokePartnerKey",
  tags: ["Operator"],
  summary: "Revoke a partner API key (effective within KEY_CACHE_TTL_SECONDS)",
  description:
    "The key is refused (401) from then on; an edge location that checked it in the last `KEY_CACHE_TTL_SECONDS` (30 by default) may still accept it until its cached check expires. A key already revoked, or unknown, is 404 `not_found`.",
  security: adminSecurity,
  request: { params: IdParams },
  responses: {
    200: { description: "Revoked.", content: { "application/json": { schema: RevokedSchema } } },
    ...errorResponses,
  },
});

export function registerRevokePartnerKey(app: OpenAPIHono<AppEnv>) {
  app.openapi(revokePartnerKeyRoute, async (c) => {
    const { id } = c.req.valid("param");
    const revokedAt = new Date().toISOString();
    const [row] = await c.var.db
      .update(partnerApiKeys)
      .set({ revokedAt })
      .where(and(eq(partnerApiKeys.id, id), isNull(partnerApiKeys.revokedAt)))
      .returning({ id: partnerApiKeys.id, revokedAt: partnerApiKeys.revokedAt });
    if (!row) throw new ApiError("not_found", `No live partner key ${id}.`);
    return c.json({ id: row.id, revoked_at: revokedAt }, 200);
  });
}
