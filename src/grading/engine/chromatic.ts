// Lateral chromatic aberration: a lens that images red and blue at slightly other sizes than green
// puts each colour's edges a little apart, more the further from the photo's centre. The engine
// reads edges in colour, so a cut and a frame line each land where the channels that carry their
// contrast put them, and a card off the photo's centre has its two borders moved unequally: on
// drawn photos with red and blue 2 px apart from green at the photo's corners, 11 of 60 graded
// cards were over a point off, the worst 3.2, without a flag (3 of 64 with it taken out). The
// card's own outline measures it: on each side, the steepest step of the red and of the blue
// against the green's, profile by profile; per side the median offset. Lateral aberration scales
// a channel about the photo's centre, so each side's offset is one share of its distance from the
// centre along its normal (its lever); when the sides agree on one share per channel and it moves
// a channel MIN_CORRECTED_PX or more at the card's furthest side, that channel is resampled at the
// green's scale. Weaker aberration is left: JPEG's coarser colour moves a channel's edges by as
// much (0.3 px on all four sides of one drawn card without any), and with the card near the
// photo's centre its sides' levers are alike, so one share fits that too. The real phone photos
// measured show none (medians within 0.08 px: phones correct it); bands of colour along some sides
// (a scan's blue rim) fit no one share and are left alone.
import { rgbSampler } from "./edges";
import { outwardSide, type Point, type Quad } from "./geometry";
import type { RgbaImage } from "./image";

/** Profiles read across each side of the outline. */
const PROFILES = 60;
/** A channel's step must span this many levels 3 px either side of the edge for its place to count. */
const MIN_CHANNEL_STEP = 20;
/** A side's offsets count when this many profiles gave one. */
const MIN_SIDE_PROFILES = 6;
/** Each side's median offset must lie this close (px) to the one share's. */
const MAX_SIDE_MISFIT = 0.25;
/** A channel is resampled when its edges lie this far (px) from the green's at the card's edge. */
const MIN_CORRECTED_PX = 0.5;

/** Per channel, how much larger its image is than the green's (0: the same), about `centre`. */
export interface Aberration {
  red: number;
  blue: number;
  centre: Point;
}

/**
 * The lateral aberration the card's outline `quad` shows in `image` (its sides within `reach` px),
 * about the photo's centre `centre` (in `image`'s pixels); null when neither channel is moved
 * MIN_CORRECTED_PX at the card's edge or the sides do not agree on a share.
 */
export function measureAberration(image: RgbaImage, quad: Quad, reach: number, centre: Point): Aberration | null {
  const at = rgbSampler(image);
  const n = Math.round(4 * reach) + 1;
  const channels = [new Float64Array(n), new Float64Array(n), new Float64Array(n)];
  const pixel = new Float64Array(3);
  const sides: { lever: number; offsets: [number[], number[]] }[] = [];
  for (let k = 0; k < 4; k++) {
    const { p, q, nx, ny } = outwardSide(quad, k);
    const offsets: [number[], number[]] = [[], []];
    const levers: number[] = [];
    for (let s = 0; s < PROFILES; s++) {
      const t = 0.1 + (0.8 * (s + 0.5)) / PROFILES;
      const bx = p.x + (q.x - p.x) * t;
      const by = p.y + (q.y - p.y) * t;
      // From `reach` px outside the side to `reach` inside, 0.5 px apart.
      for (let i = 0; i < n; i++) {
        const d = reach - i * 0.5;
        at(bx + nx * d, by + ny * d, pixel);
        for (let ch = 0; ch < 3; ch++) (channels[ch] as Float64Array)[i] = pixel[ch] ?? 0;
      }
      const [red, green, blue] = channels as [Float64Array, Float64Array, Float64Array];
      const luma = (i: number) => 0.299 * (red[i] ?? 0) + 0.587 * (green[i] ?? 0) + 0.114 * (blue[i] ?? 0);
      const edge = steepest(luma, n, 1, n - 2);
      if (edge === null) continue;
      const place = (values: Float64Array) => {
        const value = (i: number) => values[Math.min(n - 1, Math.max(0, i))] ?? 0;
        const middle = Math.round(edge);
        if (Math.abs(value(middle + 6) - value(middle - 6)) < MIN_CHANNEL_STEP) return null;
        return steepest(value, n, middle - 4, middle + 4);
      };
      const g = place(green);
      if (g === null) continue;
      // The lever: how far the edge lies from the centre along the side's inward normal.
      levers.push(-((bx - centre.x) * nx + (by - centre.y) * ny));
      const r = place(red);
      const b = place(blue);
      // Samples run inward: an offset is how far inside the green's the channel's edge lies.
      if (r !== null) offsets[0].push((r - g) / 2);
      if (b !== null) offsets[1].push((b - g) / 2);
    }
    if (levers.length > 0) sides.push({ lever: medianOf(levers), offsets });
  }
  const share = (channel: 0 | 1) => {
    const points = sides
      .filter((side) => side.offsets[channel].length >= MIN_SIDE_PROFILES)
      .map((side) => ({ lever: side.lever, offset: medianOf(side.offsets[channel]) }));
    if (points.length < 2) return 0;
    const k =
      points.reduce((sum, point) => sum + point.offset * point.lever, 0) /
      Math.max(
        1e-9,
        points.reduce((sum, point) => sum + point.lever * point.lever, 0),
      );
    if (points.some((point) => Math.abs(point.offset - k * point.lever) > MAX_SIDE_MISFIT)) return 0;
    const farthest = Math.max(...points.map((point) => Math.abs(point.lever)));
    return Math.abs(k) * farthest >= MIN_CORRECTED_PX ? k : 0;
  };
  const red = share(0);
  const blue = share(1);
  return red === 0 && blue === 0 ? null : { red, blue, centre };
}

/**
 * `image` with its red and blue channels brought to the green's scale: each read where the lens
 * put it, `centre` + (p − `centre`) × (1 + share). (An edge at p moved inward by share × lever
 * lies, in the channel as photographed, at that point.)
 */
export function withoutAberration(image: RgbaImage, aberration: Aberration): RgbaImage {
  const { width: W, height: H, data } = image;
  const out = new Uint8Array(data);
  const { centre } = aberration;
  const scales: [number, number][] = [
    [0, aberration.red],
    [2, aberration.blue],
  ];
  for (const [channel, share] of scales) {
    if (share === 0) continue;
    const scale = 1 + share;
    for (let y = 0; y < H; y++) {
      const sy = centre.y + (y + 0.5 - centre.y) * scale - 0.5;
      const y0 = Math.min(H - 2, Math.max(0, Math.floor(sy)));
      const fy = Math.min(1, Math.max(0, sy - y0));
      for (let x = 0; x < W; x++) {
        const sx = centre.x + (x + 0.5 - centre.x) * scale - 0.5;
        const x0 = Math.min(W - 2, Math.max(0, Math.floor(sx)));
        const fx = Math.min(1, Math.max(0, sx - x0));
        const p = (y0 * W + x0) * 4 + channel;
        const q = p + W * 4;
        const top = (data[p] ?? 0) * (1 - fx) + (data[p + 4] ?? 0) * fx;
        const bottom = (data[q] ?? 0) * (1 - fx) + (data[q + 4] ?? 0) * fx;
        out[(y * W + x) * 4 + channel] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { width: W, height: H, data: out };
}

/**
 * The place of the steepest step of `value` among samples `from`–`to` (central differences), to a
 * fraction of a sample (a parabola through three); null at the window's ends or on a flat profile.
 */
function steepest(value: (i: number) => number, n: number, from: number, to: number): number | null {
  let best = -1;
  let slope = 0;
  for (let i = Math.max(1, from); i <= Math.min(n - 2, to); i++) {
    const g = Math.abs(value(i + 1) - value(i - 1));
    if (g > slope) {
      slope = g;
      best = i;
    }
  }
  if (best < 2 || best > n - 3) return null;
  const a = Math.abs(value(best) - value(best - 2));
  const c = Math.abs(value(best + 2) - value(best));
  const bend = a - 2 * slope + c;
  return best + (bend < 0 ? (0.5 * (a - c)) / bend : 0);
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] ?? 0;
}
