// GET /webhook-deliveries: the delivery log, newest first, filtered.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, desc, eq, gte, lte, type SQL } from "drizzle-orm";
import { webhookDeliveries } from "../../db/schema";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../errors/openapi";
import { adminSecurity } from "../schemas";
import { DeliverySchema, iso, serializeDelivery } from "./schemas";

const MAX_LISTED = 100;

export const listDeliveriesRoute = createRoute({
  method: "get",
  path: "/webhook-deliveries",
  operationId: "listWebhookDeliveries",
  tags: ["Operator"],
  summary: "List webhook deliveries, newest first",
  description:
    "The webhook delivery log of both APIs, newest first, filtered by status, client, user, event, grading and creation time (each filter optional, all of them applied together), at most `limit` deliveries.",
  security: adminSecurity,
  request: {
    query: z.object({
      status: z.enum(["pending", "delivered", "failed"]).optional().openapi({ example: "failed" }),
      client_id: z.coerce.number().int().positive().optional().openapi({ example: 3 }),
      user_id: z.coerce.number().int().positive().optional().openapi({ example: 1 }),
      event: z
        .enum(["grading.completed", "grading.failed", "grading_session.success", "grading_session.failure"])
        .optional()
        .openapi({ example: "grading.completed" }),
      grading_id: z.string().uuid().optional().openapi({ example: "5f0c8a5e-3f7a-4d8e-9a51-0b6f1f7c2d11" }),
      since: iso.optional().openapi({ description: "Created at or after.", example: "2026-11-22T00:00:00Z" }),
      until: iso.optional().openapi({ description: "Created at or before.", example: "2026-11-23T00:00:00Z" }),
      limit: z.coerce.number().int().min(1).max(MAX_LISTED).default(50).openapi({ example: 50 }),
    }),
  },
  responses: {
    200: {
      description: "The deliveries.",
      content: {
        "application/json": {
          schema: z
            .object({ deliveries: z.array(DeliverySchema).openapi({ description: "Newest first." }) })
            .openapi("WebhookDeliveryList"),
        },
      },
    },
    ...errorResponses,
  },
});

export function registerListDeliveries(app: OpenAPIHono<AppEnv>) {
  app.openapi(listDeliveriesRoute, async (c) => {
    const query = c.req.valid("query");
    const filters: SQL[] = [];
    if (query.status) filters.push(eq(webhookDeliveries.status, query.status));
    if (query.client_id) filters.push(eq(webhookDeliveries.clientId, query.client_id));
    if (query.user_id) filters.push(eq(webhookDeliveries.userId, query.user_id));
    if (query.event) filters.push(eq(webhookDeliveries.event, query.event));
    if (query.grading_id) filters.push(eq(webhookDeliveries.gradingId, query.grading_id));
    if (query.since) filters.push(gte(webhookDeliveries.createdAt, query.since));
    if (query.until) filters.push(lte(webhookDeliveries.createdAt, query.until));
    const rows = await c.var.db
      .select()
      .from(webhookDeliveries)
      .where(and(...filters))
      .orderBy(desc(webhookDeliveries.createdAt))
      .limit(query.limit);
    return c.json({ deliveries: rows.map(serializeDelivery) }, 200);
  });
}
