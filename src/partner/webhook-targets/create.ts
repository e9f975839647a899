import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { bodyErrorResponses, errorResponses, quotaHeaders } from "../../errors/openapi";
import { invalidField } from "../../errors/validation";
import { checkOutboundUrl, webhookUrlPolicy } from "../../net/url-policy";
import { CreatedWebhookTargetSchema, CreateWebhookTargetBody, MAX_TARGETS_PER_USER } from "./schemas";

export const createWebhookTargetRoute = createRoute({
  method: "post",
  path: "/webhook-targets",
  operationId: "createWebhookTarget",
  tags: ["Webhook targets"],
  summary: "Register a webhook target",
  description: `Registers a URL to notify when one of the user's gradings settles with the given outcome. At most ${MAX_TARGETS_PER_USER} targets per user. The response is the created row in camelCase, unlike the list.`,
  security: [{ partnerKey: [] }],
  request: {
    body: { required: true, content: { "application/json": { schema: CreateWebhookTargetBody } } },
  },
  responses: {
    201: {
      description: "The created target.",
      headers: quotaHeaders,
      content: { "application/json": { schema: CreatedWebhookTargetSchema } },
    },
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

interface InsertedTarget {
  id: number;
  user_id: number;
  outcome: "success" | "failure";
  url: string;
  created_at: string;
}

export function registerCreateWebhookTarget(app: OpenAPIHono<AppEnv>) {
  app.openapi(createWebhookTargetRoute, async (c) => {
    const body = c.req.valid("json");
    const config = c.var.config;
    const verdict = checkOutboundUrl(body.url, webhookUrlPolicy(config));
    if (!verdict.ok) {
      throw invalidField("json.url", verdict.reason);
    }
    const { userId } = c.var.partner;
    // The count check and the insert are one statement, so concurrent requests cannot pass 10.
    const inserted = await c.var.d1
      .prepare(
        `INSERT INTO webhook_targets (user_id, outcome, url, created_at)
       SELECT ?1, ?2, ?3, ?4
       WHERE (SELECT count(*) FROM webhook_targets WHERE user_id = ?1) < ?5
       RETURNING id, user_id, outcome, url, created_at`,
      )
      .bind(userId, body.outcome, verdict.url.toString(), new Date().toISOString(), MAX_TARGETS_PER_USER)
      .first<InsertedTarget>();
    if (!inserted) {
      throw invalidField(
        "json",
        `at most ${MAX_TARGETS_PER_USER} webhook targets per user`,
        `A user can have at most ${MAX_TARGETS_PER_USER} webhook targets; delete one first.`,
      );
    }
    return c.json(
      {
        id: inserted.id,
        userId: inserted.user_id,
        outcome: inserted.outcome,
        url: inserted.url,
        createdAt: inserted.created_at,
      },
      201,
    );
  });
}
