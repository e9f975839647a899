// POST /clients/{id}/webhook-secret/rotate: a new signing secret; the previous one keeps signing
// through its grace period (src/webhooks/secret-box.ts).
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { apiClients } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponses } from "../../errors/openapi";
import { encryptSecret, generateSigningSecret, retireSecret } from "../../webhooks/secret-box";
import { adminSecurity, IdParams } from "../schemas";
import { ClientWebhookSchema } from "./schemas";
import { secretsKey } from "./secrets-key";

export const rotateSecretRoute = createRoute({
  method: "post",
  path: "/clients/{id}/webhook-secret/rotate",
  operationId: "rotateClientWebhookSecret",
  tags: ["Operator"],
  summary: "Rotate a client's signing secret (the new one is shown once)",
  description:
    "For 24 hours after a rotation the secret it replaced keeps signing: deliveries carry one signature per live secret in `svc-signature`, space-separated (the new one first), so the receiver can switch at its own pace. Rotating again within the 24 h keeps every earlier secret until its own 24 h end (at most 5 retired secrets; the oldest drops out first).",
  security: adminSecurity,
  request: { params: IdParams },
  responses: {
    200: { description: "The new secret.", content: { "application/json": { schema: ClientWebhookSchema } } },
    ...errorResponses,
  },
});

export function registerRotateWebhookSecret(app: OpenAPIHono<AppEnv>) {
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
}
