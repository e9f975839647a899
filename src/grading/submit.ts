// Taking a submission in: the row that claims its grading id (and Idempotency-Key), the photos in R2,
// then the first grading attempt. Nothing is left half-written: if the photos cannot be stored the
// row is removed again.
import { eq } from "drizzle-orm";
import type { SubmissionRow } from "../db/schema";
import { submissions } from "../db/schema";
import { logEvent } from "../errors/log";
import { imageExtension } from "../storage/images";
import type { CardHints, EngineImage } from "./engine/types";
import { enqueueGradingRetry, GRADING_RETRY_DELAYS_SECONDS } from "./queue";
import { gradeSubmission, type SettleContext, type SettleDeps, type Settlement } from "./settle";

export interface NewSubmission {
  clientId: number;
  apiKeyId: number;
  quotaWindowStart: number | null;
  externalRef: string | null;
  hints: CardHints;
  images: { front: EngineImage; back: EngineImage };
  requestOrigin: string;
  idempotencyKey: string | null;
  fingerprint: string;
}

/** Stores the submission (row, then photos). Throws the D1 error when the Idempotency-Key is taken. */
export async function storeSubmission(deps: SettleDeps, input: NewSubmission): Promise<SubmissionRow> {
  const gradingId = crypto.randomUUID();
  const [row] = await deps.db
    .insert(submissions)
    .values({
      gradingId,
      clientId: input.clientId,
      apiKeyId: input.apiKeyId,
      quotaWindowStart: input.quotaWindowStart,
      externalRef: input.externalRef,
      status: "processing",
      hints: input.hints as Record<string, string>,
      frontImageKey: `submissions/${gradingId}/front.${imageExtension(input.images.front.contentType)}`,
      backImageKey: `submissions/${gradingId}/back.${imageExtension(input.images.back.contentType)}`,
      requestOrigin: input.requestOrigin,
      idempotencyKey: input.idempotencyKey,
      requestFingerprint: input.fingerprint,
      createdAt: new Date().toISOString(),
    })
    .returning();
  if (!row) throw new Error("submission insert returned nothing");
  try {
    await Promise.all([
      deps.env.IMAGES.put(row.frontImageKey, input.images.front.bytes, {
        httpMetadata: { contentType: input.images.front.contentType },
      }),
      deps.env.IMAGES.put(row.backImageKey, input.images.back.bytes, {
        httpMetadata: { contentType: input.images.back.contentType },
      }),
    ]);
  } catch (error) {
    await deps.env.IMAGES.delete([row.frontImageKey, row.backImageKey]);
    await deps.db.delete(submissions).where(eq(submissions.gradingId, gradingId));
    throw error;
  }
  return row;
}

/**
 * The first grading attempt, in the request. A transient failure (or an unexpected error) hands the
 * submission to the `grading` queue, which tries again with backoff; the submission stays processing.
 */
export async function settleSubmission(
  deps: SettleDeps,
  submission: SubmissionRow,
  images: { front: EngineImage; back: EngineImage },
  context: SettleContext = {},
): Promise<Settlement> {
  let settlement: Settlement;
  try {
    settlement = await gradeSubmission(deps, submission, images, context);
  } catch (error) {
    logEvent("error", { grading_id: submission.gradingId, step: "settle" }, error);
    settlement = { status: "retry", message: "Recording the grade failed." };
  }
  if (settlement.status === "retry") {
    await deps.db.update(submissions).set({ attempts: 1 }).where(eq(submissions.gradingId, submission.gradingId));
    await enqueueGradingRetry(deps.env, submission.gradingId, GRADING_RETRY_DELAYS_SECONDS[0]);
  }
  return settlement;
}
