// Settling a submission: one unit of work that grades the stored photos and records the outcome.
// A grade writes its certificate, a rejection marks the submission and refunds its quota unit; for
// a client linked to a user either also writes the partner view (src/grading/partner-view.ts), in
// the same D1 batch, which is a transaction. Every write is conditional on the submission still
// processing, so a settlement that races another (a queue retry, a re-drive) changes nothing twice.
import { and, eq, sql } from "drizzle-orm";
import { digestHex } from "../attestation/digest";
import type { Database } from "../db/client";
import { errorChainText, isUniqueViolation } from "../db/errors";
import { certificates, type SubmissionRow, submissions } from "../db/schema";
import { logEvent } from "../errors/log";
import { presignImageUrl } from "../storage/presign";
import { dispatchDeliveries, failedEventPayload, publicEventInsert } from "../webhooks/outbox";
import { billRejection } from "./billing";
import { damageReportsWork } from "./damage-reports";
import type { EngineImage, Graded, GradingEngine, RejectionReason } from "./engine/types";
import { type DeclaredCard, rawValueCents } from "./engine/value";
import { partnerViewWrites } from "./partner-view";
import { recordCertificate } from "./record-certificate";
import { loadCatalogReferences, loadCatalogValues, loadReferenceImage } from "./references";
import { clientUserId, type SettleContext, type SettleDeps, type Settlement } from "./settle-deps";

export async function gradeSubmission(
  deps: SettleDeps,
  submission: SubmissionRow,
  images: { front: EngineImage; back: EngineImage },
  context: SettleContext = {},
): Promise<Settlement> {
  const references = await loadCatalogReferences(deps.db);
  const now = Date.now();
  const sign = (key: string) => presignImageUrl(deps.config, submission.requestOrigin, key, now);
  let result: Awaited<ReturnType<GradingEngine["grade"]>>;
  try {
    const [front, back] = await Promise.all([sign(submission.frontImageKey), sign(submission.backImageKey)]);
    result = await deps.engine.grade({
      ...images,
      urls: { front, back },
      hints: submission.hints ?? {},
      references,
      referenceImage: (catalogId) => loadReferenceImage(deps.db, deps.env.IMAGES, catalogId),
    });
  } catch (error) {
    // An engine that throws has a bug or ran out of something; a later attempt may get through.
    logEvent("error", { grading_id: submission.gradingId, step: "engine" }, error);
    return { status: "retry", message: "The grading engine failed unexpectedly." };
  }
  switch (result.status) {
    case "graded": {
      // The digests of the bytes stored in R2 (these are they), signed in the attestation.
      const [front, back] = await Promise.all([digestHex(images.front.bytes), digestHex(images.back.bytes)]);
      return recordGraded(deps, submission, result, context, { front, back });
    }
    case "rejected":
      return recordRejected(deps, submission, result.reason, result.message, context);
    case "failed":
      if (result.retryable) return { status: "retry", message: result.message };
      return recordRejected(deps, submission, "grading_failed", result.message, context);
  }
}

/**
 * Marks the submission rejected (if still processing), bills it (billing.ts: refunded within the
 * hourly allowance) and, for a client linked to a user, writes the user's card (the photos, no
 * grade) and a `failure` grading session.
 */
export async function recordRejected(
  deps: SettleDeps,
  submission: SubmissionRow,
  reason: RejectionReason,
  message: string,
  context: SettleContext = {},
): Promise<Settlement> {
  const db = deps.db;
  const gradingId = submission.gradingId;
  const settledAt = new Date().toISOString();
  // Identifies this settlement: two settlements in the same millisecond share settledAt, so the
  // event below is conditional on this random id, which only the winning update wrote.
  const settledBy = crypto.randomUUID();
  const userId = await clientUserId(deps, submission, context);
  const partner =
    userId === null
      ? null
      : partnerViewWrites(db, {
          userId,
          sessionId: gradingId,
          outcome: "failure",
          card: {
            unverified: {
              ...declaredFromHints(submission.hints),
              cardNumber: submission.hints?.card_number ?? null,
              variant: submission.hints?.variant ?? null,
              svcValueCents: rawValueCents(declaredFromHints(submission.hints), await loadCatalogValues(db)),
            },
          },
          grade: null,
          images: { front: submission.frontImageKey, back: submission.backImageKey },
          uniqueIdentifier: null,
          createdAt: submission.createdAt,
          updatedAt: settledAt,
          gradeRun: null,
        });
  let updated: { gradingId: string }[];
  let deliveryIds: string[];
  try {
    const [settled, events, ...rest] = await db.batch([
      db
        .update(submissions)
        .set({ status: "rejected", reason, message, engine: deps.engine.id, settledAt, settledBy })
        .where(and(eq(submissions.gradingId, gradingId), eq(submissions.status, "processing")))
        .returning({ gradingId: submissions.gradingId }),
      // The client's grading.failed event, only if the update above is the one that settled it.
      publicEventInsert(db, {
        clientId: submission.clientId,
        gradingId,
        event: "grading.failed",
        payload: failedEventPayload({ gradingId, externalRef: submission.externalRef, reason }),
        now: settledAt,
        condition: sql`EXISTS (SELECT 1 FROM submissions WHERE grading_id = ${gradingId} AND settled_by = ${settledBy})`,
      }),
      ...(partner ? [partner.notifications] : []),
      ...(partner?.statements ?? []),
    ]);
    updated = settled;
    const partnerIds = partner ? (rest[0] as { id: string }[]) : [];
    deliveryIds = [...events, ...partnerIds].map((row) => row.id);
  } catch (error) {
    // Another settlement got there first: its partner view exists (unique keys), or migration
    // 0004's trigger refused a session for a submission this batch did not settle.
    if (lostSettlementRace(error)) return currentSettlement(db, gradingId);
    throw error;
  }
  if (updated.length === 0) return currentSettlement(db, gradingId);
  await billRejection(deps, submission);
  await dispatchDeliveries(deps.env, db, gradingId, deliveryIds);
  return { status: "rejected", reason, message };
}

async function recordGraded(
  deps: SettleDeps,
  submission: SubmissionRow,
  graded: Graded,
  context: SettleContext,
  digests: { front: string; back: string },
): Promise<Settlement> {
  let settlement: Settlement;
  try {
    settlement = await recordCertificate(deps, submission, graded, context, digests);
  } catch (error) {
    // The submission was settled by someone else meanwhile (a trigger or the session's unique id
    // aborted the batch).
    if (lostSettlementRace(error)) return currentSettlement(deps.db, submission.gradingId);
    throw error;
  }
  // The damage reports are drawn once the grade is recorded: after the response when the caller
  // can keep working (a request's waitUntil), otherwise before returning. A client known to be
  // linked to no user has no grade run to show them.
  if (context.clientUserId === null) return settlement;
  const reports = damageReportsWork(deps, submission.gradingId, graded);
  if (deps.afterResponse) deps.afterResponse(reports);
  else await reports;
  return settlement;
}

/** The card fields a submitter declared, as the value and the unverified entry read them. */
export function declaredFromHints(hints: Record<string, string> | null): DeclaredCard {
  return {
    player: hints?.player ?? null,
    year: hints?.year ?? null,
    brand: hints?.brand ?? null,
    set: hints?.set ?? null,
    category: hints?.category ?? null,
  };
}

function lostSettlementRace(error: unknown): boolean {
  // The partner view's rows are keyed by the session id (its user card by a slug made of it).
  return (
    errorChainText(error).includes("not claimed by this settlement") ||
    isUniqueViolation(error, "grading_sessions", ["id"]) ||
    isUniqueViolation(error, "user_cards", ["share_slug"])
  );
}

/** The settlement already recorded for a grading (when another writer got there first). */
async function currentSettlement(db: Database, gradingId: string): Promise<Settlement> {
  const [row] = await db
    .select({ submission: submissions, certificate: certificates })
    .from(submissions)
    .leftJoin(certificates, eq(certificates.gradingId, submissions.gradingId))
    .where(eq(submissions.gradingId, gradingId))
    .limit(1);
  if (row?.submission.status === "complete" && row.certificate) {
    return { status: "complete", certificate: row.certificate };
  }
  if (row?.submission.status === "rejected") {
    return {
      status: "rejected",
      reason: row.submission.reason ?? "grading_failed",
      message: row.submission.message ?? "The submission was rejected.",
    };
  }
  return { status: "retry", message: "The submission is still processing." };
}
