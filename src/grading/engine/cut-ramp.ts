// A black border on a light table, a hard shadow along one of its cuts: lit by a lamp close by,
// the shadow is darkest against the card and lightens outward over a millimetre or more, then
// steps to the table at its own edge. Between the table and the black the luma climbs twice: a
// step out of the border at the cut (26 to 55 on a real photo of a modern Magic card on white
// paper), a ramp across the shadow (55 to 115 over 2 mm) and a step to the paper (165). Both
// colour readings (refine-outline.ts) put the cut halfway from the table's colour to the
// border's, in the ramp's middle, and the coarse outline may lie on the shadow's outer step, 3 mm
// out: cutPastContactShadow leaves a black border alone, as no colour tells it from a shadow.
// Read here: over profiles 1 mm outside to 5 mm inside the side, the border's black (its 20th
// percentile over the side, at most MAX_BLACK_LUMA) and the table's level (the profiles' outer
// ends, at least MIN_TABLE_ABOVE_BLACK above it); on each profile, the black's outermost run
// (BORDER_RUN_MM long) and the step out of it, whose half-rise is the cut. The band beyond it, to
// where the table's level begins, is a shadow when it is MIN_BAND_MM wide or more (the card's
// edge seen at a slant, its paper core, is a third of a millimetre at most), starts
// MIN_STEP_OUT over the black and MIN_BELOW_TABLE under the table, and rises outward by
// MIN_RAMP_RISE or more (a shadow lightens away from the card; a printed band or a sleeve's
// margin is flat), keeping the table's chromaticity (MAX_BAND_HUE_OFF: a shadow darkens the
// table, a coloured border is another colour). The step out of the black must level off into the
// band (MAX_RISE_PAST_STEP): a black cut blurred with no shadow beside it rises fastest at its
// middle. The side is the line through those cuts when enough profiles show one (`traced`).
import { EDGE_PROFILES, profileBase, type SideGeometry, type Trace, traced } from "./cut-profiles";
import type { RgbSampler } from "./edges";
import type { Point } from "./geometry";
import { DARK_HUE_LEVELS, hueLevels, luma } from "./image";

/** The border is black: its 20th percentile over the side's profiles at most this (luma). */
const MAX_BLACK_LUMA = 45;

/** The table lies at least this far above the black (luma). */
const MIN_TABLE_ABOVE_BLACK = 90;

/** The border's black runs at least this long (mm) inward from the cut. */
const BORDER_RUN_MM = 0.5;

/** ...within this of the black's level (luma). */
const BORDER_SLACK = 15;

/** The band outside the cut starts at least this far above the black (luma)... */
const MIN_STEP_OUT = 20;

/** ...and at least this far under the table (luma)... */
const MIN_BELOW_TABLE = 40;

/** ...is at least this wide (mm)... */
const MIN_BAND_MM = 0.6;

/**
 * ...and lightens outward: its median level at least this much (luma) over its level a quarter of
 * its width out from the cut (a quarter of the rise, for an even ramp). Read from a quarter of the
 * width in from each end instead, a drawn flat grey band 0.76 mm wide, blurred by 0.8 px, was
 * read past (`refine-outline.test.ts`).
 */
const MIN_RAMP_RISE = 12;

/**
 * ...and the step out of the black levels off into it: over the 0.3 mm past the step (STEP_MM) the
 * profile rises at most this share of its rise over the step, in the median over the side's
 * profiles. A black border's cut blurred, with no shadow beside it, is one rise from the black to
 * the table, steepest at its middle: the step read at its foot, the band is its upper half, and
 * the cut was put 0.4 mm inside the card (a real webcam photo of a Magic card on light wood, with
 * a warm cast or shrunk to 1,200 px: the next 0.3 mm rose 1.2 times the step, 2.4 centering
 * points). Beside the hard shadows of real photos and their copies it rose 0.40–0.68 times the
 * step (0.99 on one copy blurred twice, whose ramp was not taken before either); beside blurred
 * black cuts without one, 1.2–1.9 times.
 */
const MAX_RISE_PAST_STEP = 0.8;

/** The step out of the black is read over this (mm). */
const STEP_MM = 0.3;

/**
 * ...and keeps the table's chromaticity: its red and green shares of r + g + b each as the
 * table's, their differences summing to at most this. Without it, a drawn red border 0.9 mm
 * wide on beige, the dark parts of its art taken for the black, was read as such a band and the
 * card cut short (refused, 1.382 tall).
 */
const MAX_BAND_HUE_OFF = 0.05;

/** The profiles run this far outside the side's line (mm)... */
const OUTSIDE_MM = 1;

/** ...and this far inside it (mm). */
const INSIDE_MM = 5;

/** Sample spacing along a profile (px). */
const STEP_PX = 0.5;

/** Every this many profiles are read first (see cutBeforeShadowRamp). */
const PRE_READ_STRIDE = 8;

/**
 * The side's line on the cut between a black border and a hard shadow lightening outward beside
 * it, or null when the side shows no such shadow (see the file's head). `side`: the outline's
 * side as found, its normal inward; `pxPerMm`: the card's scale.
 */
export function cutBeforeShadowRamp(colourAt: RgbSampler, side: SideGeometry, pxPerMm: number): Trace | null {
  const { p, q, nx, ny } = side;
  const rgb = new Float64Array(3);
  const from = -OUTSIDE_MM * pxPerMm;
  const count = Math.floor(((OUTSIDE_MM + INSIDE_MM) * pxPerMm) / STEP_PX) + 1;
  const perMm = pxPerMm / STEP_PX;
  const outerEnd = Math.max(2, Math.round(0.5 * perMm));
  const read = (s: number): Profile => {
    const base = profileBase(p, q, s);
    const levels = new Float64Array(count);
    const redShare = new Float64Array(count);
    const greenShare = new Float64Array(count);
    const colours = new Float64Array(3 * count);
    for (let i = 0; i < count; i++) {
      const t = from + i * STEP_PX;
      colourAt(base.x + nx * t, base.y + ny * t, rgb);
      levels[i] = luma(rgb);
      colours.set(rgb, 3 * i);
      const sum = Math.max(1, (rgb[0] ?? 0) + (rgb[1] ?? 0) + (rgb[2] ?? 0));
      redShare[i] = (rgb[0] ?? 0) / sum;
      greenShare[i] = (rgb[1] ?? 0) / sum;
    }
    return { base, levels, colours, redShare, greenShare };
  };
  // Every PRE_READ_STRIDE-th profile first: the side's black, its table and the table's
  // chromaticity are read from them, and most sides (no black border, a light one, no shadow
  // beside it) are left at that.
  const sampled: Profile[] = [];
  for (let s = 0; s < EDGE_PROFILES; s += PRE_READ_STRIDE) sampled.push(read(s));
  const all: number[] = [];
  for (const { levels } of sampled) for (let i = 0; i < count; i++) all.push(levels[i] ?? 0);
  all.sort((a, b) => a - b);
  const black = all[Math.floor(all.length * 0.2)] ?? 255;
  const table = median(sampled.map(({ levels }) => median(Array.from(levels.subarray(0, outerEnd)))));
  if (black > MAX_BLACK_LUMA || table - black < MIN_TABLE_ABOVE_BLACK) return null;
  // A dark border that shows its ink's hue (a navy back) is no black: a band beside it is told
  // from it by hue (cut-bands.ts, isDarkBand), and its shadow need not lighten outward.
  if (hueLevels(blackColour(sampled, black + BORDER_SLACK)) >= DARK_HUE_LEVELS) return null;
  // The table's chromaticity: a shadow on it keeps it (a thin red border does not).
  const hue: Hue = {
    red: median(sampled.map(({ redShare }) => median(Array.from(redShare.subarray(0, outerEnd))))),
    green: median(sampled.map(({ greenShare }) => median(Array.from(greenShare.subarray(0, outerEnd))))),
  };
  const levels = { black, table, perMm };
  if (!sampled.some((profile) => cutOn(profile, levels, hue) !== null)) return null;
  const points: Point[] = [];
  const risesPast: number[] = [];
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const profile = read(s);
    const found = cutOn(profile, levels, hue);
    if (found === null) continue;
    const t = from + found.cut * STEP_PX;
    points.push({ x: profile.base.x + nx * t, y: profile.base.y + ny * t });
    risesPast.push(found.risePast);
  }
  return median(risesPast) <= MAX_RISE_PAST_STEP ? traced(points) : null;
}

/** The mean colour of the profiles' samples no lighter than `level` (luma). */
function blackColour(profiles: Profile[], level: number): number[] {
  const sum = [0, 0, 0];
  let count = 0;
  for (const { levels, colours } of profiles) {
    for (let i = 0; i < levels.length; i++) {
      if ((levels[i] ?? 255) > level) continue;
      for (let ch = 0; ch < 3; ch++) sum[ch] = (sum[ch] ?? 0) + (colours[3 * i + ch] ?? 0);
      count++;
    }
  }
  return sum.map((v) => v / Math.max(1, count));
}

interface Profile {
  base: Point;
  /** Luma from the outer end in, STEP_PX apart. */
  levels: Float64Array;
  /** The samples' colours, r, g, b in turn. */
  colours: Float64Array;
  /** Red's and green's shares of r + g + b at the same samples. */
  redShare: Float64Array;
  greenShare: Float64Array;
}

interface Hue {
  red: number;
  green: number;
}

/**
 * The cut on one profile, as a fractional sample index: the half-rise out of the black's outermost
 * run into a shadow band (see the file's head), with the profile's rise over the STEP_MM past the
 * step as a share of its rise over the step (MAX_RISE_PAST_STEP); null when the profile shows none.
 */
function cutOn(
  { levels, redShare, greenShare }: Profile,
  { black, table, perMm }: { black: number; table: number; perMm: number },
  hue: Hue,
): { cut: number; risePast: number } | null {
  const count = levels.length;
  const run = Math.round(BORDER_RUN_MM * perMm);
  // The black's outermost run.
  let start = -1;
  for (let i = 0; i + run < count && start < 0; i++) {
    let inRun = true;
    for (let j = i; j <= i + run && inRun; j++) inRun = (levels[j] ?? 255) <= black + BORDER_SLACK;
    if (inRun) start = i;
  }
  if (start <= 0) return null;
  // Out of it: the band's inner level is where the step out of the black levels off (its highest
  // point within 0.3 mm out).
  const stepPx = Math.round(STEP_MM * perMm);
  const stepEnd = Math.max(0, start - stepPx);
  let bandStart = 0;
  for (let i = start - 1; i >= stepEnd; i--) bandStart = Math.max(bandStart, levels[i] ?? 0);
  if (bandStart - black < MIN_STEP_OUT || table - bandStart < MIN_BELOW_TABLE) return null;
  const stepRise = (levels[stepEnd] ?? 0) - (levels[start] ?? 0);
  const risePast = ((levels[Math.max(0, stepEnd - stepPx)] ?? 0) - (levels[stepEnd] ?? 0)) / Math.max(1, stepRise);
  // The cut: the half-rise from the black to the band, walking out from the run.
  const half = (black + bandStart) / 2;
  let i = start;
  while (i > 0 && (levels[i - 1] ?? 0) < half) i--;
  if (i === 0) return null;
  const below = levels[i] ?? 0;
  const above = levels[i - 1] ?? 0;
  const cut = i - (half - below) / Math.max(1e-6, above - below);
  // The band: out to where the table's level begins (within MIN_BELOW_TABLE / 2 of it).
  let outer = i - 1;
  while (outer > 0 && (levels[outer - 1] ?? 0) < table - MIN_BELOW_TABLE / 2) outer--;
  if (outer === 0 || (cut - outer) / perMm < MIN_BAND_MM) return null;
  // Rising outward: the band's median level over its level a quarter of its width out from the
  // cut (read over a fifth of the width), clear of the blur at its outer end (a flat band,
  // blurred, rises there).
  const width = cut - outer;
  const levelAt = (share: number) => {
    const centre = outer + share * width;
    const from = Math.max(outer, Math.round(centre - width / 10));
    return median(Array.from(levels.subarray(from, Math.max(from + 1, Math.round(centre + width / 10)))));
  };
  if (median(Array.from(levels.subarray(outer, Math.floor(cut)))) - levelAt(0.75) < MIN_RAMP_RISE) return null;
  // The table's own colour, darkened: its chromaticity over the band's middle.
  const fifth = Math.max(1, Math.round(width / 5));
  const middle = Array.from({ length: Math.max(1, Math.floor(cut) - outer - 2 * fifth) }, (_, j) => outer + fifth + j);
  const hueOff =
    Math.abs(median(middle.map((j) => redShare[j] ?? 0)) - hue.red) +
    Math.abs(median(middle.map((j) => greenShare[j] ?? 0)) - hue.green);
  return hueOff > MAX_BAND_HUE_OFF ? null : { cut, risePast };
}

function median(values: number[]): number {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
}
