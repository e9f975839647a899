// GET /webhook-deliveries/{id}: one delivery with every attempt.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { asc, eq } from "drizzle-orm";
import { webhookAttempts, webhookDeliveries } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponses } from "../../errors/openapi";
import { adminSecurity } from "../schemas";
import { AttemptSchema, DeliveryIdParams, DeliverySchema, serializeDelivery } from "./schemas";

export const getDeliveryRoute = createRoute({
  method: "get",
  path: "/webhook-deliveries/{id}",
  operationId: "getWebhookDelivery",
  tags: ["Operator"],
  summary: "One delivery with every attempt",
  description:
    "The delivery (its event, target URL, status and next attempt) and every attempt made, oldest first, with each attempt's HTTP status or network error and its duration. An unknown id is 404 `not_found`.",
  security: adminSecurity,
  request: { params: DeliveryIdParams },
  responses: {
    200: {
      description: "The delivery and its attempts, oldest first.",
      content: {
        "application/json": {
          schema: z
            .object({
              delivery: DeliverySchema,
              attempts: z.array(AttemptSchema).openapi({ description: "Every attempt, oldest first." }),
            })
            .openapi("WebhookDeliveryDetail"),
        },
      },
    },
    ...errorResponses,
  },
});

export function registerGetDelivery(app: OpenAPIHono<AppEnv>) {
  app.openapi(getDeliveryRoute, async (c) => {
    const { id } = c.req.valid("param");
    const [delivery, attempts] = await c.var.db.batch([
      c.var.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1),
      c.var.db
        .select()
        .from(webhookAttempts)
        .where(eq(webhookAttempts.deliveryId, id))
        .orderBy(asc(webhookAttempts.attempt)),
    ]);
    const row = delivery[0];
    if (!row) throw new ApiError("not_found", `No delivery ${id}.`);
    return c.json(
      {
        delivery: serializeDelivery(row),
        attempts: attempts.map((a) => ({
          attempt: a.attempt,
          started_at: a.startedAt,
          status: a.status,
          latency_ms: a.latencyMs,
          error: a.error,
        })),
      },
      200,
    );
  });
}
