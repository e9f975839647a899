// A side's printed frame read from median colour profiles, for a card whose scan lines, one by
// one, do not tell its frame (frame.ts, medianFrameOf: no clear line, print before the line most
// of them find, a broken line, a line leaning past the limit, print with no frame behind it).
// A frame printed in nearly its border's colour (the near-black frame of a black-bordered Magic
// card, 7–27 luma levels lighter than the border on real photos, or a thin gold rule before a
// black body) stands out of a textured border by less than a pixel's noise: some scan lines meet
// it, others read on past it into the art, and the side is refused. Over a stretch of the side,
// the median colour at each depth takes the texture out and leaves the step standing. The side's
// middle 60 % is cut into CHUNKS stretches; each stretch's median profile is read for its first
// step; and the frame is the straight line through them, parallel to the card's edge, when at
// least MIN_ON of them lie on it, any other lies behind it (a stretch where the frame was hidden
// finds the art), and most of their scan lines show the step (MIN_LINES_SHOWING). Print is no
// such line: letters cover less than half of a stretch at any depth, so its median does not
// step, and print that covers more (vertical text along a side) shows on too few scan lines.

import { MAX_SCAN_SHARE, type Side, type SideMeasurement, sideOffset } from "./frame-side";
import { FLAT_PX_PER_MM, fitLine, median, type Point } from "./geometry";
import type { RgbaImage } from "./image";

/** Stretches the side's middle 60 % is cut into... */
const CHUNKS = 5;

/** ...of which at least this many find their step on the frame line; the others lie behind it. */
const MIN_ON = 4;

/** A step: where the median colour over this far (mm) past a depth differs from that over as far before it... */
const WINDOW_MM = 0.375;

/**
 * ...by at least this much (RGB distance). On the black-bordered cards of the local real photos
 * a stretch's median profile varies by 1–2 levels along a plain border and 3–4 per window where
 * the light falls off across it; their frames step by 12–110.
 */
const MIN_STEP = 10;

/**
 * Past the step the colour stays at least this share of the step's height off the border's over
 * HOLD_MM: a thin light rule may stand before a body nearly the border's colour (a Magic card's
 * frame edge, a gold rule before black), but something, not the border again, lies behind it.
 */
const MIN_HOLD = 0.2;

const HOLD_MM = 1;

/**
 * At least this share of the scan lines of the stretches on the frame line, in groups of
 * LINE_GROUP, show its step (linesShowing): a frame runs along all of them, print (words,
 * vertical text) along some. A 12-level step under noise of 10 levels shows on about 90 % of the
 * groups, print on 60 % of the lines on about 60 %; a real Flesh and Blood card's bottom rule,
 * faint at both ends, on 57–85 % of each stretch's groups, 71 % in all.
 */
const MIN_LINES_SHOWING = 0.7;

/** Each stretch on the line lies within this (mm) of it; one behind it lies further than this. */
const MAX_RESIDUAL_MM = 0.15;

/** Where the border's colour is read past `from` (mm): a strip this wide. */
const STRIP_MM = 0.4;

type Rgb = [number, number, number];

/**
 * The frame on `side` of the flat card (`flat`, at `scale` flat-card pixels per pixel) from its
 * stretches' median profiles, or null: fewer than MIN_ON stretches find a step on one straight
 * line, one lies before it, or the line leans more than `maxLean` (mm) against the card's edge.
 * `from`: the depth (mm) the border's colour is read from, where the scan lines' reading settled
 * it; `borderNoise`: theirs, reported as it is.
 */
export function medianFrame(
  flat: RgbaImage,
  side: Side,
  scale: number,
  from: number,
  maxLean: number,
  borderNoise: number,
): SideMeasurement | null {
  const { width: W, height: H } = flat;
  const horizontal = side === "left" || side === "right";
  const along = horizontal ? H : W;
  const across = horizontal ? W : H;
  const pxPerMm = FLAT_PX_PER_MM / scale;
  const maxDepth = Math.min(across - 1, Math.round(W * MAX_SCAN_SHARE));
  const window = Math.max(2, Math.round(WINDOW_MM * pxPerMm));
  const hold = Math.max(2, Math.round(HOLD_MM * pxPerMm));
  const stripFrom = Math.max(1, Math.round(from * pxPerMm));
  const stripTo = stripFrom + Math.max(2, Math.round(STRIP_MM * pxPerMm));
  const first = Math.round(along * 0.2);
  const last = Math.ceil(along * 0.8);
  const points: Point[] = [];
  const shares = new Map<Point, number>();
  const colours: Rgb[] = [];
  for (let k = 0; k < CHUNKS; k++) {
    const a = first + Math.round(((last - first) * k) / CHUNKS);
    const b = first + Math.round(((last - first) * (k + 1)) / CHUNKS);
    const profile = stretchProfile(flat, side, a, b, Math.min(across, maxDepth + window + hold + 1));
    const border = meanOver(profile, stripFrom, stripTo);
    colours.push(border);
    const shows = linesShowing(flat, side, a, b, window);
    const step = firstStep(profile, border, stripTo + window, maxDepth, window, hold, shows);
    if (step !== null) {
      const point = { x: ((a + b) / 2) * scale, y: step.depth * scale };
      points.push(point);
      shares.set(point, step.share);
    }
  }
  const line = lineThrough(points, MAX_RESIDUAL_MM * FLAT_PX_PER_MM);
  if (!line) return null;
  // A step most of the side's scan lines show where the line runs, not print on some of them
  // (on more than half a stretch's lines, print moves its median too): a line along the side.
  const on = line.points.map((p) => shares.get(p) ?? 0);
  if (on.reduce((sum, share) => sum + share, 0) / on.length < MIN_LINES_SHOWING) return null;
  const ends = [first * scale, last * scale] as const;
  const lean = Math.abs(line.at(ends[1]) - line.at(ends[0])) / FLAT_PX_PER_MM;
  if (lean > maxLean) return null;
  return {
    width: (line.at(ends[0]) + line.at(ends[1])) / 2,
    agreement: line.on / CHUNKS,
    coverage: points.length / CHUNKS,
    lean,
    printBefore: 0,
    behind: (points.length - line.on) / CHUNKS,
    rim: false,
    borderColor: [0, 1, 2].map((ch) => median(colours.map((c) => c[ch] ?? 0))) as Rgb,
    borderNoise,
    print: null,
    brokenIsland: false,
    bow: 0,
    frameBow: 0,
  };
}

/** The per-channel median over scan lines a … b − 1 of `side` at each depth 0 … depths − 1 (3 values per depth). */
function stretchProfile(flat: RgbaImage, side: Side, a: number, b: number, depths: number): Float64Array {
  const { data } = flat;
  const offset = sideOffset(flat, side);
  const profile = new Float64Array(depths * 3);
  const values: number[] = new Array(b - a);
  for (let d = 0; d < depths; d++) {
    for (let ch = 0; ch < 3; ch++) {
      for (let line = a; line < b; line++) values[line - a] = data[offset(line, d) + ch] ?? 0;
      profile[d * 3 + ch] = median(values);
    }
  }
  return profile;
}

/**
 * For scan lines a … b − 1 of `side`: the share of them that show a step of `height` (RGB
 * distance) from colour `before` toward colour `after` at `depth` (pixels): each line's mean colour
 * over `window` pixels past it departs from its own mean over the window ending `window` pixels
 * before it, along the step's direction, by at least half the step.
 */
type LinesShowing = (depth: number, before: Rgb, after: Rgb, height: number) => number;

/** Scan lines read together by linesShowing (0.375 mm along the side on the flat card): print is wider, a pixel's noise is not. */
const LINE_GROUP = 3;

function linesShowing(flat: RgbaImage, side: Side, a: number, b: number, window: number): LinesShowing {
  const { data } = flat;
  const across = side === "left" || side === "right" ? flat.width : flat.height;
  const offset = sideOffset(flat, side);
  // A group of LINE_GROUP neighbouring scan lines' mean colour over depths from … to − 1.
  const meanAt = (first: number, from: number, to: number): Rgb => {
    const sum: Rgb = [0, 0, 0];
    let n = 0;
    for (let line = first; line < Math.min(b, first + LINE_GROUP); line++) {
      for (let d = from; d < to; d++) {
        const o = offset(line, d);
        sum[0] += data[o] ?? 0;
        sum[1] += data[o + 1] ?? 0;
        sum[2] += data[o + 2] ?? 0;
        n++;
      }
    }
    return [sum[0] / Math.max(1, n), sum[1] / Math.max(1, n), sum[2] / Math.max(1, n)];
  };
  return (depth, before, after, height) => {
    const u: Rgb = [after[0] - before[0], after[1] - before[1], after[2] - before[2]];
    const norm = Math.hypot(...u) || 1;
    const at = Math.floor(depth);
    let showing = 0;
    let groups = 0;
    for (let first = a; first < b; first += LINE_GROUP) {
      const pre = meanAt(first, Math.max(0, at - 2 * window), Math.max(1, at - window));
      const post = meanAt(first, at + 1, Math.min(across, at + 1 + window));
      const along = ((post[0] - pre[0]) * u[0] + (post[1] - pre[1]) * u[1] + (post[2] - pre[2]) * u[2]) / norm;
      if (along >= height / 2) showing++;
      groups++;
    }
    return showing / Math.max(1, groups);
  };
}

/** The mean colour of `profile` over depths a … b − 1. */
function meanOver(profile: Float64Array, a: number, b: number): Rgb {
  const sum: Rgb = [0, 0, 0];
  for (let d = a; d < b; d++) {
    sum[0] += profile[d * 3] ?? 0;
    sum[1] += profile[d * 3 + 1] ?? 0;
    sum[2] += profile[d * 3 + 2] ?? 0;
  }
  const n = Math.max(1, b - a);
  return [sum[0] / n, sum[1] / n, sum[2] / n];
}

const distance = (p: Rgb, q: Rgb) => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);

/**
 * A stretch's first step from depth `start` (pixels), or null: the first depth whose `window`
 * pixels past it differ from the `window` before it by MIN_STEP, at the steepest point within a
 * window of there (not further: a faint frame may rise on into a brighter line behind it, which is
 * another step), with the colour past it held off the border's (MIN_HOLD). Placed where the
 * profile first departs from its level before the step (read clear of the step, where a thin dark
 * line may run just before a frame's light edge) by half the step's height (its furthest
 * departure within a window either side); with the share of the stretch's scan lines that show it.
 */
function firstStep(
  profile: Float64Array,
  border: Rgb,
  start: number,
  maxDepth: number,
  window: number,
  hold: number,
  shows: LinesShowing,
): { depth: number; share: number } | null {
  const depths = profile.length / 3;
  const end = Math.min(maxDepth, depths - window - hold - 1);
  const colourAt = (d: number): Rgb => [profile[d * 3] ?? 0, profile[d * 3 + 1] ?? 0, profile[d * 3 + 2] ?? 0];
  const jump = (d: number) => distance(meanOver(profile, d + 1, d + 1 + window), meanOver(profile, d - window, d));
  for (let d = start; d < end; d++) {
    if (jump(d) < MIN_STEP) continue;
    let peak = d;
    for (let x = d + 1; x <= d + window && x < end; x++) if (jump(x) > jump(peak)) peak = x;
    const before = meanOver(
      profile,
      Math.max(start - window, peak - 2 * window),
      Math.max(start - window + 1, peak - window + 1),
    );
    const off = (x: number) => distance(colourAt(x), before);
    let height = 0;
    let after = before;
    for (let x = peak - window; x <= peak + window; x++) {
      if (off(x) > height) {
        height = off(x);
        after = colourAt(x);
      }
    }
    if (distance(meanOver(profile, peak + 1, peak + 1 + hold), border) < MIN_HOLD * height) return null;
    for (let x = peak - window; x < peak + window; x++) {
      const p = off(x);
      const q = off(x + 1);
      if (p < height / 2 && q >= height / 2) {
        const depth = x + 0.5 + (height / 2 - p) / (q - p);
        return { depth, share: shows(depth, before, after, height) };
      }
    }
    return null;
  }
  return null;
}

/**
 * The straight line (depth against place along the side) through the most of `points` that lie
 * within `tolerance` of it, at least MIN_ON of them, every other point lying further than that
 * behind it (deeper into the card); null when there is none.
 */
function lineThrough(
  points: Point[],
  tolerance: number,
): { at: (x: number) => number; on: number; points: Point[] } | null {
  const subsets: Point[][] = [];
  for (let mask = 0; mask < 1 << points.length; mask++) {
    const subset = points.filter((_, i) => mask & (1 << i));
    if (subset.length >= MIN_ON) subsets.push(subset);
  }
  subsets.sort((a, b) => b.length - a.length);
  for (const subset of subsets) {
    const fitted = fitLine(subset);
    if (!fitted || Math.abs(fitted.b) < 1e-6) continue;
    const at = (x: number) => (fitted.c - fitted.a * x) / fitted.b;
    if (subset.some((p) => Math.abs(p.y - at(p.x)) > tolerance)) continue;
    if (points.some((p) => !subset.includes(p) && p.y < at(p.x) + tolerance)) continue;
    return { at, on: subset.length, points: subset };
  }
  return null;
}
