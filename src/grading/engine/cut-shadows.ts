// Shadows and lines of the table beside a side's cut (refine-outline.ts): where the readings
// took them in, the cut read past them, and where a second edge is the table's, the first kept.
// A hard shadow against the cut, blurred into one ramp with it, fools both readings alike: where
// they agree but a band darker than both the table and the card lies outside the cut, the side is
// read a third way, in colour a shadow does not change (cutPastContactShadow). So is a wider, soft
// one that both readings took in (or the crossings did, and the median profile met no step into
// the card, the border's colour then taken from the sides that agree), when what lies between
// their line and the cut so read is the table in shadow.
// Where the two readings find two edges in the penumbra of a soft shadow cast beside a narrow
// dark band along the cut (the card's edge, its contact shadow), the face begins where the colour
// rises out of the band into the border's: the penumbra darkens the table at least three times as
// gradually as the face rises (a cut is as sharp as the photo), and the band is at most 1 mm wide
// (pastSoftShadow; a printed rim is wider, and rises into the body's colour, not the border's).

import { colourAcross, DARK_BAND_DEPTH, facesPastBand, liesInside, SHADOW_BAND, type WideBand } from "./cut-bands";
import {
  EDGE_PROFILES,
  inwardTo,
  linesApart,
  MAX_BORDER_DIFFERENCE,
  MAX_EDGE_DISAGREEMENT,
  MIN_CLEAN_CUT,
  profileBase,
  profileIndex,
  realStep,
  risingCrossing,
  type SideGeometry,
  type SideReadings,
  sideFromMedianProfile,
  type Trace,
  traced,
} from "./cut-profiles";
import type { RgbSampler } from "./edges";
import type { Line, Point } from "./geometry";
import { colourDistance as distance, luma, medianColour, sameInk } from "./image";

/** Share of a side's profiles that must show the table's colour just outside the crossings' line. */
const MIN_TABLE_BESIDE = 0.2;

/**
 * The cut beside a hard shadow lying against it: a band darker than both the table and the card
 * just outside the cut, narrower than the blur can separate, so both readings take the table's
 * side of their step inside the band and place the cut out in it (a 0.6 mm shadow in a softened
 * photo: 1.5 px out, 2.2 centering points). Read again in colour a shadow does not change
 * (shadowFreePoints), the cut comes back: taken when both readings agree, the band is there, and
 * the cut read so lies 0.5–3 px inside theirs. A wider, softer shadow (1–1.5 mm in a softened
 * photo: 6–9 px) is not darker than a yellow border: the cut read so is taken further in (up to
 * the reach), or when only the crossings traced the side (`reading.profile` null), when what lies
 * between is the table in shadow (tableInShadow). Null otherwise, or when the card's colour
 * differs from the table's in brightness only (a black border: no colour tells it from a shadow).
 */
export function cutPastContactShadow(
  colourAt: RgbSampler,
  side: SideGeometry,
  reach: number,
  reading: { crossings: Trace; profile: Trace | null; card: number[]; medianProfile: number[][] },
): Trace | null {
  const { crossings, profile, card, medianProfile } = reading;
  if (profile && linesApart(side, crossings.line, profile.line) > MAX_EDGE_DISAGREEMENT) return null;
  const { p, q } = side;
  // The median profile (sideFromMedianProfile, over the same reach) from its outer end, the
  // table's colour, in to the side's line.
  const outside = medianProfile.slice(0, 2 * reach + 1);
  const table = outside[0];
  if (!table) return null;
  const floor = Math.min(luma(table), luma(card)) - Math.max(8, 0.1 * Math.abs(luma(table) - luma(card)));
  const darkBand = outside.some((colour) => luma(colour) < floor);
  const free = traced(shadowFreePoints(colourAt, side, reach, table, card));
  if (!free) return null;
  // How far inside the crossings' line the shadow-free one lies, at both ends of the side.
  const shifts = [p, q].map((end) => inwardTo(side, free.line, end) - inwardTo(side, crossings.line, end));
  if (!shifts.every((shift) => shift >= MIN_SHADOW_SHIFT)) return null;
  // A hard shadow: a band darker than both, the cut at most MAX_SHADOW_SHIFT inside both readings.
  if (darkBand && profile !== null && shifts.every((shift) => shift <= MAX_SHADOW_SHIFT)) return free;
  // A wider or softer one (or one the median profile traced no line through): what lies between
  // must be the table in shadow.
  return shifts.every((shift) => shift <= reach) && tableInShadow(colourAt, side, crossings.line, free.line, table)
    ? free
    : null;
}

/**
 * A side whose two readings found two edges (`side.crossings` and `side.median`, apart by more
 * than MAX_EDGE_DISAGREEMENT), where the band between them is the table in the card's cast
 * shadow (tableInShadow: on a table light enough to show a hue, the same hue as the table, darker),
 * as neither a sleeve's margin (the table seen through plastic, lighter or
 * tinted, or the sleeve's own colour) nor a second card is. Read in colour a shadow does not
 * change (shadowFreePoints), the cut must then lie on the inner of the two edges, within
 * MAX_EDGE_DISAGREEMENT of it at both ends of the side; that line is the side. Null otherwise.
 */
export function pastCastShadow(
  colourAt: RgbSampler,
  side: SideReadings,
  reach: number,
  table: number[],
  card: number[] | null,
): Trace | null {
  if (!card || !side.crossings || !side.median) return null;
  const depth = (line: Line) => (inwardTo(side, line, side.p) + inwardTo(side, line, side.q)) / 2;
  const [outer, inner] =
    depth(side.crossings.line) < depth(side.median.line)
      ? [side.crossings, side.median]
      : [side.median, side.crossings];
  const free = traced(shadowFreePoints(colourAt, side, reach, table, card));
  if (!free || linesApart(side, free.line, inner.line) > MAX_EDGE_DISAGREEMENT) return null;
  return tableInShadow(colourAt, side, outer.line, free.line, table) ? free : null;
}

/**
 * True when the band between two lines along a side (`outer` toward the table, `cut` toward the
 * card) is the table in the card's shadow: its colour midway between them, the median along the
 * side's middle 60 %, has the table's hue (image.ts, sameInk) and at most SHADOW_MAX_BRIGHTNESS of
 * its brightness.
 */
function tableInShadow(colourAt: RgbSampler, side: SideGeometry, outer: Line, cut: Line, table: number[]): boolean {
  const { p, q, nx, ny } = side;
  const pixel = new Float64Array(3);
  const band: number[][] = [];
  for (let t = 0.2; t <= 0.8 + 1e-9; t += 0.02) {
    const at = { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
    const d = (inwardTo(side, outer, at) + inwardTo(side, cut, at)) / 2;
    colourAt(at.x + nx * d, at.y + ny * d, pixel);
    band.push([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0]);
  }
  // On a dark table a shadow has no hue left to tell it by.
  if (luma(table) < MIN_SHADOWED_TABLE_LUMA) return false;
  const shade = medianColour(band);
  if (!shade || !sameInk(shade, table)) return false;
  return luma(shade) <= SHADOW_MAX_BRIGHTNESS * luma(table);
}

/** How far (px) past where the border's colour came back pastWideShadow reads the rise out of the band. */
const RISE_PAST_PX = 4;

/**
 * The card's face past a wide dark band (darkBandBeyondReach) that is a soft shadow cast on the
 * table: its penumbra begins outside the side's line (the side's median profile darkens from the
 * table toward the line by DARK_BAND_DEPTH or more, never rising back by more than
 * PENUMBRA_SLACK), and the colour falls from the table's to the band's darkest (10–90 %, over the
 * median profile and the band read across the side) over SOFT_SHADOW_RATIO times or more the
 * distance over which it rises out of it into the border's: a cut is as sharp as the photo, a
 * penumbra is not. A dark bar printed along the cut has the table flat outside it and the cut
 * for its outer edge. Each profile's face past the band (facesPastBand, SHADOW_BAND, around its
 * darkest) must then trace a line lying inside `line` within the band's width and 3 px; that line
 * is the side. (A real photo's Yu-Gi-Oh! card lying on a light grey table: below its bottom cut a
 * shadow falling over 14 px from the table's luma 177 to 30, its rim's blue-grey rising out of it
 * over 2 px, 19 px in from the outline's side on the penumbra.) Null otherwise.
 */
export function pastWideShadow(
  colourAt: RgbSampler,
  side: SideReadings,
  line: Line,
  band: WideBand,
  table: number[],
): Trace | null {
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  // The median profile's samples (0.5 px apart) from its outer end to the line, then the median
  // across the side (1 px apart) on in past the border's return: positions in px from the line.
  const lineSample = profileIndex(side, inwardTo(side, line, mid));
  const outside = side.medianProfile.slice(0, Math.max(0, Math.min(side.medianProfile.length, lineSample + 1)));
  if (outside.length < 3) return null;
  // Read across the side past where the border's colour came back, to take in the whole rise.
  const inside = Array.from({ length: band.px + RISE_PAST_PX }, (_, d) => ({
    at: d + 1,
    level: luma(colourAcross(colourAt, side, line, d + 1)),
  }));
  const profile: { at: number; level: number }[] = [
    ...outside.map((colour, k) => ({ at: (k - lineSample) / 2, level: luma(colour) })),
    ...inside,
  ];
  const tableLevel = profile[0]?.level ?? luma(table);
  const lineLevel = luma(outside[outside.length - 1] as number[]);
  let lowest = tableLevel;
  for (const { level } of profile.slice(0, outside.length)) {
    if (level > lowest + PENUMBRA_SLACK) return null;
    lowest = Math.min(lowest, level);
  }
  if (lineLevel > tableLevel - DARK_BAND_DEPTH) return null;
  let darkest = 0;
  for (let k = 1; k < profile.length; k++) if ((profile[k]?.level ?? 0) < (profile[darkest]?.level ?? 0)) darkest = k;
  const low = profile[darkest]?.level ?? 0;
  const borderLevel = luma(band.border);
  if (low > Math.min(tableLevel, borderLevel) - DARK_BAND_DEPTH) return null;
  // Where the profile first comes within `share` of the way from the darkest to `level`, outward
  // from the darkest (the fall) or inward (the rise), in px from the line.
  const reaches = (share: number, level: number, step: 1 | -1) => {
    for (let k = darkest + step; k >= 0 && k < profile.length; k += step) {
      const here = profile[k] as { at: number; level: number };
      if (here.level >= low + share * (level - low)) return here.at;
    }
    return null;
  };
  const [fall10, fall90] = [reaches(0.9, tableLevel, -1), reaches(0.1, tableLevel, -1)];
  const [rise10, rise90] = [reaches(0.1, borderLevel, 1), reaches(0.9, borderLevel, 1)];
  if (fall10 === null || fall90 === null || rise10 === null || rise90 === null) return null;
  if (fall90 - fall10 < SOFT_SHADOW_RATIO * Math.max(1, rise90 - rise10)) return null;
  const width = band.px;
  const around = profile[darkest]?.at ?? 0;
  const faces = facesPastBand(colourAt, side, line, width + 3, table, band.border, SHADOW_BAND, around);
  const face = traced(faces.filter((point): point is Point => point !== null));
  return face && liesInside(side, line, face.line, width + 3) ? face : null;
}

/**
 * A shadow's penumbra darkens the table at least this many times as gradually (10–90 %, px) as
 * the card's face rises out of the band beside it: a cut is as sharp as the photo, a soft shadow's
 * edge is not.
 */
const SOFT_SHADOW_RATIO = 3;

/** The dark band between a soft shadow and the face (the card's edge, its contact shadow) is at most this wide (mm). */
const MAX_EDGE_BAND_MM = 1;

/** Going down a penumbra, the median profile may rise back by at most this much (luma). */
const PENUMBRA_SLACK = 6;

/**
 * The face of a side whose two readings found two edges, the outer of them in the penumbra of a
 * soft shadow cast on the table beside a narrow dark band (the card's edge seen beside its face,
 * its contact shadow). Read in from the outer reading, the side's median profile falls to its
 * darkest and then rises out of it (by DARK_BAND_DEPTH, or halfway to the border's luma) into a
 * colour within twice MAX_BORDER_DIFFERENCE of the card's border as the agreeing sides show it
 * (`border`) or as it would show in this side's light (`relit`); the darkest lies DARK_BAND_DEPTH
 * below both that colour and the table's, and further than twice MAX_BORDER_DIFFERENCE from the
 * border's. Out from the darkest to the table the profile darkens steadily (never rising back by
 * more than PENUMBRA_SLACK), over SOFT_SHADOW_RATIO times or more the distance over which it rises
 * into the border (10–90 % each: a cut is as sharp as the photo, a penumbra is not); the band
 * between them (darker than a tenth of the way back to either) is at most MAX_EDGE_BAND_MM wide;
 * the penumbra's middle has the table's hue, darker (a shadow's). The face is then read on each
 * profile past the band near the median profile's (facesPastBand, SHADOW_BAND), within `reach` of
 * the outer reading, and its line must lie within 1.5 px of the rise on the median profile at the
 * side's middle. (Real photos of Yu-Gi-Oh! cards: below one's bottom edge on a grey table a
 * penumbra 9 px wide, then 4 px of near black, then the rim's blue-grey, both readings in the
 * penumbra; above another's top edge on grey cloth a penumbra 7 px wide, then 2 px of dark, the
 * median reading on the rise and the crossings in the penumbra.) A printed rim darker than the
 * body is wider than the band allowed, or rises into the body's colour, not the border's; and a
 * cut against the table is sharp. Null otherwise.
 */
export function pastSoftShadow(
  colourAt: RgbSampler,
  side: SideReadings,
  reach: number,
  table: number[],
  border: number[],
  relit: number[] | null,
  pxPerMm: number,
): Trace | null {
  if (!side.crossings || !side.median) return null;
  const profile = side.medianProfile;
  const half = (profile.length - 1) / 4;
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  const depths = [side.crossings, side.median].map((trace) => inwardTo(side, trace.line, mid));
  const outer = (depths[0] ?? 0) <= (depths[1] ?? 0) ? side.crossings : side.median;
  // Sample k of the median profile lies at depth -half + k / 2.
  const from = Math.max(0, Math.round(2 * (Math.min(...depths) + half)));
  const shade = profile.map((colour) => luma(colour));
  const level = (k: number) => shade[k] ?? 0;
  // The darkest sample before the profile rises out of it toward the border (DARK_BAND_DEPTH or
  // halfway to the border's luma, the more).
  const borderLuma = Math.min(luma(border), luma(relit ?? border));
  let darkest = from;
  let rising = -1;
  for (let k = from; k < profile.length && rising < 0; k++) {
    if (level(k) < level(darkest)) darkest = k;
    else if (level(k) >= level(darkest) + Math.max(DARK_BAND_DEPTH, (borderLuma - level(darkest)) / 2)) rising = k;
  }
  if (rising < 0) return null;
  // The border past the rise: its colour where the profile stops rising, as the agreeing sides
  // show it or as it would show in this side's light.
  let top = rising;
  while (top + 1 < profile.length && level(top + 1) > level(top)) top++;
  const shown = medianColour(profile.slice(Math.max(rising, top - 1), top + 2));
  const own = [border, relit].filter((colour): colour is number[] => colour !== null);
  const ink = shown && own.find((colour) => distance(shown, colour) <= 2 * MAX_BORDER_DIFFERENCE);
  const band = profile[darkest];
  if (!shown || !ink || !band || distance(band, ink) <= 2 * MAX_BORDER_DIFFERENCE) return null;
  const low = level(darkest);
  const tableLuma = level(0);
  if (low > Math.min(luma(shown), tableLuma) - DARK_BAND_DEPTH) return null;
  // The rise into the border, inward from the darkest sample.
  const up = (share: number) => {
    for (let k = darkest + 1; k <= top; k++) if (level(k) >= low + share * (luma(shown) - low)) return k;
    return -1;
  };
  const [rise10, rise90] = [up(0.1), up(0.9)];
  if (rise10 < 0 || rise90 < 0) return null;
  // The penumbra, outward from the darkest sample to the table.
  const down = (share: number) => {
    for (let k = darkest - 1; k >= 0; k--) if (level(k) >= low + share * (tableLuma - low)) return k;
    return -1;
  };
  const [fall10, fall90] = [down(0.1), down(0.9)];
  if (fall10 < 0 || fall90 < 0) return null;
  let lowest = level(fall90);
  for (let k = fall90 + 1; k <= darkest; k++) {
    if (level(k) > lowest + PENUMBRA_SLACK) return null;
    lowest = Math.min(lowest, level(k));
  }
  const riseWidth = Math.max(1, rise90 - rise10);
  if (fall10 - fall90 < SOFT_SHADOW_RATIO * riseWidth) return null;
  if ((rise10 - fall10) / 2 > MAX_EDGE_BAND_MM * pxPerMm) return null;
  const penumbra = profile[Math.round((fall10 + fall90) / 2)];
  if (!penumbra || !sameInk(penumbra, table) || luma(penumbra) > SHADOW_MAX_BRIGHTNESS * tableLuma) return null;
  // Each profile's band near the median profile's (further in, a dark rim may be darker still).
  const around = -half + darkest / 2 - Math.min(...depths);
  const faces = facesPastBand(colourAt, side, outer.line, reach, table, shown, SHADOW_BAND, around);
  const face = traced(faces.filter((point): point is Point => point !== null));
  if (!face || !liesInside(side, outer.line, face.line, reach)) return null;
  const riseDepth = -half + (rise10 + rise90) / 4;
  return Math.abs(inwardTo(side, face.line, mid) - riseDepth) <= 1.5 ? face : null;
}

/** A table darker than this (luma) shows no hue in shadow to tell the shadow by (image.ts, sameInk's DARK_INK_LUMA). */
const MIN_SHADOWED_TABLE_LUMA = 60;

/** A cast shadow leaves at most this share of the table's brightness. */
const SHADOW_MAX_BRIGHTNESS = 0.95;

/** The cut read past a contact shadow lies this far (px) inside the readings that took the shadow in. */
const MIN_SHADOW_SHIFT = 0.5;

const MAX_SHADOW_SHIFT = 3;

/**
 * The side's edge points read in colour that a shadow of the table does not change: each sample's
 * component across the table's colour (a shadow scales the table's colour, so its component across
 * it is nil, as the table's is), projected onto the card's: 0 on the table and in its shadow, 1 on
 * the card. The 50 % crossing nearest the profile's middle, with the table's side below 35 % and
 * the card's above 65 % 1.5–2.5 px either side. Nothing when the card's colour has too little
 * component across the table's (its border differs from the table in brightness only).
 */
function shadowFreePoints(
  colourAt: RgbSampler,
  side: SideGeometry,
  halfLength: number,
  table: number[],
  card: number[],
): Point[] {
  const { p, q, nx, ny } = side;
  const [t0 = 0, t1 = 0, t2 = 0] = table;
  const tt = Math.max(1, t0 * t0 + t1 * t1 + t2 * t2);
  const across = (c: ArrayLike<number>): [number, number, number] => {
    const along = ((c[0] ?? 0) * t0 + (c[1] ?? 0) * t1 + (c[2] ?? 0) * t2) / tt;
    return [(c[0] ?? 0) - along * t0, (c[1] ?? 0) - along * t1, (c[2] ?? 0) - along * t2];
  };
  const [u0, u1, u2] = across(card);
  const uu = u0 * u0 + u1 * u1 + u2 * u2;
  if (uu < MIN_ACROSS_STEP ** 2) return [];
  const n = halfLength * 4 + 1;
  const value = new Float64Array(n);
  const pixel = new Float64Array(3);
  const points: Point[] = [];
  const middle = (n - 1) / 2;
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(p, q, s);
    for (let k = 0; k < n; k++) {
      const d = -halfLength + k * 0.5;
      colourAt(base.x + nx * d, base.y + ny * d, pixel);
      const [a0, a1, a2] = across(pixel);
      value[k] = (a0 * u0 + a1 * u1 + a2 * u2) / uu;
    }
    const read = (k: number) => value[k] ?? 0;
    const at = realStep(read, n, risingCrossing(read, n, 0, n - 1, middle));
    if (at === null) continue;
    const d = -halfLength + at * 0.5;
    points.push({ x: base.x + nx * d, y: base.y + ny * d });
  }
  return points;
}

/** The card's colour must differ from the table's by this much across the table's own (RGB levels). */
const MIN_ACROSS_STEP = 25;

/**
 * The side read again past one line of the table: true when the step after it leads into
 * `borderColour` and its line agrees with `crossings` at both ends of the side.
 */
export function pastTableLine(
  colourAt: RgbSampler,
  side: SideGeometry,
  halfLength: number,
  borderColour: number[],
  crossings: Trace,
): boolean {
  const reading = sideFromMedianProfile(colourAt, side.p, side.q, side.nx, side.ny, halfLength, 1);
  const trace = traced(reading.points);
  if (!trace || !reading.card || distance(reading.card, borderColour) > MAX_BORDER_DIFFERENCE) return false;
  return linesApart(side, trace.line, crossings.line) <= MAX_EDGE_DISAGREEMENT;
}

/**
 * True when the border's colour lies just inside the crossings' line and, along at least
 * MIN_TABLE_BESIDE of it, the table's own colour just outside: the band the median reading
 * stepped into first (a patch or a line of the table lying against part of the cut) does not run
 * along the whole side, as a sleeve's margin or the card's own border would.
 */
export function tableBesideCut(
  colourAt: RgbSampler,
  side: SideGeometry,
  reach: number,
  borderColour: number[],
  crossings: Trace,
): boolean {
  const pixel = new Float64Array(3);
  const at = (point: Point, depth: number) => {
    colourAt(point.x + side.nx * depth, point.y + side.ny * depth, pixel);
    return [pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0];
  };
  const points = crossings.close;
  if (points.length === 0) return false;
  // The table: the median colour `reach` px outside the cut, where the median profile starts.
  const far = points.map((point) => at(point, -reach));
  const table = medianColour(far) ?? [0, 0, 0];
  const inside = points.map((point) => at(point, 2.5));
  const border = medianColour(inside) ?? [0, 0, 0];
  if (distance(border, borderColour) > MAX_BORDER_DIFFERENCE) return false;
  const tableOutside = points.filter((point) => distance(at(point, -2.5), table) <= MAX_BORDER_DIFFERENCE).length;
  return tableOutside >= MIN_TABLE_BESIDE * points.length;
}

/**
 * True when the median reading stepped, outside the crossings' line along the whole side, into the
 * table's own ink in another light (image.ts, sameInk with the table past it: a light joint or
 * grout line of a tiled table running along the card, too near it for table to show between), a
 * step smaller than the cut's (MIN_CUT_OVER_BAND), and the crossings trace the side cleanly
 * (MIN_CLEAN_CUT) with the border's colour just inside their line at as many profiles: the band is
 * the table's, and the crossings' line is the cut. A sleeve's clear margin is the table's ink too; its cut inside is
 * the card's, and where the other sides lie on the sleeve's edge, the colour they show inside it
 * is the sleeve's margin, not the border that lies inside this one's.
 */
export function tableInkOutside(
  colourAt: RgbSampler,
  side: SideReadings,
  borderColour: number[],
  crossings: Trace,
): boolean {
  const { median, card, table } = side;
  if (!median || !card || !table || !sameInk(card, table)) return false;
  // The crossings take the larger step near the line: the band's, where it is as large as the cut's.
  if (distance(borderColour, table) < MIN_CUT_OVER_BAND * distance(card, table)) return false;
  if (crossings.close.length < MIN_CLEAN_CUT * EDGE_PROFILES) return false;
  if (![side.p, side.q].every((end) => inwardTo(side, median.line, end) < inwardTo(side, crossings.line, end))) {
    return false;
  }
  // Read on the line itself at every profile: where a bright band lies against the cut, the
  // crossings beside it drift out toward the band, and the fitted line with them.
  const pixel = new Float64Array(3);
  let borderInside = 0;
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(side.p, side.q, s);
    const depth = inwardTo(side, crossings.line, base) + BORDER_INSIDE_PX;
    colourAt(base.x + side.nx * depth, base.y + side.ny * depth, pixel);
    if (distance([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0], borderColour) <= MAX_BORDER_DIFFERENCE) borderInside++;
  }
  return borderInside >= MIN_CLEAN_CUT * EDGE_PROFILES;
}

/** How far inside a cut (px) the border's colour is read, clear of the cut's blur. */
const BORDER_INSIDE_PX = 2.5;

/**
 * The cut's step (the border's colour distance from the table's) must be this many times the
 * band's step into the table for the crossings beside the band to be taken: a light bevelled rim
 * 42–50 levels off a grey tiled table, a joint 53–79 levels light of it along the cut, had its
 * crossings on the joint's inner edge over half the side, 2–3 px out (1.7 points); the cuts
 * taken read 133–156 levels against bands of 56–74.
 */
const MIN_CUT_OVER_BAND = 1.5;
