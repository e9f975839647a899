// Recording a graded submission (src/grading/settle.ts calls it): the certificate, signed when a key
// exists, the partner view for a linked client and the deliveries, in one D1 batch that also moves
// the submission to complete. A certificate number that collides is drawn again.
import { and, eq } from "drizzle-orm";
import { currentSigningKey, type SigningKey } from "../attestation/keys";
import { signAttestation } from "../attestation/sign";
import { purgePopulation } from "../cache/population-cache";
import { isUniqueViolation } from "../db/errors";
import { type CertificateRow, certificates, type SubmissionRow, submissions } from "../db/schema";
import { logEvent } from "../errors/log";
import { completedEventPayload, dispatchDeliveries, publicEventInsert } from "../webhooks/outbox";
import { certificateUrl, generateCertificateNumber } from "./certificate-number";
import type { Graded } from "./engine/types";
import { certificateValue, type DeclaredCard } from "./engine/value";
import { partnerViewWrites } from "./partner-view";
import { findPreviousCertificates } from "./previous-certificates";
import { loadCatalogValues } from "./references";

import { clientUserId, type SettleContext, type SettleDeps, type Settlement } from "./settle-deps";

const HOSTED_BY = "Cloudflare Workers";
// The certificate number is random; a collision with an existing one is retried with a new draw.
const NUMBER_ATTEMPTS = 3;

/** The certificate, the partner view and the deliveries of a graded submission, in one batch. */
export async function recordCertificate(
  deps: SettleDeps,
  submission: SubmissionRow,
  graded: Graded,
  context: SettleContext,
  digests: { front: string; back: string },
): Promise<Settlement> {
  const { db } = deps;
  const gradingId = submission.gradingId;

  const fingerprint = graded.fingerprint ?? null;
  // Four independent reads, in parallel: the linked user, the catalog's values, earlier
  // certificates of the same physical card and the attestation key.
  const [userId, catalog, previous, signingKey] = await Promise.all([
    clientUserId(deps, submission, context),
    loadCatalogValues(db),
    fingerprint ? findPreviousCertificates(db, fingerprint, graded.card.catalog_id) : [],
    attestationKey(deps, gradingId),
  ]);
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
      fingerprintFrontLeftMm: fingerprint?.front_borders_mm.left ?? null,
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
              // Named once drawn and stored (damage-reports.ts).
              damageReportFrontKey: null,
              damageReportBackKey: null,
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
      // The card's population report now counts one more: drop its cached copy.
      await purgePopulation(certificate.cardId);
      return { status: "complete", certificate };
    } catch (error) {
      if (isUniqueViolation(error, "certificates", ["number"]) && attempt < NUMBER_ATTEMPTS) continue;
      throw error;
    }
  }
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
