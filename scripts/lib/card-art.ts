// Draws the demo images: card fronts and backs with a printed frame whose offset is the card's
// real centering, the digital slab render, and a damage report that marks the measured borders.
import type { RgbaImage } from "../../src/grading/engine/image.ts";
import { createImage, fillRect, strokeRect } from "./raster.ts";

type Rgb = readonly [number, number, number];

// 63 x 88 mm at 4 px/mm.
export const CARD_WIDTH = 252;
export const CARD_HEIGHT = 352;

export interface CardArtSpec {
  /** Share of the horizontal border on the left, e.g. 0.55 for a 55/45 card. */
  leftShare: number;
  topShare: number;
  border: Rgb;
  art: Rgb;
  accent: Rgb;
}

const BORDER_TOTAL_X = 24;
const BORDER_TOTAL_Y = 28;

export function drawFront(spec: CardArtSpec): RgbaImage {
  const image = createImage(CARD_WIDTH, CARD_HEIGHT, spec.border);
  const left = BORDER_TOTAL_X * spec.leftShare;
  const top = BORDER_TOTAL_Y * spec.topShare;
  const artW = CARD_WIDTH - BORDER_TOTAL_X;
  const artH = CARD_HEIGHT - BORDER_TOTAL_Y;
  fillRect(image, left, top, artW, artH, spec.art);
  // A diagonal band and a name bar so the front is not a flat block.
  for (let i = 0; i < artH; i += 2) fillRect(image, left + (i * artW) / artH - 20, top + i, 40, 2, spec.accent);
  fillRect(image, left + 10, top + artH - 46, artW - 20, 30, [245, 245, 240]);
  fillRect(image, left + 18, top + artH - 37, artW * 0.55, 12, [30, 30, 30]);
  return image;
}

export function drawBack(spec: CardArtSpec): RgbaImage {
  const image = createImage(CARD_WIDTH, CARD_HEIGHT, spec.border);
  const left = BORDER_TOTAL_X * (1 - spec.leftShare * 0.9);
  const top = BORDER_TOTAL_Y * 0.5;
  const w = CARD_WIDTH - BORDER_TOTAL_X;
  const h = CARD_HEIGHT - BORDER_TOTAL_Y;
  fillRect(image, left, top, w, h, [236, 226, 200]);
  for (let row = 0; row < 14; row++) fillRect(image, left + 14, top + 60 + row * 18, w - 28, 6, [90, 80, 70]);
  fillRect(image, left + 14, top + 14, w - 28, 32, spec.accent);
  return image;
}

/** The card inside a clear holder with a label block carrying the grade as bars. */
export function drawSlab(card: RgbaImage, grade: number): RgbaImage {
  const margin = 22;
  const label = 70;
  const slab = createImage(card.width + margin * 2, card.height + margin * 2 + label, [214, 222, 228]);
  fillRect(slab, margin / 2, margin / 2, slab.width - margin, label, [250, 250, 250]);
  strokeRect(slab, margin / 2, margin / 2, slab.width - margin, label, 3, [170, 20, 30]);
  fillRect(slab, margin, margin + 14, 120, 10, [40, 40, 40]);
  fillRect(slab, margin, margin + 34, 80, 8, [90, 90, 90]);
  for (let i = 0; i < Math.round(grade * 2); i++)
    fillRect(slab, slab.width - margin - 8 - i * 7, margin + 12, 5, 34, [170, 20, 30]);
  for (let y = 0; y < card.height; y++) {
    const from = y * card.width * 4;
    slab.data.set(card.data.subarray(from, from + card.width * 4), ((y + margin + label) * slab.width + margin) * 4);
  }
  return slab;
}

/** The card with its measured outer edge and printed frame outlined. */
export function drawDamageReport(card: RgbaImage, spec: CardArtSpec): RgbaImage {
  const report: RgbaImage = { width: card.width, height: card.height, data: card.data.slice() };
  strokeRect(report, 0, 0, card.width, card.height, 2, [0, 200, 255]);
  const left = BORDER_TOTAL_X * spec.leftShare;
  const top = BORDER_TOTAL_Y * spec.topShare;
  strokeRect(report, left, top, card.width - BORDER_TOTAL_X, card.height - BORDER_TOTAL_Y, 2, [255, 60, 160]);
  return report;
}
