// The damage report: the flat card with what was measured drawn on it. Cyan: the card's outline;
// magenta: the measured printed frame; red boxes: corners with wear; orange bars: edges with wear;
// red dots: surface defects.

import { FLAT_PX_PER_MM } from "./geometry";
import type { RgbaImage } from "./image";
import { encodePng } from "./png";
import type { FaceWear } from "./wear";

type Rgb = readonly [number, number, number];
const CYAN: Rgb = [0, 200, 255];
const MAGENTA: Rgb = [255, 40, 170];
const RED: Rgb = [235, 30, 30];
const ORANGE: Rgb = [255, 150, 0];

function fill(image: RgbaImage, x0: number, y0: number, w: number, h: number, rgb: Rgb): void {
  const x1 = Math.min(image.width, Math.round(x0 + w));
  const y1 = Math.min(image.height, Math.round(y0 + h));
  for (let y = Math.max(0, Math.round(y0)); y < y1; y++) {
    for (let x = Math.max(0, Math.round(x0)); x < x1; x++) image.data.set(rgb, (y * image.width + x) * 4);
  }
}

function stroke(image: RgbaImage, x: number, y: number, w: number, h: number, t: number, rgb: Rgb): void {
  fill(image, x, y, w, t, rgb);
  fill(image, x, y + h - t, w, t, rgb);
  fill(image, x, y, t, h, rgb);
  fill(image, x + w - t, y, t, h, rgb);
}

export async function renderDamageReport(
  flat: RgbaImage,
  frame: { left: number; right: number; top: number; bottom: number } | null,
  wear: FaceWear | null,
): Promise<Uint8Array> {
  const image: RgbaImage = { width: flat.width, height: flat.height, data: flat.data.slice() };
  const { width: W, height: H } = image;
  stroke(image, 0, 0, W, H, 2, CYAN);
  if (frame)
    stroke(image, frame.left, frame.top, W - frame.left - frame.right, H - frame.top - frame.bottom, 2, MAGENTA);
  if (wear) {
    const patch = 4 * FLAT_PX_PER_MM; // the corner patches measureWear reads
    const cornerOrigins: [number, number][] = [
      [0, 0],
      [W - patch, 0],
      [W - patch, H - patch],
      [0, H - patch],
    ];
    wear.cornerCounts.forEach((count, i) => {
      const [x, y] = cornerOrigins[i] ?? [0, 0];
      if (count > 0) stroke(image, x, y, patch, patch, 3, RED);
    });
    const [left, top, right, bottom] = wear.edgeCounts;
    if (left > 0) fill(image, 0, patch, 5, H - 2 * patch, ORANGE);
    if (right > 0) fill(image, W - 5, patch, 5, H - 2 * patch, ORANGE);
    if (top > 0) fill(image, patch, 0, W - 2 * patch, 5, ORANGE);
    if (bottom > 0) fill(image, patch, H - 5, W - 2 * patch, 5, ORANGE);
    for (const defect of wear.defects) fill(image, defect.x - 1, defect.y - 1, 3, 3, RED);
  }
  return encodePng(image);
}
