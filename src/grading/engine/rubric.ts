// The published numbers that turn measurements into grades. Every threshold here is documented in
// the README ("How the built-in engine measures") and changing one changes MODEL_VERSION.

export const MODEL_VERSION = "svc-edge-1.0";

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
 * Wear thresholds: the share (%) of the measured band that shows wear, and the highest grade it
 * allows. Corners are judged on four 4 × 4 mm patches, edges on the 0.3–1.2 mm band along each
 * edge, the surface on the artwork inside the frame.
 */
export const CORNER_WEAR_TABLE: readonly { maxShare: number; grade: number }[] = [
  // Up to 1.5 % is the measurement's own floor on unworn drawn cards (anti-aliased, JPEG-compressed
  // rounded corners against textured tables read as 0.4–1.1 %).
  { maxShare: 1.5, grade: 10 },
  { maxShare: 3, grade: 9.5 },
  { maxShare: 6, grade: 9 },
  { maxShare: 9, grade: 8.5 },
  { maxShare: 13, grade: 8 },
  { maxShare: 18, grade: 7 },
  { maxShare: 25, grade: 6 },
  { maxShare: 33, grade: 5 },
  { maxShare: 42, grade: 4 },
  { maxShare: 55, grade: 3 },
  { maxShare: 70, grade: 2 },
];

export const EDGE_WEAR_TABLE: readonly { maxShare: number; grade: number }[] = [
  { maxShare: 0.3, grade: 10 },
  { maxShare: 1, grade: 9.5 },
  { maxShare: 2, grade: 9 },
  { maxShare: 3.5, grade: 8.5 },
  { maxShare: 5, grade: 8 },
  { maxShare: 8, grade: 7 },
  { maxShare: 12, grade: 6 },
  { maxShare: 18, grade: 5 },
  { maxShare: 25, grade: 4 },
  { maxShare: 35, grade: 3 },
  { maxShare: 50, grade: 2 },
];

export const SURFACE_TABLE: readonly { maxShare: number; grade: number }[] = [
  { maxShare: 0.05, grade: 10 },
  { maxShare: 0.15, grade: 9.5 },
  { maxShare: 0.3, grade: 9 },
  { maxShare: 0.5, grade: 8.5 },
  { maxShare: 0.8, grade: 8 },
  { maxShare: 1.5, grade: 7 },
  { maxShare: 2.5, grade: 6 },
  { maxShare: 4, grade: 5 },
  { maxShare: 6, grade: 4 },
  { maxShare: 9, grade: 3 },
  { maxShare: 14, grade: 2 },
];

export function gradeFromTable(share: number, table: readonly { maxShare: number; grade: number }[]): number {
  for (const row of table) if (share <= row.maxShare + 1e-9) return row.grade;
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
