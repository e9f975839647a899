// A dark border on a dark table, the cut between them a thin light line: the card's paper seen at
// its edge, or the cut whitened by wear (an old black-bordered Magic card on navy cloth: the table
// reads luma 74, the border 65, the line 185 at its crest, 2–3 px wide). No colour step leads from
// the table to the border there (they are 10 levels apart): the colour readings
// (refine-outline.ts) find no edge, or put the cut halfway from the table's colour to the
// border's, on the line's inner flank. Read instead: the table's and the border's levels are the
// medians of each profile's outer and inner fifth over the side, both dark (MAX_DARK_LUMA) and
// alike (MAX_SIDES_APART); on each profile, the brightest point, when it stands MIN_RIDGE_RISE
// over the lighter of the two levels and is under MAX_RIDGE_PX wide at half its height, is the
// line's crest. The card's edge on that profile is where the luma, read from the table inward,
// climbs halfway from the table's level to the crest: the line's outer edge, the card's outline.
// The side is the line through those points when enough profiles show a crest and lie on it
// (`traced`); a line of the table or a lamp's reflection along the side lies on too few profiles,
// or is not between two dark sides. refine-outline.ts reads it only where three sides or four
// show it (one or two: the card's edge seen beside its face at a slant).
import { EDGE_PROFILES, profileBase, type SideGeometry, type Trace, traced } from "./cut-profiles";
import type { RgbSampler } from "./edges";
import type { Point } from "./geometry";
import { luma } from "./image";

/** Both sides of the line, the table's and the border's, are at most this light (luma). */
const MAX_DARK_LUMA = 110;

/** ...and at most this far apart (luma): further apart, a colour step shows the cut. */
const MAX_SIDES_APART = 60;

/** The crest stands this much (luma) above each side's level, at least. */
const MIN_RIDGE_RISE = 40;

/** The crest is at most this wide (px) at half its height over the table: a line, not a border. */
const MAX_RIDGE_PX = 8;

/** How far apart (px) each profile is sampled. */
const STEP_PX = 0.5;

/** Every this many profiles, the ends are read first. */
const PRE_READ_STRIDE = 8;

/**
 * The side's line on the crest's outer edge, or null when the side shows no such line (see the
 * file's head). `reach`: how far (px) each profile runs either side of the side's line.
 */
export function ridgeCut(colourAt: RgbSampler, side: SideGeometry, reach: number): Trace | null {
  const { p, q, nx, ny } = side;
  const rgb = new Float64Array(3);
  const count = Math.floor((2 * reach) / STEP_PX) + 1;
  const end = Math.max(2, Math.round(count / 5));
  // First the two ends of every PRE_READ_STRIDE-th profile: most sides have a light table or a
  // light border, and are left at that.
  const level = (base: Point, i: number) => {
    const t = -reach + i * STEP_PX;
    colourAt(base.x + nx * t, base.y + ny * t, rgb);
    return luma(rgb);
  };
  const outerEnds: number[] = [];
  const innerEnds: number[] = [];
  for (let s = 0; s < EDGE_PROFILES; s += PRE_READ_STRIDE) {
    const base = profileBase(p, q, s);
    outerEnds.push(medianOf(Array.from({ length: end }, (_, i) => level(base, i))));
    innerEnds.push(medianOf(Array.from({ length: end }, (_, i) => level(base, count - end + i))));
  }
  if (!darkAndAlike(medianOf(outerEnds), medianOf(innerEnds))) return null;
  const profiles: { base: Point; levels: Float64Array; crest: number }[] = [];
  const tables: number[] = [];
  const borders: number[] = [];
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(p, q, s);
    // From the table in: index 0 lies `reach` px outside the side's line.
    const levels = new Float64Array(count);
    let crest = 0;
    for (let i = 0; i < count; i++) {
      levels[i] = level(base, i);
      if ((levels[i] ?? 0) > (levels[crest] ?? 0)) crest = i;
    }
    profiles.push({ base, levels, crest });
    tables.push(medianOf(levels.subarray(0, end)));
    borders.push(medianOf(levels.subarray(count - end)));
  }
  // The table's and the border's levels over the whole side: a woven table's threads make each
  // profile's own ends vary by 50 levels or more.
  const table = medianOf(tables);
  const border = medianOf(borders);
  if (!darkAndAlike(table, border)) return null;
  const points: Point[] = [];
  for (const { base, levels, crest } of profiles) {
    if (crest < end || crest >= count - end) continue;
    const peak = levels[crest] ?? 0;
    if (peak - Math.max(table, border) < MIN_RIDGE_RISE) continue;
    const half = (table + peak) / 2;
    let outer = crest;
    while (outer > 0 && (levels[outer - 1] ?? 0) >= half) outer--;
    let inner = crest;
    while (inner < count - 1 && (levels[inner + 1] ?? 0) >= (border + peak) / 2) inner++;
    if ((inner - outer + 1) * STEP_PX > MAX_RIDGE_PX || outer === 0) continue;
    // Between the last sample below half and the first at or above it.
    const below = levels[outer - 1] ?? 0;
    const above = levels[outer] ?? 0;
    const t = -reach + (outer - 1 + (half - below) / Math.max(1e-6, above - below)) * STEP_PX;
    points.push({ x: base.x + nx * t, y: base.y + ny * t });
  }
  return traced(points);
}

/** Both sides' levels dark and near enough each other for the line between them to be read. */
const darkAndAlike = (table: number, border: number) =>
  table <= MAX_DARK_LUMA && border <= MAX_DARK_LUMA && Math.abs(table - border) <= MAX_SIDES_APART;

/** The median of `values`. */
function medianOf(values: ArrayLike<number>): number {
  const part = Array.from(values).sort((a, b) => a - b);
  return part[part.length >> 1] ?? 0;
}
