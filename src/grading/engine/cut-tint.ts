// Where a side's border takes its ink's hue (refine-outline.ts): a cue to the cut independent of
// lightness. A shadow darkens the table beside a cut without changing its hue, so on the lightness
// of a profile across a side, a soft shadow under a dark border and the cut's own blur can make one
// ramp, and the edge found on it may lie on the shadow's outer half; the border's hue (its
// chromaticity: r, g and b over their sum) begins at the cut whatever the shadow.

import { inwardTo, type SideGeometry } from "./cut-profiles";
import type { RgbSampler } from "./edges";
import type { Line } from "./geometry";
import { luma } from "./image";

/** Colours whose r + g + b is under this are too dark for their chromaticity to be read. */
const MIN_SUM = 30;

/** The border's chromaticity must lie at least this far (Euclidean, over the r, g, b shares) from the table's. */
const MIN_TINT_APART = 0.1;

/**
 * The border's own tint: its distance (RGB levels) from the grey of its own mean must be at least
 * this. A black or grey border's chromaticity is the noise of a few levels: a black Magic border
 * on a white table, rgb(21, 17, 9), read its "hue" 1.8 mm inside its cut on a real photo.
 */
const MIN_BORDER_TINT = 12;

/**
 * Between the line and where the hue begins, the median profile's lightness must lie between the
 * table's and the border's, to within this share of their difference: a shadow blurred into the
 * cut ramps from one to the other. A band darker than both (another card, black, beneath a yellow
 * one: analyse-face.ts reads the card on top past it) or lighter than both is something else,
 * which the steps after this one read.
 */
const RAMP_SLACK = 0.15;

/**
 * ...and fall gradually: the lightness's fall over the pixel either side of the line at most this
 * many times its mean fall per pixel from 1 px inside the line to where the hue begins. A shadow
 * blurred into the cut is one ramp (a navy back at 1,200 px: 2.1 times); a sharp cut with a grey
 * rim just inside it, the card's own edge, drops at the line and then creeps (a sleeved navy back
 * on white paper at 1080p: 6.9 times), and the line is on the cut.
 */
const MAX_STEP_OVER_RAMP = 4;

/** Profiles across the side's middle 60 %, this many. */
const PROFILES = 41;

const tintLevels = (colour: readonly number[]) => {
  const mean = ((colour[0] ?? 0) + (colour[1] ?? 0) + (colour[2] ?? 0)) / 3;
  return Math.hypot((colour[0] ?? 0) - mean, (colour[1] ?? 0) - mean, (colour[2] ?? 0) - mean);
};

const chroma = (r: number, g: number, b: number): [number, number, number] | null => {
  const sum = r + g + b;
  return sum < MIN_SUM ? null : [r / sum, g / sum, b / sum];
};

/**
 * How far (px) inside `line` the side's colour has come halfway from the table's chromaticity to
 * the border's, and stays past halfway for a pixel: on the median, depth by depth (0.5 px apart,
 * `reach` px either way of the line), of PROFILES profiles across the side's middle 60 %. Null
 * when the border is too nearly grey, the two chromaticities too near, the pixels too dark to
 * read, the profile never comes halfway, or its lightness between the line and that point is not
 * a gradual ramp from the table's to the border's (RAMP_SLACK, MAX_STEP_OVER_RAMP).
 */
export function tintOnset(
  colourAt: RgbSampler,
  side: SideGeometry,
  line: Line,
  table: readonly number[],
  border: readonly number[],
  reach: number,
): number | null {
  if (tintLevels(border) < MIN_BORDER_TINT) return null;
  const from = chroma(table[0] ?? 0, table[1] ?? 0, table[2] ?? 0);
  const to = chroma(border[0] ?? 0, border[1] ?? 0, border[2] ?? 0);
  if (!from || !to) return null;
  const delta = to.map((v, i) => v - (from[i] ?? 0));
  const apart2 = delta.reduce((sum, v) => sum + v * v, 0);
  if (Math.sqrt(apart2) < MIN_TINT_APART) return null;
  const pixel = new Float64Array(3);
  const steps = Math.round(reach * 2);
  const shares: number[] = [];
  const levels: number[] = [];
  for (let k = -steps; k <= steps; k++) {
    const values: number[] = [];
    const lightness: number[] = [];
    for (let s = 0; s < PROFILES; s++) {
      const t = 0.2 + (0.6 * s) / (PROFILES - 1);
      const at = { x: side.p.x + (side.q.x - side.p.x) * t, y: side.p.y + (side.q.y - side.p.y) * t };
      const depth = inwardTo(side, line, at) + k / 2;
      colourAt(at.x + side.nx * depth, at.y + side.ny * depth, pixel);
      lightness.push(luma(pixel));
      const c = chroma(pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0);
      if (c) values.push(c.reduce((sum, v, i) => sum + (v - (from[i] ?? 0)) * (delta[i] ?? 0), 0) / apart2);
    }
    if (values.length < PROFILES / 2) return null;
    values.sort((a, b) => a - b);
    shares.push(values[Math.floor(values.length / 2)] ?? 0);
    lightness.sort((a, b) => a - b);
    levels.push(lightness[lightness.length >> 1] ?? 0);
  }
  for (let k = 1; k + 2 < shares.length; k++) {
    const a = shares[k - 1] ?? 0;
    const b = shares[k] ?? 0;
    if (a < 0.5 && b >= 0.5 && (shares[k + 1] ?? 0) >= 0.5 && (shares[k + 2] ?? 0) >= 0.5) {
      const onset = (k - 1 + (0.5 - a) / (b - a) - steps) / 2;
      const ramped = ramps(levels.slice(steps, k), luma(table), luma(border)) && gradual(levels, steps, onset);
      return onset <= 0 || ramped ? onset : null;
    }
  }
  return null;
}

/** Every level lies between `from` and `to`, to within RAMP_SLACK of their difference. */
function ramps(levels: number[], from: number, to: number): boolean {
  const slack = RAMP_SLACK * Math.abs(from - to);
  const low = Math.min(from, to) - slack;
  const high = Math.max(from, to) + slack;
  return levels.every((level) => level >= low && level <= high);
}

/**
 * The lightness falls (or rises) across the pixel either side of the line (at `steps` in `levels`,
 * 0.5 px apart) at most MAX_STEP_OVER_RAMP times as fast as it does on average from 1 px inside
 * the line to `onset` px inside it.
 */
function gradual(levels: number[], steps: number, onset: number): boolean {
  const at = (i: number) => levels[Math.max(0, Math.min(levels.length - 1, i))] ?? 0;
  const atLine = Math.abs(at(steps + 2) - at(steps - 2)) / 2;
  const inLag = Math.abs(at(steps + 2) - at(Math.round(steps + 2 * onset))) / Math.max(0.5, onset - 1);
  return atLine <= MAX_STEP_OVER_RAMP * inLag;
}
