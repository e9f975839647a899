// Draws photos of cards with known geometry, for testing the grading engine against ground truth:
// a 63 × 88 mm card with rounded corners and a printed frame of known border widths, rotated and
// placed on a textured, unevenly lit background, with sensor noise. Edges are anti-aliased from
// the exact signed distance, so the drawn truth is sub-pixel exact.
import { encode as encodeJpegJs } from "jpeg-js";
import type { RgbaImage } from "../../src/grading/engine/image";

type Rgb = readonly [number, number, number];

export interface CardScene {
  canvasWidth: number;
  canvasHeight: number;
  /** Card width in canvas pixels; the height follows from 88/63. */
  cardWidth: number;
  /** Card centre as a share of the canvas (0.5, 0.5 = centred). */
  centerX?: number;
  centerY?: number;
  /** Rotation in degrees, clockwise. */
  rotation?: number;
  /** Border widths in millimetres (the printed frame's distance from each card edge). */
  borders: { left: number; right: number; top: number; bottom: number };
  borderColor: Rgb;
  /** Art inside the frame: a base colour and a seed for its pattern. */
  artColor: Rgb;
  background: Rgb;
  /** "plain", "wood" (grain stripes) or "cloth" (fine weave). */
  texture?: "plain" | "wood" | "cloth";
  /** Brightness falls off by up to this share across the canvas (uneven lighting). */
  lightFalloff?: number;
  /** Standard deviation of Gaussian sensor noise, in 8-bit levels. */
  noise?: number;
  seed?: number;
}

export const CARD_MM = { width: 63, height: 88 } as const;

/** Truth for a scene: the centering the engine should measure, in percentage points. */
export function truthOf(scene: CardScene) {
  const { left, right, top, bottom } = scene.borders;
  return {
    horizontal: (left / (left + right)) * 100 - 50,
    vertical: (top / (top + bottom)) * 100 - 50,
    leftRight: (left / (left + right)) * 100,
    topBottom: (top / (top + bottom)) * 100,
  };
}

function rng(seed: number) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/** Signed distance from (x, y) to a rounded rectangle centred at the origin (negative inside). */
function roundedRectDistance(x: number, y: number, halfW: number, halfH: number, radius: number): number {
  const qx = Math.abs(x) - (halfW - radius);
  const qy = Math.abs(y) - (halfH - radius);
  const outside = Math.hypot(Math.max(qx, 0), Math.max(qy, 0));
  return outside + Math.min(Math.max(qx, qy), 0) - radius;
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
const mix = (a: number, b: number, t: number) => a + (b - a) * t;

export function drawCardScene(scene: CardScene): RgbaImage {
  const { canvasWidth: W, canvasHeight: H } = scene;
  const random = rng(scene.seed ?? 1);
  const pxPerMm = scene.cardWidth / CARD_MM.width;
  const halfW = scene.cardWidth / 2;
  const halfH = (CARD_MM.height * pxPerMm) / 2;
  const radius = 3 * pxPerMm; // standard 3 mm corner radius
  const cx = (scene.centerX ?? 0.5) * W;
  const cy = (scene.centerY ?? 0.5) * H;
  const theta = ((scene.rotation ?? 0) * Math.PI) / 180;
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const b = scene.borders;
  // Frame rectangle in card coordinates (origin at the card centre).
  const frameLeft = -halfW + b.left * pxPerMm;
  const frameRight = halfW - b.right * pxPerMm;
  const frameTop = -halfH + b.top * pxPerMm;
  const frameBottom = halfH - b.bottom * pxPerMm;
  const frameCx = (frameLeft + frameRight) / 2;
  const frameCy = (frameTop + frameBottom) / 2;
  const frameHalfW = (frameRight - frameLeft) / 2;
  const frameHalfH = (frameBottom - frameTop) / 2;
  const blobs = Array.from({ length: 7 }, () => ({
    x: mix(frameLeft, frameRight, random()),
    y: mix(frameTop, frameBottom, random()),
    r: mix(0.1, 0.3, random()) * scene.cardWidth,
    c: [random() * 255, random() * 255, random() * 255] as const,
  }));
  const grainPhase = random() * 10;
  const data = new Uint8Array(W * H * 4);
  const noise = scene.noise ?? 0;
  const falloff = scene.lightFalloff ?? 0;

  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // Background with texture.
      let r = scene.background[0];
      let g = scene.background[1];
      let bl = scene.background[2];
      if (scene.texture === "wood") {
        const grain = Math.sin(y * 0.09 + Math.sin(x * 0.004 + grainPhase) * 6) * 0.5 + 0.5;
        const k = 0.82 + grain * 0.18;
        r *= k;
        g *= k;
        bl *= k;
      } else if (scene.texture === "cloth") {
        const weave = ((x >> 1) + (y >> 1)) & 1 ? 1.04 : 0.96;
        r *= weave;
        g *= weave;
        bl *= weave;
      }
      // Card pixel, in card coordinates.
      const dx = x + 0.5 - cx;
      const dy = y + 0.5 - cy;
      const u = dx * cos + dy * sin;
      const v = -dx * sin + dy * cos;
      const coverage = clamp01(0.5 - roundedRectDistance(u, v, halfW, halfH, radius));
      if (coverage > 0) {
        const inFrame = clamp01(0.5 - roundedRectDistance(u - frameCx, v - frameCy, frameHalfW, frameHalfH, 0.01));
        let ar = scene.artColor[0];
        let ag = scene.artColor[1];
        let ab = scene.artColor[2];
        for (const blob of blobs) {
          const t = clamp01(1 - Math.hypot(u - blob.x, v - blob.y) / blob.r) * 0.6;
          ar = mix(ar, blob.c[0], t);
          ag = mix(ag, blob.c[1], t);
          ab = mix(ab, blob.c[2], t);
        }
        const cr = mix(scene.borderColor[0], ar, inFrame);
        const cg = mix(scene.borderColor[1], ag, inFrame);
        const cb = mix(scene.borderColor[2], ab, inFrame);
        r = mix(r, cr, coverage);
        g = mix(g, cg, coverage);
        bl = mix(bl, cb, coverage);
      }
      const light = 1 - falloff * ((x / W) * 0.6 + (y / H) * 0.4);
      const n = noise > 0 ? gaussian(random) * noise : 0;
      const o = (y * W + x) * 4;
      data[o] = r * light + n;
      data[o + 1] = g * light + n;
      data[o + 2] = bl * light + n;
      data[o + 3] = 255;
    }
  }
  return { width: W, height: H, data };
}

function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** JPEG bytes of an RGBA image at `quality` (1–100), encoded by jpeg-js. */
export function encodeJpeg(image: RgbaImage, quality: number): Uint8Array {
  const encoded = encodeJpegJs({ width: image.width, height: image.height, data: image.data }, quality);
  return new Uint8Array(encoded.data as unknown as ArrayLike<number>);
}

/** Inserts an APP1 EXIF segment carrying `orientation` right after the JPEG's SOI marker. */
export function withExifOrientation(jpeg: Uint8Array, orientation: number): Uint8Array {
  // "Exif\0\0" + big-endian TIFF header + one IFD entry (0x0112, SHORT, 1, value).
  const tiff = [
    0x4d,
    0x4d,
    0x00,
    0x2a,
    0,
    0,
    0,
    8,
    0,
    1,
    0x01,
    0x12,
    0,
    3,
    0,
    0,
    0,
    1,
    0,
    orientation,
    0,
    0,
    0,
    0,
    0,
    0,
  ];
  const payload = [0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff];
  const segment = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2), 0);
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}
