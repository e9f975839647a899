// Plane geometry shared by the engine's steps: points, lines, robust line fits, intersections,
// homographies, convex quadrilaterals (containment, overlap), and the flat card's resolution. The
// steps live in their own files: find-card.ts (where the card is), edges.ts (gradients and straight
// lines), segment.ts (the colour cue), refine-outline.ts, rectify.ts (perspective and proportions),
// formats.ts, frame.ts and centering.ts.

/**
 * Resolution of the unwarped card: 504 × 704 px for a standard card. 8 px/mm keeps a 1 mm border
 * 8 px wide (the frame is found to a fraction of a pixel) while the whole grade stays inside its
 * time budget.
 */
export const FLAT_PX_PER_MM = 8;

export interface Point {
  x: number;
  y: number;
}

export type Quad = [Point, Point, Point, Point];

/** A line a·x + b·y = c with (a, b) a unit normal. */
export interface Line {
  a: number;
  b: number;
  c: number;
}

/** Total least squares line through points, refitted twice without outliers (> 2.5 σ, ≥ 1 px). */
export function fitLine(points: Point[]): Line | null {
  let current = points;
  let line: Line | null = null;
  for (let pass = 0; pass < 3; pass++) {
    if (current.length < 2) return line;
    let mx = 0;
    let my = 0;
    for (const p of current) {
      mx += p.x;
      my += p.y;
    }
    mx /= current.length;
    my /= current.length;
    let sxx = 0;
    let syy = 0;
    let sxy = 0;
    for (const p of current) {
      sxx += (p.x - mx) ** 2;
      syy += (p.y - my) ** 2;
      sxy += (p.x - mx) * (p.y - my);
    }
    // The normal is the eigenvector of the smaller eigenvalue of the scatter matrix.
    const angle = 0.5 * Math.atan2(2 * sxy, sxx - syy);
    const a = -Math.sin(angle);
    const b = Math.cos(angle);
    const fitted: Line = { a, b, c: a * mx + b * my };
    line = fitted;
    const residuals = current.map((p) => Math.abs(a * p.x + b * p.y - fitted.c));
    const sigma = Math.sqrt(residuals.reduce((s, r) => s + r * r, 0) / residuals.length);
    const limit = Math.max(1, 2.5 * sigma);
    const kept = current.filter((_, i) => (residuals[i] ?? 0) <= limit);
    if (kept.length === current.length) break;
    current = kept;
  }
  return line;
}

/**
 * The least-squares parabola n = a·t² + b·t + c through the points (ts[i], ns[i]), by Cramer's
 * rule on its normal equations; null when they are degenerate (fewer than three distinct t).
 */
export function fitParabola(ts: ArrayLike<number>, ns: ArrayLike<number>): { a: number; b: number; c: number } | null {
  // Sums of t^k (k = 0…4) and of n·t^k (k = 0…2).
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let s4 = 0;
  let n0 = 0;
  let n1 = 0;
  let n2 = 0;
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i] ?? 0;
    const n = ns[i] ?? 0;
    const t2 = t * t;
    s0 += 1;
    s1 += t;
    s2 += t2;
    s3 += t2 * t;
    s4 += t2 * t2;
    n0 += n;
    n1 += n * t;
    n2 += n * t2;
  }
  // [s4 s3 s2; s3 s2 s1; s2 s1 s0]·[a b c] = [n2 n1 n0].
  const det3 = (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, k: number) =>
    a * (e * k - f * h) - b * (d * k - f * g) + c * (d * h - e * g);
  const det = det3(s4, s3, s2, s3, s2, s1, s2, s1, s0);
  if (Math.abs(det) < 1e-9) return null;
  return {
    a: det3(n2, s3, s2, n1, s2, s1, n0, s1, s0) / det,
    b: det3(s4, n2, s2, s3, n1, s1, s2, n0, s0) / det,
    c: det3(s4, s3, n2, s3, s2, n1, s2, s1, n0) / det,
  };
}

export function lineThrough(p: Point, q: Point): Line {
  const length = Math.hypot(q.x - p.x, q.y - p.y) || 1;
  const a = -(q.y - p.y) / length;
  const b = (q.x - p.x) / length;
  return { a, b, c: a * p.x + b * p.y };
}

export function intersect(p: Line, q: Line): Point {
  const det = p.a * q.b - p.b * q.a;
  return { x: (p.c * q.b - p.b * q.c) / det, y: (p.a * q.c - p.c * q.a) / det };
}

export function dist(p: Point, q: Point): number {
  return Math.hypot(p.x - q.x, p.y - q.y);
}

/**
 * The k-th smallest of `values[0 … count)` (what `values.subarray(0, count).sort()[k]` is), by
 * quickselect with a middle pivot; reorders the values.
 */
export function selectKth(values: Float32Array | Float64Array, count: number, k: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const pivot = values[(lo + hi) >> 1] ?? 0;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((values[i] ?? 0) < pivot) i++;
      while ((values[j] ?? 0) > pivot) j--;
      if (i <= j) {
        const t = values[i] ?? 0;
        values[i] = values[j] ?? 0;
        values[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return values[k] ?? 0;
  }
  return values[k] ?? 0;
}

const sortedMedian = (sorted: Float64Array) => {
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  // Selected, not sorted: the values below the middle one are left before it, the largest of them
  // the one below the middle. The same median as a sort's, in linear time.
  const copy = Float64Array.from(values);
  const mid = copy.length >> 1;
  // A NaN is sorted last, and not ordered by the selection's comparisons.
  for (const value of copy) if (Number.isNaN(value)) return sortedMedian(copy.sort());
  const upper = selectKth(copy, copy.length, mid);
  if (copy.length % 2) return upper;
  let lower = copy[0] ?? 0;
  for (let i = 1; i < mid; i++) lower = Math.max(lower, copy[i] ?? 0);
  return (lower + upper) / 2;
}

/** Twice the signed area of a polygon (positive when its corners run clockwise on screen). */
export function signedArea2(points: Point[]): number {
  let sum = 0;
  for (let i = 0; i < points.length; i++) {
    const p = points[i] as Point;
    const q = points[(i + 1) % points.length] as Point;
    sum += p.x * q.y - q.x * p.y;
  }
  return sum;
}

/** The 3×3 homography (row-major, h[8] = 1) mapping `from` quadrilateral corners onto `to`. */
export function homography(from: Point[], to: Point[]): number[] {
  // Solve the 8×8 linear system of the direct linear transform with Gaussian elimination.
  const A: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const { x, y } = from[i] as Point;
    const { x: u, y: v } = to[i] as Point;
    A.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    A.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let col = 0; col < 8; col++) {
    let pivot = col;
    for (let row = col + 1; row < 8; row++)
      if (Math.abs(A[row]?.[col] ?? 0) > Math.abs(A[pivot]?.[col] ?? 0)) pivot = row;
    const swap = A[col] as number[];
    A[col] = A[pivot] as number[];
    A[pivot] = swap;
    const pivotRow = A[col] as number[];
    for (let row = 0; row < 8; row++) {
      if (row === col) continue;
      const r = A[row] as number[];
      const factor = (r[col] ?? 0) / (pivotRow[col] ?? 1);
      for (let k = col; k < 9; k++) r[k] = (r[k] ?? 0) - factor * (pivotRow[k] ?? 0);
    }
  }
  const h = A.map((row, i) => (row[8] ?? 0) / (row[i] ?? 1));
  h.push(1);
  return h;
}

/** Side k of a quadrilateral (corner k to corner k + 1), its length and its outward unit normal. */
export function outwardSide(quad: Quad, k: number): { p: Point; q: Point; length: number; nx: number; ny: number } {
  const cx = (quad[0].x + quad[1].x + quad[2].x + quad[3].x) / 4;
  const cy = (quad[0].y + quad[1].y + quad[2].y + quad[3].y) / 4;
  const p = quad[k % 4] as Point;
  const q = quad[(k + 1) % 4] as Point;
  const length = Math.hypot(q.x - p.x, q.y - p.y) || 1;
  let nx = -(q.y - p.y) / length;
  let ny = (q.x - p.x) / length;
  if (nx * ((p.x + q.x) / 2 - cx) + ny * ((p.y + q.y) / 2 - cy) < 0) {
    nx = -nx;
    ny = -ny;
  }
  return { p, q, length, nx, ny };
}

export function isConvex(quad: Quad): boolean {
  let sign = 0;
  for (let k = 0; k < 4; k++) {
    const a = quad[k] as Point;
    const b = quad[(k + 1) % 4] as Point;
    const c = quad[(k + 2) % 4] as Point;
    const z = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x);
    if (Math.abs(z) < 1e-9) return false;
    if (sign === 0) sign = Math.sign(z);
    else if (Math.sign(z) !== sign) return false;
  }
  return true;
}

/** Every corner of `inner` lies inside `outer` (convex, photo order) or within `tolerance` px of it. */
export function contains(outer: Quad, inner: Quad, tolerance: number): boolean {
  return inner.every((p) => inside(outer, p, tolerance));
}

/**
 * Share (0–1) of `q`'s area that lies inside `p` (both convex, photo order), read on a grid of
 * GRID × GRID points spread evenly over `q` (bilinearly, so a tilted or keystoned quad is covered).
 */
export function shareInside(p: Quad, q: Quad): number {
  const GRID = 8;
  const [a, b, c, d] = q;
  let count = 0;
  for (let i = 0; i < GRID; i++) {
    const u = (i + 0.5) / GRID;
    for (let j = 0; j < GRID; j++) {
      const v = (j + 0.5) / GRID;
      const point = {
        x: (1 - v) * ((1 - u) * a.x + u * b.x) + v * ((1 - u) * d.x + u * c.x),
        y: (1 - v) * ((1 - u) * a.y + u * b.y) + v * ((1 - u) * d.y + u * c.y),
      };
      if (inside(p, point, 0)) count++;
    }
  }
  return count / (GRID * GRID);
}

/** `p` lies inside the convex quadrilateral `quad` (photo order) or within `tolerance` px of it. */
export function inside(quad: Quad, p: Point, tolerance: number): boolean {
  return [0, 1, 2, 3].every((k) => {
    const a = quad[k] as Point;
    const b = quad[(k + 1) % 4] as Point;
    const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
    // Clockwise on screen: inside is to the right of each directed side (positive cross).
    const cross = ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / length;
    return cross >= -tolerance;
  });
}

/** Intersection over union of the two outlines' bounding boxes. */
export function boxOverlap(p: Quad, q: Quad): number {
  const box = (quad: Quad) => ({
    x0: Math.min(...quad.map((c) => c.x)),
    x1: Math.max(...quad.map((c) => c.x)),
    y0: Math.min(...quad.map((c) => c.y)),
    y1: Math.max(...quad.map((c) => c.y)),
  });
  const a = box(p);
  const b = box(q);
  const iw = Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0));
  const ih = Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
  const intersection = iw * ih;
  const union = (a.x1 - a.x0) * (a.y1 - a.y0) + (b.x1 - b.x0) * (b.y1 - b.y0) - intersection;
  return union > 0 ? intersection / union : 0;
}

/**
 * The direction of a quadrilateral's long sides (`quad` in photo order; a unit vector, its sign
 * free): the longer pair of opposite sides, averaged.
 */
export function longSideDirection(quad: Quad): Point {
  const side = (k: number) => {
    const p = quad[k] as Point;
    const q = quad[(k + 1) % 4] as Point;
    return { x: q.x - p.x, y: q.y - p.y };
  };
  const length = (v: Point) => Math.hypot(v.x, v.y);
  const [a, b, c, d] = [side(0), side(1), side(2), side(3)];
  // Opposite sides run in opposite directions round the quadrilateral: their difference adds them up.
  const [u, v] = length(a) + length(c) >= length(b) + length(d) ? [a, c] : [b, d];
  const x = u.x - v.x;
  const y = u.y - v.y;
  const n = Math.hypot(x, y) || 1;
  return { x: x / n, y: y / n };
}

/** True when two outlines' long sides run more than 45° apart: one lies crosswise to the other. */
export function crosswise(p: Quad, q: Quad): boolean {
  const a = longSideDirection(p);
  const b = longSideDirection(q);
  return Math.abs(a.x * b.x + a.y * b.y) < Math.SQRT1_2;
}
