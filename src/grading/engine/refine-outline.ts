// The card's edges to a fraction of a pixel, once find-card.ts has chosen its outline: ~120
// profiles across each side on the full working image, the colour along each projected onto the
// step between the table's and the card's colours (edges.ts), the 50 % crossing as the edge's
// position, a robust line fit per side, and the corners at the lines' intersections.
import { edgeCrossing, rgbSampler } from "./edges";
import { fitLine, intersect, type Line, median, type Point, type Quad } from "./geometry";
import type { RgbaImage } from "./image";

/** Profiles read across each side (also the precision estimate's sample count, centering.ts). */
export const EDGE_PROFILES = 120;
/** A refined side must have a crossing near its line on at least this share of its profiles. */
const MIN_EDGE_COVERAGE = 0.5;

export interface RefinedEdges {
  /** The card's quadrilateral in photo order (as it appears: top-left, top-right, bottom-right, bottom-left). */
  corners: Quad;
  /** Median contrast across the card's edge, in colour-distance units (0–441). */
  edgeContrast: number;
  /** RMS distance of the refined edge points from their lines, in pixels. */
  edgeResidual: number;
  /** 10–90 % rise of the edge profile, in pixels (blur). */
  edgeWidth: number;
}

export type Refined = { ok: true; outline: RefinedEdges } | { ok: false; reason: string };

const SIDE_NAMES = ["top", "right", "bottom", "left"] as const;

/** Sub-pixel sides on the full working image; `quad` in photo order and full-image pixels. */
export function refineOutline(image: RgbaImage, quad: Quad, halfLength: number): Refined {
  const colourAt = rgbSampler(image);
  const center = {
    x: quad.reduce((s, p) => s + p.x, 0) / 4,
    y: quad.reduce((s, p) => s + p.y, 0) / 4,
  };
  const refined: Line[] = [];
  const contrasts: number[] = [];
  const widths: number[] = [];
  let residualSum = 0;
  let residualCount = 0;
  for (let k = 0; k < 4; k++) {
    const p = quad[k] as Point;
    const q = quad[(k + 1) % 4] as Point;
    const length = Math.hypot(q.x - p.x, q.y - p.y);
    let nx = -(q.y - p.y) / length;
    let ny = (q.x - p.x) / length;
    const mid = { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2 };
    if (nx * (center.x - mid.x) + ny * (center.y - mid.y) < 0) {
      nx = -nx;
      ny = -ny;
    }
    const samples: Point[] = [];
    for (let s = 0; s < EDGE_PROFILES; s++) {
      const t = 0.1 + (0.8 * (s + 0.5)) / EDGE_PROFILES;
      const base = { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
      const crossing = edgeCrossing(colourAt, base, nx, ny, halfLength);
      if (!crossing) continue;
      samples.push({ x: base.x + nx * crossing.t, y: base.y + ny * crossing.t });
      contrasts.push(crossing.contrast);
      widths.push(crossing.width);
    }
    const fitted = fitLine(samples);
    const close = fitted ? samples.filter((s) => Math.abs(fitted.a * s.x + fitted.b * s.y - fitted.c) <= 1.5) : [];
    if (!fitted || close.length < EDGE_PROFILES * MIN_EDGE_COVERAGE) {
      return {
        ok: false,
        reason: `the card's ${SIDE_NAMES[k]} edge (as it appears in the photo) could not be traced along its length`,
      };
    }
    for (const s of close) {
      const r = fitted.a * s.x + fitted.b * s.y - fitted.c;
      residualSum += r * r;
      residualCount++;
    }
    refined.push(fitted);
  }
  const [t, r, b, l] = refined as [Line, Line, Line, Line];
  const corners: Quad = [intersect(l, t), intersect(t, r), intersect(r, b), intersect(b, l)];
  if (corners.some((c) => !Number.isFinite(c.x) || !Number.isFinite(c.y))) {
    return { ok: false, reason: "the card's edges do not form a rectangle" };
  }
  return {
    ok: true,
    outline: {
      corners,
      edgeContrast: median(contrasts),
      edgeResidual: Math.sqrt(residualSum / Math.max(1, residualCount)),
      edgeWidth: median(widths),
    },
  };
}
