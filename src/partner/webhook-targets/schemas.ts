import { z } from "@hono/zod-openapi";

export const OutcomeSchema = z.enum(["success", "failure"]).openapi({
  description: "Which grading outcome this target is notified of.",
  example: "success",
});

export const WebhookTargetSchema = z
  .object({
    id: z.number().int().openapi({ example: 12 }),
    outcome: OutcomeSchema,
    url: z.string().openapi({ example: "https://partner.example.com/hooks/grading-success" }),
    created_at: z.string().openapi({ example: "2026-11-20T14:03:11.482Z" }),
  })
  .openapi("WebhookTarget");

/** The create response uses camelCase, exactly as the Partner API document says. */
export const CreatedWebhookTargetSchema = z
  .object({
    id: z.number().int().openapi({ example: 12 }),
    userId: z.number().int().openapi({ description: "The user the target belongs to (the key's user).", example: 1 }),
    outcome: OutcomeSchema,
    url: z.string().openapi({ example: "https://partner.example.com/hooks/grading-success" }),
    createdAt: z.string().openapi({ example: "2026-11-20T14:03:11.482Z" }),
  })
  .openapi("CreatedWebhookTarget");

export const CreateWebhookTargetBody = z
  .object({
    outcome: OutcomeSchema,
    url: z.string().min(1).max(2048).openapi({
      description:
        "Where to POST notifications. Must be `https://` and must not name localhost or a private, loopback, link-local or reserved IP address.",
      example: "https://partner.example.com/hooks/grading-success",
    }),
  })
  .strict()
  .openapi("CreateWebhookTarget");

export const TargetIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "must be a positive integer")
    .transform(Number)
    .openapi({ param: { name: "id", in: "path" }, type: "integer", description: "Webhook target id.", example: 12 }),
});

export const MAX_TARGETS_PER_USER = 10;
