import { median } from "./geometry";
/** An 8-bit RGBA raster, row-major. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** An 8-bit single-channel raster (luma), row-major. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Rec. 601 luma, the weights JPEG itself uses. */
export function toGray(image: RgbaImage): GrayImage {
  const { width, height, data } = image;
  const out = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < out.length; i++, p += 4) {
    out[i] = (77 * (data[p] ?? 0) + 150 * (data[p + 1] ?? 0) + 29 * (data[p + 2] ?? 0)) >> 8;
  }
  return { width, height, data: out };
}

/** Box-filter (area average) downscale so the longer side is at most `maxSide`. */
export function downscaleToFit(image: RgbaImage, maxSide: number): RgbaImage {
  const { width, height } = fittedSize(image.width, image.height, maxSide);
  if (width === image.width && height === image.height) return image;
  const out = new Uint8Array(width * height * 4);
  // Each source pixel is read once, as one little-endian word (R in the low byte), its four
  // channels taken apart with shifts.
  const src = pixelWords(image);
  // Each output pixel is the mean of a box of source pixels; the boxes' columns are the same on
  // every row, so they are worked out once, and each output row sums its source rows.
  const x0s = new Int32Array(width);
  const x1s = new Int32Array(width);
  for (let x = 0; x < width; x++) {
    const x0 = Math.floor((x * image.width) / width);
    x0s[x] = x0;
    x1s[x] = Math.max(x0 + 1, Math.floor(((x + 1) * image.width) / width));
  }
  // Sums two channels to a word: red and blue in `evens` (bits 0–15 and 16–31), green and alpha in
  // `odds`. A lane holds 255 × 257 at most, so a box of up to 257 source pixels fits; larger
  // boxes (a shrink of more than 16 times each way) take the per-channel path below.
  const boxArea = Math.ceil(image.width / width + 1) * Math.ceil(image.height / height + 1);
  if (boxArea > 257) return downscalePerChannel(image, src, width, height, x0s, x1s, out);
  const evens = new Int32Array(width);
  const odds = new Int32Array(width);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * image.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / height));
    evens.fill(0);
    odds.fill(0);
    for (let sy = y0; sy < y1; sy++) {
      const row = sy * image.width;
      for (let x = 0; x < width; x++) {
        let even = 0;
        let odd = 0;
        for (let p = row + (x0s[x] ?? 0), end = row + (x1s[x] ?? 0); p < end; p++) {
          const v = src[p] ?? 0;
          even += v & 0x00ff00ff;
          odd += (v >>> 8) & 0x00ff00ff;
        }
        evens[x] = (evens[x] ?? 0) + even;
        odds[x] = (odds[x] ?? 0) + odd;
      }
    }
    for (let x = 0, q = y * width * 4; x < width; x++, q += 4) {
      const n = (y1 - y0) * ((x1s[x] ?? 0) - (x0s[x] ?? 0));
      const even = evens[x] ?? 0;
      const odd = odds[x] ?? 0;
      out[q] = (even & 0xffff) / n;
      out[q + 1] = (odd & 0xffff) / n;
      out[q + 2] = (even >>> 16) / n;
      out[q + 3] = (odd >>> 16) / n;
    }
  }
  return { width, height, data: out };
}

/**
 * `image` shrunk to `width` × `height` by area: each output pixel the mean of the source area
 * under it, source pixels cut by its edges weighted by the share inside. downscaleToFit's whole
 * source pixels shift the copy by up to a third of a source pixel where the ratio is not whole
 * (at three quarters its boxes are 1, 1 and 2 pixels wide in turn, their centres a third of a
 * pixel short of the output pixels' on average), which moves every line found on it: measured
 * from the left the borders read deeper, from the right shallower. By area the copy lies where
 * the source does.
 *
 * Rows are streamed: each source row is shrunk across once (four channels as floats) and kept
 * only while an output row still reads it, so a 12 MP source needs two shrunk rows, not a
 * shrunk copy of the whole image.
 */
export function downscaleByArea(image: RgbaImage, width: number, height: number): RgbaImage {
  const { width: W, height: H, data } = image;
  const columns = areaSpans(W, width);
  const rows = areaSpans(H, height);
  // Shrunk source rows, keyed by row: an output row reads at most ceil(ratio) + 1 of them, and
  // rows come in order, so a ring of that many slots holds every row still to be read.
  const slots = Math.ceil(H / height) + 2;
  const ring = Array.from({ length: slots }, () => new Float32Array(width * 4));
  const held = new Int32Array(slots).fill(-1);
  const across = (sy: number): Float32Array => {
    const slot = sy % slots;
    const row = ring[slot] as Float32Array;
    if (held[slot] === sy) return row;
    held[slot] = sy;
    const base = sy * W * 4;
    for (let x = 0, q = 0; x < width; x++, q += 4) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (
        let k = columns.offsets[x] ?? 0, end = columns.offsets[x + 1] ?? 0, p = base + (columns.starts[x] ?? 0) * 4;
        k < end;
        k++, p += 4
      ) {
        const weight = columns.weights[k] ?? 0;
        r += weight * (data[p] ?? 0);
        g += weight * (data[p + 1] ?? 0);
        b += weight * (data[p + 2] ?? 0);
        a += weight * (data[p + 3] ?? 0);
      }
      row[q] = r;
      row[q + 1] = g;
      row[q + 2] = b;
      row[q + 3] = a;
    }
    return row;
  };
  const out = new Uint8Array(width * height * 4);
  const sums = new Float64Array(width * 4);
  for (let y = 0; y < height; y++) {
    sums.fill(0);
    for (let k = rows.offsets[y] ?? 0, end = rows.offsets[y + 1] ?? 0, sy = rows.starts[y] ?? 0; k < end; k++, sy++) {
      const weight = rows.weights[k] ?? 0;
      const row = across(sy);
      for (let i = 0; i < sums.length; i++) sums[i] = (sums[i] ?? 0) + weight * (row[i] ?? 0);
    }
    for (let i = 0, o = y * width * 4; i < sums.length; i++, o++) out[o] = Math.round(sums[i] ?? 0);
  }
  return { width, height, data: out };
}

/**
 * Per output pixel along one axis (`to` of them over `from` source pixels): the first source pixel
 * under it (`starts`), and its weights, the shares of it each source pixel covers, in `weights`
 * from `offsets[i]` to `offsets[i + 1]`.
 */
function areaSpans(from: number, to: number): { starts: Int32Array; offsets: Int32Array; weights: Float64Array } {
  const ratio = from / to;
  const starts = new Int32Array(to);
  const offsets = new Int32Array(to + 1);
  const weights: number[] = [];
  for (let x = 0; x < to; x++) {
    const a = x * ratio;
    const b = Math.min(from, (x + 1) * ratio);
    const first = Math.floor(a);
    const last = Math.min(from - 1, Math.ceil(b) - 1);
    for (let s = first; s <= last; s++) weights.push((Math.min(b, s + 1) - Math.max(a, s)) / (b - a));
    starts[x] = first;
    offsets[x + 1] = weights.length;
  }
  return { starts, offsets, weights: Float64Array.from(weights) };
}

/** `image` shrunk by area (downscaleByArea) so its longer side is at most `maxSide`; as it is when it fits. */
export function fitByArea(image: RgbaImage, maxSide: number): RgbaImage {
  const { width, height } = fittedSize(image.width, image.height, maxSide);
  return width === image.width && height === image.height ? image : downscaleByArea(image, width, height);
}

/** The size an image `width` × `height` is shrunk to so its longer side is at most `maxSide` (its own when it fits). */
function fittedSize(width: number, height: number, maxSide: number): { width: number; height: number } {
  const scale = Math.max(width, height) / maxSide;
  if (scale <= 1) return { width, height };
  return { width: Math.max(1, Math.round(width / scale)), height: Math.max(1, Math.round(height / scale)) };
}

/** The same box filter with a 32-bit sum per channel, for boxes too large for two lanes a word. */
function downscalePerChannel(
  image: RgbaImage,
  src: Int32Array,
  width: number,
  height: number,
  x0s: Int32Array,
  x1s: Int32Array,
  out: Uint8Array,
): RgbaImage {
  const sums = new Float64Array(width * 4);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * image.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / height));
    sums.fill(0);
    for (let sy = y0; sy < y1; sy++) {
      const row = sy * image.width;
      for (let x = 0, o = 0; x < width; x++, o += 4) {
        for (let p = row + (x0s[x] ?? 0), end = row + (x1s[x] ?? 0); p < end; p++) {
          const v = src[p] ?? 0;
          sums[o] = (sums[o] ?? 0) + (v & 0xff);
          sums[o + 1] = (sums[o + 1] ?? 0) + ((v >>> 8) & 0xff);
          sums[o + 2] = (sums[o + 2] ?? 0) + ((v >>> 16) & 0xff);
          sums[o + 3] = (sums[o + 3] ?? 0) + (v >>> 24);
        }
      }
    }
    for (let x = 0, o = 0, q = y * width * 4; x < width; x++, o += 4, q += 4) {
      const n = (y1 - y0) * ((x1s[x] ?? 0) - (x0s[x] ?? 0));
      out[q] = (sums[o] ?? 0) / n;
      out[q + 1] = (sums[o + 1] ?? 0) / n;
      out[q + 2] = (sums[o + 2] ?? 0) / n;
      out[q + 3] = (sums[o + 3] ?? 0) / n;
    }
  }
  return { width, height, data: out };
}

/** The image's pixels as 32-bit words (a copy only when its bytes do not start on a word boundary). */
function pixelWords(image: RgbaImage): Int32Array {
  const count = image.width * image.height;
  const { data } = image;
  if (data.byteOffset % 4 === 0) return new Int32Array(data.buffer, data.byteOffset, count);
  return new Int32Array(data.slice(0, count * 4).buffer);
}

/** Applies an EXIF orientation (1–8) so the pixels stand the way the camera meant them to. */
export function applyOrientation(image: RgbaImage, orientation: number): RgbaImage {
  if (orientation < 2 || orientation > 8) return image;
  const { width: w, height: h, data } = image;
  const swap = orientation >= 5;
  const outW = swap ? h : w;
  const outH = swap ? w : h;
  const out = new Uint8Array(data.length);
  const view = new Uint32Array(data.buffer, data.byteOffset, w * h);
  const outView = new Uint32Array(out.buffer);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let dx: number;
      let dy: number;
      switch (orientation) {
        case 2: // mirrored horizontally
          dx = w - 1 - x;
          dy = y;
          break;
        case 3: // rotated 180°
          dx = w - 1 - x;
          dy = h - 1 - y;
          break;
        case 4: // mirrored vertically
          dx = x;
          dy = h - 1 - y;
          break;
        case 5: // transposed
          dx = y;
          dy = x;
          break;
        case 6: // needs 90° clockwise
          dx = h - 1 - y;
          dy = x;
          break;
        case 7: // transversed
          dx = h - 1 - y;
          dy = w - 1 - x;
          break;
        default: // 8: needs 90° counter-clockwise
          dx = y;
          dy = w - 1 - x;
      }
      outView[dy * outW + dx] = view[y * w + x] ?? 0;
    }
  }
  return { width: outW, height: outH, data: out };
}

/** A colour's luma (Rec. 601 weights, 0–255). */
export const luma = (c: ArrayLike<number>): number => 0.299 * (c[0] ?? 0) + 0.587 * (c[1] ?? 0) + 0.114 * (c[2] ?? 0);

/** RGB distance between two colours (their first three channels). */
export const colourDistance = (a: ArrayLike<number>, b: ArrayLike<number>): number =>
  rgbDistance((a[0] ?? 0) - (b[0] ?? 0), (a[1] ?? 0) - (b[1] ?? 0), (a[2] ?? 0) - (b[2] ?? 0));

/**
 * The length of an RGB difference. Not Math.hypot: its guard against overflow, needless for
 * colour levels, makes it about three times as slow, and this runs per pixel in the frame's scan
 * lines and in wear.
 */
export const rgbDistance = (r: number, g: number, b: number): number => Math.sqrt(r * r + g * g + b * b);

/** An RGB colour (8-bit channels). */
export type Rgb = [number, number, number];

/** Per-channel median of RGB colours, or null for none. */
export function medianColour(colours: ArrayLike<number>[]): Rgb | null {
  if (colours.length === 0) return null;
  const [r = 0, g = 0, b = 0] = [0, 1, 2].map((ch) => median(colours.map((c) => c[ch] ?? 0)));
  return [r, g, b];
}

/**
 * Two colours can be one ink in two lights: they may differ in brightness (light falling off
 * across a card, a shadow over part of it) down to a ratio of MIN_SHADE_RATIO, but not in hue by
 * more than `maxChromaDifference` (chromaticity: r and g of r + g + b; MAX_INK_CHROMA_DIFFERENCE
 * unless told). Near-black colours (luma under DARK_INK_LUMA both) have no hue to compare.
 */
export function sameInk(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  maxChromaDifference = MAX_INK_CHROMA_DIFFERENCE,
): boolean {
  // Scalar arithmetic only: wear.ts asks this of every border pixel.
  const a0 = a[0] ?? 0;
  const a1 = a[1] ?? 0;
  const a2 = a[2] ?? 0;
  const b0 = b[0] ?? 0;
  const b1 = b[1] ?? 0;
  const b2 = b[2] ?? 0;
  const lumaA = 0.299 * a0 + 0.587 * a1 + 0.114 * a2;
  const lumaB = 0.299 * b0 + 0.587 * b1 + 0.114 * b2;
  const lighter = Math.max(lumaA, lumaB);
  if (lighter < DARK_INK_LUMA) return true;
  if (Math.min(lumaA, lumaB) < MIN_SHADE_RATIO * lighter) return false;
  return chromaticityDistance(a, b) <= maxChromaDifference;
}
const MAX_INK_CHROMA_DIFFERENCE = 0.08;

/** How far apart two colours' chromaticities lie (r and g of r + g + b). */
export function chromaticityDistance(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const a0 = a[0] ?? 0;
  const a1 = a[1] ?? 0;
  const b0 = b[0] ?? 0;
  const b1 = b[1] ?? 0;
  const sumA = Math.max(1, a0 + a1 + (a[2] ?? 0));
  const sumB = Math.max(1, b0 + b1 + (b[2] ?? 0));
  return Math.hypot(a0 / sumA - b0 / sumB, a1 / sumA - b1 / sumB);
}

/**
 * Two colours can be one near-black ink, one of them under a sheen (or in two lights, sameInk).
 * Light reflected off a glossy black border adds the light's own colour, grey, rather than
 * scaling the ink's: on a real photo of a black-bordered Magic card on a white table, its top
 * border reads rgb(78, 77, 80) over the side and up to rgb(130, 131, 136) where the lamp's
 * reflection lies, its other borders rgb(22, 21, 23), a brightness ratio of 0.28 that sameInk
 * refuses. The darker colour must be near-black (luma under DARK_INK_LUMA), the lighter one must
 * exceed it by nearly the same amount on every channel (within MAX_SHEEN_CHROMA levels: grey light
 * added), and be no lighter than MAX_SHEEN_TABLE_SHARE of the table's luma (`tableLuma`): what
 * else lies grey along a black card's edge (another card's white band beneath it, a sleeve's
 * clear margin over the table) is lit as the table is.
 */
export function sameInkOrSheen(a: ArrayLike<number>, b: ArrayLike<number>, tableLuma: number): boolean {
  if (sameInk(a, b)) return true;
  const [dark, light] = luma(a) <= luma(b) ? [a, b] : [b, a];
  if (luma(dark) >= DARK_INK_LUMA || luma(light) > MAX_SHEEN_TABLE_SHARE * tableLuma) return false;
  const lift = [0, 1, 2].map((ch) => (light[ch] ?? 0) - (dark[ch] ?? 0));
  return Math.max(...lift) - Math.min(...lift) <= MAX_SHEEN_CHROMA;
}
const MAX_SHEEN_CHROMA = 16;
const MAX_SHEEN_TABLE_SHARE = 0.75;
const MIN_SHADE_RATIO = 0.35;
const DARK_INK_LUMA = 60;

/**
 * Two sides' border colours can be one ink (sameInkOrSheen), where a colour darker than
 * DARK_INK_LUMA that still shows a hue is told by it. sameInk takes any two such colours for one
 * near-black ink: their chromaticity scatters with the sensor's black level (a real Pokémon back's
 * blue border reads rgb(42, 55, 112) along one side and rgb(6, 23, 81) in shade along the other,
 * 0.15 apart). Its hue does not: each colour's offset from its own grey (the mean of its channels)
 * is unmoved by a black level and scales with the light, (−28, −15, 42) and (−31, −14, 44) there.
 * Where the stronger offset reaches DARK_HUE_LEVELS, the two are one ink when the weaker is at
 * least MIN_SHADE_RATIO of it and turned at most MAX_DARK_HUE_TURN_DEG from it: a navy border
 * rgb(14, 61, 124) beside a black sleeve's margin or another black card's band, rgb(16, 16, 19),
 * is two inks (offsets of 77 and 2 levels), and the band is not measured as border. A coloured
 * ink under a sheen is one ink too (sameInkUnderSheen).
 */
export function oneBorderInk(a: ArrayLike<number>, b: ArrayLike<number>, tableLuma: number): boolean {
  if (Math.max(luma(a), luma(b)) < DARK_INK_LUMA) {
    const { sizes, cosine } = hueTurn(a, b);
    const stronger = Math.max(...sizes);
    if (stronger >= DARK_HUE_LEVELS) {
      if (Math.min(...sizes) < MIN_SHADE_RATIO * stronger) return false;
      return cosine >= Math.cos((MAX_DARK_HUE_TURN_DEG * Math.PI) / 180);
    }
  }
  return sameInkOrSheen(a, b, tableLuma) || sameInkUnderSheen(a, b);
}
export const DARK_HUE_LEVELS = 30;
const MAX_DARK_HUE_TURN_DEG = 30;

/**
 * Two colours can be one coloured ink, the lighter under a sheen. Light reflected off glossy ink
 * adds the light's own colour, grey, to the ink's: the lit colour is the ink scaled by k plus a
 * grey, its offset from its own grey (hueTurn) the ink's scaled by k, in the same direction. On a
 * real photo of a yellow-bordered Pokémon card under a ceiling lamp, the top border reads
 * rgb(217, 204, 130) and the others rgb(188, 162, 20): offsets of 66 and 128 levels, 0.3° apart
 * (the ink at 0.54 plus 113 levels of grey), where chromaticity puts them 0.13 apart (sameInk).
 * The dimmer colour must show a hue (DARK_HUE_LEVELS), the lighter keep MIN_SHEEN_HUE_SHARE to
 * all of it, turned at most MAX_SHEEN_HUE_TURN_DEG: another card's white band, a clear sleeve's
 * margin over the table, or a band of another hue beside the border is two inks (a white band
 * beside that yellow border keeps under 5 % of its hue). `minHueShare`: the least share of the
 * ink's hue the lit colour keeps (MIN_SHEEN_HUE_SHARE unless told; wear.ts asks less of the ink
 * read beside a pixel under a stronger sheen).
 */
export function sameInkUnderSheen(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  minHueShare = MIN_SHEEN_HUE_SHARE,
): boolean {
  const [dim, lit] = luma(a) <= luma(b) ? [a, b] : [b, a];
  const {
    sizes: [ink, sheened],
    cosine,
  } = hueTurn(dim, lit);
  return (
    ink >= DARK_HUE_LEVELS &&
    sheened >= minHueShare * ink &&
    sheened <= ink &&
    cosine >= Math.cos((MAX_SHEEN_HUE_TURN_DEG * Math.PI) / 180)
  );
}
const MIN_SHEEN_HUE_SHARE = 0.4;
const MAX_SHEEN_HUE_TURN_DEG = 10;

/**
 * Two colours' offsets from their own grey (each channel less the mean of the three): their sizes
 * (levels) and the cosine of the angle between them (0 when either has none).
 */
export function hueTurn(a: ArrayLike<number>, b: ArrayLike<number>): { sizes: [number, number]; cosine: number } {
  const offsetA = hueOffset(a);
  const offsetB = hueOffset(b);
  const sizes: [number, number] = [Math.hypot(...offsetA), Math.hypot(...offsetB)];
  const dot = offsetA[0] * offsetB[0] + offsetA[1] * offsetB[1] + offsetA[2] * offsetB[2];
  return { sizes, cosine: sizes[0] > 0 && sizes[1] > 0 ? dot / (sizes[0] * sizes[1]) : 0 };
}

/** How far a colour lies from its own grey (levels): the size of its offset. */
export const hueLevels = (c: ArrayLike<number>): number => Math.hypot(...hueOffset(c));

function hueOffset(c: ArrayLike<number>): [number, number, number] {
  const r = c[0] ?? 0;
  const g = c[1] ?? 0;
  const b = c[2] ?? 0;
  const grey = (r + g + b) / 3;
  return [r - grey, g - grey, b - grey];
}
