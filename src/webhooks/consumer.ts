// The `webhooks` queue consumer: one message per delivery chain. Each message is handled on its own:
// one attempt, logged in webhook_attempts and summed up on the delivery, then acked (delivered, or
// 410 Gone, or nothing left to do) or retried after the schedule's delay. The eighth failure is
// marked failed and retried once more, which moves the message to `webhooks-dlq` (max_retries = 7);
// the dead-letter consumer makes sure the delivery reads failed.
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { createDatabase, type Database } from "../db/client";
import { apiClients, type WebhookDeliveryRow, webhookAttempts, webhookDeliveries, webhookTargets } from "../db/schema";
import { type Config, loadConfig } from "../env";
import { logEvent } from "../errors/log";
import { outboundPolicy } from "../net/url-policy";
import { type AttemptResult, attemptDelivery } from "./deliver";
import { MAX_ATTEMPTS, retryDelaySeconds } from "./schedule";
import { decryptSecret } from "./secret-box";

export const WEBHOOKS_QUEUE = "webhooks";
export const WEBHOOKS_DEAD_LETTER_QUEUE = "webhooks-dlq";
/** A rotated-out signing secret still signs deliveries this long. */
export const SECRET_GRACE_MS = 24 * 3600 * 1000;

const webhookMessage = z.object({ delivery_id: z.string().min(1).max(64) });

/** The client's signing secrets: the current one, then the previous one while in its grace period. */
export async function signingSecrets(
  db: Database,
  config: Config,
  clientId: number,
  now = Date.now(),
): Promise<string[]> {
  if (!config.SECRETS_KEY) throw new Error("SECRETS_KEY is not configured");
  const [client] = await db
    .select({
      current: apiClients.webhookSecretEncrypted,
      previous: apiClients.webhookSecretPreviousEncrypted,
      rotatedAt: apiClients.webhookSecretRotatedAt,
    })
    .from(apiClients)
    .where(eq(apiClients.id, clientId))
    .limit(1);
  if (!client?.current) throw new Error("the client has no signing secret");
  const secrets = [await decryptSecret(config.SECRETS_KEY, client.current)];
  if (client.previous && client.rotatedAt && now - Date.parse(client.rotatedAt) < SECRET_GRACE_MS) {
    secrets.push(await decryptSecret(config.SECRETS_KEY, client.previous));
  }
  return secrets;
}

async function attempt(
  db: Database,
  config: Config,
  delivery: WebhookDeliveryRow,
  fetcher?: typeof fetch,
): Promise<AttemptResult> {
  let secrets: string[] = [];
  if (delivery.kind === "public" && delivery.clientId !== null) {
    try {
      secrets = await signingSecrets(db, config, delivery.clientId);
    } catch (error) {
      return {
        status: null,
        latencyMs: 0,
        error: `cannot sign: ${(error as Error).message}`,
        delivered: false,
        gone: false,
      };
    }
  }
  if (delivery.kind === "partner" && delivery.targetId !== null) {
    const [target] = await db
      .select({ id: webhookTargets.id })
      .from(webhookTargets)
      .where(eq(webhookTargets.id, delivery.targetId))
      .limit(1);
    // The partner removed the target: nobody to tell any more.
    if (!target)
      return { status: null, latencyMs: 0, error: "the webhook target was removed", delivered: false, gone: true };
  }
  return attemptDelivery(
    {
      id: delivery.id,
      kind: delivery.kind,
      event: delivery.event,
      url: delivery.url,
      payload: delivery.payload,
      secrets,
    },
    {
      timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
      policy: outboundPolicy(config, config.ALLOW_HTTP_WEBHOOKS),
      fetcher,
    },
  );
}

export async function consumeWebhookBatch(batch: MessageBatch, env: Env, fetcher?: typeof fetch): Promise<void> {
  const config = loadConfig(env);
  const db = createDatabase(env.DB);
  for (const message of batch.messages) {
    const parsed = webhookMessage.safeParse(message.body);
    if (!parsed.success) {
      logEvent("error", { queue: WEBHOOKS_QUEUE, message_id: message.id, problem: "malformed message" });
      message.ack();
      continue;
    }
    const [delivery] = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, parsed.data.delivery_id))
      .limit(1);
    if (delivery?.status !== "pending") {
      message.ack();
      continue;
    }
    const startedAt = new Date().toISOString();
    const result = await attempt(db, config, delivery, fetcher);
    const attemptNumber = delivery.attempts + 1;
    // The chain's own count decides the delay, so a replayed delivery starts the schedule again.
    const delay =
      result.delivered || result.gone ? null : retryDelaySeconds(message.attempts, config.WEBHOOK_RETRY_BASE_SECONDS);
    const status = result.delivered ? "delivered" : result.gone || delay === null ? "failed" : "pending";
    await db.batch([
      db.insert(webhookAttempts).values({
        deliveryId: delivery.id,
        attempt: attemptNumber,
        startedAt,
        status: result.status,
        latencyMs: result.latencyMs,
        error: result.error,
      }),
      db
        .update(webhookDeliveries)
        .set({
          attempts: attemptNumber,
          status,
          lastStatus: result.status,
          lastError: result.error,
          nextAttemptAt: delay === null ? null : new Date(Date.now() + delay * 1000).toISOString(),
          deliveredAt: result.delivered ? new Date().toISOString() : null,
        })
        .where(eq(webhookDeliveries.id, delivery.id)),
    ]);
    if (status === "pending" && delay !== null) message.retry({ delaySeconds: delay });
    else if (status === "failed" && !result.gone && message.attempts >= MAX_ATTEMPTS) message.retry();
    else message.ack();
  }
}

/** Deliveries whose retries ran out: make sure they read failed, and log them for the operator. */
export async function consumeWebhookDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  const db = createDatabase(env.DB);
  for (const message of batch.messages) {
    const parsed = webhookMessage.safeParse(message.body);
    if (parsed.success) {
      await db
        .update(webhookDeliveries)
        .set({ status: "failed", nextAttemptAt: null })
        .where(eq(webhookDeliveries.id, parsed.data.delivery_id));
    }
    logEvent("warn", { queue: WEBHOOKS_DEAD_LETTER_QUEUE, message_id: message.id, body: message.body });
    message.ack();
  }
}
