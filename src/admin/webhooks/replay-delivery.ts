// POST /webhook-deliveries/{id}/replay (src/webhooks/replay.ts).
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { webhookDeliveries } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponses } from "../../errors/openapi";
import { replayDeliveries } from "../../webhooks/replay";
import { adminSecurity } from "../schemas";
import { DeliveryIdParams, DeliverySchema, serializeDelivery } from "./schemas";

export const replayDeliveryRoute = createRoute({
  method: "post",
  path: "/webhook-deliveries/{id}/replay",
  operationId: "replayWebhookDelivery",
  tags: ["Operator"],
  summary: "Send a delivery again (a new chain of attempts, to the current URL)",
  description:
    "The delivery goes back to `pending` under its own id (receivers deduplicate on its `svc-delivery-id` header), pointed at the client's or target's current URL, and is queued at once for a new chain of attempts. Any delivery may be replayed, delivered or failed. An unknown id is 404 `not_found`.",
  security: adminSecurity,
  request: { params: DeliveryIdParams },
  responses: {
    202: { description: "Queued again.", content: { "application/json": { schema: DeliverySchema } } },
    ...errorResponses,
  },
});

export function registerReplayDelivery(app: OpenAPIHono<AppEnv>) {
  app.openapi(replayDeliveryRoute, async (c) => {
    const { id } = c.req.valid("param");
    const [row] = await c.var.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
    if (!row) throw new ApiError("not_found", `No delivery ${id}.`);
    const replayed = await replayDeliveries(c.env, c.var.db, [row]);
    return c.json(serializeDelivery(replayed[0] ?? row), 202);
  });
}
