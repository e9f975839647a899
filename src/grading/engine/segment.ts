// The colour cue for finding the card: how far each pixel is from the table's colour.
// 1. The table's colour = per-channel median of the image's outer frame.
// 2. On the coarse copy: colour distance from it (shadows forgiven), thresholded above the
//    table's own spread; the table is flood-filled from the image border so artwork that matches
//    the table stays "card".
// 3. The largest remaining component is one candidate for the card: its first pixels along rows
//    and columns (skipping 15 % at each end, the rounded corners) give four lines, hence one
//    quadrilateral hypothesis for find-card.ts to score against the edge evidence.
// 4. The texture cue (textureCue): on a textured table (cloth, gravel), a card whose border has the
//    table's colour (black on navy cloth) still differs from it in texture: its border is smooth.
//    The table flooded over the colour cue's table less the smooth pixels leaves the card whole.
import type { GradientMap } from "./edges";
import { fitLine, intersect, type Line, type Point, type Quad } from "./geometry";
import type { RgbaImage } from "./image";

const MIN_OBJECT_DISTANCE = 28;
/** The texture cue's window: (2 r + 1)² coarse pixels. */
const TEXTURE_RADIUS = 3;
/** A table whose texture is at least this (mean gradient, levels/px) over nine tenths of it is textured. */
const MIN_TABLE_TEXTURE = 8;
/** A pixel under this share of the table's low texture (its 10th percentile) is smooth: no table. */
const SMOOTH_SHARE = 0.5;
/** Gaps in a smooth border this many pixels wide or less (× 2) are closed to the table's flood. */
const GAP_RADIUS = 2;
/**
 * ...and over texture alone, gaps of up to twice this: on the real card back on navy cloth (see
 * textureCue), whose border is worn, the flood leaked through its nicks into the card at 3, and
 * at 4 its outline did not hold every outline of the print (within 2 px), as find-card.ts asks.
 */
const WIDE_GAP_RADIUS = 5;
/** A line of the table (a joint, a seam) at most this wide (coarse px) is crossed by the looser table. */
const MAX_LINE_CROSSING = 4;
/** A shadow leaves at least this share of the table's brightness. */
const SHADOW_MIN_BRIGHTNESS = 0.5;
/** The share of each side of the photo's outer frame (its middle) that its own spread is read on. */
const SIDE_MIDDLE = 0.8;

export interface ColourCue {
  /** The table's colour (median of the photo's outer frame). */
  background: [number, number, number];
  /** The largest non-table region's quadrilateral, photo order, in coarse pixels; null if none. */
  quad: Quad | null;
  /** Share of the coarse image the region covers. */
  areaShare: number;
  /** The region touches the photo's border. */
  touchesBorder: boolean;
  /** Per coarse pixel, 1 where it is table: within the table's spread and reached from the border. */
  table: Uint8Array;
  /**
   * The same, but reached across the table's own lines, worked out on first call. On a patterned
   * table (bricks, tiles, planks) Otsu's split can fall between the table's two colours, so its
   * lines wall off the table beyond them. Here a path from the border may cross up to
   * MAX_LINE_CROSSING px of colours within the spread the frame's sides share (outerFrameSpread's
   * `sides`): the table between a line and the card counts (the lines themselves do not), while a
   * card's border, wider than that, is not crossed into the card.
   */
  looseTable: () => Uint8Array;
}

export function colourCue(coarse: RgbaImage): ColourCue {
  const { width: W, height: H, data } = coarse;
  const background = outerFrameMedian(coarse);
  const distance = new Float32Array(W * H);
  const fromBackground = backgroundDistance(background);
  for (let i = 0, p = 0; i < distance.length; i++, p += 4) {
    distance[i] = fromBackground(data[p] ?? 0, data[p + 1] ?? 0, data[p + 2] ?? 0);
  }
  // Anything further from the table's colour than the frame's own spread (1.25 × its 99.5th
  // percentile) is card; Otsu's split caps that for noisy tables, and anything within
  // MIN_OBJECT_DISTANCE counts as table (a photo of the table alone has nothing above it).
  const frameSpread = outerFrameSpread(distance, W, H);
  const threshold = Math.max(MIN_OBJECT_DISTANCE, Math.min(otsuThreshold(distance), frameSpread.whole));
  const table = floodBackground(distance, W, H, threshold);
  let loose: Uint8Array | undefined;
  const looseTable = () => {
    loose ??=
      frameSpread.sides > threshold
        ? floodAcrossLines(distance, W, H, threshold, frameSpread.sides, MAX_LINE_CROSSING)
        : table;
    return loose;
  };
  return { background, table, looseTable, ...regionOutline(table, W, H) };
}

/**
 * The largest region that is not table, outlined: its first pixels along rows and columns
 * (skipping 15 % at each end, the rounded corners) fitted to four lines. Null when the region is
 * under 2 % of the image, or its lines do not meet.
 */
function regionOutline(
  table: Uint8Array,
  W: number,
  H: number,
): { quad: Quad | null; areaShare: number; touchesBorder: boolean } {
  const component = largestComponent(table, W, H);
  if (!component || component.size < W * H * 0.02) return { quad: null, areaShare: 0, touchesBorder: false };
  const { minX, maxX, minY, maxY } = component;
  const touchesBorder = minX <= 1 || minY <= 1 || maxX >= W - 2 || maxY >= H - 2;
  const inCard = (x: number, y: number) => component.mask[y * W + x] === 1;
  const left: Point[] = [];
  const right: Point[] = [];
  const top: Point[] = [];
  const bottom: Point[] = [];
  const spanY = maxY - minY;
  const spanX = maxX - minX;
  for (let y = Math.round(minY + spanY * 0.15); y <= maxY - spanY * 0.15; y++) {
    let x = minX;
    while (x <= maxX && !inCard(x, y)) x++;
    if (x <= maxX) left.push({ x, y: y + 0.5 });
    x = maxX;
    while (x >= minX && !inCard(x, y)) x--;
    if (x >= minX) right.push({ x: x + 1, y: y + 0.5 });
  }
  for (let x = Math.round(minX + spanX * 0.15); x <= maxX - spanX * 0.15; x++) {
    let y = minY;
    while (y <= maxY && !inCard(x, y)) y++;
    if (y <= maxY) top.push({ x: x + 0.5, y });
    y = maxY;
    while (y >= minY && !inCard(x, y)) y--;
    if (y >= minY) bottom.push({ x: x + 0.5, y: y + 1 });
  }
  const lines = [left, top, right, bottom].map((points) => fitLine(points));
  const areaShare = component.size / (W * H);
  if (lines.some((line) => line === null)) return { quad: null, areaShare, touchesBorder };
  const [l, t, r, b] = lines as [Line, Line, Line, Line];
  const quad: Quad = [intersect(l, t), intersect(t, r), intersect(r, b), intersect(b, l)];
  const finite = quad.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  return { quad: finite ? quad : null, areaShare, touchesBorder };
}

/**
 * The texture cue: a table with a texture of its own (cloth, a woven mat) around a card whose
 * border is as dark as it, or of its colour, but smooth. Each pixel's texture is its mean
 * gradient over a (2 TEXTURE_RADIUS + 1)² window; where the photo's outer frame (the table) is
 * at least MIN_TABLE_TEXTURE everywhere but a tenth of it, a pixel under SMOOTH_SHARE of that
 * tenth is no table, whatever its colour. The table is flooded from the photo's border over
 * textured pixels, and the largest region left is outlined as the colour cue's is: find-card.ts
 * takes such an outline for the card when the outlines the lines give lie inside it. Two
 * floods, in this order, each giving an outline unless its region touches the photo's edge:
 * - over textured pixels of the colour cue's table. On a real photo of a black-bordered Magic
 *   card on navy cloth the cloth's texture reads 19 at its 10th percentile, the border 5–9; over
 *   texture alone the flood leaked through the worn border's nicks into the card.
 * - over textured pixels alone, closing wider gaps (WIDE_GAP_RADIUS). On a real photo of a
 *   Magic card's back on navy cloth (texture 21.5 at its 10th percentile) the colour cue's table
 *   holds about 60 % of the cloth's pixels, in specks, and the first flood stopped short of most
 *   of the cloth; the card's smooth black border is one closed ring in the texture.
 */
export function textureCue(map: GradientMap, colourTable: Uint8Array): Quad[] {
  const { width: W, height: H, magnitude } = map;
  const low = frameTextureLow(magnitude, W, H);
  if (low < MIN_TABLE_TEXTURE) return [];
  const texture = boxMean(magnitude, W, H, TEXTURE_RADIUS);
  const smooth = SMOOTH_SHARE * low;
  const outlines: Quad[] = [];
  for (const [byColour, gap] of [
    [true, GAP_RADIUS],
    [false, WIDE_GAP_RADIUS],
  ] as const) {
    const base = new Uint8Array(W * H);
    for (let i = 0; i < W * H; i++)
      base[i] = (!byColour || colourTable[i] === 1) && (texture[i] ?? 0) >= smooth ? 1 : 0;
    const outline = regionOutline(floodTextured(base, W, H, gap), W, H);
    if (!outline.touchesBorder && outline.quad) outlines.push(outline.quad);
  }
  return outlines;
}

/**
 * The table reached from the photo's border over `base` (1: textured table), where no pixel
 * outside `base` lies within `gap` (a worn border's light nicks break its smooth ring), then
 * widened back by `gap` within `base`, out to the smooth pixels' edge.
 */
function floodTextured(base: Uint8Array, W: number, H: number, gap: number): Uint8Array {
  const passable = erode(base, W, H, gap);
  const reached = floodFromBorder(W, H, (i) => passable[i] === 1);
  const table = dilate(reached, W, H, gap);
  for (let i = 0; i < W * H; i++) if (base[i] === 0) table[i] = 0;
  return table;
}

/**
 * The 10th percentile of the texture (mean gradient over the TEXTURE_RADIUS window) over the
 * photo's outer frame, read at every other pixel of it, from a histogram in 0.25-level bins.
 */
function frameTextureLow(magnitude: Float32Array, W: number, H: number): number {
  const r = TEXTURE_RADIUS;
  const band = Math.max(2, Math.round(Math.min(W, H) * 0.03)) + r + 1;
  const bins = 1024;
  const histogram = new Uint32Array(bins);
  let count = 0;
  for (let y = r + 1; y < H - r - 1; y += 2) {
    const inBand = y < band || y >= H - band;
    for (let x = r + 1; x < W - r - 1; x += 2) {
      if (!inBand && x >= band && x < W - band) continue;
      let sum = 0;
      for (let dy = -r; dy <= r; dy++) for (let dx = -r; dx <= r; dx++) sum += magnitude[(y + dy) * W + x + dx] ?? 0;
      const bin = Math.min(bins - 1, Math.floor((sum / ((2 * r + 1) * (2 * r + 1))) * 4));
      histogram[bin] = (histogram[bin] ?? 0) + 1;
      count++;
    }
  }
  for (let bin = 0, seen = 0; bin < bins; bin++) {
    seen += histogram[bin] ?? 0;
    if (seen >= count * 0.1) return bin / 4;
  }
  return 0;
}

/** 1 where every pixel of the (2 r + 1)² window round it is 1 (the image's edge repeated beyond it). */
function erode(mask: Uint8Array, W: number, H: number, r: number): Uint8Array {
  const zeros = new Float32Array(mask.length);
  for (let i = 0; i < mask.length; i++) zeros[i] = 1 - (mask[i] ?? 0);
  const near = boxMean(zeros, W, H, r);
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < out.length; i++) out[i] = (near[i] ?? 0) < 1e-6 ? 1 : 0;
  return out;
}

/** 1 where any pixel of the (2 r + 1)² window round it is 1. */
function dilate(mask: Uint8Array, W: number, H: number, r: number): Uint8Array {
  const near = boxMean(Float32Array.from(mask), W, H, r);
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < out.length; i++) out[i] = (near[i] ?? 0) > 1e-6 ? 1 : 0;
  return out;
}

/** Each pixel's mean over the (2 r + 1)² window round it (clamped at the image's edges). */
function boxMean(values: Float32Array, W: number, H: number, r: number): Float32Array {
  const rows = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    let sum = 0;
    for (let x = -r; x <= r; x++) sum += values[y * W + Math.min(W - 1, Math.max(0, x))] ?? 0;
    for (let x = 0; x < W; x++) {
      rows[y * W + x] = sum;
      sum += (values[y * W + Math.min(W - 1, x + r + 1)] ?? 0) - (values[y * W + Math.max(0, x - r)] ?? 0);
    }
  }
  const out = new Float32Array(W * H);
  const n = (2 * r + 1) * (2 * r + 1);
  for (let x = 0; x < W; x++) {
    let sum = 0;
    for (let y = -r; y <= r; y++) sum += rows[Math.min(H - 1, Math.max(0, y)) * W + x] ?? 0;
    for (let y = 0; y < H; y++) {
      out[y * W + x] = sum / n;
      sum += (rows[Math.min(H - 1, y + r + 1) * W + x] ?? 0) - (rows[Math.max(0, y - r) * W + x] ?? 0);
    }
  }
  return out;
}

function outerFrameMedian(image: RgbaImage): [number, number, number] {
  const { width: W, height: H, data } = image;
  const band = Math.max(2, Math.round(Math.min(W, H) * 0.03));
  const histograms = [new Uint32Array(256), new Uint32Array(256), new Uint32Array(256)];
  let count = 0;
  const add = (x: number, y: number) => {
    const p = (y * W + x) * 4;
    for (let ch = 0; ch < 3; ch++) {
      const hist = histograms[ch] as Uint32Array;
      const value = data[p + ch] ?? 0;
      hist[value] = (hist[value] ?? 0) + 1;
    }
    count++;
  };
  for (let y = 0; y < H; y++) {
    if (y < band || y >= H - band) {
      for (let x = 0; x < W; x++) add(x, y);
    } else {
      for (let x = 0; x < band; x++) add(x, y);
      for (let x = W - band; x < W; x++) add(x, y);
    }
  }
  return histograms.map((hist) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += hist[v] ?? 0;
      if (seen * 2 >= count) return v;
    }
    return 255;
  }) as [number, number, number];
}

/**
 * How far the table itself strays from its colour: 1.25 × the 99.5th percentile of the colour
 * distance over the outer frame (a histogram in 0.5 steps). A percentile, not a standard
 * deviation: wood grain and weave have long tails that a σ-based bound would cut through.
 * `whole` is read over the whole frame; `sides` is the same reading on the middle of each of the
 * frame's four sides, the middle two of the four averaged: a table's pattern runs along every
 * side, while something else along one edge of the photo (the floor beyond the table's edge, a
 * laptop) is on one or two. The looser table crosses lines of colours within `sides`: on a real
 * photo of a black-bordered card on a light table with a dark strip along the photo's bottom
 * edge, the whole frame's spread (330) took in black, so the looser table crossed the card's
 * thin black border into its light name bar and art, and the card's own outline, closing two of
 * its lines with "table" between, was set aside as the table's pattern; its sides' spread is 102.
 */
function outerFrameSpread(distance: Float32Array, W: number, H: number): { whole: number; sides: number } {
  const band = Math.max(2, Math.round(Math.min(W, H) * 0.03));
  const bins = 1024;
  const whole = new Uint32Array(bins);
  const sides = [0, 1, 2, 3].map(() => new Uint32Array(bins));
  // Each side is read over its middle (SIDE_MIDDLE of its length): a corner belongs to two sides.
  const add = (side: number, value: number, at: number, length: number) => {
    const bin = Math.min(bins - 1, Math.floor(value * 2));
    whole[bin] = (whole[bin] ?? 0) + 1;
    if (Math.abs(at / length - 0.5) > SIDE_MIDDLE / 2) return;
    const histogram = sides[side] as Uint32Array;
    histogram[bin] = (histogram[bin] ?? 0) + 1;
  };
  for (let y = 0; y < H; y++) {
    if (y < band || y >= H - band) {
      for (let x = 0; x < W; x++) add(y < band ? 0 : 2, distance[y * W + x] ?? 0, x, W);
    } else {
      for (let x = 0; x < band; x++) add(3, distance[y * W + x] ?? 0, y, H);
      for (let x = W - band; x < W; x++) add(1, distance[y * W + x] ?? 0, y, H);
    }
  }
  const spread = (histogram: Uint32Array) => {
    const count = histogram.reduce((sum, n) => sum + n, 0);
    let seen = 0;
    for (let bin = 0; bin < bins; bin++) {
      seen += histogram[bin] ?? 0;
      if (seen >= count * 0.995) return 1.25 * ((bin + 1) / 2);
    }
    return 1.25 * (bins / 2);
  };
  const bySide = sides.map(spread).sort((a, b) => a - b);
  return { whole: spread(whole), sides: ((bySide[1] ?? 0) + (bySide[2] ?? 0)) / 2 };
}

function otsuThreshold(values: Float32Array): number {
  const bins = 256;
  const scale = bins / 442;
  const hist = new Float64Array(bins);
  for (const v of values) {
    const bin = Math.min(bins - 1, Math.floor(v * scale));
    hist[bin] = (hist[bin] ?? 0) + 1;
  }
  const total = values.length;
  let sum = 0;
  for (let i = 0; i < bins; i++) sum += i * (hist[i] ?? 0);
  let sumB = 0;
  let weightB = 0;
  let best = 0;
  let bestVariance = -1;
  for (let i = 0; i < bins; i++) {
    weightB += hist[i] ?? 0;
    if (weightB === 0) continue;
    const weightF = total - weightB;
    if (weightF === 0) break;
    sumB += i * (hist[i] ?? 0);
    const meanB = sumB / weightB;
    const meanF = (sum - sumB) / weightF;
    const variance = weightB * weightF * (meanB - meanF) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = i;
    }
  }
  return (best + 1) / scale;
}

/**
 * 1 where a pixel within `threshold` is reached from the image border through pixels within it,
 * crossing at most `maxCross` pixels in a row that are not but are within `spread`.
 */
function floodAcrossLines(
  distance: Float32Array,
  W: number,
  H: number,
  threshold: number,
  spread: number,
  maxCross: number,
): Uint8Array {
  // The most crossing left on arriving at each pixel (-1: not reached). A pixel is queued again
  // only when reached with more left, so at most maxCross + 1 times.
  const left = new Int8Array(W * H).fill(-1);
  const queue: number[] = [];
  const visit = (i: number, budget: number) => {
    const d = distance[i] ?? 0;
    if (d > spread) return;
    const next = d <= threshold ? maxCross : budget - 1;
    if (next < 0 || next <= (left[i] ?? -1)) return;
    left[i] = next;
    queue.push(i);
  };
  for (let x = 0; x < W; x++) {
    visit(x, maxCross);
    visit((H - 1) * W + x, maxCross);
  }
  for (let y = 0; y < H; y++) {
    visit(y * W, maxCross);
    visit(y * W + W - 1, maxCross);
  }
  for (let head = 0; head < queue.length; head++) {
    const i = queue[head] ?? 0;
    const budget = left[i] ?? -1;
    const x = i % W;
    if (x > 0) visit(i - 1, budget);
    if (x < W - 1) visit(i + 1, budget);
    if (i >= W) visit(i - W, budget);
    if (i < W * (H - 1)) visit(i + W, budget);
  }
  const mask = new Uint8Array(W * H);
  for (let i = 0; i < mask.length; i++) mask[i] = (left[i] ?? -1) >= 0 && (distance[i] ?? 0) <= threshold ? 1 : 0;
  return mask;
}

/** 1 where the pixel is background reachable from the image border through sub-threshold pixels. */
function floodBackground(distance: Float32Array, W: number, H: number, threshold: number): Uint8Array {
  return floodFromBorder(W, H, (i) => (distance[i] ?? 0) <= threshold);
}

/** 1 where the pixel is reachable from the image border through pixels `passable` says may be crossed. */
function floodFromBorder(W: number, H: number, passable: (i: number) => boolean): Uint8Array {
  const mask = new Uint8Array(W * H);
  const queue = new Int32Array(W * H);
  let head = 0;
  let tail = 0;
  const push = (i: number) => {
    if (mask[i] === 0 && passable(i)) {
      mask[i] = 1;
      queue[tail++] = i;
    }
  };
  for (let x = 0; x < W; x++) {
    push(x);
    push((H - 1) * W + x);
  }
  for (let y = 0; y < H; y++) {
    push(y * W);
    push(y * W + W - 1);
  }
  while (head < tail) {
    const i = queue[head++] ?? 0;
    const x = i % W;
    if (x > 0) push(i - 1);
    if (x < W - 1) push(i + 1);
    if (i >= W) push(i - W);
    if (i < W * (H - 1)) push(i + W);
  }
  return mask;
}

interface Component {
  mask: Uint8Array;
  size: number;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
}

/** The largest 4-connected region of non-background pixels. */
function largestComponent(background: Uint8Array, W: number, H: number): Component | null {
  const labels = new Int32Array(W * H);
  const queue = new Int32Array(W * H);
  let best: { label: number; size: number; minX: number; maxX: number; minY: number; maxY: number } | null = null;
  let label = 0;
  for (let start = 0; start < labels.length; start++) {
    if (background[start] === 1 || labels[start] !== 0) continue;
    label++;
    let head = 0;
    let tail = 0;
    queue[tail++] = start;
    labels[start] = label;
    let minX = W;
    let maxX = 0;
    let minY = H;
    let maxY = 0;
    while (head < tail) {
      const i = queue[head++] ?? 0;
      const x = i % W;
      const y = (i - x) / W;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      // The four neighbours, inline (this runs once per pixel of every region).
      for (let k = 0; k < 4; k++) {
        if ((k === 0 && x === 0) || (k === 1 && x === W - 1) || (k === 2 && y === 0) || (k === 3 && y === H - 1))
          continue;
        const j = k === 0 ? i - 1 : k === 1 ? i + 1 : k === 2 ? i - W : i + W;
        if (background[j] === 0 && labels[j] === 0) {
          labels[j] = label;
          queue[tail++] = j;
        }
      }
    }
    if (!best || tail > best.size) best = { label, size: tail, minX, maxX, minY, maxY };
  }
  if (!best) return null;
  const mask = new Uint8Array(W * H);
  for (let i = 0; i < labels.length; i++) if (labels[i] === best.label) mask[i] = 1;
  return { mask, size: best.size, minX: best.minX, maxX: best.maxX, minY: best.minY, maxY: best.maxY };
}

/**
 * How far a colour is from the table, forgiving shadows: the colour is split into the table's
 * colour scaled by k (its brightness relative to the table) and what is left (its difference in
 * hue). Darkening down to SHADOW_MIN_BRIGHTNESS costs nothing (a shadow); any brightening counts
 * in full (a white border on a grey table differs only in brightness); darker than a shadow, or on
 * a very dark table (no usable chromaticity), the plain RGB distance is used.
 */
function backgroundDistance(background: [number, number, number]): (r: number, g: number, b: number) => number {
  const [br, bg, bb] = background;
  const norm2 = br * br + bg * bg + bb * bb;
  const norm = Math.sqrt(norm2);
  return (r, g, b) => {
    const k = (r * br + g * bg + b * bb) / norm2;
    if (norm2 < 45 * 45 || k < SHADOW_MIN_BRIGHTNESS) {
      const dr = r - br;
      const dg = g - bg;
      const db = b - bb;
      return Math.sqrt(dr * dr + dg * dg + db * db);
    }
    const hr = r - k * br;
    const hg = g - k * bg;
    const hb = b - k * bb;
    const brightening = k > 1 ? norm * (k - 1) : 0;
    return Math.sqrt(hr * hr + hg * hg + hb * hb + brightening * brightening);
  };
}
