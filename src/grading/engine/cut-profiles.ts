// The profiles read across each side of the card's outline (refine-outline.ts), and the two
// readings of a side made from them: the crossings, profile by profile, fitted to a line (traced),
// and the median profile's first step out of the table's colour (sideFromMedianProfile). The
// side's geometry (its ends, its inward normal) and the measures every reading past a band,
// a shadow or a rim shares are here too.
import type { RgbSampler } from "./edges";
import { fitLine, type Line, type Point, selectKth } from "./geometry";
import { colourDistance as distance, luma, medianColour } from "./image";

/** Profiles read across each side (also the precision estimate's sample count, centering.ts). */
export const EDGE_PROFILES = 120;

/** A refined side must have a crossing near its line on at least this share of its profiles. */
export const MIN_EDGE_COVERAGE = 0.5;

/**
 * The two readings of a side may differ by at most this (px) at either end. Over 90 drawn photos
 * they differ by at most 0.3 px at a side's middle wherever a grade came out; on real photos of
 * sleeved cards by 2–10 px.
 */
export const MAX_EDGE_DISAGREEMENT = 1.5;

/**
 * Where a side shows two edges, the band between them is the card's own border when its colour is
 * within this RGB distance of the colour the agreeing sides show just inside their cut, as they
 * show it or in the side's own light (inLightOf).
 */
export const MAX_BORDER_DIFFERENCE = 30;

/**
 * A side is traced cleanly when at least this share of its profiles place the edge within 1.5 px
 * of its line (all of them on every side of a real vintage back on white paper; half, the least a
 * side may have, where a side ran off a drawn card's cut at one corner, beside a brick joint).
 */
export const MIN_CLEAN_CUT = 0.9;

/**
 * A grey, silver or white border (luma at least MIN_GREY_BORDER_LUMA, its r, g, b shares within
 * MAX_GREY_SATURATION): its paper edge beside it is neither darker nor lighter, only of another hue.
 */
export const MIN_GREY_BORDER_LUMA = 100;

/** The card's short side, in mm (a standard card's; the smaller formats differ by 6 % at most). */
export const CARD_SHORT_MM = 63;

export const dist = (a: Point | undefined, b: Point | undefined) => (a && b ? Math.hypot(b.x - a.x, b.y - a.y) : 0);

/** The index of a side's median profile sample `depth` px inside its base line (sample k lies at depth -reach + k / 2). */
export function profileIndex(side: SideReadings, depth: number): number {
  return Math.round(2 * (depth + (side.medianProfile.length - 1) / 4));
}

/** The median colour of a side's median profile from `a` to `b` px inside its base line, over the samples it holds there. */
export function profileColour(side: SideReadings, a: number, b: number): number[] | null {
  const picked: number[][] = [];
  for (let d = a; d <= b; d += 0.5) {
    const colour = side.medianProfile[profileIndex(side, d)];
    if (colour) picked.push(colour);
  }
  return medianColour(picked);
}

/** Where the `s`-th of EDGE_PROFILES profiles crosses side p–q: spread over its middle 80 %, clear of the corners. */
export function profileBase(p: Point, q: Point, s: number): Point {
  const t = 0.1 + (0.8 * (s + 0.5)) / EDGE_PROFILES;
  return { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
}

/** The profile (profileBase's `s`) on whose normal through its base `point` lies. */
export function profileOf(p: Point, q: Point, point: Point): number {
  const t = ((point.x - p.x) * (q.x - p.x) + (point.y - p.y) * (q.y - p.y)) / ((q.x - p.x) ** 2 + (q.y - p.y) ** 2);
  return Math.round(((t - 0.1) / 0.8) * EDGE_PROFILES - 0.5);
}

/** How far apart two lines of a side are at its ends (px, along the inward normal from p and q). */
export function linesApart(side: SideGeometry, a: Line, b: Line): number {
  return Math.max(...[side.p, side.q].map((end) => Math.abs(inwardTo(side, a, end) - inwardTo(side, b, end))));
}

/** How far (px) `line` lies inward from the middle of the side's given ends. */
export function inwardAtMiddle(side: SideGeometry, line: Line): number {
  return inwardTo(side, line, { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 });
}

/** How far (px) `line` lies from `from` along the side's inward normal. */
export function inwardTo(side: SideGeometry, line: Line, from: Point): number {
  return -(line.a * from.x + line.b * from.y - line.c) / (line.a * side.nx + line.b * side.ny);
}

export interface Trace {
  line: Line;
  /** The points within 1.5 px of the line. */
  close: Point[];
}

/** A side of the outline: its ends and its inward unit normal. */
export interface SideGeometry {
  p: Point;
  q: Point;
  nx: number;
  ny: number;
}

export interface SideReadings extends SideGeometry {
  crossings: Trace | null;
  median: Trace | null;
  /** The colour just past the median reading's step. */
  card: number[] | null;
  /** The table's colour: the median profile's outer end. */
  table: number[] | null;
  /** The median profile (sideFromMedianProfile), from the table in. */
  medianProfile: number[][];
  /** The two readings' largest distance apart at the side's ends (px), when both traced it. */
  apart: number | null;
  /** The median reading's step led into the table in shadow, taken for the card (MedianReading). */
  shadowAsCard: boolean;
}

/**
 * `colour`, seen beside a table whose colour is `tableThere`, as it would show where the same table
 * reads `tableHere`: each channel scaled by the table's ratio, one light falling on both.
 */
export function inLightOf(
  colour: readonly number[],
  tableThere: readonly number[],
  tableHere: readonly number[],
): number[] {
  return colour.map((value, ch) => (value * (tableHere[ch] ?? 0)) / Math.max(1, tableThere[ch] ?? 0));
}

/** A line through the points with at least MIN_EDGE_COVERAGE of the profiles within 1.5 px of it. */
export function traced(points: Point[]): Trace | null {
  const line = fitLine(points);
  if (!line) return null;
  const close = points.filter((s) => Math.abs(line.a * s.x + line.b * s.y - line.c) <= 1.5);
  return close.length >= EDGE_PROFILES * MIN_EDGE_COVERAGE ? { line, close } : null;
}

interface MedianReading {
  /** The side's edge points, one per profile that shows the step. */
  points: Point[];
  /** The colour just past the step (the card's, usually its border's); null without a step. */
  card: number[] | null;
  /** The median profile's colours, 0.5 px apart from its outer end. */
  profile: number[][];
  /** The step was into what looked like the table in shadow, with no step out of it (the card's light border of the table's hue). */
  shadowAsCard?: boolean;
}

/**
 * A side read from its median profile (per channel, over EDGE_PROFILES profiles of ±`halfLength`
 * px, 0.5 px apart) first: the table's colour at its outer end; the first step out of it (three
 * samples in a row further than 30 % of the profile's largest departure, at least 20), climbed to
 * its steepest point and followed while it still changes; the colour just past it (and when that
 * colour is the table in shadow, the next step out of the shadow). Each profile's
 * edge point is then the 50 % crossing between those two colours nearest the median's, with the
 * table's side below 35 % and the card's above 65 % 1.5–2.5 px either side (a real step, not
 * noise), and the colour just past the step. No points when the median profile shows no step.
 * With `tableLines` > 0, that many lines of the table are passed first: a band of another colour
 * whose far side is the table's colour again (a joint, grout, a seam), not a band against the card.
 */
export function sideFromMedianProfile(
  colourAt: RgbSampler,
  p: Point,
  q: Point,
  nx: number,
  ny: number,
  halfLength: number,
  tableLines = 0,
): MedianReading {
  const n = halfLength * 4 + 1;
  // All profiles in one buffer: profile s, sample k, channel ch at (s * n + k) * 3 + ch.
  const count = EDGE_PROFILES;
  const samples = new Float64Array(count * n * 3);
  const bases: Point[] = [];
  const pixel = new Float64Array(3);
  for (let s = 0; s < count; s++) {
    const base = profileBase(p, q, s);
    for (let k = 0; k < n; k++) {
      const d = -halfLength + k * 0.5;
      colourAt(base.x + nx * d, base.y + ny * d, pixel);
      samples.set(pixel, (s * n + k) * 3);
    }
    bases.push(base);
  }
  // Per sample and channel, the median over the profiles (selected, not sorted).
  const column = new Float64Array(count);
  const middle = count >> 1;
  const medianProfile: number[][] = [];
  for (let k = 0; k < n; k++) {
    const colour = [0, 0, 0];
    for (let ch = 0; ch < 3; ch++) {
      for (let i = 0; i < count; i++) column[i] = samples[(i * n + k) * 3 + ch] ?? 0;
      const upper = selectKth(column, count, middle);
      // After the selection everything below `middle` is at most `upper`: the lower middle is their largest.
      let lower = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < middle; i++) lower = Math.max(lower, column[i] ?? 0);
      colour[ch] = count % 2 ? upper : (lower + upper) / 2;
    }
    medianProfile.push(colour);
  }
  const NO_READING: MedianReading = { points: [], card: null, profile: medianProfile };
  const at = (k: number) => medianProfile[Math.min(n - 1, Math.max(0, k))] as number[];
  let table = [0, 1, 2].map((ch) => ((at(0)[ch] ?? 0) + (at(1)[ch] ?? 0) + (at(2)[ch] ?? 0)) / 3);
  let widest = 0;
  for (const colour of medianProfile) widest = Math.max(widest, distance(colour, table));
  const threshold = Math.max(20, 0.3 * widest);
  const slope = (k: number) => distance(at(k + 1), at(k - 1)) / 2;
  // The first step out of the table; when it leads only into a shadow of the table (or the
  // card's dark edge seen beside its face), the next step out of that.
  let from = 3;
  let first = -1;
  let steepest = 0;
  let end = 0;
  let card: number[] = [];
  const tableColour = table;
  let linesLeft = tableLines;
  let onLine = false;
  let shadowStep: { first: number; steepest: number; end: number; card: number[]; from: number } | null = null;
  let shadowAsCard = false;
  for (let pass = 0; ; pass++) {
    first = -1;
    for (let k = from; k + 2 < n && first < 0; k++) {
      if ([k, k + 1, k + 2].every((j) => distance(at(j), table) > threshold)) first = k;
    }
    if (first >= 0) {
      steepest = Math.max(1, first - 2);
      while (steepest + 2 < n && slope(steepest + 1) >= slope(steepest)) steepest++;
      end = steepest;
      while (end + 2 < n && slope(end + 1) > 0.25 * slope(steepest)) end++;
    }
    if (first < 0 || end + 2 >= n) {
      // No step out of what was taken for the table in shadow before the profile ends: it was
      // the card, a light border of the table's hue a shade darker (a silver border on white
      // paper). A dark one is not taken: on a drawn photo of a 0.9 mm black border on dark grey
      // gravel, taken so along its wide top, its left cut came out 0.6 px out (2.2 points off).
      if (!shadowStep) return NO_READING;
      ({ first, steepest, end, card, from } = shadowStep);
      table = tableColour;
      shadowAsCard = true;
      break;
    }
    card = [0, 1, 2].map((ch) => ((at(end + 1)[ch] ?? 0) + (at(end + 2)[ch] ?? 0)) / 2);
    // The step out of a line of the table leads back onto the table; otherwise the band was no
    // line of the table (a sleeve's margin lies against the card).
    if (onLine && distance(card, tableColour) > threshold) return NO_READING;
    const shadow = pass === 0 && isShadowOf(card, table);
    if (shadow && luma(card) >= MIN_GREY_BORDER_LUMA) shadowStep = { first, steepest, end, card, from };
    if (!onLine && !shadow && linesLeft === 0) break;
    if (!onLine && !shadow) {
      linesLeft--;
      onLine = true;
    } else onLine = false;
    table = card;
    from = end + 1;
  }
  const step = distance(card, table);
  if (step < 24) return NO_READING;
  const axis = [0, 1, 2].map((ch) => ((card[ch] ?? 0) - (table[ch] ?? 0)) / (step * step));
  const [t0 = 0, t1 = 0, t2 = 0] = table;
  const [a0 = 0, a1 = 0, a2 = 0] = axis;
  const project = (colour: ArrayLike<number>, at = 0) =>
    ((colour[at] ?? 0) - t0) * a0 + ((colour[at + 1] ?? 0) - t1) * a1 + ((colour[at + 2] ?? 0) - t2) * a2;
  const sideAt = risingCrossing((k) => project(at(k)), n, Math.max(from - 1, first - 4), end + 2, steepest);
  if (sideAt === null) return NO_READING;
  const points: Point[] = [];
  for (let s = 0; s < count; s++) {
    const offset = s * n * 3;
    const value = (k: number) => project(samples, offset + k * 3);
    const position = realStep(
      value,
      n,
      risingCrossing(value, n, Math.floor(sideAt - 8), Math.ceil(sideAt + 8), sideAt),
    );
    if (position === null) continue;
    const base = bases[s] as Point;
    const d = -halfLength + position * 0.5;
    points.push({ x: base.x + nx * d, y: base.y + ny * d });
  }
  return { points, card, profile: medianProfile, shadowAsCard };
}

/** The rising 50 % crossing (in samples) of `value` nearest `near` between `from` and `to`. */
export function risingCrossing(
  value: (k: number) => number,
  n: number,
  from: number,
  to: number,
  near: number,
): number | null {
  let best: number | null = null;
  for (let k = Math.max(0, from); k < Math.min(n - 1, to); k++) {
    const a = value(k);
    const b = value(k + 1);
    if (a < 0.5 && b >= 0.5) {
      const position = k + (0.5 - a) / (b - a);
      if (best === null || Math.abs(position - near) < Math.abs(best - near)) best = position;
    }
  }
  return best;
}

/**
 * `position` when it is a real step, not noise: the values 1.5–2.5 px (3–5 samples) before it
 * below 35 % and after it above 65 %; null otherwise.
 */
export function realStep(value: (k: number) => number, n: number, position: number | null): number | null {
  if (position === null) return null;
  const mean = (from: number, to: number) => {
    let sum = 0;
    let taken = 0;
    for (let k = Math.max(0, Math.round(position + from)); k <= Math.min(n - 1, Math.round(position + to)); k++) {
      sum += value(k);
      taken++;
    }
    return taken > 0 ? sum / taken : Number.NaN;
  };
  return mean(-5, -3) < 0.35 && mean(3, 5) > 0.65 ? position : null;
}

/** `colour` is `table` in shadow: the same chromaticity (within 0.03) at 30–92 % of its luma. */
function isShadowOf(colour: number[], table: number[]): boolean {
  const ratio = luma(colour) / Math.max(1, luma(table));
  if (ratio < 0.3 || ratio > 0.92) return false;
  const sum = (c: number[]) => Math.max(1, (c[0] ?? 0) + (c[1] ?? 0) + (c[2] ?? 0));
  return [0, 1, 2].every((ch) => Math.abs((colour[ch] ?? 0) / sum(colour) - (table[ch] ?? 0) / sum(table)) < 0.03);
}
