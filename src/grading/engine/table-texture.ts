// The table's texture: a cue for the card's cut where colour gives none. A silver border on beige
// grass or gravel lies within the table's own spread of colours (a pixel of grass may be nearer
// the border's grey than the grass's median is), so where the border's colour ends cannot be read
// pixel by pixel; but the border is smooth ink and the table is not. Here the gradient magnitude
// (edges.ts) is averaged over a small window (TEXTURE_RADIUS) at the coarse scale, and the table's
// level is its median over the photo's outer frame. A point is textured when its window holds at
// least TEXTURED_SHARE of that level: grass, gravel, cloth, wood grain. On a plain table (level
// under MIN_TABLE_TEXTURE: paper, a desk, a mat) there is no cue, and none is given.
import type { GradientMap } from "./edges";

/** Half the side of the window the gradient magnitude is averaged over (coarse px). */
export const TEXTURE_RADIUS = 2;
/** A table with a median windowed gradient magnitude under this is plain. */
const MIN_TABLE_TEXTURE = 8;
/** A window holding this share of the table's level is textured (the table reaches into it). */
const TEXTURED_SHARE = 0.4;
/** The photo's outer frame the table's level is read on, as a share of its shorter side (segment.ts' too). */
const FRAME_SHARE = 0.03;

export interface TableTexture {
  /** Median windowed gradient magnitude over the photo's outer frame. */
  level: number;
  /** The window round the coarse pixel at (x, y) holds the table's texture; false outside the photo. */
  textured: (x: number, y: number) => boolean;
}

/** The table's texture, or null for a plain table (see the file's head). */
export function tableTexture(map: GradientMap): TableTexture | null {
  const { width: W, height: H, magnitude } = map;
  // Summed-area table of the magnitude: each window's mean in four reads.
  const stride = W + 1;
  const sums = new Float64Array(stride * (H + 1));
  for (let y = 0; y < H; y++) {
    let row = 0;
    for (let x = 0; x < W; x++) {
      row += magnitude[y * W + x] ?? 0;
      sums[(y + 1) * stride + x + 1] = (sums[y * stride + x + 1] ?? 0) + row;
    }
  }
  const windowMean = (x: number, y: number) => {
    const x0 = Math.max(0, x - TEXTURE_RADIUS);
    const x1 = Math.min(W, x + TEXTURE_RADIUS + 1);
    const y0 = Math.max(0, y - TEXTURE_RADIUS);
    const y1 = Math.min(H, y + TEXTURE_RADIUS + 1);
    const sum =
      (sums[y1 * stride + x1] ?? 0) -
      (sums[y0 * stride + x1] ?? 0) -
      (sums[y1 * stride + x0] ?? 0) +
      (sums[y0 * stride + x0] ?? 0);
    return sum / ((x1 - x0) * (y1 - y0));
  };
  const band = Math.max(2, Math.round(Math.min(W, H) * FRAME_SHARE));
  const frame: number[] = [];
  for (let y = 0; y < H; y++) {
    const edgeRow = y < band || y >= H - band;
    for (let x = 0; x < W; x++) {
      if (edgeRow || x < band || x >= W - band) frame.push(windowMean(x, y));
      else if (x === band) x = W - band - 1;
    }
  }
  frame.sort((a, b) => a - b);
  const level = frame[frame.length >> 1] ?? 0;
  if (level < MIN_TABLE_TEXTURE) return null;
  const threshold = TEXTURED_SHARE * level;
  return {
    level,
    textured: (x, y) => {
      const px = Math.round(x - 0.5);
      const py = Math.round(y - 0.5);
      if (px < 0 || py < 0 || px >= W || py >= H) return false;
      return windowMean(px, py) >= threshold;
    },
  };
}
