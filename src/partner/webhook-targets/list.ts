import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { asc, eq } from "drizzle-orm";
import { webhookTargets } from "../../db/schema";
import type { AppEnv } from "../../env";
import { errorResponses, quotaHeaders } from "../../errors/openapi";
import { MAX_TARGETS_PER_USER, WebhookTargetSchema } from "./schemas";

export const listWebhookTargetsRoute = createRoute({
  method: "get",
  path: "/webhook-targets",
  operationId: "listWebhookTargets",
  tags: ["Webhook targets"],
  summary: "List the user's webhook targets",
  description: `Every webhook target the key's user has registered (at most ${MAX_TARGETS_PER_USER} a user), oldest first, with snake_case fields where the create response has camelCase ones.`,
  security: [{ partnerKey: [] }],
  responses: {
    200: {
      description: "All targets of the key's user (at most 10), oldest first, with snake_case fields.",
      headers: quotaHeaders,
      content: {
        "application/json": {
          schema: z
            .object({
              webhook_targets: z
                .array(WebhookTargetSchema)
                .openapi({ description: "The user's targets, oldest first." }),
            })
            .openapi("WebhookTargetList"),
        },
      },
    },
    ...errorResponses,
  },
});

export function registerListWebhookTargets(app: OpenAPIHono<AppEnv>) {
  app.openapi(listWebhookTargetsRoute, async (c) => {
    const rows = await c.var.db
      .select()
      .from(webhookTargets)
      .where(eq(webhookTargets.userId, c.var.partner.userId))
      .orderBy(asc(webhookTargets.id));
    return c.json(
      {
        webhook_targets: rows.map((row) => ({
          id: row.id,
          outcome: row.outcome,
          url: row.url,
          created_at: row.createdAt,
        })),
      },
      200,
    );
  });
}
