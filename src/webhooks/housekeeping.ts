// The webhooks' part of the cron's housekeeping (src/grading/housekeeping.ts runs it): queue the
// deliveries whose settlement committed but whose message was never sent, and prune the delivery
// log after 30 days.
import { and, asc, inArray, isNull, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { type DrainBudget, drain } from "../db/drain";
import { webhookAttempts, webhookDeliveries } from "../db/schema";
import { enqueueDeliveries } from "./outbox";

export const DELIVERY_LOG_RETENTION_MS = 30 * 24 * 3600 * 1000;
/** A settlement queues its deliveries right after its batch; ones still unqueued a minute later were missed. */
const OUTBOX_GRACE_MS = 60_000;
/** Unsent deliveries queued per run. */
const UNSENT_BATCH = 100;
/** Settled deliveries pruned per statement (a subquery picks them: no bound parameter per row). */
const PRUNE_BATCH = 500;

/** Deliveries a settlement wrote but never got onto the queue (the isolate stopped in between). */
export async function queueUnsentDeliveries(env: Env, db: Database, now: number): Promise<number> {
  const unsent = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        isNull(webhookDeliveries.enqueuedAt),
        lt(webhookDeliveries.createdAt, new Date(now - OUTBOX_GRACE_MS).toISOString()),
      ),
    )
    .limit(UNSENT_BATCH);
  return enqueueDeliveries(
    env,
    db,
    unsent.map((row) => row.id),
  );
}

/**
 * The delivery log keeps settled deliveries (and their attempts) for 30 days. Both deletes pick
 * the same oldest rows and run in one batch (a transaction), so attempts never outlive their delivery.
 */
export function pruneDeliveryLog(db: Database, now: number, budget: DrainBudget) {
  const logCutoff = new Date(now - DELIVERY_LOG_RETENTION_MS).toISOString();
  return drain(budget, 2, PRUNE_BATCH, async () => {
    const oldest = db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        and(inArray(webhookDeliveries.status, ["delivered", "failed"]), lt(webhookDeliveries.createdAt, logCutoff)),
      )
      .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
      .limit(PRUNE_BATCH);
    const [, deleted] = await db.batch([
      db.delete(webhookAttempts).where(inArray(webhookAttempts.deliveryId, oldest)),
      db.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, oldest)).returning({ id: webhookDeliveries.id }),
    ]);
    return deleted.length;
  });
}
