// The cron trigger's work (every 10 minutes): free Idempotency-Keys older than 24 h, and re-drive
// submissions still processing long after the whole retry schedule should have settled them (a
// lost message, an isolate that died mid-grade). Past a day they are rejected instead. And queue
// webhook deliveries whose settlement committed but whose message was never sent; prune the delivery
// log after 30 days.
import { and, eq, inArray, isNotNull, isNull, lt } from "drizzle-orm";
import { submissions, webhookAttempts, webhookDeliveries } from "../db/schema";
import { enqueueDeliveries } from "../webhooks/outbox";
import { enqueueGradingRetry, settleDeps } from "./queue";
import { recordRejected } from "./settle";

/** Idempotency records are honoured this long (DESIGN §4). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
/** The retry schedule takes about 45 minutes; a submission processing for an hour has been lost. */
export const STUCK_AFTER_MS = 3600 * 1000;
const GIVE_UP_AFTER_MS = 24 * 3600 * 1000;
const REDRIVE_BATCH = 100;
/** A settlement queues its deliveries right after its batch; ones still unqueued a minute later were missed. */
const OUTBOX_GRACE_MS = 60_000;
export const DELIVERY_LOG_RETENTION_MS = 30 * 24 * 3600 * 1000;
// D1 binds at most 100 parameters per statement.
const PRUNE_BATCH = 90;

export async function runHousekeeping(
  env: Env,
  now = Date.now(),
): Promise<{
  freedKeys: number;
  redriven: number;
  abandoned: number;
  deliveriesQueued: number;
  deliveriesPruned: number;
}> {
  const deps = settleDeps(env);
  const freed = await deps.db
    .update(submissions)
    .set({ idempotencyKey: null })
    .where(
      and(
        isNotNull(submissions.idempotencyKey),
        lt(submissions.createdAt, new Date(now - IDEMPOTENCY_TTL_MS).toISOString()),
      ),
    )
    .returning({ gradingId: submissions.gradingId });

  const stuck = await deps.db
    .select()
    .from(submissions)
    .where(
      and(
        eq(submissions.status, "processing"),
        lt(submissions.createdAt, new Date(now - STUCK_AFTER_MS).toISOString()),
      ),
    )
    .orderBy(submissions.createdAt)
    .limit(REDRIVE_BATCH);
  let redriven = 0;
  let abandoned = 0;
  for (const submission of stuck) {
    if (Date.parse(submission.createdAt) < now - GIVE_UP_AFTER_MS) {
      await recordRejected(deps, submission, "grading_failed", "The submission could not be graded in time.");
      abandoned++;
    } else {
      await enqueueGradingRetry(env, submission.gradingId, 0);
      redriven++;
    }
  }
  // Deliveries a settlement wrote but never got onto the queue (the isolate stopped in between).
  const unsent = await deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        isNull(webhookDeliveries.enqueuedAt),
        lt(webhookDeliveries.createdAt, new Date(now - OUTBOX_GRACE_MS).toISOString()),
      ),
    )
    .limit(REDRIVE_BATCH);
  const deliveriesQueued = await enqueueDeliveries(
    env,
    deps.db,
    unsent.map((row) => row.id),
  );
  // The delivery log keeps settled deliveries (and their attempts) for 30 days.
  const cutoff = new Date(now - DELIVERY_LOG_RETENTION_MS).toISOString();
  const old = await deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(inArray(webhookDeliveries.status, ["delivered", "failed"]), lt(webhookDeliveries.createdAt, cutoff)))
    .limit(PRUNE_BATCH);
  const oldIds = old.map((row) => row.id);
  if (oldIds.length > 0) {
    await deps.db.batch([
      deps.db.delete(webhookAttempts).where(inArray(webhookAttempts.deliveryId, oldIds)),
      deps.db.delete(webhookDeliveries).where(inArray(webhookDeliveries.id, oldIds)),
    ]);
  }
  return { freedKeys: freed.length, redriven, abandoned, deliveriesQueued, deliveriesPruned: oldIds.length };
}
