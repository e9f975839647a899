// Finding the card in a photo: its outer edges (sub-pixel), the corners, and a flat, unwarped
// view of the card on which the printed frame can be measured.
//
// 1. Background colour = per-channel median of the image's outer frame.
// 2. On a copy of at most 700 px: colour distance from it (shadows forgiven), thresholded above
//    the table's own spread; the background is flood-filled from the image border so artwork that
//    matches the table stays "card".
// 3. The largest remaining component is the card. Edge points are the first card pixels along
//    rows (left/right) and columns (top/bottom), skipping the rounded corners; a robust line fit
//    per edge, then sub-pixel refinement on the full working image from ~120 profiles across each
//    edge (50 % crossing of the colour step), and a second fit.
// 4. Corners = intersections of the four lines; the card's 63 × 88 mm shape is checked; a
//    homography maps the quadrilateral onto a flat card at FLAT_PX_PER_MM.
import { downscaleToFit, type RgbaImage } from "./image";

export const CARD_WIDTH_MM = 63;
export const CARD_HEIGHT_MM = 88;
export const CARD_ASPECT = CARD_HEIGHT_MM / CARD_WIDTH_MM;
/**
 * Resolution of the unwarped card: 504 × 704 px. 8 px/mm keeps a 1 mm border 8 px wide (the frame
 * is found to a fraction of a pixel) while the whole grade stays inside its time budget.
 */
export const FLAT_PX_PER_MM = 8;

export interface Point {
  x: number;
  y: number;
}

/** A line a·x + b·y = c with (a, b) a unit normal. */
interface Line {
  a: number;
  b: number;
  c: number;
}

export interface CardOutline {
  /** Top-left, top-right, bottom-right, bottom-left, in image pixels. */
  corners: [Point, Point, Point, Point];
  /** Measured height/width of the outline (63 × 88 mm gives 1.397). */
  aspect: number;
  /** Median contrast across the card's edge, in colour-distance units (0–441). */
  edgeContrast: number;
  /** Background colour distance noise (standard deviation), same units. */
  backgroundNoise: number;
  /** RMS distance of the refined edge points from their lines, in pixels. */
  edgeResidual: number;
  /** 10–90 % rise of the edge profile, in pixels (blur). */
  edgeWidth: number;
  /** Share of the image area the card covers. */
  areaShare: number;
  background: [number, number, number];
}

export type OutlineResult = { ok: true; outline: CardOutline } | { ok: false; reason: string };

const EDGE_PROFILES = 120;
const MIN_OBJECT_DISTANCE = 28;
/** A shadow leaves at least this share of the table's brightness. */
const SHADOW_MIN_BRIGHTNESS = 0.5;
/** Segmentation resolution (longer side). */
const COARSE_MAX_SIDE = 700;

export function findCardOutline(image: RgbaImage): OutlineResult {
  // Segmentation runs on a copy of at most COARSE_MAX_SIDE px (fast); the edges are then
  // measured on the full working image along profiles long enough to cover the coarse error.
  const coarse = downscaleToFit(image, COARSE_MAX_SIDE);
  const scale = image.width / coarse.width;
  const { width: W, height: H, data } = coarse;
  const background = outerFrameMedian(coarse);
  const distance = new Float32Array(W * H);
  const fromBackground = backgroundDistance(background);
  for (let i = 0, p = 0; i < distance.length; i++, p += 4) {
    distance[i] = fromBackground(data[p] ?? 0, data[p + 1] ?? 0, data[p + 2] ?? 0);
  }
  // The table is what the outer frame shows: anything further from its colour than the frame's own
  // spread (1.25 × its 99.5th percentile) is card. Otsu's split caps that for noisy tables, and anything
  // within MIN_OBJECT_DISTANCE counts as table (a photo of the table alone has nothing above it).
  // Otsu alone is not enough: with a table, a border and artwork it can put the border with the table.
  const frameSpread = outerFrameSpread(distance, W, H);
  const threshold = Math.max(MIN_OBJECT_DISTANCE, Math.min(otsuThreshold(distance), frameSpread));
  const backgroundMask = floodBackground(distance, W, H, threshold);
  const component = largestComponent(backgroundMask, W, H);
  if (!component || component.size < W * H * 0.02) return { ok: false, reason: "no card found in the photo" };
  const { minX, maxX, minY, maxY } = component;
  if (minX <= 1 || minY <= 1 || maxX >= W - 2 || maxY >= H - 2) {
    return {
      ok: false,
      reason: "the card touches the edge of the photo; all four edges and a sliver of background must be visible",
    };
  }
  const inCard = (x: number, y: number) => component.mask[y * W + x] === 1;

  // Coarse edge points, skipping 15 % at each end (the rounded corners), in full-image pixels.
  const left: Point[] = [];
  const right: Point[] = [];
  const top: Point[] = [];
  const bottom: Point[] = [];
  const spanY = maxY - minY;
  const spanX = maxX - minX;
  for (let y = Math.round(minY + spanY * 0.15); y <= maxY - spanY * 0.15; y++) {
    let x = minX;
    while (x <= maxX && !inCard(x, y)) x++;
    if (x <= maxX) left.push({ x: x * scale, y: (y + 0.5) * scale });
    x = maxX;
    while (x >= minX && !inCard(x, y)) x--;
    if (x >= minX) right.push({ x: (x + 1) * scale, y: (y + 0.5) * scale });
  }
  for (let x = Math.round(minX + spanX * 0.15); x <= maxX - spanX * 0.15; x++) {
    let y = minY;
    while (y <= maxY && !inCard(x, y)) y++;
    if (y <= maxY) top.push({ x: (x + 0.5) * scale, y: y * scale });
    y = maxY;
    while (y >= minY && !inCard(x, y)) y--;
    if (y >= minY) bottom.push({ x: (x + 0.5) * scale, y: (y + 1) * scale });
  }
  const coarseLines = [left, top, right, bottom].map((points) => fitLine(points));
  if (coarseLines.some((line) => line === null)) return { ok: false, reason: "the card's edges could not be traced" };

  // Sub-pixel refinement across each edge on the full image; `inward` points into the card.
  const colourAt = rgbSampler(image);
  const halfLength = Math.max(6, Math.ceil(2.5 * scale));
  const center = { x: ((minX + maxX) / 2) * scale, y: ((minY + maxY) / 2) * scale };
  const refined: Line[] = [];
  const contrasts: number[] = [];
  const widths: number[] = [];
  let residualSum = 0;
  let residualCount = 0;
  const sides = [left, top, right, bottom];
  for (let side = 0; side < 4; side++) {
    const line = coarseLines[side] as Line;
    const points = sides[side] as Point[];
    const step = Math.max(1, Math.floor(points.length / EDGE_PROFILES));
    const samples: Point[] = [];
    const sign = line.a * center.x + line.b * center.y - line.c > 0 ? 1 : -1;
    const nx = line.a * sign;
    const ny = line.b * sign;
    for (let i = 0; i < points.length; i += step) {
      const p = points[i] as Point;
      // Project onto the coarse line, then walk along the inward normal.
      const offset = line.a * p.x + line.b * p.y - line.c;
      const base = { x: p.x - line.a * offset, y: p.y - line.b * offset };
      const crossing = edgeCrossing(colourAt, base, nx, ny, halfLength);
      if (!crossing) continue;
      samples.push({ x: base.x + nx * crossing.t, y: base.y + ny * crossing.t });
      contrasts.push(crossing.contrast);
      widths.push(crossing.width);
    }
    const fitted = fitLine(samples);
    if (!fitted || samples.length < 12) return { ok: false, reason: "the card's edges could not be measured" };
    for (const s of samples) {
      const r = fitted.a * s.x + fitted.b * s.y - fitted.c;
      residualSum += r * r;
      residualCount++;
    }
    refined.push(fitted);
  }

  const [l, t, r, b] = refined as [Line, Line, Line, Line];
  const corners: [Point, Point, Point, Point] = [intersect(l, t), intersect(t, r), intersect(r, b), intersect(b, l)];
  if (corners.some((c) => !Number.isFinite(c.x) || !Number.isFinite(c.y))) {
    return { ok: false, reason: "the card's edges do not form a rectangle" };
  }
  const [tl, tr, br, bl] = corners;
  const widthPx = (dist(tl, tr) + dist(bl, br)) / 2;
  const heightPx = (dist(tl, bl) + dist(tr, br)) / 2;
  const aspect = heightPx / widthPx;
  const noise = backgroundNoise(colourAt, background, image.width, image.height);
  return {
    ok: true,
    outline: {
      corners,
      aspect,
      edgeContrast: median(contrasts),
      backgroundNoise: noise,
      edgeResidual: Math.sqrt(residualSum / Math.max(1, residualCount)),
      edgeWidth: median(widths),
      areaShare: component.size / (W * H),
      background,
    },
  };
}

/** Unwarps the card outline to a flat RGBA image at FLAT_PX_PER_MM (bilinear sampling). */
export function unwarpCard(image: RgbaImage, corners: [Point, Point, Point, Point]): RgbaImage {
  const width = CARD_WIDTH_MM * FLAT_PX_PER_MM;
  const height = CARD_HEIGHT_MM * FLAT_PX_PER_MM;
  const h = homography(
    [
      { x: 0, y: 0 },
      { x: width, y: 0 },
      { x: width, y: height },
      { x: 0, y: height },
    ],
    corners,
  );
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0, h8 = 1] = h;
  const out = new Uint8Array(width * height * 4);
  const src = image.data;
  const W = image.width;
  const H = image.height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x + 0.5;
      const v = y + 0.5;
      const w = h6 * u + h7 * v + h8;
      const sx = (h0 * u + h1 * v + h2) / w - 0.5;
      const sy = (h3 * u + h4 * v + h5) / w - 0.5;
      const x0 = Math.min(W - 2, Math.max(0, Math.floor(sx)));
      const y0 = Math.min(H - 2, Math.max(0, Math.floor(sy)));
      const fx = Math.min(1, Math.max(0, sx - x0));
      const fy = Math.min(1, Math.max(0, sy - y0));
      const p00 = (y0 * W + x0) * 4;
      const p10 = p00 + 4;
      const p01 = p00 + W * 4;
      const p11 = p01 + 4;
      const o = (y * width + x) * 4;
      for (let ch = 0; ch < 3; ch++) {
        const top = (src[p00 + ch] ?? 0) * (1 - fx) + (src[p10 + ch] ?? 0) * fx;
        const bottom = (src[p01 + ch] ?? 0) * (1 - fx) + (src[p11 + ch] ?? 0) * fx;
        out[o + ch] = top * (1 - fy) + bottom * fy;
      }
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
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
 */
function outerFrameSpread(distance: Float32Array, W: number, H: number): number {
  const band = Math.max(2, Math.round(Math.min(W, H) * 0.03));
  const bins = 1024;
  const histogram = new Uint32Array(bins);
  let count = 0;
  const add = (value: number) => {
    const bin = Math.min(bins - 1, Math.floor(value * 2));
    histogram[bin] = (histogram[bin] ?? 0) + 1;
    count++;
  };
  for (let y = 0; y < H; y++) {
    if (y < band || y >= H - band) {
      for (let x = 0; x < W; x++) add(distance[y * W + x] ?? 0);
    } else {
      for (let x = 0; x < band; x++) add(distance[y * W + x] ?? 0);
      for (let x = W - band; x < W; x++) add(distance[y * W + x] ?? 0);
    }
  }
  let seen = 0;
  for (let bin = 0; bin < bins; bin++) {
    seen += histogram[bin] ?? 0;
    if (seen >= count * 0.995) return 1.25 * ((bin + 1) / 2);
  }
  return 1.25 * (bins / 2);
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

/** 1 where the pixel is background reachable from the image border through sub-threshold pixels. */
function floodBackground(distance: Float32Array, W: number, H: number, threshold: number): Uint8Array {
  const mask = new Uint8Array(W * H);
  const queue = new Int32Array(W * H);
  let head = 0;
  let tail = 0;
  const push = (i: number) => {
    if (mask[i] === 0 && (distance[i] ?? 0) <= threshold) {
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
      const visit = (j: number) => {
        if (background[j] === 0 && labels[j] === 0) {
          labels[j] = label;
          queue[tail++] = j;
        }
      };
      if (x > 0) visit(i - 1);
      if (x < W - 1) visit(i + 1);
      if (y > 0) visit(i - W);
      if (y < H - 1) visit(i + W);
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

type RgbSampler = (x: number, y: number, out: Float64Array) => void;

/** RGB at a sub-pixel position (bilinear), written into `out`. */
function rgbSampler(image: RgbaImage): RgbSampler {
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
 * the card). Also returns the contrast (RGB distance of the ends) and the 10–90 % rise width.
 */
function edgeCrossing(
  sample: RgbSampler,
  base: Point,
  nx: number,
  ny: number,
  halfLength: number,
): { t: number; contrast: number; width: number } | null {
  const n = halfLength * 4 + 1;
  const rgb = new Float64Array(n * 3);
  const pixel = new Float64Array(3);
  for (let k = 0; k < n; k++) {
    const t = -halfLength + k * 0.5;
    sample(base.x + nx * t, base.y + ny * t, pixel);
    rgb.set(pixel, k * 3);
  }
  const lo = [0, 0, 0];
  const hi = [0, 0, 0];
  for (let ch = 0; ch < 3; ch++) {
    lo[ch] = ((rgb[ch] ?? 0) + (rgb[3 + ch] ?? 0) + (rgb[6 + ch] ?? 0)) / 3;
    hi[ch] = ((rgb[(n - 1) * 3 + ch] ?? 0) + (rgb[(n - 2) * 3 + ch] ?? 0) + (rgb[(n - 3) * 3 + ch] ?? 0)) / 3;
  }
  const d = [(hi[0] ?? 0) - (lo[0] ?? 0), (hi[1] ?? 0) - (lo[1] ?? 0), (hi[2] ?? 0) - (lo[2] ?? 0)];
  const contrast2 = (d[0] ?? 0) ** 2 + (d[1] ?? 0) ** 2 + (d[2] ?? 0) ** 2;
  if (contrast2 < 1) return null;
  const profile = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let dot = 0;
    for (let ch = 0; ch < 3; ch++) dot += ((rgb[k * 3 + ch] ?? 0) - (lo[ch] ?? 0)) * (d[ch] ?? 0);
    profile[k] = dot / contrast2;
  }
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
  return { t: mid, contrast: Math.sqrt(contrast2), width: high - low };
}

/** Total least squares line through points, refitted twice without outliers (> 2.5 σ, ≥ 1 px). */
function fitLine(points: Point[]): Line | null {
  let current = points;
  let line: Line | null = null;
  for (let pass = 0; pass < 3; pass++) {
    if (current.length < 2) return line;
    let mx = 0;
    let my = 0;
    for (const p of current) {
      mx += p.x;
      my += p.y;
    }
    mx /= current.length;
    my /= current.length;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (const p of current) {
      sxx += (p.x - mx) ** 2;
      syy += (p.y - my) ** 2;
      sxy += (p.x - mx) * (p.y - my);
    }
    // The normal is the eigenvector of the smaller eigenvalue of the scatter matrix.
    const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
    const a = -Math.sin(angle);
    const b = Math.cos(angle);
    line = { a, b, c: a * mx + b * my };
    const residuals = current.map((p) => Math.abs(a * p.x + b * p.y - (line as Line).c));
    const sigma = Math.sqrt(residuals.reduce((s, r) => s + r * r, 0) / residuals.length);
    const limit = Math.max(1, 2.5 * sigma);
    const kept = current.filter((_, i) => (residuals[i] ?? 0) <= limit);
    if (kept.length === current.length) break;
    current = kept;
  }
  return line;
}

function intersect(p: Line, q: Line): Point {
  const det = p.a * q.b - p.b * q.a;
  return { x: (p.c * q.b - p.b * q.c) / det, y: (p.a * q.c - p.c * q.a) / det };
}

function dist(p: Point, q: Point): number {
  return Math.hypot(p.x - q.x, p.y - q.y);
}

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

function backgroundNoise(sample: RgbSampler, background: [number, number, number], W: number, H: number): number {
  // Spread of the colour distance in a corner patch of the frame (texture + sensor noise).
  const size = Math.max(4, Math.round(Math.min(W, H) * 0.03));
  const values: number[] = [];
  const pixel = new Float64Array(3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      sample(x + 0.5, y + 0.5, pixel);
      values.push(
        Math.hypot((pixel[0] ?? 0) - background[0], (pixel[1] ?? 0) - background[1], (pixel[2] ?? 0) - background[2]),
      );
    }
  }
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  return Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length);
}

/** The 3×3 homography (row-major, h[8] = 1) mapping `from` quadrilateral corners onto `to`. */
export function homography(from: Point[], to: Point[]): number[] {
  // Solve the 8×8 linear system of the direct linear transform with Gaussian elimination.
  const A: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i] as Point;
    const { x: u, y: v } = to[i] as Point;
    A.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    A.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let row = col + 1; row < 8; row++)
      if (Math.abs(A[row]?.[col] ?? 0) > Math.abs(A[pivot]?.[col] ?? 0)) pivot = row;
    const swap = A[col] as number[];
    A[col] = A[pivot] as number[];
    A[pivot] = swap;
    const pivotRow = A[col] as number[];
    for (let row = 0; row < 8; row++) {
      if (row === col) continue;
      const r = A[row] as number[];
      const factor = (r[col] ?? 0) / (pivotRow[col] ?? 1);
      for (let k = col; k < 9; k++) r[k] = (r[k] ?? 0) - factor * (pivotRow[k] ?? 0);
    }
  }
  const h = A.map((row, i) => (row[8] ?? 0) / (row[i] ?? 1));
  h.push(1);
  return h;
}
