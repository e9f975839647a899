// The `webhooks` queue consumer: one message per delivery chain. Each message is handled on its own:
// one attempt, logged in webhook_attempts and summed up on the delivery, then acked (delivered, or
// 410 Gone, or nothing left to do) or retried after the schedule's delay. The eighth failure is
// marked failed and retried once more, which moves the message to `webhooks-dlq` (max_retries = 7);
// the dead-letter consumer makes sure the delivery reads failed.
import { z } from "@hono/zod-openapi";
import { eq, inArray } from "drizzle-orm";
import { createDatabase, type Database } from "../db/client";
import { apiClients, type WebhookDeliveryRow, webhookAttempts, webhookDeliveries, webhookTargets } from "../db/schema";
import { type Config, loadConfig } from "../env";
import { logEvent } from "../errors/log";
import { webhookUrlPolicy } from "../net/url-policy";
import { type AttemptResult, attemptDelivery } from "./deliver";
import { MAX_ATTEMPTS, retryDelaySeconds } from "./schedule";
import { decryptSecret, liveRetiredSecrets } from "./secret-box";

export const WEBHOOKS_QUEUE = "webhooks";
export const WEBHOOKS_DEAD_LETTER_QUEUE = "webhooks-dlq";

const webhookMessage = z.object({ delivery_id: z.string().min(1).max(64) });

/** The client's signing secrets: the current one, then every rotated-out one still in its grace period. */
export async function signingSecrets(
  db: Database,
  config: Config,
  clientId: number,
  now = Date.now(),
): Promise<string[]> {
  if (!config.SECRETS_KEY) throw new Error("SECRETS_KEY is not configured");
  const key = config.SECRETS_KEY;
  const [client] = await db
    .select({ current: apiClients.webhookSecretEncrypted, retired: apiClients.webhookSecretsRetired })
    .from(apiClients)
    .where(eq(apiClients.id, clientId))
    .limit(1);
  if (!client?.current) throw new Error("the client has no signing secret");
  const retired = liveRetiredSecrets(client.retired, now);
  return Promise.all(
    [client.current, ...retired.map((entry) => entry.secret)].map((sealed) => decryptSecret(key, sealed)),
  );
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
      policy: webhookUrlPolicy(config),
      fetcher,
    },
  );
}

/**
 * A batch's deliveries go out concurrently: at most WEBHOOK_CONCURRENCY attempts at once (a Worker
 * invocation keeps 6 outbound connections open; more would only queue), at most
 * WEBHOOK_PER_TARGET_CONCURRENCY of them to one host, and hosts take turns, so a receiver that
 * answers slowly (up to the 10 s timeout each) holds two slots at most while the others' deliveries
 * go on.
 */
export const WEBHOOK_CONCURRENCY = 6;
export const WEBHOOK_PER_TARGET_CONCURRENCY = 2;

export async function consumeWebhookBatch(batch: MessageBatch, env: Env, fetcher?: typeof fetch): Promise<void> {
  const config = loadConfig(env);
  const db = createDatabase(env.DB);
  const pending: { message: Message; deliveryId: string }[] = [];
  for (const message of batch.messages) {
    const parsed = webhookMessage.safeParse(message.body);
    if (!parsed.success) {
      logEvent("error", { queue: WEBHOOKS_QUEUE, message_id: message.id, problem: "malformed message" });
      message.ack();
      continue;
    }
    pending.push({ message, deliveryId: parsed.data.delivery_id });
  }
  if (pending.length === 0) return;
  // One read for the whole batch (at most 10 messages, well under D1's 100 bound parameters).
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, [...new Set(pending.map((item) => item.deliveryId))]));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const tasks: { target: string; run: () => Promise<void> }[] = [];
  for (const { message, deliveryId } of pending) {
    const delivery = byId.get(deliveryId);
    if (delivery?.status !== "pending") {
      message.ack();
      continue;
    }
    // A second message for the same delivery in this batch (a replay racing a retry) is acked above
    // next time round: the first one's chain carries on.
    byId.delete(deliveryId);
    const run = () =>
      deliverOne(db, config, message, delivery, fetcher).catch((error) => {
        // Recording the attempt failed (D1 unavailable): try the message again later rather than lose it.
        logEvent("error", { queue: WEBHOOKS_QUEUE, message_id: message.id, step: "record attempt" }, error);
        message.retry({ delaySeconds: retryDelaySeconds(1, config.WEBHOOK_RETRY_BASE_SECONDS) ?? 5 });
      });
    tasks.push({ target: targetKey(delivery.url), run });
  }
  await runFairly(tasks, WEBHOOK_CONCURRENCY, WEBHOOK_PER_TARGET_CONCURRENCY);
}

/** The host a delivery goes to (lower case); its raw URL when it does not parse. */
function targetKey(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return url;
  }
}

/**
 * Runs `tasks` with at most `limit` at once and `perTarget` per target, taking targets in turn
 * (round robin over the targets with work left), each target's tasks in their order.
 */
export async function runFairly(
  tasks: { target: string; run: () => Promise<void> }[],
  limit: number,
  perTarget: number,
): Promise<void> {
  const queues = new Map<string, (() => Promise<void>)[]>();
  for (const task of tasks) {
    const queue = queues.get(task.target) ?? [];
    queue.push(task.run);
    queues.set(task.target, queue);
  }
  const running = new Map<string, number>();
  const order = [...queues.keys()];
  let turn = 0;
  let active = 0;
  await new Promise<void>((resolve) => {
    const next = (): (() => Promise<void>) | null => {
      for (let i = 0; i < order.length; i++) {
        const target = order[(turn + i) % order.length] ?? "";
        const queue = queues.get(target);
        if (!queue || queue.length === 0 || (running.get(target) ?? 0) >= perTarget) continue;
        turn = (turn + i + 1) % order.length;
        running.set(target, (running.get(target) ?? 0) + 1);
        const run = queue.shift();
        if (!run) continue;
        return () =>
          run().finally(() => {
            running.set(target, (running.get(target) ?? 1) - 1);
          });
      }
      return null;
    };
    const pump = () => {
      for (;;) {
        if (active >= limit) return;
        const task = next();
        if (!task) {
          if (active === 0) resolve();
          return;
        }
        active++;
        task()
          .catch((error) => logEvent("error", { queue: WEBHOOKS_QUEUE, step: "delivery" }, error))
          .finally(() => {
            active--;
            pump();
          });
      }
    };
    pump();
  });
}

/** One attempt of one delivery: logged, summed up on the delivery, then the message acked or retried. */
async function deliverOne(
  db: Database,
  config: Config,
  message: Message,
  delivery: WebhookDeliveryRow,
  fetcher: typeof fetch | undefined,
): Promise<void> {
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
