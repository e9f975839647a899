// Schemas and serializers shared by the operator API's webhooks routes.
import { z } from "@hono/zod-openapi";
import type { WebhookDeliveryRow } from "../../db/schema";
import { isoDateTime } from "../schemas";

export const ClientWebhookSchema = z
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

export const DeliverySchema = z
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

export const AttemptSchema = z
  .object({
    attempt: z.number().int().openapi({ example: 1 }),
    started_at: z.string().openapi({ example: "2026-11-22T10:00:00.410Z" }),
    status: z.number().int().nullable().openapi({ description: "Null: no answer (timeout, network).", example: 500 }),
    latency_ms: z.number().int().openapi({ example: 12 }),
    error: z.string().nullable().openapi({ example: "HTTP 500" }),
  })
  .openapi("WebhookAttempt");

export const iso = isoDateTime;

export const DeliveryIdParams = z.object({
  id: z
    .string()
    .uuid()
    .openapi({ param: { name: "id", in: "path" }, example: "9b2f5c1e-0d7a-4c1b-8f3e-2a6b7c8d9e0f" }),
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
