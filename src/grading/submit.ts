// Taking a submission in: the row that claims its grading id (and Idempotency-Key) and the photos in
// R2, written together, then the first grading attempt. Nothing is left half-written: if a write
// fails, the others are undone.
import { eq } from "drizzle-orm";
import type { SubmissionRow } from "../db/schema";
import { submissions } from "../db/schema";
import { logEvent } from "../errors/log";
import { imageExtension, writeWithStagedImages } from "../storage/images";
import type { CardHints, EngineImage } from "./engine/types";
import { markAnswered } from "./idempotency";
import { enqueueGradingRetry, GRADING_RETRY_DELAYS_SECONDS } from "./queue";
import { gradeSubmission } from "./settle";
import type { SettleContext, SettleDeps, Settlement } from "./settle-deps";
import type { StepTimings } from "./step-timings";

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

/**
 * Stores the submission: the row and both photos, written at once (the photos' keys derive from
 * the grading id drawn here, so they do not wait for the row). If any write fails, whatever was
 * written is removed again. Throws the D1 error when the Idempotency-Key is taken.
 */
export async function storeSubmission(deps: SettleDeps, input: NewSubmission): Promise<SubmissionRow> {
  const gradingId = crypto.randomUUID();
  const frontImageKey = `submissions/${gradingId}/front.${imageExtension(input.images.front.contentType)}`;
  const backImageKey = `submissions/${gradingId}/back.${imageExtension(input.images.back.contentType)}`;
  // If anything fails, nothing is left behind: a row that was inserted goes (its Idempotency-Key is
  // free again); the photos of a request that lost its key to another are not that request's to keep.
  return writeWithStagedImages(
    deps.env.IMAGES,
    [
      { key: frontImageKey, bytes: input.images.front.bytes, contentType: input.images.front.contentType },
      { key: backImageKey, bytes: input.images.back.bytes, contentType: input.images.back.contentType },
    ],
    {
      write: async () => {
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
            frontImageKey,
            backImageKey,
            requestOrigin: input.requestOrigin,
            idempotencyKey: input.idempotencyKey,
            requestFingerprint: input.fingerprint,
            createdAt: new Date().toISOString(),
          })
          .returning();
        if (!row) throw new Error("submission insert returned nothing");
        return row;
      },
      undoWrite: (row) => deps.db.delete(submissions).where(eq(submissions.gradingId, row.gradingId)),
    },
  );
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

export interface SubmitOptions {
  /** Keeps grading going after the response (the request's `waitUntil`). */
  waitUntil: (work: Promise<unknown>) => void;
  /** The user the submitting client is linked to (read with its key), or null. */
  clientUserId: number | null;
  /** Receives the `store` and `settle` steps for the `Server-Timing` header. */
  timings: StepTimings;
}

/**
 * A submission from the request to its answer: stored, then graded while the request waits up to
 * SUBMISSION_WAIT_SECONDS. Grading carries on after that (and after a client hangs up) until it
 * settles; `"timeout"` says the wait ended first. A request holding an Idempotency-Key marks it
 * answered, so a retry replays instead of waiting. Throws the D1 error when the key is taken.
 */
export async function submitAndWait(
  deps: SettleDeps,
  input: NewSubmission,
  options: SubmitOptions,
): Promise<{ submission: SubmissionRow; settlement: Settlement | "timeout" }> {
  const submission = await options.timings.measure("store", () => storeSubmission(deps, input));
  const settleStart = performance.now();
  const settling = settleSubmission(deps, submission, input.images, { clientUserId: options.clientUserId });
  options.waitUntil(
    settling.catch((error) =>
      logEvent("error", { grading_id: submission.gradingId, step: "background settle" }, error),
    ),
  );
  const settlement = await Promise.race([
    settling,
    new Promise<"timeout">((resolve) =>
      setTimeout(() => resolve("timeout"), deps.config.SUBMISSION_WAIT_SECONDS * 1000),
    ),
  ]);
  // `settle` is grading plus recording the outcome (D1 batch, report images, deliveries).
  options.timings.record("settle", performance.now() - settleStart);
  if (input.idempotencyKey !== null) {
    await markAnswered(deps.db, submission.gradingId, new Date().toISOString());
  }
  return { submission, settlement };
}
