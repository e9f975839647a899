import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import { webhookTargets } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponses, quotaHeaders } from "../../errors/openapi";
import { TargetIdParams } from "./schemas";

export const deleteWebhookTargetRoute = createRoute({
  method: "delete",
  path: "/webhook-targets/{id}",
  operationId: "deleteWebhookTarget",
  tags: ["Webhook targets"],
  summary: "Remove a webhook target",
  description: "Removes the target; 404 when it does not exist or belongs to another user.",
  security: [{ partnerKey: [] }],
  request: { params: TargetIdParams },
  responses: {
    204: { description: "Removed; no body.", headers: quotaHeaders },
    ...errorResponses,
  },
});

export function registerDeleteWebhookTarget(app: OpenAPIHono<AppEnv>) {
  app.openapi(deleteWebhookTargetRoute, async (c) => {
    const { id } = c.req.valid("param");
    const deleted = await c.var.db
      .delete(webhookTargets)
      .where(and(eq(webhookTargets.id, id), eq(webhookTargets.userId, c.var.partner.userId)))
      .returning({ id: webhookTargets.id });
    if (deleted.length === 0) throw new ApiError("not_found", `No webhook target ${id} in this account.`);
    return c.body(null, 204);
  });
}
