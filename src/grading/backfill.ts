// Backfill of the partner view: settled submissions of clients linked to a user that have no
// grading session (settled before every outcome got one) get it now, written by the same writer a
// settlement uses (src/grading/partner-view.ts), dated as they were settled, and without
// notifications: the partner's targets are not told about the past. Runs in bounded batches; a
// second run finds nothing left to do.
import { and, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { apiClients, catalogCards, certificates, gradingSessions, submissions } from "../db/schema";
import { damageReportKey } from "./damage-reports";
import { rawValueCents } from "./engine/value";
import { partnerViewWrites } from "./partner-view";
import { loadCatalogValues } from "./references";
import { declaredFromHints } from "./settle";

export interface BackfillResult {
  written: number;
  /** Sessions another writer created meanwhile (nothing to do for them). */
  skipped: number;
  /** True when this batch was full: call again for the rest. */
  more: boolean;
}

export async function backfillPartnerViews(env: Env, db: Database, limit = 50): Promise<BackfillResult> {
  const rows = await db
    .select({ submission: submissions, certificate: certificates, userId: apiClients.userId })
    .from(submissions)
    .innerJoin(apiClients, eq(apiClients.id, submissions.clientId))
    .leftJoin(gradingSessions, eq(gradingSessions.id, submissions.gradingId))
    .leftJoin(certificates, eq(certificates.gradingId, submissions.gradingId))
    .where(
      and(
        inArray(submissions.status, ["complete", "rejected"]),
        isNotNull(submissions.settledAt),
        isNotNull(apiClients.userId),
        isNull(gradingSessions.id),
      ),
    )
    .orderBy(submissions.createdAt)
    .limit(limit);
  const catalog = await loadCatalogValues(db);
  let written = 0;
  let skipped = 0;
  for (const { submission, certificate, userId } of rows) {
    if (userId === null || submission.settledAt === null) continue;
    const settledAt = submission.settledAt;
    const declared = certificate
      ? {
          player: certificate.player,
          year: certificate.year,
          brand: certificate.brand,
          set: certificate.setName,
          category: certificate.category,
        }
      : declaredFromHints(submission.hints);
    // The certificate does not keep the catalog id: an identified card is found by its fields.
    const [match] =
      certificate && certificate.cardSource !== "hints" && certificate.player !== null
        ? await db
            .select({ id: catalogCards.id })
            .from(catalogCards)
            .where(
              and(
                eq(catalogCards.verified, true),
                eq(catalogCards.playerName, certificate.player),
                eq(catalogCards.year, certificate.year ?? ""),
                eq(catalogCards.brand, certificate.brand ?? ""),
                eq(catalogCards.setName, certificate.setName ?? ""),
                eq(catalogCards.cardNumber, certificate.cardNumber ?? ""),
              ),
            )
            .limit(1)
        : [];
    // Reports exist only for submissions that were linked when graded (damage-reports.ts).
    const reportKey = (face: "front" | "back") => damageReportKey(submission.gradingId, face);
    const [front, back] = certificate
      ? await Promise.all([env.IMAGES.head(reportKey("front")), env.IMAGES.head(reportKey("back"))])
      : [null, null];
    const partner = partnerViewWrites(db, {
      userId,
      sessionId: submission.gradingId,
      outcome: certificate ? "success" : "failure",
      card: match
        ? { catalogId: match.id }
        : {
            unverified: {
              ...declared,
              cardNumber: certificate ? certificate.cardNumber : (submission.hints?.card_number ?? null),
              variant: certificate ? certificate.variant : (submission.hints?.variant ?? null),
              svcValueCents: rawValueCents(declared, catalog),
            },
          },
      grade: certificate ? { text: String(certificate.overall), grader: certificate.pipelineGradedBy } : null,
      images: { front: submission.frontImageKey, back: submission.backImageKey },
      uniqueIdentifier: certificate ? Number(certificate.number) : null,
      createdAt: submission.createdAt,
      // The session trigger of migration 0004 accepts a session dated as its submission was settled.
      updatedAt: settledAt,
      gradeRun: certificate
        ? {
            centering: certificate.centering,
            corners: certificate.corners,
            edges: certificate.edges,
            surface: certificate.surface,
            overall: certificate.overall,
            modelGrade: { model_version: certificate.modelVersion, backfilled: true },
            damageReportFrontKey: front ? reportKey("front") : null,
            damageReportBackKey: back ? reportKey("back") : null,
          }
        : null,
    });
    const [first, ...rest] = partner.statements;
    if (!first) continue;
    try {
      // The notifications insert is left out on purpose: no message about the past.
      await db.batch([first, ...rest]);
      written++;
    } catch (error) {
      const alreadyThere =
        isUniqueViolation(error, "grading_sessions", ["id"]) || isUniqueViolation(error, "user_cards", ["share_slug"]);
      if (alreadyThere) skipped++;
      else throw error;
    }
  }
  return { written, skipped, more: rows.length === limit };
}

/** How many settled submissions of linked clients still lack a session (for the operator's report). */
export async function partnerViewsMissing(db: Database): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)` })
    .from(submissions)
    .innerJoin(apiClients, eq(apiClients.id, submissions.clientId))
    .leftJoin(gradingSessions, eq(gradingSessions.id, submissions.gradingId))
    .where(
      and(
        inArray(submissions.status, ["complete", "rejected"]),
        isNotNull(apiClients.userId),
        isNull(gradingSessions.id),
      ),
    );
  return row?.count ?? 0;
}
