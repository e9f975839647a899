// Settling a submission: one unit of work that grades the stored photos and records the outcome.
// A grade writes its certificate, a rejection marks the submission and refunds its quota unit; for
// a client linked to a user either also writes the partner view (src/grading/partner-view.ts), in
// the same D1 batch, which is a transaction. Every write is conditional on the submission still
// processing, so a settlement that races another (a queue retry, a re-drive) changes nothing twice.
import { and, eq, sql } from "drizzle-orm";
import { currentSigningKey, type SigningKey } from "../attestation/keys";
import { digestHex, signAttestation } from "../attestation/sign";
import { createDatabase, type Database } from "../db/client";
import { errorChainText, isUniqueViolation } from "../db/errors";
import { type CertificateRow, certificates, type SubmissionRow, submissions } from "../db/schema";
import { type Config, loadConfig } from "../env";
import { logEvent } from "../errors/log";
import { writeWithStagedImages } from "../storage/images";
import { presignImageUrl } from "../storage/presign";
import { completedEventPayload, dispatchDeliveries, failedEventPayload, publicEventInsert } from "../webhooks/outbox";
import { billRejection } from "./billing";
import { certificateUrl, generateCertificateNumber } from "./certificate-number";
import type { EngineImage, Graded, GradingEngine, RejectionReason } from "./engine/types";
import { certificateValue, type DeclaredCard, rawValueCents } from "./engine/value";
import { createGradingEngine } from "./engines";
import { partnerViewWrites } from "./partner-view";
import { findPreviousCertificates } from "./previous-certificates";
import { loadCatalogReferences, loadCatalogValues } from "./references";

export interface SettleDeps {
  env: Env;
  config: Config;
  db: Database;
  engine: GradingEngine;
}

/**
 * The settlement's dependencies, built here for every caller (a request, the queue consumers, the
 * cron). A request passes its own configuration, its session's database and an engine wrapped to
 * time its steps; the others read the bindings.
 */
export function settleDeps(
  env: Env,
  from: { config?: Config; db?: Database; wrapEngine?: (engine: GradingEngine) => GradingEngine } = {},
): SettleDeps {
  const config = from.config ?? loadConfig(env);
  const engine = createGradingEngine(config);
  return {
    env,
    config,
    db: from.db ?? createDatabase(env.DB),
    engine: from.wrapEngine ? from.wrapEngine(engine) : engine,
  };
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
  const { db, env } = deps;
  const gradingId = submission.gradingId;
  const reportKeys = {
    front: graded.renders.damage_report_front ? `submissions/${gradingId}/damage-report-front.png` : null,
    back: graded.renders.damage_report_back ? `submissions/${gradingId}/damage-report-back.png` : null,
  };
  const reports = [
    reportKeys.front && graded.renders.damage_report_front
      ? { key: reportKeys.front, bytes: graded.renders.damage_report_front.bytes, contentType: "image/png" }
      : null,
    reportKeys.back && graded.renders.damage_report_back
      ? { key: reportKeys.back, bytes: graded.renders.damage_report_back.bytes, contentType: "image/png" }
      : null,
  ];
  try {
    // The damage reports are removed again when the settlement is not recorded.
    return await writeWithStagedImages(env.IMAGES, reports, {
      write: () => recordCertificate(deps, submission, graded, context, digests, reportKeys),
    });
  } catch (error) {
    // The submission was settled by someone else meanwhile (a trigger or the session's unique id
    // aborted the batch).
    if (lostSettlementRace(error)) return currentSettlement(db, gradingId);
    throw error;
  }
}

/** The certificate, the partner view and the deliveries of a graded submission, in one batch. */
async function recordCertificate(
  deps: SettleDeps,
  submission: SubmissionRow,
  graded: Graded,
  context: SettleContext,
  digests: { front: string; back: string },
  reportKeys: { front: string | null; back: string | null },
): Promise<Settlement> {
  const { db } = deps;
  const gradingId = submission.gradingId;

  const [userId, catalog] = await Promise.all([clientUserId(deps, submission, context), loadCatalogValues(db)]);
  const now = new Date().toISOString();
  const card = graded.card;
  const declared: DeclaredCard = {
    player: card.player,
    year: card.year,
    brand: card.brand,
    set: card.set,
    category: card.category,
  };
  const value = certificateValue({
    catalogId: card.catalog_id,
    engineValue: graded.estimated_value,
    declared,
    catalog,
    overall: graded.grades.overall,
  });
  const fingerprint = graded.fingerprint ?? null;
  const previous = fingerprint ? await findPreviousCertificates(db, fingerprint, card.catalog_id) : [];
  const signingKey = await attestationKey(deps, gradingId);
  const issuer = (deps.config.PUBLIC_BASE_URL ?? submission.requestOrigin).replace(/\/$/, "");

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
      valueBasis: value.basis,
      cardSource: card.source,
      frontImageKey: submission.frontImageKey,
      backImageKey: submission.backImageKey,
      pipelineEngine: deps.engine.id,
      pipelineGradedBy: deps.config.GRADED_BY,
      pipelineHostedBy: HOSTED_BY,
      cardId: card.catalog_id,
      frontImageSha256: digests.front,
      backImageSha256: digests.back,
      attestation: null,
      attestationKid: null,
      fingerprint,
      previousCertificates: previous,
      evidence: graded.evidence,
    };
    if (signingKey) {
      const url = certificateUrl(deps.config, submission.requestOrigin, certificate.number);
      certificate.attestation = await signAttestation(signingKey, certificate, { issuer, certificateUrl: url });
      certificate.attestationKid = signingKey.kid;
    }
    const settle = db
      .update(submissions)
      .set({
        status: "complete",
        certificateNumber: certificate.number,
        engine: deps.engine.id,
        settledAt: now,
        settledBy: crypto.randomUUID(),
      })
      .where(and(eq(submissions.gradingId, gradingId), eq(submissions.status, "processing")))
      .returning({ gradingId: submissions.gradingId });
    const insertCertificate = db.insert(certificates).values(certificate);
    const partner =
      userId === null
        ? null
        : partnerViewWrites(db, {
            userId,
            sessionId: gradingId,
            outcome: "success",
            // A card the engine did not find in the catalog becomes an unverified entry from what
            // was declared (or read by a hosted model), valued like the certificate.
            card:
              card.catalog_id !== null
                ? { catalogId: card.catalog_id }
                : {
                    unverified: {
                      ...declared,
                      cardNumber: card.card_number,
                      variant: card.variant,
                      svcValueCents: value.raw_cents,
                    },
                  },
            grade: { text: String(graded.grades.overall), grader: certificate.pipelineGradedBy },
            images: { front: submission.frontImageKey, back: submission.backImageKey },
            uniqueIdentifier: Number(certificate.number),
            createdAt: submission.createdAt,
            updatedAt: now,
            gradeRun: {
              centering: graded.grades.centering,
              corners: graded.grades.corners,
              edges: graded.grades.edges,
              surface: graded.grades.surface,
              overall: graded.grades.overall,
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
            },
          });
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
        ...(partner ? [partner.notifications] : []),
        ...(partner?.statements ?? []),
      ]);
      const partnerIds = partner ? (rest[0] as { id: string }[]) : [];
      await dispatchDeliveries(
        deps.env,
        db,
        gradingId,
        [...events, ...partnerIds].map((row) => row.id),
      );
      return { status: "complete", certificate };
    } catch (error) {
      if (isUniqueViolation(error, "certificates", ["number"]) && attempt < NUMBER_ATTEMPTS) continue;
      throw error;
    }
  }
}

/** The user the submitting client is linked to, or null. */
async function clientUserId(deps: SettleDeps, submission: SubmissionRow, context: SettleContext) {
  if (context.clientUserId !== undefined) return context.clientUserId;
  const client = await deps.db.query.apiClients.findFirst({
    where: (clients, { eq }) => eq(clients.id, submission.clientId),
    columns: { userId: true },
  });
  return client?.userId ?? null;
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

/**
 * The key new attestations are signed with. Without one (no secret configured) the certificate is
 * still issued and its attestation is signed on its first request, once a key exists.
 */
async function attestationKey(deps: SettleDeps, gradingId: string): Promise<SigningKey | null> {
  try {
    return await currentSigningKey(deps.config, deps.db);
  } catch (error) {
    logEvent("error", { grading_id: gradingId, step: "attestation_key" }, error);
    return null;
  }
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
