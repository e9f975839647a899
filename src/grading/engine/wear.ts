// Wear signals measured on a flat (unwarped) face, at FLAT_PX_PER_MM:
// - whitening: border pixels that are much lighter and greyer than the border's own colour
//   (paper showing through worn ink); not measurable on a white border, which says so;
// - missing material: pixels inside the card's outline that look like the background (chips,
//   dings, rounded-off corners), measurable on any border;
// - surface defects: artwork pixels whose Laplacian is an outlier against the artwork's own
//   texture (scratches, print lines, creases catching light).
import { FLAT_PX_PER_MM } from "./geometry";
import type { RgbaImage } from "./image";

export interface FaceWear {
  /** % of corner-patch pixels worn (whitened or missing). */
  cornerShare: number;
  /** % of edge-band pixels worn. */
  edgeShare: number;
  /** % of artwork pixels that are surface defects. */
  surfaceShare: number;
  /** False on a white or very light border: whitening cannot be seen there, only missing material. */
  whiteningMeasurable: boolean;
  /** Worn pixels per corner (tl, tr, br, bl) and per edge (left, top, right, bottom), for the report. */
  cornerCounts: [number, number, number, number];
  edgeCounts: [number, number, number, number];
  /** Surface defect pixel positions (flat-card pixels), capped, for the damage report. */
  defects: { x: number; y: number }[];
}

const CORNER_RADIUS_PX = 3 * FLAT_PX_PER_MM; // standard 3 mm card corner
const CORNER_PATCH_PX = 4 * FLAT_PX_PER_MM;
// 0.35 mm in from the outline: clear of the anti-aliased edge pixels (3 px at 8 px/mm).
const BAND_FROM_PX = Math.ceil(0.35 * FLAT_PX_PER_MM);
const BAND_TO_PX = Math.round(1.2 * FLAT_PX_PER_MM);
/**
 * Whitening: a grey-white pixel (chroma at most WHITENING_MAX_CHROMA) that is lighter than the
 * border by WHITENING_LUMA_STEP and differs from the border's colour by WHITENING_MIN_DISTANCE.
 */
const WHITENING_LUMA_STEP = 15;
const WHITENING_MAX_CHROMA = 45;
const WHITENING_MIN_DISTANCE = 60;
const MAX_REPORTED_DEFECTS = 400;

const luma = (r: number, g: number, b: number) => 0.299 * r + 0.587 * g + 0.114 * b;

export function measureWear(
  flat: RgbaImage,
  border: [number, number, number],
  background: [number, number, number],
  frame: { left: number; right: number; top: number; bottom: number },
): FaceWear {
  const { width: W, height: H, data } = flat;
  const borderLuma = luma(...border);
  const borderChroma = Math.max(...border) - Math.min(...border);
  const whiteningMeasurable = !(borderLuma > 200 && borderChroma < 40);
  const toBackground = Math.hypot(border[0] - background[0], border[1] - background[1], border[2] - background[2]);

  const worn = (x: number, y: number): boolean => {
    const p = (y * W + x) * 4;
    const r = data[p] ?? 0;
    const g = data[p + 1] ?? 0;
    const b = data[p + 2] ?? 0;
    const dBackground = Math.sqrt((r - background[0]) ** 2 + (g - background[1]) ** 2 + (b - background[2]) ** 2);
    const dBorder = Math.sqrt((r - border[0]) ** 2 + (g - border[1]) ** 2 + (b - border[2]) ** 2);
    // Missing material: closer to the table than to the border, and clearly away from the border.
    if (dBackground < dBorder && dBorder > toBackground * 0.5) return true;
    if (!whiteningMeasurable) return false;
    const chroma = Math.max(r, g, b) - Math.min(r, g, b);
    return (
      luma(r, g, b) > borderLuma + WHITENING_LUMA_STEP &&
      chroma < WHITENING_MAX_CHROMA &&
      dBorder > WHITENING_MIN_DISTANCE
    );
  };

  // Corner patches, restricted to the inside of the ideal rounded corner (3 px in from it).
  const cornerCounts: [number, number, number, number] = [0, 0, 0, 0];
  let cornerTotal = 0;
  const corners = [
    { x0: 0, y0: 0, cx: CORNER_RADIUS_PX, cy: CORNER_RADIUS_PX },
    { x0: W - CORNER_PATCH_PX, y0: 0, cx: W - CORNER_RADIUS_PX, cy: CORNER_RADIUS_PX },
    { x0: W - CORNER_PATCH_PX, y0: H - CORNER_PATCH_PX, cx: W - CORNER_RADIUS_PX, cy: H - CORNER_RADIUS_PX },
    { x0: 0, y0: H - CORNER_PATCH_PX, cx: CORNER_RADIUS_PX, cy: H - CORNER_RADIUS_PX },
  ];
  corners.forEach((corner, index) => {
    for (let y = corner.y0; y < corner.y0 + CORNER_PATCH_PX; y++) {
      for (let x = corner.x0; x < corner.x0 + CORNER_PATCH_PX; x++) {
        if (!insideRoundedCard(x + 0.5, y + 0.5, W, H, BAND_FROM_PX)) continue;
        // Only the border: stop where the artwork begins.
        if (x >= frame.left && x < W - frame.right && y >= frame.top && y < H - frame.bottom) continue;
        cornerTotal++;
        if (worn(x, y)) cornerCounts[index] = (cornerCounts[index] ?? 0) + 1;
      }
    }
  });

  // Edge bands between the corner patches, no deeper than the border itself.
  const edgeCounts: [number, number, number, number] = [0, 0, 0, 0];
  let edgeTotal = 0;
  const depth = (limit: number) => Math.min(BAND_TO_PX, Math.max(BAND_FROM_PX + 1, Math.floor(limit) - 1));
  for (let y = CORNER_PATCH_PX; y < H - CORNER_PATCH_PX; y++) {
    for (let d = BAND_FROM_PX; d < depth(frame.left); d++, edgeTotal++) if (worn(d, y)) edgeCounts[0]++;
    for (let d = BAND_FROM_PX; d < depth(frame.right); d++, edgeTotal++) if (worn(W - 1 - d, y)) edgeCounts[2]++;
  }
  for (let x = CORNER_PATCH_PX; x < W - CORNER_PATCH_PX; x++) {
    for (let d = BAND_FROM_PX; d < depth(frame.top); d++, edgeTotal++) if (worn(x, d)) edgeCounts[1]++;
    for (let d = BAND_FROM_PX; d < depth(frame.bottom); d++, edgeTotal++) if (worn(x, H - 1 - d)) edgeCounts[3]++;
  }

  const surface = surfaceDefects(flat, frame);
  const sum = (values: number[]) => values.reduce((s, v) => s + v, 0);
  return {
    cornerShare: (sum(cornerCounts) / Math.max(1, cornerTotal)) * 100,
    edgeShare: (sum(edgeCounts) / Math.max(1, edgeTotal)) * 100,
    surfaceShare: surface.share,
    whiteningMeasurable,
    cornerCounts,
    edgeCounts,
    defects: surface.defects,
  };
}

function insideRoundedCard(x: number, y: number, W: number, H: number, inset: number): boolean {
  const r = CORNER_RADIUS_PX;
  const qx = Math.abs(x - W / 2) - (W / 2 - r);
  const qy = Math.abs(y - H / 2) - (H / 2 - r);
  const distance = Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
  return distance <= -inset;
}

/**
 * Laplacian outliers inside the frame (1 mm in from it). The threshold adapts to the artwork: six
 * robust standard deviations (1.4826 × median absolute Laplacian), and never below 40 levels.
 */
function surfaceDefects(
  flat: RgbaImage,
  frame: { left: number; right: number; top: number; bottom: number },
): { share: number; defects: { x: number; y: number }[] } {
  const { width: W, height: H, data } = flat;
  const inset = FLAT_PX_PER_MM;
  const x0 = Math.ceil(frame.left + inset);
  const x1 = Math.floor(W - frame.right - inset);
  const y0 = Math.ceil(frame.top + inset);
  const y1 = Math.floor(H - frame.bottom - inset);
  if (x1 - x0 < 10 || y1 - y0 < 10) return { share: 0, defects: [] };
  // Luma of the region with a one-pixel margin, computed once.
  const gw = x1 - x0 + 2;
  const gh = y1 - y0 + 2;
  const gray = new Float32Array(gw * gh);
  for (let y = 0; y < gh; y++) {
    for (let x = 0; x < gw; x++) {
      const p = ((y + y0 - 1) * W + (x + x0 - 1)) * 4;
      gray[y * gw + x] = luma(data[p] ?? 0, data[p + 1] ?? 0, data[p + 2] ?? 0);
    }
  }
  const laplacian = new Float32Array((x1 - x0) * (y1 - y0));
  const histogram = new Uint32Array(1024);
  let k = 0;
  for (let y = 1; y < gh - 1; y++) {
    for (let x = 1; x < gw - 1; x++, k++) {
      const i = y * gw + x;
      const value = Math.abs(
        4 * (gray[i] ?? 0) - (gray[i - 1] ?? 0) - (gray[i + 1] ?? 0) - (gray[i - gw] ?? 0) - (gray[i + gw] ?? 0),
      );
      laplacian[k] = value;
      const bin = Math.min(1023, Math.floor(value));
      histogram[bin] = (histogram[bin] ?? 0) + 1;
    }
  }
  // Median absolute Laplacian from the histogram (1-level bins).
  let seen = 0;
  let mad = 0;
  for (let bin = 0; bin < 1024; bin++) {
    seen += histogram[bin] ?? 0;
    if (seen * 2 >= laplacian.length) {
      mad = bin + 0.5;
      break;
    }
  }
  const threshold = Math.max(40, 6 * 1.4826 * mad);
  const defects: { x: number; y: number }[] = [];
  let count = 0;
  k = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++, k++) {
      if ((laplacian[k] ?? 0) > threshold) {
        count++;
        if (defects.length < MAX_REPORTED_DEFECTS) defects.push({ x, y });
      }
    }
  }
  return { share: (count / laplacian.length) * 100, defects };
}
