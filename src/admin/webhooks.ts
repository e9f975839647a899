// Webhooks for the operator: a client's webhook URL and signing secret (rotation with a 24 h grace),
// the delivery log with its attempts, and replays.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, asc, desc, eq, gte, lte, type SQL } from "drizzle-orm";
import { apiClients, type WebhookDeliveryRow, webhookAttempts, webhookDeliveries, webhookTargets } from "../db/schema";
import { type AppEnv, type Config, surfaceUnavailable } from "../env";
import { ApiError } from "../errors/api-error";
import { bodyErrorResponses, errorResponses, surfaceOffResponse } from "../errors/openapi";
import { invalidField } from "../errors/validation";
import { checkOutboundUrl, webhookUrlPolicy } from "../net/url-policy";
import { enqueueDeliveries } from "../webhooks/outbox";
import { replayDeliveries } from "../webhooks/replay";
import { encryptSecret, generateSigningSecret, retireSecret } from "../webhooks/secret-box";
import { IdParams, isoDateTime, jsonBody } from "./schemas";

const security = [{ adminToken: [] }];
const MAX_LISTED = 100;

const ClientWebhookSchema = z
  .object({
    client_id: z.number().int().openapi({ example: 3 }),
    webhook_url: z.string().nullable().openapi({ example: "https://partner.example.com/hooks/svc" }),
    signing_secret: z.string().nullable().openapi({
      description: "Shown once, when the client gets its first secret or a rotation makes a new one; null otherwise.",
      example: "whsec_3f1c…",
    }),
    previous_secret_valid_until: z.string().nullable().openapi({
      description: "After a rotation: until then deliveries are signed with the new and the previous secret.",
      example: null,
    }),
  })
  .openapi("ClientWebhook");

const DeliverySchema = z
  .object({
    id: z.string().openapi({ description: "Also sent as `svc-delivery-id`.", example: "9b2f…" }),
    kind: z.enum(["public", "partner"]).openapi({ example: "public" }),
    client_id: z.number().int().nullable().openapi({ example: 3 }),
    user_id: z.number().int().nullable().openapi({ example: null }),
    target_id: z.number().int().nullable().openapi({ example: null }),
    grading_id: z.string().openapi({ example: "5f0c8a5e-3f7a-4d8e-9a51-0b6f1f7c2d11" }),
    event: z.string().openapi({ example: "grading.completed" }),
    url: z.string().openapi({ example: "https://partner.example.com/hooks/svc" }),
    status: z.enum(["pending", "delivered", "failed"]).openapi({ example: "delivered" }),
    attempts: z.number().int().openapi({ example: 3 }),
    last_status: z.number().int().nullable().openapi({ description: "HTTP status of the last attempt.", example: 200 }),
    last_error: z.string().nullable().openapi({ example: null }),
    next_attempt_at: z.string().nullable().openapi({ example: null }),
    created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
    delivered_at: z.string().nullable().openapi({ example: "2026-11-22T10:00:06.120Z" }),
  })
  .openapi("WebhookDelivery");

const AttemptSchema = z
  .object({
    attempt: z.number().int().openapi({ example: 1 }),
    started_at: z.string().openapi({ example: "2026-11-22T10:00:00.410Z" }),
    status: z.number().int().nullable().openapi({ description: "Null: no answer (timeout, network).", example: 500 }),
    latency_ms: z.number().int().openapi({ example: 12 }),
    error: z.string().nullable().openapi({ example: "HTTP 500" }),
  })
  .openapi("WebhookAttempt");

const iso = isoDateTime;

const setWebhookRoute = createRoute({
  method: "put",
  path: "/clients/{id}/webhook",
  operationId: "setClientWebhook",
  tags: ["Operator"],
  summary: "Set, change or remove a client's webhook URL",
  description:
    'The URL passes the same rules as partner webhook targets. A client without a signing secret gets one now (shown once). `{ "url": null }` removes the webhook.',
  security,
  request: {
    params: IdParams,
    ...jsonBody(
      z
        .object({
          url: z.string().min(1).max(2048).nullable().openapi({ example: "https://partner.example.com/hooks/svc" }),
        })
        .strict()
        .openapi("SetClientWebhook"),
    ),
  },
  responses: {
    200: { description: "The client's webhook.", content: { "application/json": { schema: ClientWebhookSchema } } },
    ...errorResponses,
    ...bodyErrorResponses,
    ...surfaceOffResponse,
  },
});

const rotateSecretRoute = createRoute({
  method: "post",
  path: "/clients/{id}/webhook-secret/rotate",
  operationId: "rotateClientWebhookSecret",
  tags: ["Operator"],
  summary: "Rotate a client's signing secret (the new one is shown once)",
  description:
    "For 24 hours after a rotation the secret it replaced keeps signing: deliveries carry one signature per live secret in `svc-signature`, space-separated (the new one first), so the receiver can switch at its own pace. Rotating again within the 24 h keeps every earlier secret until its own 24 h end (at most 5 retired secrets; the oldest drops out first).",
  security,
  request: { params: IdParams },
  responses: {
    200: { description: "The new secret.", content: { "application/json": { schema: ClientWebhookSchema } } },
    ...errorResponses,
  },
});

const listDeliveriesRoute = createRoute({
  method: "get",
  path: "/webhook-deliveries",
  operationId: "listWebhookDeliveries",
  tags: ["Operator"],
  summary: "List webhook deliveries, newest first",
  security,
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

const DeliveryIdParams = z.object({
  id: z
    .string()
    .uuid()
    .openapi({ param: { name: "id", in: "path" }, example: "9b2f5c1e-0d7a-4c1b-8f3e-2a6b7c8d9e0f" }),
});

const getDeliveryRoute = createRoute({
  method: "get",
  path: "/webhook-deliveries/{id}",
  operationId: "getWebhookDelivery",
  tags: ["Operator"],
  summary: "One delivery with every attempt",
  security,
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

const replayDeliveryRoute = createRoute({
  method: "post",
  path: "/webhook-deliveries/{id}/replay",
  operationId: "replayWebhookDelivery",
  tags: ["Operator"],
  summary: "Send a delivery again (a new chain of attempts, to the current URL)",
  security,
  request: { params: DeliveryIdParams },
  responses: {
    202: { description: "Queued again.", content: { "application/json": { schema: DeliverySchema } } },
    ...errorResponses,
  },
});

const replayClientRoute = createRoute({
  method: "post",
  path: "/clients/{id}/webhook-deliveries/replay",
  operationId: "replayClientWebhookDeliveries",
  tags: ["Operator"],
  summary: "Send again every failed delivery of a client since a time",
  security,
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

export function serializeDelivery(row: WebhookDeliveryRow) {
  return {
    id: row.id,
    kind: row.kind,
    client_id: row.clientId,
    user_id: row.userId,
    target_id: row.targetId,
    grading_id: row.gradingId,
    event: row.event,
    url: row.url,
    status: row.status,
    attempts: row.attempts,
    last_status: row.lastStatus,
    last_error: row.lastError,
    next_attempt_at: row.nextAttemptAt,
    created_at: row.createdAt,
    delivered_at: row.deliveredAt,
  };
}

function secretsKey(config: Config): string {
  if (!config.SECRETS_KEY) throw surfaceUnavailable("webhook secrets");
  return config.SECRETS_KEY;
}

export function registerWebhookRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(setWebhookRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { url } = c.req.valid("json");
    const config = c.var.config;
    if (url !== null) {
      const verdict = checkOutboundUrl(url, webhookUrlPolicy(config));
      if (!verdict.ok) {
        throw invalidField("json.url", verdict.reason);
      }
    }
    const [client] = await c.var.db
      .select({ secret: apiClients.webhookSecretEncrypted })
      .from(apiClients)
      .where(eq(apiClients.id, id))
      .limit(1);
    if (!client) throw new ApiError("not_found", `No client ${id}.`);
    const newSecret = url !== null && !client.secret ? generateSigningSecret() : null;
    await c.var.db
      .update(apiClients)
      .set({
        webhookUrl: url,
        ...(newSecret ? { webhookSecretEncrypted: await encryptSecret(secretsKey(config), newSecret) } : {}),
      })
      .where(eq(apiClients.id, id));
    return c.json(
      { client_id: id, webhook_url: url, signing_secret: newSecret, previous_secret_valid_until: null },
      200,
    );
  });

  app.openapi(rotateSecretRoute, async (c) => {
    const { id } = c.req.valid("param");
    const [client] = await c.var.db
      .select({
        url: apiClients.webhookUrl,
        secret: apiClients.webhookSecretEncrypted,
        retired: apiClients.webhookSecretsRetired,
      })
      .from(apiClients)
      .where(eq(apiClients.id, id))
      .limit(1);
    if (!client) throw new ApiError("not_found", `No client ${id}.`);
    const secret = generateSigningSecret();
    const { retired, validUntil } = retireSecret(client.secret, client.retired, Date.now());
    await c.var.db
      .update(apiClients)
      .set({
        webhookSecretEncrypted: await encryptSecret(secretsKey(c.var.config), secret),
        webhookSecretsRetired: retired,
      })
      .where(eq(apiClients.id, id));
    return c.json(
      {
        client_id: id,
        webhook_url: client.url,
        signing_secret: secret,
        previous_secret_valid_until: client.secret ? validUntil : null,
      },
      200,
    );
  });

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

  app.openapi(replayDeliveryRoute, async (c) => {
    const { id } = c.req.valid("param");
    const [row] = await c.var.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
    if (!row) throw new ApiError("not_found", `No delivery ${id}.`);
    const replayed = await replayDeliveries(c.env, c.var.db, [row]);
    return c.json(serializeDelivery(replayed[0] ?? row), 202);
  });

  app.openapi(replayClientRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { since } = c.req.valid("json");
    const [client] = await c.var.db
      .select({ id: apiClients.id })
      .from(apiClients)
      .where(eq(apiClients.id, id))
      .limit(1);
    if (!client) throw new ApiError("not_found", `No client ${id}.`);
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
