// PUT /clients/{id}/webhook: a client's webhook URL (its first secret is made with it).
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { apiClients } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { bodyErrorResponses, errorResponses, surfaceOffResponse } from "../../errors/openapi";
import { invalidField } from "../../errors/validation";
import { checkOutboundUrl, webhookUrlPolicy } from "../../net/url-policy";
import { encryptSecret, generateSigningSecret } from "../../webhooks/secret-box";
import { adminSecurity, IdParams, jsonBody } from "../schemas";
import { ClientWebhookSchema } from "./schemas";
import { secretsKey } from "./secrets-key";

export const setWebhookRoute = createRoute({
  method: "put",
  path: "/clients/{id}/webhook",
  operationId: "setClientWebhook",
  tags: ["Operator"],
  summary: "Set, change or remove a client's webhook URL",
  description:
    'The URL passes the same rules as partner webhook targets. A client without a signing secret gets one now (shown once). `{ "url": null }` removes the webhook.',
  security: adminSecurity,
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

export function registerSetClientWebhook(app: OpenAPIHono<AppEnv>) {
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
}
