// The public events, described in the public OpenAPI document's `webhooks` section (OpenAPI 3.1):
// what the service POSTs to a client's webhook URL when a submission settles.
import { type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";

const signatureHeaders = z.object({
  "svc-event": z.enum(["grading.completed", "grading.failed"]).openapi({ example: "grading.completed" }),
  "svc-timestamp": z.string().openapi({ description: "Unix time in seconds of this attempt.", example: "1795334400" }),
  "svc-signature": z.string().openapi({
    description:
      '`sha256=<hex HMAC-SHA256 of "<svc-timestamp>.<raw body>">` keyed with the signing secret. For 24 h after a rotation, one signature per live secret (the current one first), separated by a space; accept the delivery when one matches.',
    example: "sha256=ae2cdc6c35010970d598c08865cafa0eaf4a575a4d9391c3321b999362abc32e",
  }),
  "svc-delivery-id": z.string().openapi({
    description: "The same on every retry and replay of this delivery: dedupe on it.",
    example: "41565504-f5eb-4be1-801e-25b10360dfec",
  }),
});

const envelope = {
  api_version: z.literal("v1").openapi({ example: "v1" }),
  sent_at: z
    .string()
    .openapi({ description: "When this attempt was sent (ISO 8601).", example: "2026-11-22T10:00:01.015Z" }),
  external_ref: z.string().nullable().openapi({ description: "Echoed from the submission.", example: "order-1042" }),
};

const CompletedEvent = z
  .object({
    event: z.literal("grading.completed").openapi({ example: "grading.completed" }),
    ...envelope,
    data: z
      .object({
        grading_id: z.string().uuid().openapi({ example: "5f0c8a5e-3f7a-4d8e-9a51-0b6f1f7c2d11" }),
        status: z.literal("complete").openapi({ example: "complete" }),
        certificate: z.record(z.string(), z.unknown()).openapi({
          description:
            "The certificate without image URLs (they would expire): certificate_number, certificate_url, issued_at, grade, card, estimated_value.",
        }),
      })
      .openapi({ description: "The settled grading." }),
  })
  .openapi("GradingCompletedEvent");

const FailedEvent = z
  .object({
    event: z.literal("grading.failed").openapi({ example: "grading.failed" }),
    ...envelope,
    data: z
      .object({
        grading_id: z.string().uuid().openapi({ example: "5f0c8a5e-3f7a-4d8e-9a51-0b6f1f7c2d11" }),
        status: z.literal("rejected").openapi({ example: "rejected" }),
        reason: z
          .enum(["holder_detected", "face_check_failed", "grading_failed"])
          .openapi({ example: "holder_detected" }),
      })
      .openapi({ description: "The rejected submission." }),
  })
  .openapi("GradingFailedEvent");

const receiverResponses = {
  200: { description: "Any 2xx: delivered. Answer at once and work afterwards." },
  410: { description: "Gone: stop this delivery (no more retries)." },
  500: {
    description:
      "Any other answer, a redirect, no answer within 10 s or a network error: retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (±10 %), then failed.",
  },
};

export function registerPublicWebhooks(app: OpenAPIHono<AppEnv>) {
  for (const [name, schema, summary, operationId] of [
    ["grading.completed", CompletedEvent, "A submission was graded", "gradingCompletedEvent"],
    ["grading.failed", FailedEvent, "A submission was rejected", "gradingFailedEvent"],
  ] as const) {
    app.openAPIRegistry.registerWebhook({
      method: "post",
      path: name,
      operationId,
      tags: ["Webhooks"],
      // Sent by the service, not called with a key: the receiver checks svc-signature instead.
      security: [],
      summary,
      description:
        "POSTed to the client's webhook URL as soon as the submission settles. Verify `svc-signature` over the raw body and refuse timestamps more than 300 s away.",
      request: { headers: signatureHeaders, body: { content: { "application/json": { schema } } } },
      responses: receiverResponses,
    });
  }
}
