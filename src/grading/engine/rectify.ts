// From the card's quadrilateral in the photo to a flat, upright card:
// 1. its true proportions, by Zhang & He's rectangle rectification ("Whiteboard scanning and image
//    enhancement", 2007) with a pinhole camera whose principal point is the photo's centre. The
//    focal length is the lens's when the photo's EXIF gives it (decode.ts: its 35 mm-equivalent
//    focal length, for the camera's whole frame); otherwise it comes from the two vanishing points
//    when both are finite and consistent and it is a phone main camera's (FOCAL_RANGE); when the
//    sides are (nearly) parallel the vanishing geometry says nothing about it, and then, or when
//    it gives another lens, a phone's typical focal length (0.75 × the photo's longer side, a
//    26 mm-equivalent lens) is assumed. The assumption matters little when the view is
//    nearly fronto-parallel and a lot when the card is photographed at a slant: with it, a card
//    tilted 20° away through an ultra-wide lens (0.35 × the longer side) reads 1.67 times as tall
//    as wide, a holder's shape, and one tilted 25° through a 2× telephoto 1.30 (rectify.test.ts);
// 2. the orientation: long side vertical is read upright; long side horizontal has the card's top
//    toward the left edge of the photo (the partner document's landscape rule);
// 3. a homography onto a flat card of the recognised format at FLAT_PX_PER_MM.
import type { CardFormat } from "./evidence";
import { formatAcrossLenses, recogniseFormat } from "./formats";
import { FLAT_PX_PER_MM, homography, longSideDirection, type Point, type Quad } from "./geometry";
import type { RgbaImage } from "./image";

/** A phone's main camera: about a 26 mm-equivalent lens, f ≈ 0.75 × the longer side in pixels. */
export const DEFAULT_FOCAL_SHARE = 0.75;
/**
 * Focal lengths recovered from the vanishing points are trusted within this range (× longer side):
 * phones' main cameras (MAIN_CAMERA_SHARES). The recovery rests on the principal point being the
 * photo's centre and on the corners to a pixel; on real photos of a card on a desk, taken steeply
 * without EXIF, it gave 0.46 and 0.49 and read the card 1.28 tall, where the assumed 0.75 reads
 * 1.395 and 1.397 (a standard card). Outside the range the lens is assumed, and the proportions are
 * read across main-camera lenses (aspectsAcrossLenses).
 */
const FOCAL_RANGE = { min: 0.6, max: 0.9 } as const;

export interface Proportions {
  /** Width / height of the quadrilateral's rectangle, its first side (corner 0 → 1) as width. */
  ratio: number;
  focal: number;
  focalSource: "exif" | "vanishing_points" | "assumed";
  /** The rectangle's slant (degrees): the angle between its plane and the photo's, through `focal`. */
  slant: number;
}

type Vec3 = [number, number, number];
const cross = (p: Vec3, q: Vec3): Vec3 => [
  p[1] * q[2] - p[2] * q[1],
  p[2] * q[0] - p[0] * q[2],
  p[0] * q[1] - p[1] * q[0],
];
const dot = (p: Vec3, q: Vec3) => p[0] * q[0] + p[1] * q[1] + p[2] * q[2];

/**
 * The true width/height of the rectangle photographed as `quad` (corners clockwise from the
 * rectangle's top-left: tl, tr, br, bl), in a photo of `imageWidth` × `imageHeight` pixels;
 * `lensFocal`: the lens's focal length in pixels of that photo, when known.
 */
export function rectangleProportions(
  quad: Quad,
  imageWidth: number,
  imageHeight: number,
  lensFocal: number | null = null,
): Proportions {
  const { n2, n3 } = sideVectors(quad, imageWidth, imageHeight);
  const longSide = Math.max(imageWidth, imageHeight);
  let focal = DEFAULT_FOCAL_SHARE * longSide;
  let focalSource: Proportions["focalSource"] = "assumed";
  if (lensFocal !== null && lensFocal > 0) {
    focal = lensFocal;
    focalSource = "exif";
  } else {
    const vanishing = steadyVanishingFocal(quad, imageWidth, imageHeight, n2, n3);
    if (vanishing !== null) {
      focal = vanishing;
      focalSource = "vanishing_points";
    }
  }
  // The sides' directions in the camera's frame, (x / f, y / f, z): their cross product is the
  // rectangle's normal, and the slant its angle from the lens's axis.
  const normal = cross([n2[0], n2[1], focal * n2[2]], [n3[0], n3[1], focal * n3[2]]);
  const size = Math.hypot(...normal);
  const slant = size > 0 ? (Math.acos(Math.min(1, Math.abs(normal[2]) / size)) * 180) / Math.PI : 0;
  return { ratio: sidesRatio(n2, n3, focal), focal, focalSource, slant };
}

/** The rectangle's two side directions (Zhang & He's n2 and n3) for `quad` (tl, tr, br, bl), about the photo's centre. */
function sideVectors(quad: Quad, imageWidth: number, imageHeight: number): { n2: Vec3; n3: Vec3 } {
  const u0 = imageWidth / 2;
  const v0 = imageHeight / 2;
  const h = (p: Point): Vec3 => [p.x - u0, p.y - v0, 1];
  // Zhang & He number the corners m1 = (0,0), m2 = (w,0), m3 = (0,h), m4 = (w,h).
  const m1 = h(quad[0]);
  const m2 = h(quad[1]);
  const m4 = h(quad[2]);
  const m3 = h(quad[3]);
  const k2 = dot(cross(m1, m4), m3) / dot(cross(m2, m4), m3);
  const k3 = dot(cross(m1, m4), m2) / dot(cross(m3, m4), m2);
  return {
    n2: [k2 * m2[0] - m1[0], k2 * m2[1] - m1[1], k2 * m2[2] - m1[2]],
    n3: [k3 * m3[0] - m1[0], k3 * m3[1] - m1[1], k3 * m3[2] - m1[2]],
  };
}

/** Width / height of the rectangle with side directions n2, n3 through a lens of `focal` pixels. */
function sidesRatio(n2: Vec3, n3: Vec3, focal: number): number {
  const f2 = focal * focal;
  const width2 = n2[0] * n2[0] + n2[1] * n2[1] + f2 * n2[2] * n2[2];
  const height2 = n3[0] * n3[0] + n3[1] * n3[1] + f2 * n3[2] * n3[2];
  return Math.sqrt(width2 / height2);
}

/**
 * The focal length (pixels) `quad`'s two vanishing points give, or null: one of them (nearly) at
 * infinity, or the length outside FOCAL_RANGE.
 */
export function vanishingFocal(quad: Quad, imageWidth: number, imageHeight: number): number | null {
  const { n2, n3 } = sideVectors(quad, imageWidth, imageHeight);
  const longSide = Math.max(imageWidth, imageHeight);
  // Both vanishing points finite: n2[2] and n3[2] clearly away from 0 relative to the sides' size.
  const scale = Math.hypot(n2[0], n2[1]) * Math.hypot(n3[0], n3[1]);
  const product = n2[2] * n3[2];
  if (Math.abs(product) * longSide * longSide <= 0.02 * scale) return null;
  const f2 = -(n2[0] * n3[0] + n2[1] * n3[1]) / product;
  const f = f2 > 0 ? Math.sqrt(f2) : Number.NaN;
  return f >= FOCAL_RANGE.min * longSide && f <= FOCAL_RANGE.max * longSide ? f : null;
}

/** A corner moved a pixel either way along either axis. */
const PIXEL_MOVES = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
] as const;

/**
 * The proportions may move at most this much (relative) between the focal lengths `quad`'s
 * vanishing points give with any one corner moved a pixel (steadyVanishingFocal), as much as
 * they may move across all phones' main-camera lenses before the lens matters (LENS_INDIFFERENCE).
 */
const MAX_VANISHING_SPREAD = 0.01;

/**
 * The focal length `quad`'s vanishing points give (vanishingFocal), when it holds with any one
 * corner moved a pixel either way along either axis (the corners are found to about a pixel): each
 * such move still gives a length within FOCAL_RANGE, and the proportions read through the lengths
 * so given spread by at most MAX_VANISHING_SPREAD. Otherwise null, and the lens is taken as unknown
 * (aspectsAcrossLenses). With one pair of sides nearly
 * parallel the second vanishing point lies far off and a pixel moves it far: on a real webcam
 * photo of a standard Magic card seen 32° from square, its near and far sides parallel, the
 * points gave 0.83 × the longer side and read the card 1.443 tall, the 1952 Topps format; a
 * pixel at one corner gave 0.81 to 0.86, 1.42 to 1.46 tall, and the webcam's own lens (about
 * 0.73) reads 1.397, a standard card. `n2`, `n3`: the quad's side directions (sideVectors).
 */
function steadyVanishingFocal(quad: Quad, imageWidth: number, imageHeight: number, n2: Vec3, n3: Vec3): number | null {
  const focal = vanishingFocal(quad, imageWidth, imageHeight);
  if (focal === null) return null;
  const ratio = sidesRatio(n2, n3, focal);
  let least = ratio;
  let most = ratio;
  for (let k = 0; k < 4; k++) {
    for (const [dx, dy] of PIXEL_MOVES) {
      const moved = quad.map((p, i) => (i === k ? { x: p.x + dx, y: p.y + dy } : p)) as Quad;
      const f = vanishingFocal(moved, imageWidth, imageHeight);
      if (f === null) return null;
      const r = sidesRatio(n2, n3, f);
      least = Math.min(least, r);
      most = Math.max(most, r);
    }
  }
  return most / least - 1 <= MAX_VANISHING_SPREAD ? focal : null;
}

/**
 * The most a one-pixel move of one corner of `quad` changes its rectangle's proportions (relative),
 * through a lens of `focal` pixels: how exactly the corners place the card's shape. Square to the
 * lens a card 600 px long moves about 0.2 % a pixel; seen 39° from square, as on a real photo of a
 * Magic card refused for its shape, 0.36 %.
 */
export function cornerSensitivity(quad: Quad, imageWidth: number, imageHeight: number, focal: number): number {
  const ratio = rectangleProportions(quad, imageWidth, imageHeight, focal).ratio;
  let most = 0;
  for (let k = 0; k < 4; k++) {
    for (const [dx, dy] of PIXEL_MOVES) {
      const moved = quad.map((p, i) => (i === k ? { x: p.x + dx, y: p.y + dy } : p)) as Quad;
      const change = Math.abs(rectangleProportions(moved, imageWidth, imageHeight, focal).ratio / ratio - 1);
      most = Math.max(most, change);
    }
  }
  return most;
}

/** Phones' main cameras span about 21–31 mm-equivalent: 0.6–0.9 × a 4:3 photo's longer side. */
const MAIN_CAMERA_SHARES = [0.6, 0.9] as const;
/** The proportions may move this much (relative) across those lenses before the lens matters. */
const LENS_INDIFFERENCE = 0.01;

/**
 * The card's height / width read from `quad` through each of a span of phones' main-camera lenses
 * (MAIN_CAMERA_SHARES, in steps of 0.025 × the longer side): what its proportions may be when the
 * photo does not name its lens.
 */
export function aspectsAcrossLenses(quad: Quad, imageWidth: number, imageHeight: number): number[] {
  const longSide = Math.max(imageWidth, imageHeight);
  const [from, to] = MAIN_CAMERA_SHARES;
  const aspects: number[] = [];
  for (let share = from; share <= to + 1e-9; share += 0.025) {
    aspects.push(orientCard(quad, imageWidth, imageHeight, share * longSide).aspect);
  }
  return aspects;
}

/**
 * True when the proportions read through phones' main-camera lenses (aspectsAcrossLenses) spread
 * by more than LENS_INDIFFERENCE, as far as the format tolerance: a steep slant, whose shape is a
 * guess without the lens's focal length.
 */
export function lensMatters(aspects: number[]): boolean {
  return Math.max(...aspects) / Math.min(...aspects) - 1 > LENS_INDIFFERENCE;
}

/**
 * Lenses longer than a phone's main camera (× the photo's longer side): its 2× and 3× telephotos
 * and zooms, to about 140 mm-equivalent on a 4:3 photo.
 */
const LONG_LENS_SHARES = [0.9, 4] as const;
const LONG_LENS_STEP = 0.05;

/**
 * Phones' telephotos, their 2× and 3× lenses (about 52 and 77 mm-equivalent): to 2.3 × a 4:3
 * photo's longer side, 80 mm-equivalent. A crop of a main camera's photo (a screenshot of part of
 * it) reads as through a longer lens too: 48 mm-equivalent on a real one of a Magic card.
 */
const TELEPHOTO_SHARES = [0.9, 2.3] as const;

/** `quad`'s proportions through each lens of `shares` (× the photo's longer side), in steps of LONG_LENS_STEP. */
function lensReadings(
  quad: Quad,
  imageWidth: number,
  imageHeight: number,
  shares: readonly [number, number],
): { focal: number; aspect: number }[] {
  const longSide = Math.max(imageWidth, imageHeight);
  const [from, to] = shares;
  const readings: { focal: number; aspect: number }[] = [];
  for (let share = from; share <= to + 1e-9; share += LONG_LENS_STEP) {
    const focal = share * longSide;
    readings.push({ focal, aspect: orientCard(quad, imageWidth, imageHeight, focal).aspect });
  }
  return readings;
}

/**
 * What `quad` may be when the photo names no lens and reads as no card through a main camera's:
 * through a longer lens a card tilted away converges less, and the same outline reads taller. The
 * first lens of LONG_LENS_SHARES (in steps of LONG_LENS_STEP × the longer side) whose proportions
 * `fits`, when the slant makes the lens matter across them (more than LENS_INDIFFERENCE); else
 * null. Only a refusal's wording rests on it: the lens is not known, so nothing is measured through it.
 */
export function longLensReading(
  quad: Quad,
  imageWidth: number,
  imageHeight: number,
  fits: (aspect: number) => boolean,
): { focal: number; aspect: number } | null {
  const readings = lensReadings(quad, imageWidth, imageHeight, LONG_LENS_SHARES);
  if (!lensMatters(readings.map((reading) => reading.aspect))) return null;
  return readings.find((reading) => fits(reading.aspect)) ?? null;
}

/** A format read through a telephoto (telephotoFormat): the lens, the proportions through it, and every format a telephoto gives. */
export interface TelephotoReading {
  format: CardFormat;
  candidates: CardFormat[];
  focal: number;
  aspect: number;
}

/**
 * The format `quad` reads as through a phone's telephoto (TELEPHOTO_SHARES), for a photo that names
 * no lens and reads as no card through a main camera's, when the slant makes the lens matter
 * across them: the format some telephoto gives (`standard` when it is among them, else the only
 * one: formatAcrossLenses), read through the shortest lens that gives it; null when none does, or
 * two others tie. Only the format and the millimetres rest on the lens: the flat card is the
 * homography from the four corners onto the format's rectangle, which onto another rectangle is
 * the same followed by a scaling of each axis, so each axis's border ratio is the same through
 * any lens.
 */
export function telephotoFormat(quad: Quad, imageWidth: number, imageHeight: number): TelephotoReading | null {
  const readings = lensReadings(quad, imageWidth, imageHeight, TELEPHOTO_SHARES);
  if (!lensMatters(readings.map((reading) => reading.aspect))) return null;
  const { format, candidates } = formatAcrossLenses(readings.map((reading) => reading.aspect));
  if (format === null) return null;
  const through = readings.find((reading) => {
    const match = recogniseFormat(reading.aspect);
    return match.ok && match.format.id === format.id;
  });
  return through ? { format, candidates, focal: through.focal, aspect: through.aspect } : null;
}

export interface Oriented {
  /** The card's own top-left, top-right, bottom-right, bottom-left, in photo pixels. */
  corners: Quad;
  orientation: "portrait" | "landscape";
  /** The card's height / width. */
  aspect: number;
  /** The focal length (photo pixels) the proportions were recovered with, and where it came from. */
  focal: number;
  focalSource: Proportions["focalSource"];
  /** The card's slant from square to the lens (degrees; rectangleProportions). */
  slant: number;
}

/**
 * Orders a quadrilateral given in photo order (tl, tr, br, bl as they appear) into the card's own
 * order (`lensFocal`: as for rectangleProportions). Long side horizontal: the card's top is
 * toward the photo's left edge, so the card's top-left is the photo's bottom-left corner.
 */
export function orientCard(
  photoQuad: Quad,
  imageWidth: number,
  imageHeight: number,
  lensFocal: number | null = null,
): Oriented {
  const { ratio, focal, focalSource, slant } = rectangleProportions(photoQuad, imageWidth, imageHeight, lensFocal);
  const [tl, tr, br, bl] = photoQuad;
  const read = { focal, focalSource, slant };
  if (ratio > 1) return { corners: [bl, tl, tr, br], orientation: "landscape", aspect: ratio, ...read };
  return { corners: [tl, tr, br, bl], orientation: "portrait", aspect: 1 / ratio, ...read };
}

/**
 * A card is read upright or lying sideways (orientCard) by which of its corners is nearest the
 * photo's top-left; near the photo's diagonal that turns on a degree or two, and for a card turned
 * clockwise the two readings are half a turn apart (upright, or its top toward the left edge), so
 * its left and right, top and bottom, would be swapped by a slight turn. A card whose reading
 * changes when its outline is turned this many degrees either way in the photo lies diagonally,
 * and is refused. A real photo of a Pokémon card turned 38° from upright, taken at a slant, read
 * 46.3 / 52.7; the same photo turned 7° further read 53.7 / 47.3, as a card lying sideways.
 */
export const DIAGONAL_MARGIN_DEG = 5;

/** The angle (degrees, 0–90) of the card's long sides from the photo's vertical. */
export function longSideTilt(corners: Quad): number {
  const along = longSideDirection(corners);
  return (Math.atan2(Math.abs(along.x), Math.abs(along.y)) * 180) / Math.PI;
}

/**
 * True when the card (`photoQuad` in photo order, as orientCard takes it) is read with another
 * corner as its top-left once its outline is turned DIAGONAL_MARGIN_DEG either way about its centre.
 */
export function liesDiagonally(
  photoQuad: Quad,
  imageWidth: number,
  imageHeight: number,
  lensFocal: number | null,
): boolean {
  const topLeft = (quad: Quad) => orientCard(quad, imageWidth, imageHeight, lensFocal).corners[0];
  const reading = topLeft(photoQuad);
  const cx = photoQuad.reduce((sum, p) => sum + p.x, 0) / 4;
  const cy = photoQuad.reduce((sum, p) => sum + p.y, 0) / 4;
  return [1, -1].some((sign) => {
    const t = (sign * DIAGONAL_MARGIN_DEG * Math.PI) / 180;
    const turned = photoQuad.map((p) => ({
      x: cx + (p.x - cx) * Math.cos(t) - (p.y - cy) * Math.sin(t),
      y: cy + (p.x - cx) * Math.sin(t) + (p.y - cy) * Math.cos(t),
    }));
    const turnedReading = topLeft(photoOrder(turned));
    return turned.indexOf(turnedReading) !== photoQuad.indexOf(reading);
  });
}

/** Sorts four points into photo order: clockwise on screen, starting nearest the photo's top-left. */
export function photoOrder(points: Point[]): Quad {
  const cx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const cy = points.reduce((s, p) => s + p.y, 0) / points.length;
  const sorted = [...points].sort((p, q) => Math.atan2(p.y - cy, p.x - cx) - Math.atan2(q.y - cy, q.x - cx));
  // atan2 ascending from -π runs clockwise on screen (y down) starting at the left; the top-left
  // corner is the one at angle closest to -3π/4.
  let start = 0;
  let best = Number.POSITIVE_INFINITY;
  sorted.forEach((p, i) => {
    const angle = Math.atan2(p.y - cy, p.x - cx);
    let d = Math.abs(angle + (3 * Math.PI) / 4);
    if (d > Math.PI) d = 2 * Math.PI - d;
    if (d < best) {
      best = d;
      start = i;
    }
  });
  return [0, 1, 2, 3].map((k) => sorted[(start + k) % 4] as Point) as Quad;
}

/** The homography from flat-card pixels (at FLAT_PX_PER_MM) to photo pixels. */
export function flatToPhoto(corners: Quad, format: CardFormat): number[] {
  const width = Math.round(format.width_mm * FLAT_PX_PER_MM);
  const height = Math.round(format.height_mm * FLAT_PX_PER_MM);
  return homography(
    [
      { x: 0, y: 0 },
      { x: width, y: 0 },
      { x: width, y: height },
      { x: 0, y: height },
    ],
    corners,
  );
}

/**
 * Unwarps the card to a flat RGBA image of its format at FLAT_PX_PER_MM (bilinear sampling), or
 * at `times` that resolution: each side then `times` × the flat card's pixels, so that a pixel of
 * it is exactly 1 / `times` of a flat-card pixel.
 */
export function unwarpCard(image: RgbaImage, corners: Quad, format: CardFormat, times = 1): RgbaImage {
  const width = Math.round(format.width_mm * FLAT_PX_PER_MM) * times;
  const height = Math.round(format.height_mm * FLAT_PX_PER_MM) * times;
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0, h8 = 1] = flatToPhoto(corners, format);
  const out = new Uint8Array(width * height * 4);
  const step = 1 / times;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = (x + 0.5) * step;
      const v = (y + 0.5) * step;
      const w = h6 * u + h7 * v + h8;
      const o = (y * width + x) * 4;
      bilinear(image, (h0 * u + h1 * v + h2) / w - 0.5, (h3 * u + h4 * v + h5) / w - 0.5, out, o);
      out[o + 3] = 255;
    }
  }
  return { width, height, data: out };
}

/**
 * The photo's colour at a point of the flat card (pixels at FLAT_PX_PER_MM from its top-left
 * corner, inside the card or around it), sampled bilinearly and clamped to the photo, into `out`.
 */
export type FlatSampler = (x: number, y: number, out: Float64Array) => void;

export function flatSampler(image: RgbaImage, corners: Quad, format: CardFormat): FlatSampler {
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0, h8 = 1] = flatToPhoto(corners, format);
  return (u, v, out) => {
    const w = h6 * u + h7 * v + h8;
    bilinear(image, (h0 * u + h1 * v + h2) / w - 0.5, (h3 * u + h4 * v + h5) / w - 0.5, out, 0);
  };
}

/** The photo's colour at (sx, sy) in pixel-centre coordinates, bilinear and clamped, into out[o…o + 2]. */
function bilinear(image: RgbaImage, sx: number, sy: number, out: Uint8Array | Float64Array, o: number): void {
  const { data: src, width: W, height: H } = image;
  const x0 = Math.min(W - 2, Math.max(0, Math.floor(sx)));
  const y0 = Math.min(H - 2, Math.max(0, Math.floor(sy)));
  const fx = Math.min(1, Math.max(0, sx - x0));
  const fy = Math.min(1, Math.max(0, sy - y0));
  const p00 = (y0 * W + x0) * 4;
  const p10 = p00 + 4;
  const p01 = p00 + W * 4;
  const p11 = p01 + 4;
  for (let ch = 0; ch < 3; ch++) {
    const top = (src[p00 + ch] ?? 0) * (1 - fx) + (src[p10 + ch] ?? 0) * fx;
    const bottom = (src[p01 + ch] ?? 0) * (1 - fx) + (src[p11 + ch] ?? 0) * fx;
    out[o + ch] = top * (1 - fy) + bottom * fy;
  }
}
