// POST /clients/{id}/webhook-deliveries/replay: a client's failed deliveries since a time
// (src/webhooks/replay.ts).
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, eq, gte } from "drizzle-orm";
import { webhookDeliveries } from "../../db/schema";
import type { AppEnv } from "../../env";
import { bodyErrorResponses, errorResponses } from "../../errors/openapi";
import { replayDeliveries } from "../../webhooks/replay";
import { requireClient } from "../clients/require-client";
import { adminSecurity, IdParams, jsonBody } from "../schemas";
import { iso } from "./schemas";

export const replayClientRoute = createRoute({
  method: "post",
  path: "/clients/{id}/webhook-deliveries/replay",
  operationId: "replayClientWebhookDeliveries",
  tags: ["Operator"],
  summary: "Send again every failed delivery of a client since a time",
  description:
    "Every `failed` delivery of the client created at or after `since` goes back to `pending` under its own id (receivers deduplicate on `svc-delivery-id`), pointed at the client's current webhook URL, and is queued at once, at most 1,000 a call. Deliveries still pending or delivered are left alone. An unknown client is 404 `not_found`.",
  security: adminSecurity,
  request: {
    params: IdParams,
    ...jsonBody(
      z
        .object({ since: iso.openapi({ example: "2026-11-22T00:00:00Z" }) })
        .strict()
        .openapi("ReplaySince"),
    ),
  },
  responses: {
    202: {
      description: "How many were queued again.",
      content: {
        "application/json": {
          schema: z.object({ replayed: z.number().int().openapi({ example: 4 }) }).openapi("ReplayCount"),
        },
      },
    },
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

export function registerReplayClientDeliveries(app: OpenAPIHono<AppEnv>) {
  app.openapi(replayClientRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { since } = c.req.valid("json");
    await requireClient(c.var.db, id);
    const rows = await c.var.db
      .select()
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.clientId, id),
          eq(webhookDeliveries.status, "failed"),
          gte(webhookDeliveries.createdAt, since),
        ),
      )
      .limit(1000);
    const replayed = await replayDeliveries(c.env, c.var.db, rows);
    return c.json({ replayed: replayed.length }, 202);
  });
}
