// Settling a submission: one unit of work that grades the stored photos and records the outcome.
// A grade writes its certificate (and, for a client linked to a user, that user's card, grading
// session and grade run) in one D1 batch, which is a transaction; a rejection marks the submission
// and refunds its quota unit. Every write is conditional on the submission still processing, so a
// settlement that races another (a queue retry, a re-drive) changes nothing twice.
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { errorChainText } from "../db/errors";
import {
  type CertificateRow,
  certificates,
  gradeRuns,
  gradingSessions,
  type SubmissionRow,
  submissions,
  userCards,
} from "../db/schema";
import type { Config } from "../env";
import { logEvent } from "../errors/log";
import { publicQuotaKey, refundQuota } from "../quota/client";
import { presignImageUrl } from "../storage/presign";
import {
  completedEventPayload,
  dispatchDeliveries,
  failedEventPayload,
  partnerNotificationsInsert,
  publicEventInsert,
} from "../webhooks/outbox";
import { certificateUrl, generateCertificateNumber } from "./certificate-number";
import type { EngineImage, Graded, GradingEngine, RejectionReason } from "./engine/types";
import { loadCatalogReferences } from "./references";

export interface SettleDeps {
  env: Env;
  config: Config;
  db: Database;
  engine: GradingEngine;
}

export type Settlement =
  | { status: "complete"; certificate: CertificateRow }
  | { status: "rejected"; reason: RejectionReason; message: string }
  /** The engine failed in a way worth retrying; the submission is still processing. */
  | { status: "retry"; message: string };

const HOSTED_BY = "Cloudflare Workers";
// The certificate number is random; a collision with an existing one is retried with a new draw.
const NUMBER_ATTEMPTS = 3;

/** Who the submitting client belongs to, when the caller knows it already (the request's key does). */
export interface SettleContext {
  clientUserId?: number | null;
}

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
    });
  } catch (error) {
    // An engine that throws has a bug or ran out of something; a later attempt may get through.
    logEvent("error", { grading_id: submission.gradingId, step: "engine" }, error);
    return { status: "retry", message: "The grading engine failed unexpectedly." };
  }
  switch (result.status) {
    case "graded":
      return recordGraded(deps, submission, result, context);
    case "rejected":
      return recordRejected(deps, submission, result.reason, result.message);
    case "failed":
      if (result.retryable) return { status: "retry", message: result.message };
      return recordRejected(deps, submission, "grading_failed", result.message);
  }
}

/** Marks the submission rejected (if still processing) and gives back its quota unit. */
export async function recordRejected(
  deps: SettleDeps,
  submission: SubmissionRow,
  reason: RejectionReason,
  message: string,
): Promise<Settlement> {
  const db = deps.db;
  const settledAt = new Date().toISOString();
  const [updated, events] = await db.batch([
    db
      .update(submissions)
      .set({ status: "rejected", reason, message, engine: deps.engine.id, settledAt })
      .where(and(eq(submissions.gradingId, submission.gradingId), eq(submissions.status, "processing")))
      .returning({ gradingId: submissions.gradingId }),
    // The client's grading.failed event, only if the update above is the one that settled it.
    publicEventInsert(db, {
      clientId: submission.clientId,
      gradingId: submission.gradingId,
      event: "grading.failed",
      payload: failedEventPayload({ gradingId: submission.gradingId, externalRef: submission.externalRef, reason }),
      now: settledAt,
      condition: sql`EXISTS (SELECT 1 FROM submissions WHERE grading_id = ${submission.gradingId} AND status = 'rejected' AND settled_at = ${settledAt})`,
    }),
  ]);
  if (updated.length === 0) return currentSettlement(db, submission.gradingId);
  if (submission.quotaWindowStart !== null) {
    await refundQuota(deps.env.QUOTA, publicQuotaKey(submission.apiKeyId), submission.quotaWindowStart);
  }
  await dispatchDeliveries(
    deps.env,
    db,
    submission.gradingId,
    events.map((row) => row.id),
  );
  return { status: "rejected", reason, message };
}

async function recordGraded(
  deps: SettleDeps,
  submission: SubmissionRow,
  graded: Graded,
  context: SettleContext,
): Promise<Settlement> {
  const { db, env } = deps;
  const gradingId = submission.gradingId;
  const reportKeys = {
    front: graded.renders.damage_report_front ? `submissions/${gradingId}/damage-report-front.png` : null,
    back: graded.renders.damage_report_back ? `submissions/${gradingId}/damage-report-back.png` : null,
  };
  await Promise.all([
    reportKeys.front && graded.renders.damage_report_front
      ? env.IMAGES.put(reportKeys.front, graded.renders.damage_report_front.bytes, {
          httpMetadata: { contentType: "image/png" },
        })
      : null,
    reportKeys.back && graded.renders.damage_report_back
      ? env.IMAGES.put(reportKeys.back, graded.renders.damage_report_back.bytes, {
          httpMetadata: { contentType: "image/png" },
        })
      : null,
  ]);
  const removeReports = () => env.IMAGES.delete([reportKeys.front, reportKeys.back].filter((k) => k !== null));

  const userId =
    context.clientUserId !== undefined
      ? context.clientUserId
      : ((
          await db.query.apiClients.findFirst({
            where: (clients, { eq }) => eq(clients.id, submission.clientId),
            columns: { userId: true },
          })
        )?.userId ?? null);
  const now = new Date().toISOString();
  const card = graded.card;
  const value = graded.estimated_value;

  for (let attempt = 1; ; attempt++) {
    const certificate: CertificateRow = {
      number: generateCertificateNumber(),
      gradingId,
      clientId: submission.clientId,
      issuedAt: now,
      revokedAt: null,
      overall: graded.grades.overall,
      centering: graded.grades.centering,
      corners: graded.grades.corners,
      edges: graded.grades.edges,
      surface: graded.grades.surface,
      centeringHorizontal: graded.centering_offset.horizontal,
      centeringVertical: graded.centering_offset.vertical,
      modelVersion: graded.model_version,
      gradedAt: now,
      player: card.player,
      year: card.year,
      brand: card.brand,
      setName: card.set,
      cardNumber: card.card_number,
      variant: card.variant,
      category: card.category,
      valueCurrency: value.currency,
      valueLow: value.low,
      valueMid: value.mid,
      valueHigh: value.high,
      valueConfidence: value.confidence,
      frontImageKey: submission.frontImageKey,
      backImageKey: submission.backImageKey,
      pipelineEngine: deps.engine.id,
      pipelineGradedBy: deps.config.GRADED_BY,
      pipelineHostedBy: HOSTED_BY,
      evidence: graded.evidence,
    };
    const settle = db
      .update(submissions)
      .set({ status: "complete", certificateNumber: certificate.number, engine: deps.engine.id, settledAt: now })
      .where(and(eq(submissions.gradingId, gradingId), eq(submissions.status, "processing")))
      .returning({ gradingId: submissions.gradingId });
    const insertCertificate = db.insert(certificates).values(certificate);
    // The user's view (DESIGN §3) needs a catalog card: an unidentified card gets a certificate only.
    const partnerRows =
      userId !== null && card.catalog_id !== null
        ? partnerViewInserts(db, { userId, catalogId: card.catalog_id, submission, graded, certificate, reportKeys })
        : [];
    const notifications =
      partnerRows.length > 0 && userId !== null
        ? [partnerNotificationsInsert(db, { userId, gradingSessionId: gradingId, outcome: "success", now })]
        : [];
    const event = publicEventInsert(db, {
      clientId: submission.clientId,
      gradingId,
      event: "grading.completed",
      payload: completedEventPayload({
        gradingId,
        externalRef: submission.externalRef,
        certificate,
        certificateUrl: certificateUrl(deps.config, submission.requestOrigin, certificate.number),
      }),
      now,
    });
    try {
      const [, , events, ...rest] = await db.batch([
        settle,
        insertCertificate,
        event,
        ...notifications,
        ...partnerRows,
      ]);
      const partnerIds = notifications.length > 0 ? (rest[0] as { id: string }[]) : [];
      await dispatchDeliveries(
        deps.env,
        db,
        gradingId,
        [...events, ...partnerIds].map((row) => row.id),
      );
      return { status: "complete", certificate };
    } catch (error) {
      const message = errorChainText(error);
      if (message.includes("certificates.number") && attempt < NUMBER_ATTEMPTS) continue;
      await removeReports();
      // The submission was settled by someone else meanwhile (migration 0002's trigger aborted the batch).
      if (message.includes("not claimed by this settlement")) return currentSettlement(db, gradingId);
      throw error;
    }
  }
}

function partnerViewInserts(
  db: Database,
  args: {
    userId: number;
    catalogId: number;
    submission: SubmissionRow;
    graded: Graded;
    certificate: CertificateRow;
    reportKeys: { front: string | null; back: string | null };
  },
) {
  const { userId, catalogId, submission, graded, certificate, reportKeys } = args;
  const shareSlug = `svc-${certificate.number}`;
  const userCardId = sql`(SELECT id FROM user_cards WHERE share_slug = ${shareSlug})`;
  return [
    db.insert(userCards).values({
      userId,
      cardId: catalogId,
      grade: String(graded.grades.overall),
      grader: certificate.pipelineGradedBy,
      shareSlug,
      frontImageKey: submission.frontImageKey,
      backImageKey: submission.backImageKey,
      addedAt: certificate.issuedAt,
      updatedAt: certificate.issuedAt,
    }),
    db.insert(gradingSessions).values({
      id: submission.gradingId,
      userId,
      userCardId,
      uniqueIdentifier: Number(certificate.number),
      outcome: "success",
      createdAt: submission.createdAt,
      updatedAt: certificate.issuedAt,
    }),
    db.insert(gradeRuns).values({
      gradingSessionId: submission.gradingId,
      userCardId,
      centeringOverallGrade: graded.grades.centering,
      cornersOverallGrade: graded.grades.corners,
      edgesOverallGrade: graded.grades.edges,
      surfaceOverallGrade: graded.grades.surface,
      fullOverallGrade: graded.grades.overall,
      modelGrade: {
        model_version: graded.model_version,
        confidence: graded.confidence,
        centering: graded.centering,
        centering_offset: graded.centering_offset,
        ...graded.model_grade,
        evidence: graded.evidence,
      },
      damageReportFrontKey: reportKeys.front,
      damageReportBackKey: reportKeys.back,
      createdAt: certificate.issuedAt,
    }),
  ] as const;
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
