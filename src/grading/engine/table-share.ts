// How much of what lies between or beside outlines is the table (find-card.ts, step 3): the share
// of pixels that are not the table's colour, read loosely across lines of the table's own
// pattern or strictly, and the table seen just outside an outline.
import { inside, outwardSide, type Point, type Quad } from "./geometry";

/**
 * The card's outline has the table just outside every side; an outline with a side on the card's
 * print (an art box's top, a text box's foot, a line across a dark rim) has card there. Read on the
 * colour cue's table mask (segment.ts), TABLE_OUTSIDE_PX coarse pixels out, over the middle
 * TABLE_OUTSIDE_SPAN of each side (past a rounded corner), as the worst side's share of table.
 */
const TABLE_OUTSIDE_PX = [2, 3, 4] as const;

const TABLE_OUTSIDE_SPAN = 0.7;

/** The worst side's share of table (`table`, the colour cue's mask) just outside `quad` (TABLE_OUTSIDE_PX). */
export function tableOutside(table: Uint8Array, width: number, height: number, quad: Quad): number {
  let worst = 1;
  const from = (1 - TABLE_OUTSIDE_SPAN) / 2;
  for (let k = 0; k < 4 && worst > 0; k++) {
    const { p, q, nx, ny } = outwardSide(quad, k);
    let read = 0;
    let onTable = 0;
    for (let s = 0; s <= 35; s++) {
      const t = from + (TABLE_OUTSIDE_SPAN * s) / 35;
      const x0 = p.x + (q.x - p.x) * t;
      const y0 = p.y + (q.y - p.y) * t;
      for (const d of TABLE_OUTSIDE_PX) {
        const x = Math.round(x0 + nx * d);
        const y = Math.round(y0 + ny * d);
        if (x < 0 || y < 0 || x >= width || y >= height) continue;
        read++;
        if (table[y * width + x] === 1) onTable++;
      }
    }
    worst = Math.min(worst, read > 0 ? onTable / read : 0);
  }
  return worst;
}

/**
 * What lies between two outlines on the straight path between their centres, outside both: how
 * many coarse pixels (the gap), and the share of them the colour cue counts as table (`table`: 1
 * per coarse pixel of table; 0 when they touch).
 */
export function between(table: Uint8Array, width: number, p: Quad, q: Quad): { gap: number; table: number } {
  const centre = (quad: Quad) => ({
    x: quad.reduce((sum, c) => sum + c.x, 0) / 4,
    y: quad.reduce((sum, c) => sum + c.y, 0) / 4,
  });
  const a = centre(p);
  const b = centre(q);
  const steps = Math.ceil(Math.hypot(b.x - a.x, b.y - a.y));
  let gap = 0;
  let onTable = 0;
  for (let s = 0; s <= steps; s++) {
    const point = { x: a.x + ((b.x - a.x) * s) / steps, y: a.y + ((b.y - a.y) * s) / steps };
    if (inside(p, point, 0) || inside(q, point, 0)) continue;
    gap++;
    if (table[Math.floor(point.y) * width + Math.floor(point.x)] === 1) onTable++;
  }
  return { gap: (gap * Math.hypot(b.x - a.x, b.y - a.y)) / Math.max(1, steps), table: gap > 0 ? onTable / gap : 0 };
}

/** Share of the pixels inside `outer` but outside `inner` that are not table. */
export type NotTableShare = (outer: Quad, inner: Quad) => number;

/**
 * The non-table share of a ring between two outlines on the coarse copy (a pixel counted when its
 * centre is inside). Row by row: each convex outline covers one span of a row, and a per-row
 * running count of non-table pixels gives any span's count at once, so an outline costs its
 * height, not its area (this runs for every outline that could be the table's pattern around the
 * card).
 */
export function notTableCounter(table: Uint8Array, width: number): NotTableShare {
  const height = table.length / width;
  // running[y * (width + 1) + x]: non-table pixels in row y left of x.
  const running = new Uint32Array((width + 1) * height);
  for (let y = 0; y < height; y++) {
    let count = 0;
    for (let x = 0; x < width; x++) {
      running[y * (width + 1) + x] = count;
      if (table[y * width + x] !== 1) count++;
    }
    running[y * (width + 1) + width] = count;
  }
  const nonTable = (y: number, from: number, to: number) =>
    to <= from ? 0 : (running[y * (width + 1) + to] ?? 0) - (running[y * (width + 1) + from] ?? 0);
  return (outer, inner) => {
    const y0 = Math.max(0, Math.floor(Math.min(...outer.map((p) => p.y))));
    const y1 = Math.min(height - 1, Math.ceil(Math.max(...outer.map((p) => p.y))));
    let ring = 0;
    let notTable = 0;
    for (let y = y0; y <= y1; y++) {
      const o = pixelSpan(outer, y + 0.5, width);
      if (!o) continue;
      const i = pixelSpan(inner, y + 0.5, width);
      const from = i ? Math.max(o.from, Math.min(o.to, i.from)) : o.to;
      const to = i ? Math.min(o.to, Math.max(o.from, i.to)) : o.to;
      // The outer span less the part of it the inner span covers.
      ring += o.to - o.from - Math.max(0, to - from);
      notTable += nonTable(y, o.from, o.to) - nonTable(y, from, to);
    }
    return ring > 0 ? notTable / ring : 0;
  };
}

/** Pixels [from, to) of a row, at height `yc`, whose centres a convex quadrilateral covers. */
function pixelSpan(quad: Quad, yc: number, width: number): { from: number; to: number } | null {
  let left = Number.POSITIVE_INFINITY;
  let right = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < 4; k++) {
    const p = quad[k] as Point;
    const q = quad[(k + 1) % 4] as Point;
    if ((yc < p.y && yc < q.y) || (yc > p.y && yc > q.y) || p.y === q.y) continue;
    const x = p.x + ((yc - p.y) * (q.x - p.x)) / (q.y - p.y);
    left = Math.min(left, x);
    right = Math.max(right, x);
  }
  if (!(right >= left)) return null;
  const from = Math.max(0, Math.ceil(left - 0.5));
  const to = Math.min(width, Math.floor(right - 0.5) + 1);
  return to > from ? { from, to } : null;
}
