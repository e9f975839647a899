// Drawing primitives for the demo images the seed script makes (RGBA, as the engine's images are);
// they are encoded with the engine's own PNG encoder.
import type { RgbaImage } from "../../src/grading/engine/image.ts";

export type Rgb = readonly [number, number, number];

export function createImage(width: number, height: number, rgb: Rgb): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([rgb[0], rgb[1], rgb[2], 255], i * 4);
  return { width, height, data };
}

export function fillRect(image: RgbaImage, x0: number, y0: number, w: number, h: number, rgb: Rgb): void {
  const x1 = Math.min(image.width, Math.round(x0 + w));
  const y1 = Math.min(image.height, Math.round(y0 + h));
  for (let y = Math.max(0, Math.round(y0)); y < y1; y++) {
    for (let x = Math.max(0, Math.round(x0)); x < x1; x++) image.data.set(rgb, (y * image.width + x) * 4);
  }
}

export function strokeRect(
  image: RgbaImage,
  x: number,
  y: number,
  w: number,
  h: number,
  thickness: number,
  rgb: Rgb,
): void {
  fillRect(image, x, y, w, thickness, rgb);
  fillRect(image, x, y + h - thickness, w, thickness, rgb);
  fillRect(image, x, y, thickness, h, rgb);
  fillRect(image, x + w - thickness, y, thickness, h, rgb);
}
