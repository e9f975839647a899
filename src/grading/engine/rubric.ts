// The published numbers that turn measurements into grades. Every threshold here is documented in
// the README ("How the built-in engine measures") and changing one changes MODEL_VERSION.

export const MODEL_VERSION = "svc-edge-1.1";

/**
 * Centering tolerances per grade, as the worse side's share of the border (e.g. 60 = 60/40).
 * Whole grades follow PSA's published grading standards (psacard.com/gradingstandards): a 10 allows
 * 55/45 on the front and 75/25 on the back, a 9 60/40 and 90/10, an 8 65/35, a 7 70/30, a 6 80/20,
 * a 5 85/15, a 3 90/10. Half grades sit halfway between their neighbours.
 */
export const CENTERING_TABLE: readonly { grade: number; front: number; back: number }[] = [
  { grade: 10, front: 55, back: 75 },
  { grade: 9.5, front: 57.5, back: 82.5 },
  { grade: 9, front: 60, back: 90 },
  { grade: 8.5, front: 62.5, back: 90 },
  { grade: 8, front: 65, back: 90 },
  { grade: 7.5, front: 67.5, back: 90 },
  { grade: 7, front: 70, back: 90 },
  { grade: 6, front: 80, back: 90 },
  { grade: 5, front: 85, back: 90 },
  { grade: 3, front: 90, back: 90 },
];

/** Grade from the worse axis of each face (share of the larger border, 50–100). */
export function centeringGrade(frontWorst: number, backWorst: number | null): number {
  for (const row of CENTERING_TABLE) {
    if (frontWorst <= row.front + 1e-9 && (backWorst === null || backWorst <= row.back + 1e-9)) return row.grade;
  }
  return 1;
}

/**
 * Wear thresholds: how much damage wear.ts and surface.ts measured, and the highest grade it
 * allows. Corners: the worn area (whitened or missing) of the worst corner, in mm² (a 1 mm
 * whitened rim on a 3 mm rounded corner is about 3 mm²). Edges: the length of edge, all four sides,
 * whose 0.25–1.2 mm band is worn, in mm. Surface: the total length of line defects (scratches,
 * creases), in mm.
 */
export const CORNER_WEAR_TABLE: readonly { max: number; grade: number }[] = [
  { max: 0.15, grade: 10 },
  { max: 0.3, grade: 9.5 },
  { max: 0.6, grade: 9 },
  { max: 1, grade: 8.5 },
  { max: 1.5, grade: 8 },
  { max: 2.5, grade: 7 },
  { max: 4, grade: 6 },
  { max: 6, grade: 5 },
  { max: 8, grade: 4 },
  { max: 11, grade: 3 },
  { max: 15, grade: 2 },
];

export const EDGE_WEAR_TABLE: readonly { max: number; grade: number }[] = [
  { max: 0.5, grade: 10 },
  { max: 1.5, grade: 9.5 },
  { max: 3, grade: 9 },
  { max: 5, grade: 8.5 },
  { max: 8, grade: 8 },
  { max: 12, grade: 7 },
  { max: 18, grade: 6 },
  { max: 26, grade: 5 },
  { max: 36, grade: 4 },
  { max: 50, grade: 3 },
  { max: 70, grade: 2 },
];

export const SURFACE_TABLE: readonly { max: number; grade: number }[] = [
  { max: 1, grade: 10 },
  { max: 3, grade: 9.5 },
  { max: 6, grade: 9 },
  { max: 10, grade: 8.5 },
  { max: 15, grade: 8 },
  { max: 25, grade: 7 },
  { max: 40, grade: 6 },
  { max: 60, grade: 5 },
  { max: 90, grade: 4 },
  { max: 130, grade: 3 },
  { max: 180, grade: 2 },
];

export function gradeFromTable(share: number, table: readonly { max: number; grade: number }[]): number {
  for (const row of table) if (share <= row.max + 1e-9) return row.grade;
  return 1;
}

/**
 * Overall grade: the mean of the four subgrades, capped at the lowest subgrade + 1 (a card is held
 * back by its worst attribute, as graders publish), rounded down to a half point.
 */
export function overallGrade(subgrades: {
  centering: number;
  corners: number;
  edges: number;
  surface: number;
}): number {
  const values = [subgrades.centering, subgrades.corners, subgrades.edges, subgrades.surface];
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const capped = Math.min(mean, Math.min(...values) + 1);
  return Math.max(1, Math.floor(capped * 2 + 1e-9) / 2);
}
