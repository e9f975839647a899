// The edge cue for finding the card: colour gradients, straight lines through them (a Hough
// transform voted by each edge pixel's own gradient direction), how well a segment is supported
// by gradients across it, and the sub-pixel position of a colour step along a profile.
import type { Line, Point } from "./geometry";
import type { RgbaImage } from "./image";

export interface GradientMap {
  width: number;
  height: number;
  /** Gradient of the channel that changes most (a coloured border on a table of equal brightness). */
  gx: Float32Array;
  gy: Float32Array;
  magnitude: Float32Array;
  /** Median gradient magnitude: the photo's own texture and noise level. */
  medianMagnitude: number;
}

/** Sobel gradients per RGB channel; each pixel keeps the channel with the largest magnitude. */
export function gradientMap(image: RgbaImage): GradientMap {
  const { width: W, height: H, data } = image;
  const gx = new Float32Array(W * H);
  const gy = new Float32Array(W * H);
  const magnitude = new Float32Array(W * H);
  const histogram = new Uint32Array(512);
  const row = W * 4;
  for (let y = 1; y < H - 1; y++) {
    for (let x = 1; x < W - 1; x++) {
      const i = y * W + x;
      let bestX = 0;
      let bestY = 0;
      let best = -1;
      for (let ch = 0; ch < 3; ch++) {
        // The 3 × 3 neighbourhood of this channel, read directly (this loop runs ~1 M times).
        const c = i * 4 + ch;
        const nw = data[c - row - 4] ?? 0;
        const n = data[c - row] ?? 0;
        const ne = data[c - row + 4] ?? 0;
        const w = data[c - 4] ?? 0;
        const e = data[c + 4] ?? 0;
        const sw = data[c + row - 4] ?? 0;
        const so = data[c + row] ?? 0;
        const se = data[c + row + 4] ?? 0;
        const sx = ne + 2 * e + se - nw - 2 * w - sw;
        const sy = sw + 2 * so + se - nw - 2 * n - ne;
        const m = sx * sx + sy * sy;
        if (m > best) {
          best = m;
          bestX = sx;
          bestY = sy;
        }
      }
      const m = Math.sqrt(best) / 4;
      gx[i] = bestX / 4;
      gy[i] = bestY / 4;
      magnitude[i] = m;
      const bin = Math.min(511, Math.floor(m));
      histogram[bin] = (histogram[bin] ?? 0) + 1;
    }
  }
  let seen = 0;
  let medianMagnitude = 0;
  const total = (W - 2) * (H - 2);
  for (let bin = 0; bin < 512; bin++) {
    seen += histogram[bin] ?? 0;
    if (seen * 2 >= total) {
      medianMagnitude = bin + 0.5;
      break;
    }
  }
  return { width: W, height: H, gx, gy, magnitude, medianMagnitude };
}

/** An edge pixel must be this much above the photo's median gradient (and at least 6 levels/px). */
export const edgeThreshold = (map: GradientMap) => Math.max(6, 3 * map.medianMagnitude);

export interface HoughLine extends Line {
  votes: number;
}

const ANGLE_BINS = 180;

/**
 * An edge pixel within this many pixels of a line taken (and within ±2° of its direction) is on
 * it; further out, up to MAX_EDGE_SPREAD_PX, while the edge pixels at each offset across the line
 * are at least DENSE_SHARE as many as on it (a soft edge's ramp).
 */
const ON_LINE_PX = 2;
const MAX_EDGE_SPREAD_PX = 8;
const DENSE_SHARE = 0.25;

/**
 * The strongest straight lines: each edge pixel votes for the lines through it within ±2° of its
 * gradient's normal direction, so texture votes spread out while a card's edge piles up.
 * Lines are taken one at a time, strongest first, and each line taken withdraws the votes of the
 * edge pixels on it: one thick edge (a pencil's, a laptop's, a shadow's) gives one line, not
 * a dozen near-copies that crowd the card's four edges out of the `maxLines`.
 */
export function houghLines(map: GradientMap, maxLines: number, minVotes: number): HoughLine[] {
  const { width: W, height: H, gx, gy, magnitude } = map;
  const diagonal = Math.ceil(Math.hypot(W, H));
  const rhoBins = 2 * diagonal + 1;
  const accumulator = new Uint16Array(ANGLE_BINS * rhoBins);
  const cos = new Float64Array(ANGLE_BINS);
  const sin = new Float64Array(ANGLE_BINS);
  for (let t = 0; t < ANGLE_BINS; t++) {
    cos[t] = Math.cos((t * Math.PI) / ANGLE_BINS);
    sin[t] = Math.sin((t * Math.PI) / ANGLE_BINS);
  }
  const threshold = edgeThreshold(map);
  // Each edge pixel's place and direction bin, kept to withdraw its votes later.
  const edgeX = new Uint16Array(W * H);
  const edgeY = new Uint16Array(W * H);
  const edgeBin = new Uint8Array(W * H);
  let edges = 0;
  // Each pixel's five votes; `step` −1 withdraws them. A cell gets one vote per pixel of a 1 px
  // strip across the coarse copy (under 2,000): far from the Uint16 limit.
  const vote = (x: number, y: number, center: number, step: 1 | -1) => {
    for (let k = -2; k <= 2; k++) {
      const t = (((center + k) % ANGLE_BINS) + ANGLE_BINS) % ANGLE_BINS;
      const rho = Math.round(x * (cos[t] ?? 0) + y * (sin[t] ?? 0)) + diagonal;
      const cell = t * rhoBins + rho;
      accumulator[cell] = (accumulator[cell] ?? 0) + step;
    }
  };
  for (let y = 1; y < H - 1; y++) {
    for (let x = 1; x < W - 1; x++) {
      const i = y * W + x;
      if ((magnitude[i] ?? 0) < threshold) continue;
      let angle = Math.atan2(gy[i] ?? 0, gx[i] ?? 0);
      if (angle < 0) angle += Math.PI;
      const center = Math.round((angle / Math.PI) * ANGLE_BINS) % ANGLE_BINS;
      edgeX[edges] = x;
      edgeY[edges] = y;
      edgeBin[edges] = center;
      edges++;
      vote(x, y, center, 1);
    }
  }
  // Peaks: local maxima over ±3 px within their angle bin, strongest first. Not across bins: a
  // weaker line at a degree's difference from a stronger one a few pixels away (a card's cut beside
  // its panel's edge, turned by the photo's keystone) would be no peak, and its side never found.
  // A line's votes in the neighbouring bins are withdrawn when it is taken (below).
  const peaks: { t: number; rho: number; votes: number; taken: boolean }[] = [];
  for (let t = 0; t < ANGLE_BINS; t++) {
    for (let r = 0; r < rhoBins; r++) {
      const votes = accumulator[t * rhoBins + r] ?? 0;
      if (votes < minVotes) continue;
      let isPeak = true;
      for (let dr = -3; dr <= 3 && isPeak; dr++) {
        const r2 = r + dr;
        if (dr === 0 || r2 < 0 || r2 >= rhoBins) continue;
        const other = accumulator[t * rhoBins + r2] ?? 0;
        if (other > votes || (other === votes && r2 < r)) isPeak = false;
      }
      if (isPeak) peaks.push({ t, rho: r - diagonal, votes, taken: false });
    }
  }
  // A peak's votes as found bound its votes after withdrawals: sorted by them, the search for the
  // strongest line left stops at the first peak whose bound cannot beat the best found.
  peaks.sort((p, q) => q.votes - p.votes);
  const taken = new Uint8Array(edges);
  // The edge pixels by direction bin (a counting sort): a line's withdrawal reads five bins only.
  const bucketStart = new Int32Array(ANGLE_BINS + 1);
  for (let e = 0; e < edges; e++) bucketStart[(edgeBin[e] ?? 0) + 1] = (bucketStart[(edgeBin[e] ?? 0) + 1] ?? 0) + 1;
  for (let bin = 0; bin < ANGLE_BINS; bin++)
    bucketStart[bin + 1] = (bucketStart[bin + 1] ?? 0) + (bucketStart[bin] ?? 0);
  const byBin = new Int32Array(edges);
  const filled = bucketStart.slice(0, ANGLE_BINS);
  for (let e = 0; e < edges; e++) {
    const bin = edgeBin[e] ?? 0;
    byBin[filled[bin] ?? 0] = e;
    filled[bin] = (filled[bin] ?? 0) + 1;
  }
  const across = new Uint32Array(2 * MAX_EDGE_SPREAD_PX + 1);
  const nearEdge = new Int32Array(edges);
  const nearOffset = new Int8Array(edges);
  const lines: HoughLine[] = [];
  while (lines.length < maxLines) {
    let best: (typeof peaks)[number] | undefined;
    let bestVotes = minVotes - 1;
    for (const peak of peaks) {
      if (peak.votes <= bestVotes) break;
      if (peak.taken) continue;
      const votes = accumulator[peak.t * rhoBins + peak.rho + diagonal] ?? 0;
      if (votes > bestVotes) {
        bestVotes = votes;
        best = peak;
      }
    }
    if (!best) break;
    best.taken = true;
    const a = cos[best.t] ?? 0;
    const b = sin[best.t] ?? 0;
    lines.push({ a, b, c: best.rho, votes: bestVotes });
    // The edge's own width: the run of offsets across the line, out from it, at which its
    // direction's edge pixels stay dense (a soft edge's ramp). A parallel edge beyond flat
    // colour (a frame line inside a border) is past a gap and keeps its votes. One pass gathers
    // the untaken pixels that voted for the line's direction (the five bins around it; angles
    // wrap at 180°) within MAX_EDGE_SPREAD_PX, and their offsets.
    across.fill(0);
    let near = 0;
    for (let k = -2; k <= 2; k++) {
      const bin = (best.t + k + ANGLE_BINS) % ANGLE_BINS;
      for (let j = bucketStart[bin] ?? 0; j < (bucketStart[bin + 1] ?? 0); j++) {
        const e = byBin[j] ?? 0;
        if (taken[e]) continue;
        const offset = Math.round((edgeX[e] ?? 0) * a + (edgeY[e] ?? 0) * b - best.rho);
        if (offset < -MAX_EDGE_SPREAD_PX || offset > MAX_EDGE_SPREAD_PX) continue;
        nearEdge[near] = e;
        nearOffset[near] = offset;
        near++;
        across[offset + MAX_EDGE_SPREAD_PX] = (across[offset + MAX_EDGE_SPREAD_PX] ?? 0) + 1;
      }
    }
    const dense = DENSE_SHARE * Math.max(...[-1, 0, 1].map((o) => across[o + MAX_EDGE_SPREAD_PX] ?? 0));
    let from = -ON_LINE_PX;
    while (from > -MAX_EDGE_SPREAD_PX && (across[from - 1 + MAX_EDGE_SPREAD_PX] ?? 0) >= dense) from--;
    let to = ON_LINE_PX;
    while (to < MAX_EDGE_SPREAD_PX && (across[to + 1 + MAX_EDGE_SPREAD_PX] ?? 0) >= dense) to++;
    for (let n = 0; n < near; n++) {
      const offset = nearOffset[n] ?? 0;
      if (offset < from || offset > to) continue;
      const e = nearEdge[n] ?? 0;
      taken[e] = 1;
      vote(edgeX[e] ?? 0, edgeY[e] ?? 0, edgeBin[e] ?? 0, -1);
    }
  }
  return lines;
}

export interface SegmentSupport {
  /** Share of points with an edge across the segment within ±`reach` px (gradient within 25° of its normal). */
  support: number;
  /** Mean gradient across the segment on the segment itself (±0.5 px), in edge thresholds, each point capped at 20. */
  strength: number;
  /**
   * Mean share of the step across the segment (gradient summed over ±4 px) that its steepest
   * point holds: about 0.5 for a cut edge, far less for a soft shadow's edge.
   */
  sharpness: number;
}

/**
 * Edge evidence along the segment p → q, from 10 % to 90 % of its length (the rounded corners
 * are skipped): how much of it has an edge across it, and how strong and how exactly placed. With
 * `minSupport`, stops as soon as the support cannot reach it and answers an upper bound below it
 * (strength and sharpness 0): a side that sinks its hypothesis needs no more reading.
 */
export function segmentSupport(
  map: GradientMap,
  p: Point,
  q: Point,
  reach: number,
  samples = 40,
  minSupport = 0,
): SegmentSupport {
  const { width: W, height: H, gx, gy, magnitude } = map;
  const length = Math.hypot(q.x - p.x, q.y - p.y);
  if (length < 4) return { support: 0, strength: 0, sharpness: 0 };
  const nx = -(q.y - p.y) / length;
  const ny = (q.x - p.x) / length;
  const threshold = edgeThreshold(map);
  const cosLimit = Math.cos((25 * Math.PI) / 180);
  let supported = 0;
  let strength = 0;
  let sharpness = 0;
  for (let s = 0; s < samples; s++) {
    const t = 0.1 + (0.8 * (s + 0.5)) / samples;
    const bx = p.x + (q.x - p.x) * t;
    const by = p.y + (q.y - p.y) * t;
    let found = false;
    let best = 0;
    let peak = 0;
    let step = 0;
    for (let d = -4; d <= 4; d++) {
      const x = Math.round(bx + nx * d - 0.5);
      const y = Math.round(by + ny * d - 0.5);
      if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) continue;
      const i = y * W + x;
      const across = Math.abs((gx[i] ?? 0) * nx + (gy[i] ?? 0) * ny);
      step += across;
      if (Math.abs(d) <= 1 && across > peak) peak = across;
    }
    sharpness += step > 0 ? peak / step : 0;
    for (let d = -reach; d <= reach; d += 0.5) {
      const x = Math.round(bx + nx * d - 0.5);
      const y = Math.round(by + ny * d - 0.5);
      if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1) continue;
      const i = y * W + x;
      const m = magnitude[i] ?? 0;
      const across = Math.abs((gx[i] ?? 0) * nx + (gy[i] ?? 0) * ny);
      if (Math.abs(d) <= 0.5 && across > best) best = across;
      if (!found && m >= threshold && across >= cosLimit * m) found = true;
    }
    if (found) supported++;
    strength += Math.min(20, best / threshold);
    // Below `minSupport` whatever the remaining samples show: the caller only needs to know that.
    const reachable = supported + samples - 1 - s;
    if (reachable < minSupport * samples) return { support: reachable / samples, strength: 0, sharpness: 0 };
  }
  return { support: supported / samples, strength: strength / samples, sharpness: sharpness / samples };
}

export type RgbSampler = (x: number, y: number, out: Float64Array) => void;

/** RGB at a sub-pixel position (bilinear), written into `out`. */
export function rgbSampler(image: RgbaImage): RgbSampler {
  const { width: W, height: H, data } = image;
  return (x, y, out) => {
    const sx = x - 0.5;
    const sy = y - 0.5;
    const x0 = Math.min(W - 2, Math.max(0, Math.floor(sx)));
    const y0 = Math.min(H - 2, Math.max(0, Math.floor(sy)));
    const fx = Math.min(1, Math.max(0, sx - x0));
    const fy = Math.min(1, Math.max(0, sy - y0));
    const p = (y0 * W + x0) * 4;
    const q = p + W * 4;
    for (let ch = 0; ch < 3; ch++) {
      const top = (data[p + ch] ?? 0) * (1 - fx) + (data[p + 4 + ch] ?? 0) * fx;
      const bottom = (data[q + ch] ?? 0) * (1 - fx) + (data[q + 4 + ch] ?? 0) * fx;
      out[ch] = top * (1 - fy) + bottom * fy;
    }
  };
}

/**
 * Along the inward normal from `base`: where the colour passes halfway from the table's side to
 * the card's side. Each sample is projected onto the line between the two end colours (the mean of
 * the three outermost and three innermost samples), a quantity linear in how much of the pixel
 * the card covers, so the 50 % crossing is exact whatever the colours (and with a shadow beside
 * the card). The crossing is then read again between the colours 2–3.5 px either side of it
 * (twice): the profile's inner end can lie past a thin border, in the art, whose colour would
 * otherwise pull the crossing along. (It does not move a crossing from one step to another: when
 * the border's colour lies beyond the table-to-art step, the first crossing is at the art and stays
 * there, and the side's line fit then finds too few crossings on one line.) Also returns the
 * contrast (RGB distance of the ends) and the 10–90 % rise width.
 */
export function edgeCrossing(
  sample: RgbSampler,
  base: Point,
  nx: number,
  ny: number,
  halfLength: number,
): { t: number; contrast: number; width: number } | null {
  const n = halfLength * 4 + 1;
  const rgb = sampleProfile(sample, base, nx, ny, halfLength);
  const lo = [0, 0, 0];
  const hi = [0, 0, 0];
  for (let ch = 0; ch < 3; ch++) {
    lo[ch] = ((rgb[ch] ?? 0) + (rgb[3 + ch] ?? 0) + (rgb[6 + ch] ?? 0)) / 3;
    hi[ch] = ((rgb[(n - 1) * 3 + ch] ?? 0) + (rgb[(n - 2) * 3 + ch] ?? 0) + (rgb[(n - 3) * 3 + ch] ?? 0)) / 3;
  }
  const { step2: contrast2, at } = projectOnto(rgb, lo, hi);
  if (contrast2 < 1) return null;
  const profile = new Float64Array(n);
  for (let k = 0; k < n; k++) profile[k] = at(k);
  const crossAt = (target: number): number | null => {
    for (let k = 1; k < n; k++) {
      const a = profile[k - 1] ?? 0;
      const b = profile[k] ?? 0;
      if (a < target && b >= target) return -halfLength + (k - 1 + (target - a) / (b - a)) * 0.5;
    }
    return null;
  };
  const mid = crossAt(0.5);
  const low = crossAt(0.1);
  const high = crossAt(0.9);
  if (mid === null || low === null || high === null) return null;
  const local = crossingBetweenNeighbours(rgb, n, halfLength, mid);
  if (local === null) return null;
  return { t: local, contrast: Math.sqrt(contrast2), width: high - low };
}

/**
 * How far a step rises (10–90 %, px), read on its card side only: on a profile across `base` (a
 * point on the refined edge) along the inward normal, twice the distance from the step's 50 %
 * crossing to where it has come 80 % of the way from the crossing's colour to the card's (the mean
 * of the three innermost samples), which is 90 % of the whole step when the blur is symmetric, as
 * a lens's is. The table's side is not read: a shadow or the card's own dark edge lying outside the
 * cut would lengthen a rise read between the profile's two ends, and so would a profile off
 * centre, whose outer end lies on the ramp. Null when the profile shows no step or does not come
 * that far.
 */
export function cardSideRise(
  sample: RgbSampler,
  base: Point,
  nx: number,
  ny: number,
  halfLength: number,
): number | null {
  const n = halfLength * 4 + 1;
  const rgb = sampleProfile(sample, base, nx, ny, halfLength);
  // Read twice over: the local colours either side settle symmetric about a blurred step only
  // once the crossing they are read around is on it.
  const first = crossingBetweenNeighbours(rgb, n, halfLength, 0);
  const crossing = first === null ? null : crossingBetweenNeighbours(rgb, n, halfLength, first);
  if (crossing === null) return null;
  // The colour at the crossing (interpolated between its two samples) and the card's.
  const position = (crossing + halfLength) * 2;
  const k0 = Math.min(n - 2, Math.max(0, Math.floor(position)));
  const f = position - k0;
  const atCrossing = [0, 1, 2].map((ch) => (rgb[k0 * 3 + ch] ?? 0) * (1 - f) + (rgb[(k0 + 1) * 3 + ch] ?? 0) * f);
  const card = cardColour(rgb, n, k0, atCrossing);
  const { step2, at } = projectOnto(rgb, atCrossing, card);
  if (step2 < MIN_LOCAL_STEP2 / 4) return null;
  for (let k = k0 + 1; k < n; k++) {
    const a = k === k0 + 1 ? 0 : at(k - 1);
    const b = at(k);
    if (a < RISE_LEVEL && b >= RISE_LEVEL) {
      const from = k === k0 + 1 ? position : k - 1;
      const reached = from + ((RISE_LEVEL - a) / (b - a)) * (k - from);
      // Samples are 0.5 px apart: the distance in samples is twice the distance in px, the rise.
      return reached - position;
    }
  }
  return null;
}

/**
 * The card's colour on a profile (sampleProfile) whose step lies between samples `k0` and `k0` + 1:
 * the mean of its three innermost samples, unless the colour settles on a plateau nearer the cut
 * and then changes again by more than a quarter of the step, as a border thinner than the profile
 * reaches does before the art: then the plateau's (where two successive changes are under
 * PLATEAU_CHANGE of the step's steepest). A blurred edge's ramp only levels off: read as before.
 */
function cardColour(rgb: Float64Array, n: number, k0: number, atCrossing: number[]): number[] {
  const colourAt = (k: number) =>
    [0, 1, 2].map((ch) => ((rgb[k * 3 + ch] ?? 0) + (rgb[(k + 1) * 3 + ch] ?? 0) + (rgb[(k + 2) * 3 + ch] ?? 0)) / 3);
  const innermost = colourAt(n - 3);
  const change = (k: number) =>
    Math.hypot(
      (rgb[k * 3] ?? 0) - (rgb[(k - 1) * 3] ?? 0),
      (rgb[k * 3 + 1] ?? 0) - (rgb[(k - 1) * 3 + 1] ?? 0),
      (rgb[k * 3 + 2] ?? 0) - (rgb[(k - 1) * 3 + 2] ?? 0),
    );
  let steepest = 0;
  for (let k = Math.max(1, k0 - 2); k <= Math.min(n - 1, k0 + 3); k++) steepest = Math.max(steepest, change(k));
  for (let k = k0 + 2; k + 3 < n; k++) {
    if (change(k) >= PLATEAU_CHANGE * steepest || change(k + 1) >= PLATEAU_CHANGE * steepest) continue;
    const plateau = colourAt(k);
    const step = 2 * Math.hypot(...plateau.map((v, ch) => v - (atCrossing[ch] ?? 0)));
    const beyond = Math.hypot(...plateau.map((v, ch) => v - (innermost[ch] ?? 0)));
    return beyond > BEYOND_PLATEAU * step ? plateau : innermost;
  }
  return innermost;
}

const PLATEAU_CHANGE = 0.15;
const BEYOND_PLATEAU = 0.25;

/** From the 50 % crossing to the card's colour, 80 % of the way is 90 % of the whole step. */
const RISE_LEVEL = 0.8;

/** RGB every 0.5 px along the normal from `base`, from −`halfLength` to +`halfLength` px. */
export function sampleProfile(
  sample: RgbSampler,
  base: Point,
  nx: number,
  ny: number,
  halfLength: number,
): Float64Array {
  const n = halfLength * 4 + 1;
  const rgb = new Float64Array(n * 3);
  const pixel = new Float64Array(3);
  for (let k = 0; k < n; k++) {
    const t = -halfLength + k * 0.5;
    sample(base.x + nx * t, base.y + ny * t, pixel);
    rgb.set(pixel, k * 3);
  }
  return rgb;
}

/** Local step colours are read this far either side of the crossing (px). */
const NEIGHBOUR_FROM = 2;
const NEIGHBOUR_TO = 3.5;
/** Below this squared RGB distance between the two sides there is no step to read. */
const MIN_LOCAL_STEP2 = 100;

/**
 * The 50 % crossing re-read between the mean colours NEIGHBOUR_FROM–NEIGHBOUR_TO px either side
 * of `start` (samples 0.5 px apart, position `-halfLength` first), twice, keeping the crossing
 * nearest the previous one within ±NEIGHBOUR_FROM px; null when the sides do not differ.
 */
function crossingBetweenNeighbours(rgb: Float64Array, n: number, halfLength: number, start: number): number | null {
  let t = start;
  for (let pass = 0; pass < 2; pass++) {
    const index = (offset: number) => Math.round((t + offset + halfLength) * 2);
    const meanColour = (from: number, to: number) => {
      const sum = [0, 0, 0];
      let count = 0;
      for (let k = Math.max(0, index(from)); k <= Math.min(n - 1, index(to)); k++) {
        for (let ch = 0; ch < 3; ch++) sum[ch] = (sum[ch] ?? 0) + (rgb[k * 3 + ch] ?? 0);
        count++;
      }
      return count > 0 ? sum.map((v) => v / count) : null;
    };
    const lo = meanColour(-NEIGHBOUR_TO, -NEIGHBOUR_FROM);
    const hi = meanColour(NEIGHBOUR_FROM, NEIGHBOUR_TO);
    if (!lo || !hi) return t;
    const { step2, at } = projectOnto(rgb, lo, hi);
    if (step2 < MIN_LOCAL_STEP2) return null;
    let best: number | null = null;
    for (let k = Math.max(1, index(-NEIGHBOUR_FROM)); k <= Math.min(n - 1, index(NEIGHBOUR_FROM)); k++) {
      const a = at(k - 1);
      const b = at(k);
      if (a < 0.5 && b >= 0.5) {
        const candidate = -halfLength + (k - 1 + (0.5 - a) / (b - a)) * 0.5;
        if (best === null || Math.abs(candidate - t) < Math.abs(best - t)) best = candidate;
      }
    }
    if (best === null) return null;
    t = best;
  }
  return t;
}

/**
 * Each sample's colour projected onto the step from `lo` to `hi` (0 at `lo`, 1 at `hi`): linear in
 * how much of the pixel the brighter-or-darker side covers, whatever the two colours are.
 * `step2` is the squared RGB distance of the step.
 */
function projectOnto(rgb: Float64Array, lo: number[], hi: number[]): { step2: number; at: (k: number) => number } {
  const d = [(hi[0] ?? 0) - (lo[0] ?? 0), (hi[1] ?? 0) - (lo[1] ?? 0), (hi[2] ?? 0) - (lo[2] ?? 0)];
  const step2 = (d[0] ?? 0) ** 2 + (d[1] ?? 0) ** 2 + (d[2] ?? 0) ** 2;
  const at = (k: number) => {
    let dot = 0;
    for (let ch = 0; ch < 3; ch++) dot += ((rgb[k * 3 + ch] ?? 0) - (lo[ch] ?? 0)) * (d[ch] ?? 0);
    return dot / step2;
  };
  return { step2, at };
}
