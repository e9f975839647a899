// The partner view of a grading: the user's card, its grading session, the grade run (when there is
// a grade) and one notification per webhook target of that outcome. The one writer of these rows:
// a settled public submission (src/grading/settle.ts, src/grading/record-certificate.ts), an
// ingested grading (src/admin/grading-sessions/ingest.ts) and the backfill (src/grading/backfill.ts)
// all build them here, as statements for the caller's D1 batch, so the view and its notifications
// commit with the settlement or not at all. A second write for the same session id fails on the
// unique index of grading_sessions.id and aborts the whole batch, so a session is written (and
// notified) once.
import { type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { Database } from "../db/client";
import { catalogCards, catalogCategories, gradeRuns, gradingSessions, userCards } from "../db/schema";
import { partnerNotificationsInsert } from "../webhooks/outbox";

/** Category of an unverified entry whose declared category is not in the catalog. */
export const UNIDENTIFIED_CATEGORY = "Unidentified";
/** Player name of an unverified entry when the submitter declared none. */
export const UNIDENTIFIED_PLAYER = "Unidentified card";

/** Fields of a catalog entry built from the submitter's declared hints (verified false). */
export interface UnverifiedCatalogEntry {
  player: string | null;
  year: string | null;
  brand: string | null;
  set: string | null;
  cardNumber: string | null;
  variant: string | null;
  category: string | null;
  /** Raw-copy value in US cents, estimated from comparables (src/grading/engine/value.ts). */
  svcValueCents: number;
}

export interface PartnerViewGradeRun {
  centering: number | null;
  corners: number | null;
  edges: number | null;
  surface: number | null;
  overall: number | null;
  modelGrade: unknown;
  damageReportFrontKey?: string | null;
  damageReportBackKey?: string | null;
}

export interface PartnerViewInput {
  userId: number;
  /** The session id: a public submission's grading_id, or a new UUID for an ingested grading. */
  sessionId: string;
  outcome: "success" | "failure";
  /** An existing catalog card, or an unverified entry to create from the declared hints. */
  card: { catalogId: number } | { unverified: UnverifiedCatalogEntry };
  grade: { text: string; grader: string } | null;
  images: { front: string | null; back: string | null };
  /** The certificate number when there is one; otherwise the next number in the installation. */
  uniqueIdentifier: number | null;
  createdAt: string;
  updatedAt: string;
  gradeRun: PartnerViewGradeRun | null;
}

/** The share slug of the user card a session created; unique, so the rows find each other by it. */
export function partnerViewShareSlug(sessionId: string): string {
  return `svc-${sessionId}`;
}

/**
 * The statements that write the partner view, in order, for the caller's batch, and the insert of
 * its notifications, whose RETURNING gives the delivery ids to dispatch after the batch commits.
 * The backfill leaves the notifications out: past gradings are not notified again.
 */
export function partnerViewWrites(db: Database, input: PartnerViewInput) {
  const shareSlug = partnerViewShareSlug(input.sessionId);
  const userCardId = sql<number>`(SELECT id FROM user_cards WHERE share_slug = ${shareSlug})`;
  const statements: BatchItem<"sqlite">[] = [];
  let cardId: number | SQL<number>;
  if ("catalogId" in input.card) {
    cardId = input.card.catalogId;
  } else {
    const entry = input.card.unverified;
    const category = entry.category?.trim() ?? "";
    statements.push(
      // The declared category when the catalog has it (case-insensitive), else "Unidentified":
      // a submitter's words do not create catalog categories.
      db.insert(catalogCategories).select(
        db
          .select({ id: sql<number>`NULL`.as("id"), name: sql<string>`${UNIDENTIFIED_CATEGORY}`.as("name") })
          .from(sql`(SELECT 1)`)
          .where(sql`NOT EXISTS (SELECT 1 FROM catalog_categories WHERE name = ${UNIDENTIFIED_CATEGORY})`),
      ),
      db.insert(catalogCards).values({
        categoryId: sql<number>`coalesce(
          (SELECT id FROM catalog_categories WHERE lower(name) = lower(${category}) ORDER BY id LIMIT 1),
          (SELECT id FROM catalog_categories WHERE name = ${UNIDENTIFIED_CATEGORY} ORDER BY id LIMIT 1))`,
        brand: entry.brand ?? "",
        year: entry.year ?? "",
        setName: entry.set ?? "",
        cardNumber: entry.cardNumber ?? "",
        variant: entry.variant,
        playerName: entry.player ?? UNIDENTIFIED_PLAYER,
        teamName: null,
        svcValue: entry.svcValueCents,
        externalIds: { svc_submission: input.sessionId },
        verified: false,
        source: "submitter",
      }),
    );
    // The entry just inserted: an INTEGER PRIMARY KEY without AUTOINCREMENT takes max(id) + 1, and
    // the batch is one transaction, so nothing else is inserted in between.
    cardId = sql<number>`(SELECT max(id) FROM catalog_cards)`;
  }
  statements.push(
    db.insert(userCards).values({
      userId: input.userId,
      cardId,
      grade: input.grade?.text ?? null,
      grader: input.grade?.grader ?? null,
      shareSlug,
      frontImageKey: input.images.front,
      backImageKey: input.images.back,
      addedAt: input.createdAt,
      updatedAt: input.updatedAt,
    }),
    db.insert(gradingSessions).values({
      id: input.sessionId,
      userId: input.userId,
      userCardId,
      // Sequential per installation when there is no certificate number, like the numbers graders
      // print on their labels.
      uniqueIdentifier:
        input.uniqueIdentifier ?? sql<number>`(SELECT coalesce(max(unique_identifier), 0) + 1 FROM grading_sessions)`,
      outcome: input.outcome,
      createdAt: input.createdAt,
      updatedAt: input.updatedAt,
    }),
  );
  if (input.gradeRun) {
    const run = input.gradeRun;
    statements.push(
      db.insert(gradeRuns).values({
        gradingSessionId: input.sessionId,
        userCardId,
        centeringOverallGrade: run.centering,
        cornersOverallGrade: run.corners,
        edgesOverallGrade: run.edges,
        surfaceOverallGrade: run.surface,
        fullOverallGrade: run.overall,
        modelGrade: run.modelGrade ?? null,
        damageReportFrontKey: run.damageReportFrontKey ?? null,
        damageReportBackKey: run.damageReportBackKey ?? null,
        createdAt: input.updatedAt,
      }),
    );
  }
  const notifications = partnerNotificationsInsert(db, {
    userId: input.userId,
    gradingSessionId: input.sessionId,
    outcome: input.outcome,
    now: input.updatedAt,
  });
  return { statements, notifications };
}
