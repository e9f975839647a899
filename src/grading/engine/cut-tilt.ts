// A side found at a tilt to the card's cut (refine-outline.ts): the coarse search fits each side
// to a Hough line through the band of edge pixels along it, and where that band is a wedge (a
// contact shadow under a lifted edge, wide at one corner and nothing at the other) its line may
// run along the cut at the narrow end and out across the shadow towards the wide one. On three
// real photos of yellow-bordered cards on a white wall (GarrettMaury7921/pokemon_card_grader) a
// side so lay on the cut at one corner and 10–55 px outside it at the other: each profile's
// crossing slid along the side with the line and jumped back, and none traced it.
// Such a side is looked for again as a line through the sharpest steps across it: every profile,
// read out to TILT_REACH times the refinement's reach, gives its two sharpest colour steps, and
// the line through them with the most profiles on it is the side, when one of its ends stays
// within the first reach (the tilt pivots on the end where the coarse line was right),
// MIN_TILT_COVERAGE of the profiles lie on it, and the colour just inside it is one colour (the
// border) on most of them. A line a border's width inside the cut at both ends (a frame's edge)
// is no tilt of the side, and is never taken so.

import { EDGE_PROFILES, profileBase } from "./cut-profiles";
import { type RgbSampler, sampleProfile } from "./edges";
import { fitLine, intersect, type Line, lineThrough, median, type Point, type Quad } from "./geometry";
import { colourDistance } from "./image";

/** The far end of a tilted side is looked for this many reaches either side of its line. */
const TILT_REACH = 6;

/**
 * A step across a profile is sharp when its colour changes by at least this much (RGB distance)
 * over 2 px, and by at least STEP_SHARE of the profile's sharpest step.
 */
const MIN_STEP = 24;
const STEP_SHARE = 0.3;

/**
 * Only a profile's MAX_STEPS sharpest steps are read: on a holographic silver border every
 * sparkle is a step, and a line swung from the cut at one end to the frame's edge at the other
 * found one on 109 of its 120 profiles.
 */
const MAX_STEPS = 2;

/**
 * The swung line must hold this share of the profiles or more: a cut shows one of the two
 * sharpest steps on nearly every profile (119 and 120 of 120 where a real photo's side was swung
 * onto its cut), a line swung across a holographic silver border from the cut to the frame's
 * edge on 73.
 */
const MIN_TILT_COVERAGE = 0.8;

/** A profile lies on a line with a step within this many px of it. */
const ON_LINE_PX = 1.5;

/**
 * The colour INSIDE_PX px inside the line, on at least MIN_INSIDE_ALIKE of the profiles on it,
 * lies within MAX_INSIDE_DIFFERENCE of their median: the card's border along its cut. A line
 * swung across print has print of every colour inside it.
 */
const INSIDE_PX = 2.5;
const MAX_INSIDE_DIFFERENCE = 40;
const MIN_INSIDE_ALIKE = 0.8;

/**
 * The offsets (px along the inward normal, 0.5 px apart) of the sharpest steps on a profile read
 * `reach` px either side of `base` (local maxima of the colour change over 2 px), at most
 * MAX_STEPS of them, sharpest first.
 */
export function sharpSteps(colourAt: RgbSampler, base: Point, nx: number, ny: number, reach: number): number[] {
  const rgb = sampleProfile(colourAt, base, nx, ny, reach);
  const n = rgb.length / 3;
  const change = new Float64Array(n);
  let sharpest = 0;
  for (let k = 2; k < n - 2; k++) {
    const value = colourDistance(
      rgb.subarray((k - 2) * 3, (k - 2) * 3 + 3),
      rgb.subarray((k + 2) * 3, (k + 2) * 3 + 3),
    );
    change[k] = value;
    if (value > sharpest) sharpest = value;
  }
  const floor = Math.max(MIN_STEP, STEP_SHARE * sharpest);
  const steps: { offset: number; value: number }[] = [];
  for (let k = 3; k < n - 3; k++) {
    const value = change[k] ?? 0;
    if (value >= floor && value >= (change[k - 1] ?? 0) && value > (change[k + 1] ?? 0))
      steps.push({ offset: -reach + k * 0.5, value });
  }
  return steps
    .sort((a, b) => b.value - a.value)
    .slice(0, MAX_STEPS)
    .map((step) => step.offset);
}

/**
 * `quad` with side k (from corner k to corner k + 1) moved onto the line through the sharp steps
 * across it that the most profiles lie on, within `halfLength` of the side at its first or its
 * last profile and within TILT_REACH times that at the other; null when no such line holds
 * MIN_TILT_COVERAGE of the profiles, or has no one colour just inside it. `nx`, `ny` is the
 * side's inward normal.
 */
export function tiltedOntoSteps(
  colourAt: RgbSampler,
  quad: Quad,
  k: number,
  nx: number,
  ny: number,
  halfLength: number,
): Quad | null {
  const p = quad[k] as Point;
  const q = quad[(k + 1) % 4] as Point;
  const far = TILT_REACH * halfLength;
  // Per profile, which offsets (in 0.5 px cells from -far) have a step within ON_LINE_PX.
  const cells = 4 * far + 1;
  const near = new Uint8Array(EDGE_PROFILES * cells);
  const steps: number[][] = [];
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const found = sharpSteps(colourAt, profileBase(p, q, s), nx, ny, far);
    steps.push(found);
    for (const offset of found) {
      const from = Math.max(0, Math.ceil((offset - ON_LINE_PX + far) * 2));
      const to = Math.min(cells - 1, Math.floor((offset + ON_LINE_PX + far) * 2));
      for (let c = from; c <= to; c++) near[s * cells + c] = 1;
    }
  }
  // A line by its offsets at the first and the last profile, in 0.5 px cells.
  const last = EDGE_PROFILES - 1;
  const offsetAt = (s: number, atFirst: number, atLast: number) => atFirst + ((atLast - atFirst) * s) / last;
  const coverage = (atFirst: number, atLast: number) => {
    let count = 0;
    for (let s = 0; s < EDGE_PROFILES; s++) {
      const cell = Math.round((offsetAt(s, atFirst, atLast) + far) * 2);
      if (near[s * cells + cell]) count++;
    }
    return count;
  };
  let best = { count: 0, atFirst: 0, atLast: 0 };
  for (let pinned = -halfLength; pinned <= halfLength; pinned += 0.5) {
    for (let swung = -far; swung <= far; swung += 0.5) {
      for (const [atFirst, atLast] of [
        [pinned, swung],
        [swung, pinned],
      ] as const) {
        const count = coverage(atFirst, atLast);
        if (count > best.count) best = { count, atFirst, atLast };
      }
    }
  }
  if (best.count < MIN_TILT_COVERAGE * EDGE_PROFILES) return null;
  // Refitted to the steps on it, one per profile (the nearest), with the colour just inside each.
  const points: Point[] = [];
  const inside: number[][] = [];
  const pixel = new Float64Array(3);
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const expected = offsetAt(s, best.atFirst, best.atLast);
    let nearest: number | null = null;
    for (const offset of steps[s] ?? [])
      if (
        Math.abs(offset - expected) <= ON_LINE_PX &&
        (nearest === null || Math.abs(offset - expected) < Math.abs(nearest - expected))
      )
        nearest = offset;
    if (nearest === null) continue;
    const base = profileBase(p, q, s);
    points.push({ x: base.x + nx * nearest, y: base.y + ny * nearest });
    colourAt(base.x + nx * (nearest + INSIDE_PX), base.y + ny * (nearest + INSIDE_PX), pixel);
    inside.push(Array.from(pixel));
  }
  // A cut has the card's border just inside it all along; a line across print has not.
  const border = [0, 1, 2].map((ch) => median(inside.map((colour) => colour[ch] ?? 0)));
  const alike = inside.filter((colour) => colourDistance(colour, border) <= MAX_INSIDE_DIFFERENCE).length;
  if (alike < MIN_INSIDE_ALIKE * inside.length) return null;
  const line: Line | null = fitLine(points);
  if (!line) return null;
  const corners = quad.slice() as Point[];
  corners[k] = intersect(lineThrough(quad[(k + 3) % 4] as Point, p), line);
  corners[(k + 1) % 4] = intersect(line, lineThrough(q, quad[(k + 2) % 4] as Point));
  return corners.every((c) => Number.isFinite(c.x) && Number.isFinite(c.y)) ? (corners as unknown as Quad) : null;
}
