// A band of one colour lying flat between the table and a dark border along part of a side, and
// widening along it: the card's edge seen beside its face where the card is photographed at a
// slant or lifts off the table (a Magic card's dark core), or its shadow close against the cut.
// Its colour lies between the table's and the border's, so the colour readings
// (refine-outline.ts) put the cut halfway between the two, on the band's outer edge where it is
// wide and on the border's edge where it is not: the side's line tilts between the two. A real
// black border on white paper, its band 1.1 mm wide at the top of its left side and none at the
// bottom, read 1.376 times as tall as wide, no card format; read past the band, 50.8 points left
// to right (50.1 by hand), its frame leaning 0.12 mm against the cut instead of 0.35.
//
// Each profile across the side is read from the border outward: where the colour leaves the
// border's, it either climbs straight to the table's (a cut, however blurred), or first rests on a
// plateau (PLATEAU_PX or longer, flat within PLATEAU_FLATNESS, between PLATEAU_LOW and
// PLATEAU_HIGH of the way from the border's colour to the table's) before it climbs on. Every
// profile's face ends where its colour first climbs halfway from the border's to the plateaus'
// (their median level over the side): where the band narrows to a pixel or two and shows no
// plateau, halfway to the table's would put the cut on the band's outer edge again. The line
// through those points is the side, when they lie on one straight line (MIN_PLATEAU_AGREEMENT), a
// plateau shows on MIN_PLATEAU_SHARE of the profiles or more, and its width changes along the
// side by PLATEAU_WEDGE_PX or more, from none at one end (the median over its fifth of the
// profiles) to at most MAX_PLATEAU_MM at the other: a band all along the side, however it widens,
// is a rim or a border of the card's own print seen at a slant (cut-rim.ts reads a rim), or the
// card's edge seen beside its face all along (cut-bands.ts reads that).
// Not read: a Yu-Gi-Oh! card's brown core beside its dark rim, 0.6 mm wide at the top of a real
// photo's left side and 1.8 mm at the bottom, whose table the median reading found in the band
// (its frame still leans 0.55 mm against the cut, and the photo is refused for it).
import { EDGE_PROFILES, inwardTo, profileBase, type SideGeometry, type Trace, traced } from "./cut-profiles";
import type { RgbSampler } from "./edges";
import type { Line, Point } from "./geometry";
import { colourDistance as distance, luma } from "./image";

/** Only a border darker than this (luma) is read for a plateau beside it. */
const MAX_BORDER_LUMA = 100;

/** ...on a table at least this far from the border's colour (colour distance). */
const MIN_TABLE_CONTRAST = 80;

/** A plateau lies this far, at least and at most, from the border's colour towards the table's (shares of the distance). */
const PLATEAU_LOW = 0.2;

const PLATEAU_HIGH = 0.7;

/** A plateau is at least this long (px)... */
const PLATEAU_PX = 2;

/** ...its colour within this share of the table's distance from the border over that length. */
const PLATEAU_FLATNESS = 0.12;

/**
 * A band at most this wide (mm) at its widest end: 1.1 mm on a real black border on white paper;
 * 2.7 mm of black beside a card's black border was a sleeve's back.
 */
const MAX_PLATEAU_MM = 1.5;

/** A plateau shows on at least this share of a side's profiles. */
const MIN_PLATEAU_SHARE = 0.2;

/** Its width (px) differs by at least this much between the side's two ends (their fifths' medians). */
const PLATEAU_WEDGE_PX = 2;

/**
 * At least this share of the side's profiles lie within 1.5 px of the line (MIN_CLEAN_CUT's 0.9
 * for a cut traced cleanly, less the profiles where the band narrows to nothing: a real black
 * border's left side, 104 of 120).
 */
const MIN_PLATEAU_AGREEMENT = 0.8;

/** The table's colour is reached this far (share) from the border's. */
const TABLE_SHARE = 0.85;

/** How far out past the side's line (px) the table's colour is looked for. */
const OUTWARD_PX = 4;

export interface PlateauCut {
  trace: Trace;
  /** The band's width at the side's two ends (px, the medians over each end's fifth of profiles). */
  widths: [number, number];
}

/**
 * The side's cut past a band lying flat between `table` and a dark `border` along part of it (see
 * the file's head), or null where none does, or the points do not line up as one cut.
 * `reach`: how far (px) inside the line the border is sure to be reached; `pxPerMm`: the card's scale.
 */
export function pastPlateauBand(
  colourAt: RgbSampler,
  side: SideGeometry,
  line: Line,
  reach: number,
  table: number[],
  border: number[],
  pxPerMm: number,
): PlateauCut | null {
  if (luma(border) >= MAX_BORDER_LUMA) return null;
  const full = distance(table, border);
  if (full < MIN_TABLE_CONTRAST) return null;
  const { p, q, nx, ny } = side;
  // Samples 0.5 px apart, from `reach` px inside the line out to OUTWARD_PX + `reach` px outside it.
  const n = Math.round(2 * (2 * reach + OUTWARD_PX)) + 1;
  const pixel = new Float64Array(3);
  const plateauSamples = Math.round(2 * PLATEAU_PX);
  const profiles: (ProfileRead | null)[] = [];
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(p, q, s);
    const inner = inwardTo(side, line, base) + reach;
    const away = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const d = inner - k * 0.5;
      colourAt(base.x + nx * d, base.y + ny * d, pixel);
      away[k] = distance(pixel, border) / full;
    }
    profiles.push(readProfile(away, plateauSamples));
  }
  const levels = profiles.flatMap((read) => (read && read.plateau !== null ? [read.plateau] : []));
  if (levels.length < MIN_PLATEAU_SHARE * EDGE_PROFILES) return null;
  // One level for the whole side (see the file's head).
  levels.sort((a, b) => a - b);
  const target = (levels[Math.floor(levels.length / 2)] ?? 0) / 2;
  const points: Point[] = [];
  const widths: (number | null)[] = [];
  for (const [s, read] of profiles.entries()) {
    const crossing = read && crossingOf(read, target);
    widths.push(read && crossing !== null ? (read.plateau !== null ? (read.tableAt - crossing) * 0.5 : 0) : null);
    if (crossing === null) continue;
    const base = profileBase(p, q, s);
    const d = inwardTo(side, line, base) + reach - crossing * 0.5;
    points.push({ x: base.x + nx * d, y: base.y + ny * d });
  }
  const fifth = Math.round(EDGE_PROFILES / 5);
  const endWidth = (part: (number | null)[]) => {
    const known = part.filter((w): w is number => w !== null).sort((a, b) => a - b);
    return known.length >= fifth / 2 ? (known[Math.floor(known.length / 2)] ?? 0) : null;
  };
  const start = endWidth(widths.slice(0, fifth));
  const end = endWidth(widths.slice(-fifth));
  // The band shows at one end and not at the other: a rim or print of the card's own seen at a
  // slant is nearer the camera at one end, and wider there, but shows all along.
  if (start === null || end === null || Math.min(start, end) > 0 || Math.abs(start - end) < PLATEAU_WEDGE_PX) {
    return null;
  }
  if (Math.max(start, end) > MAX_PLATEAU_MM * pxPerMm) return null;
  const trace = traced(points);
  if (!trace || trace.close.length < MIN_PLATEAU_AGREEMENT * EDGE_PROFILES) return null;
  return { trace, widths: [start, end] };
}

/** One profile read from the border outward (samples 0.5 px apart, each its colour's distance from the border's as a share of the table's). */
interface ProfileRead {
  away: Float64Array;
  /** The first sample past which the colour stays away from the border's. */
  leave: number;
  /** The first sample as far from the border's colour as the table nearly is. */
  tableAt: number;
  /** The level (mean share) of a plateau between the two, if one lies there. */
  plateau: number | null;
}

/**
 * Into the border from the profile's inner end (past any art), out of it, and on to the table's
 * colour; a plateau on the way is the first run of `plateauSamples` + 1 samples flat within
 * PLATEAU_FLATNESS at a level between PLATEAU_LOW and PLATEAU_HIGH. Null when the profile does not
 * go from the border to the table.
 */
function readProfile(away: Float64Array, plateauSamples: number): ProfileRead | null {
  const n = away.length;
  const near = (k: number) => (away[k] ?? 1) <= PLATEAU_LOW / 2;
  let leave = -1;
  for (let k = 0, inBorder = false; k < n - 2; k++) {
    if (!inBorder) inBorder = near(k) && near(k + 1);
    else if (!near(k) && !near(k + 1)) {
      leave = k;
      break;
    }
  }
  if (leave <= 0) return null;
  let plateau: number | null = null;
  for (let k = leave; k < n; k++) {
    if ((away[k] ?? 0) >= TABLE_SHARE) return { away, leave, tableAt: k, plateau };
    if (plateau !== null || k + plateauSamples >= n) continue;
    const run = Array.from(away.subarray(k, k + plateauSamples + 1));
    const lo = Math.min(...run);
    const hi = Math.max(...run);
    if (lo >= PLATEAU_LOW && hi <= PLATEAU_HIGH && hi - lo <= PLATEAU_FLATNESS) {
      plateau = run.reduce((sum, v) => sum + v, 0) / run.length;
    }
  }
  return null;
}

/** Where the profile first climbs through `target` on its way out of the border (in samples, interpolated), or null. */
function crossingOf(read: ProfileRead, target: number): number | null {
  const { away, leave, tableAt } = read;
  for (let k = Math.max(1, leave - 2); k <= tableAt; k++) {
    const a = away[k - 1] ?? 0;
    const b = away[k] ?? 0;
    if (a < target && b >= target) return k - 1 + (target - a) / (b - a);
  }
  return null;
}
