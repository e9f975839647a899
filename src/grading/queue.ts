// The `grading` queue: a submission whose engine failed transiently is graded again later, with
// backoff, from the photos stored in R2. After the last attempt it is rejected (`grading_failed`,
// quota refunded). Messages that kept crashing the consumer land in `grading-dlq`, whose consumer
// settles them the same way so no submission stays processing forever.
import { z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { SubmissionRow } from "../db/schema";
import { submissions } from "../db/schema";
import { logEvent } from "../errors/log";
import type { EngineImage } from "./engine/types";
import { gradeSubmission, recordRejected } from "./settle";
import { type SettleDeps, settleDeps } from "./settle-deps";

export const GRADING_QUEUE = "grading";
export const GRADING_DEAD_LETTER_QUEUE = "grading-dlq";

/** Delay before each retry, by attempt (1 = the first retry). The submission has waited ~45 min at the end. */
export const GRADING_RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 1800] as const;

export const gradingMessage = z.object({ grading_id: z.string().uuid() });
export type GradingMessage = z.infer<typeof gradingMessage>;

/** Schedules another grading attempt `delaySeconds` from now. */
export async function enqueueGradingRetry(env: Env, gradingId: string, delaySeconds: number): Promise<void> {
  const body: GradingMessage = { grading_id: gradingId };
  await env.GRADING.send(body, { delaySeconds, contentType: "json" });
}

async function loadImages(
  env: Env,
  submission: SubmissionRow,
): Promise<{ front: EngineImage; back: EngineImage } | null> {
  const [front, back] = await Promise.all([
    env.IMAGES.get(submission.frontImageKey),
    env.IMAGES.get(submission.backImageKey),
  ]);
  if (!front || !back) return null;
  const image = async (object: R2ObjectBody): Promise<EngineImage> => ({
    bytes: new Uint8Array(await object.arrayBuffer()),
    contentType: object.httpMetadata?.contentType ?? "application/octet-stream",
  });
  return { front: await image(front), back: await image(back) };
}

async function processingSubmission(deps: SettleDeps, gradingId: string): Promise<SubmissionRow | null> {
  const [row] = await deps.db.select().from(submissions).where(eq(submissions.gradingId, gradingId)).limit(1);
  return row?.status === "processing" ? row : null;
}

/** One message per grading attempt. Each is acked, retried with its own delay, or settled as failed. */
export async function consumeGradingBatch(batch: MessageBatch, env: Env): Promise<void> {
  const deps = settleDeps(env);
  for (const message of batch.messages) {
    const parsed = gradingMessage.safeParse(message.body);
    if (!parsed.success) {
      logEvent("error", { queue: GRADING_QUEUE, message_id: message.id, problem: "malformed message" });
      message.ack();
      continue;
    }
    const submission = await processingSubmission(deps, parsed.data.grading_id);
    if (!submission) {
      message.ack();
      continue;
    }
    await deps.db
      .update(submissions)
      .set({ attempts: submission.attempts + 1 })
      .where(eq(submissions.gradingId, submission.gradingId));
    const images = await loadImages(env, submission);
    if (!images) {
      await recordRejected(deps, submission, "grading_failed", "The stored photos could not be read.");
      message.ack();
      continue;
    }
    const settlement = await gradeSubmission(deps, submission, images);
    if (settlement.status !== "retry") {
      message.ack();
      continue;
    }
    // The request made attempt 1 and waited delays[0]; queue delivery k is attempt k + 1.
    const delay = GRADING_RETRY_DELAYS_SECONDS[message.attempts];
    if (delay === undefined) {
      await recordRejected(
        deps,
        submission,
        "grading_failed",
        `The grading engine kept failing: ${settlement.message}`,
      );
      message.ack();
    } else {
      message.retry({ delaySeconds: delay });
    }
  }
}

/** Messages the consumer could not handle at all: their submissions are settled as failed. */
export async function consumeGradingDeadLetters(batch: MessageBatch, env: Env): Promise<void> {
  const deps = settleDeps(env);
  for (const message of batch.messages) {
    const parsed = gradingMessage.safeParse(message.body);
    const submission = parsed.success ? await processingSubmission(deps, parsed.data.grading_id) : null;
    if (submission) {
      await recordRejected(deps, submission, "grading_failed", "The submission could not be graded.");
    }
    logEvent("error", { queue: GRADING_DEAD_LETTER_QUEUE, message_id: message.id, body: message.body });
    message.ack();
  }
}
