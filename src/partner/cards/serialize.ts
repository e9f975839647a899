import { sql } from "drizzle-orm";
import { catalogCards, type gradeRuns } from "../../db/schema";

/**
 * The catalog columns every card view selects, spread into a drizzle `select`. The catalog id is
 * aliased: D1 batches return rows as objects, so two result columns both named `id` would collide.
 */
export const catalogCardColumns = {
  catalogId: sql<number>`${catalogCards.id}`.as("catalog_id"),
  categoryId: catalogCards.categoryId,
  brand: catalogCards.brand,
  year: catalogCards.year,
  setName: catalogCards.setName,
  cardNumber: catalogCards.cardNumber,
  variant: catalogCards.variant,
  playerName: catalogCards.playerName,
  teamName: catalogCards.teamName,
  svcValue: catalogCards.svcValue,
  externalIds: catalogCards.externalIds,
  verified: catalogCards.verified,
  source: catalogCards.source,
};

interface CatalogRow {
  catalogId: number;
  categoryId: number;
  brand: string;
  year: string;
  setName: string;
  cardNumber: string;
  variant: string | null;
  playerName: string;
  teamName: string | null;
  svcValue: number;
  externalIds: Record<string, string> | null;
  verified: boolean;
  source: "catalog" | "submitter";
  category: string;
}

export function toCatalogCard(row: CatalogRow) {
  return {
    id: row.catalogId,
    player_name: row.playerName,
    team_name: row.teamName,
    brand: row.brand,
    year: row.year,
    set_name: row.setName,
    card_number: row.cardNumber,
    variant: row.variant,
    category_id: row.categoryId,
    category: row.category,
    svc_value: row.svcValue,
    external_ids: row.externalIds ?? {},
    verified: row.verified,
    source: row.source,
  };
}

export function toGradeRun(run: typeof gradeRuns.$inferSelect) {
  return {
    id: run.id,
    grading_session_id: run.gradingSessionId,
    centering_overall_grade: run.centeringOverallGrade,
    corners_overall_grade: run.cornersOverallGrade,
    edges_overall_grade: run.edgesOverallGrade,
    surface_overall_grade: run.surfaceOverallGrade,
    full_overall_grade: run.fullOverallGrade,
    created_at: run.createdAt,
  };
}

/** Stored `model_grade` JSON as an object, or null when absent or not an object. */
export function toModelGrade(value: unknown): Record<string, unknown> | null {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
