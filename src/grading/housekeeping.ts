// The cron trigger's work (every 10 minutes): re-drive submissions still processing long after the
// whole retry schedule should have settled them (a lost message, an isolate that died mid-grade;
// past a day they are rejected instead), queue webhook deliveries whose settlement committed but
// whose message was never sent, free Idempotency-Keys older than 24 h, delete rejected submissions'
// photos after the retention period, and prune the delivery log after 30 days. The grading part is
// here; the webhooks' part (unsent deliveries, the delivery log) is src/webhooks/housekeeping.ts.
//
// The last three drain backlogs of any size (src/db/drain.ts), and a run is bounded by a time
// budget and a statement budget shared out between them.
import { and, asc, eq, inArray, isNotNull, isNull, lt } from "drizzle-orm";
import type { Database } from "../db/client";
import { type DrainBudget, drain } from "../db/drain";
import { gradingSessions, submissions, userCards } from "../db/schema";
import { pruneDeliveryLog, queueUnsentDeliveries } from "../webhooks/housekeeping";
import { IDEMPOTENCY_TTL_MS } from "./idempotency";
import { enqueueGradingRetry } from "./queue";
import { recordRejected } from "./settle";
import { type SettleDeps, settleDeps } from "./settle-deps";

/** The retry schedule takes about 45 minutes; a submission processing for an hour has been lost. */
export const STUCK_AFTER_MS = 3600 * 1000;
const GIVE_UP_AFTER_MS = 24 * 3600 * 1000;
const REDRIVE_BATCH = 100;
/** Keys freed per statement (a subquery picks them: no bound parameter per row). */
const DRAIN_BATCH = 500;
/** D1 binds at most 100 parameters per statement: rows per batch when their ids are bound. */
const BOUND_BATCH = 90;

/**
 * One run's bounds. The cron fires every 10 minutes and a scheduled Worker may run for minutes, but
 * a run that stops early loses nothing, so it stays short: 20 s and 300 D1 statements by default.
 */
export interface HousekeepingBudget {
  maxMs: number;
  maxStatements: number;
}
export const DEFAULT_HOUSEKEEPING_BUDGET: HousekeepingBudget = { maxMs: 20_000, maxStatements: 300 };

export interface HousekeepingResult {
  freedKeys: number;
  redriven: number;
  abandoned: number;
  deliveriesQueued: number;
  deliveriesPruned: number;
  rejectedImagesDeleted: number;
  /** True when a backlog was left for the next run (the budget ran out first). */
  backlogLeft: boolean;
}

export async function runHousekeeping(
  env: Env,
  now = Date.now(),
  limits: HousekeepingBudget = DEFAULT_HOUSEKEEPING_BUDGET,
): Promise<HousekeepingResult> {
  const deps = settleDeps(env);
  const { db } = deps;
  const deadline = Date.now() + limits.maxMs;

  const { redriven, abandoned } = await redriveStuck(deps, now);
  const deliveriesQueued = await queueUnsentDeliveries(env, db, now);

  // The three backlogs share the statement budget: each gets a third, so none starves the others.
  const share = () => ({ deadline, statements: Math.floor(limits.maxStatements / 3) });
  const freed = await freeExpiredKeys(db, now, share());
  const retention = await deleteRejectedImages(deps, now, share());
  const pruned = await pruneDeliveryLog(db, now, share());

  return {
    freedKeys: freed.handled,
    redriven,
    abandoned,
    deliveriesQueued,
    deliveriesPruned: pruned.handled,
    rejectedImagesDeleted: retention.handled,
    backlogLeft: !(freed.done && retention.done && pruned.done),
  };
}

/**
 * Submissions still processing long after the retry schedule should have settled them: queued again,
 * or rejected past a day.
 */
async function redriveStuck(deps: SettleDeps, now: number): Promise<{ redriven: number; abandoned: number }> {
  const { db, env } = deps;
  const stuck = await db
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
      // The retry decodes the stored photos under the same decode budget as a first attempt.
      await enqueueGradingRetry(env, submission.gradingId, 0);
      redriven++;
    }
  }
  return { redriven, abandoned };
}

/** Idempotency-Keys past their 24 hours are freed for reuse. */
function freeExpiredKeys(db: Database, now: number, budget: DrainBudget) {
  const keyCutoff = new Date(now - IDEMPOTENCY_TTL_MS).toISOString();
  return drain(budget, 1, DRAIN_BATCH, async () => {
    const expired = db
      .select({ gradingId: submissions.gradingId })
      .from(submissions)
      .where(and(isNotNull(submissions.idempotencyKey), lt(submissions.createdAt, keyCutoff)))
      .orderBy(asc(submissions.createdAt))
      .limit(DRAIN_BATCH);
    const rows = await db
      .update(submissions)
      .set({ idempotencyKey: null })
      .where(inArray(submissions.gradingId, expired))
      .returning({ gradingId: submissions.gradingId });
    return rows.length;
  });
}

/** Rejected submissions' photos (a certificate's are kept while it lives: only rejected ones here). */
function deleteRejectedImages(deps: SettleDeps, now: number, budget: DrainBudget) {
  const { db, env } = deps;
  const retentionCutoff = new Date(now - deps.config.REJECTED_IMAGE_RETENTION_DAYS * 24 * 3600 * 1000).toISOString();
  return drain(budget, 2, BOUND_BATCH, async () => {
    const rows = await db
      .select({ gradingId: submissions.gradingId, front: submissions.frontImageKey, back: submissions.backImageKey })
      .from(submissions)
      .where(
        and(
          eq(submissions.status, "rejected"),
          isNull(submissions.imagesDeletedAt),
          lt(submissions.createdAt, retentionCutoff),
        ),
      )
      .orderBy(asc(submissions.createdAt))
      .limit(BOUND_BATCH);
    if (rows.length === 0) return 0;
    // Objects first: if the update below is lost, the next run deletes them again (a no-op) and marks them.
    await env.IMAGES.delete(rows.flatMap((row) => [row.front, row.back]));
    const deletedAt = new Date(now).toISOString();
    // The partner view's card of a rejected grading showed these photos; it shows none from now on
    // (the Partner API's image URLs are null where there is no image). Rows are picked by this
    // run's stamp rather than by bound ids, which keeps the batch under D1's 100 bound parameters.
    const justDeleted = and(eq(submissions.status, "rejected"), eq(submissions.imagesDeletedAt, deletedAt));
    await db.batch([
      db
        .update(submissions)
        .set({ imagesDeletedAt: deletedAt })
        .where(
          inArray(
            submissions.gradingId,
            rows.map((row) => row.gradingId),
          ),
        ),
      db
        .update(userCards)
        .set({ frontImageKey: null, backImageKey: null })
        .where(
          and(
            inArray(
              userCards.id,
              db
                .select({ id: gradingSessions.userCardId })
                .from(gradingSessions)
                .innerJoin(submissions, eq(submissions.gradingId, gradingSessions.id))
                .where(justDeleted),
            ),
            inArray(
              userCards.frontImageKey,
              db.select({ key: submissions.frontImageKey }).from(submissions).where(justDeleted),
            ),
          ),
        ),
    ]);
    return rows.length;
  });
}
