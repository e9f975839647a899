// Quadrilateral hypotheses for the card's outline (find-card.ts, step 2): four lines of the
// photo taken two by two, each hypothesis scored by the edge support along its sides, and the
// twin a hypothesis has where a stronger parallel edge lies just outside one of its sides.
import { type GradientMap, type HoughLine, type SegmentSupport, segmentSupport } from "./edges";
import {
  intersect,
  isConvex,
  type Line,
  lineThrough,
  outwardSide,
  type Point,
  type Quad,
  signedArea2,
} from "./geometry";
import { SHARED_SIDE_PX, sidesOf } from "./outline-relations";
import { orientCard, photoOrder } from "./rectify";

/** A side is supported when at least this share of its points has an edge across it. */
export const MIN_SIDE_SUPPORT = 0.6;

/** An outline swallows the ones inside it only when its sides stand out this much from beside them. */
export const MIN_DISTINCT_SUPPORT = 0.25;

/**
 * Two lines may be a card's opposite sides when they lie at most this many degrees apart: a card
 * photographed steeply and turned (a phone held low beside the table) has its long sides
 * converging by 13–17° (two real photos of a card on a desk, and find-card.test.ts's 40° tilt).
 */
export const MAX_OPPOSITE_ANGLE_DEG = 20;

/**
 * Where no outline is found, lines up to this many degrees apart are paired as opposite sides once
 * more, only to tell a card photographed more steeply than an outline is looked for
 * (find-card.ts, steeperOutline) from one that does not stand out.
 */
export const STEEP_OPPOSITE_ANGLE_DEG = 35;

/** How far outward (coarse pixels) a side is moved to read the support beside it. */
const OUTWARD_SHIFT = 5;

/** How far outward (coarse pixels) a stronger edge is looked for beside a side that does not stand out (outwardTwin). */
const TWIN_REACH = 8;

/** Proportions (long / short, rectified) of anything that may be a card or a graded holder. */
const SHAPE_RANGE = { min: 1.25, max: 1.9 } as const;

export interface Hypothesis {
  quad: Quad;
  /** Worst side's support (0–1). */
  support: number;
  /** Worst side's strength (edge thresholds, 0–4): how sharp and exactly placed its edge is. */
  strength: number;
  /** Each side's strength, in the quadrilateral's order (side k runs from corner k to k + 1); empty when a side is unsupported. */
  sideStrengths: readonly number[];
  /** Worst side's sharpness (edges.ts). */
  sharpness: number;
  /**
   * Worst side's share of its strength that the same side moved OUTWARD_SHIFT px outward lacks
   * (≤ 1): a card's or holder's edge stands alone, a line through table texture has texture as
   * strong beside it. Read on first use (memoised): only outlines that would swallow another need it.
   */
  distinct: () => number;
  aspect: number;
  area: number;
}

/**
 * Quadrilaterals from pairs of roughly parallel lines (at most `maxOppositeDeg` apart) crossing
 * each other at 90° ± 25°.
 */
export function lineQuads(lines: HoughLine[], minSeparation: number, maxOppositeDeg = MAX_OPPOSITE_ANGLE_DEG): Quad[] {
  const angleOf = (l: Line) => Math.atan2(l.b, l.a); // 0 … π
  const pairs: { first: Line; second: Line; angle: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const p = lines[i] as HoughLine;
      const q = lines[j] as HoughLine;
      let difference = Math.abs(angleOf(p) - angleOf(q));
      if (difference > Math.PI / 2) difference = Math.PI - difference;
      if (difference > (maxOppositeDeg * Math.PI) / 180) continue;
      // Distance between the lines, measured along p's normal through p's foot point.
      const foot = { x: p.a * p.c, y: p.b * p.c };
      const separation = Math.abs(q.a * foot.x + q.b * foot.y - q.c);
      if (separation < minSeparation) continue;
      pairs.push({ first: p, second: q, angle: angleOf(p) });
    }
  }
  const quads: Quad[] = [];
  for (let i = 0; i < pairs.length; i++) {
    for (let j = i + 1; j < pairs.length; j++) {
      const p = pairs[i] as (typeof pairs)[number];
      const q = pairs[j] as (typeof pairs)[number];
      let difference = Math.abs(p.angle - q.angle) % Math.PI;
      if (difference > Math.PI / 2) difference = Math.PI - difference;
      if (Math.abs(difference - Math.PI / 2) > (25 * Math.PI) / 180) continue;
      const corners = [
        intersect(p.first, q.first),
        intersect(q.first, p.second),
        intersect(p.second, q.second),
        intersect(q.second, p.first),
      ];
      if (corners.some((c) => !Number.isFinite(c.x) || !Number.isFinite(c.y))) continue;
      quads.push(photoOrder(corners));
    }
  }
  return quads;
}

export function score(
  map: GradientMap,
  quad: Quad,
  sideCache: Map<string, SegmentSupport>,
  focal: number | null,
  minSupport = MIN_SIDE_SUPPORT,
): Hypothesis | null {
  const { width: W, height: H } = map;
  if (quad.some((p) => p.x < 1 || p.y < 1 || p.x > W - 1 || p.y > H - 1)) return null;
  if (!isConvex(quad)) return null;
  const area = Math.abs(signedArea2(quad)) / 2;
  if (area < W * H * 0.02) return null;
  const oriented = orientCard(quad, W, H, focal);
  if (oriented.aspect < SHAPE_RANGE.min || oriented.aspect > SHAPE_RANGE.max) return null;
  // Side by side: the first side without support sinks the hypothesis, unread further.
  const sides: SegmentSupport[] = [];
  for (let k = 0; k < 4; k++) {
    const p = quad[k] as Point;
    const q = quad[(k + 1) % 4] as Point;
    // Corners are exact functions of their two lines, so a shared side has identical endpoints.
    const key = `${p.x},${p.y},${q.x},${q.y}`;
    let side = sideCache.get(key);
    if (!side) {
      side = segmentSupport(map, p, q, 1.5, 40, minSupport);
      sideCache.set(key, side);
    }
    if (side.support < minSupport) {
      return {
        quad,
        support: side.support,
        strength: 0,
        sideStrengths: [],
        sharpness: 0,
        distinct: () => 0,
        aspect: oriented.aspect,
        area,
      };
    }
    sides.push(side);
  }
  const support = Math.min(...sides.map((s) => s.support));
  // The support beside each side (read only when an outline could swallow another).
  let distinct: number | null = null;
  const readDistinct = () => {
    distinct ??= distinctness(map, quad, sides);
    return distinct;
  };
  return {
    quad,
    support,
    strength: Math.min(...sides.map((s) => s.strength)),
    sideStrengths: sides.map((s) => s.strength),
    sharpness: Math.min(...sides.map((s) => s.sharpness)),
    distinct: readDistinct,
    aspect: oriented.aspect,
    area,
  };
}

/**
 * `quad` with each side that does not stand out from what lies OUTWARD_SHIFT px outside it
 * (MIN_DISTINCT_SUPPORT) moved out to the strongest parallel edge within TWIN_REACH coarse px,
 * when that edge is stronger than the side, supported as a side must be, and stands out from what
 * lies beyond it (the table past a cut, not more print); null when no side moves. A moved side
 * lying on a line found in the photo (within SHARED_SIDE_PX at both ends) takes that line, so
 * that outlines sharing an edge still share it exactly (swallowing and sharing are told on it).
 * The line search keeps one of two parallel lines a rim's width apart, and may keep the rim's
 * inner step: on a real Yu-Gi-Oh! card on a grey table, its dark rim 1.6 mm wide, the step read
 * at strength 13.3 and the cut 5 coarse px outside it at 16.9; the card's outline, its top on the
 * step, could not swallow its own print, and lost to it.
 * `offsets` holds each side's move (null for none), keyed by the side and its outward direction.
 */
export function outwardTwin(
  map: GradientMap,
  quad: Quad,
  found: readonly Line[],
  sideCache: Map<string, SegmentSupport>,
  offsets: Map<string, number | null>,
): Quad | null {
  const lines = sidesOf(quad);
  let moved = false;
  for (let k = 0; k < 4; k++) {
    const { p, q, nx, ny } = outwardSide(quad, k);
    const side = sideCache.get(`${p.x},${p.y},${q.x},${q.y}`);
    if (!side || side.strength <= 0) continue;
    const key = `${p.x},${p.y},${q.x},${q.y},${nx > 0 || (nx === 0 && ny > 0)}`;
    let offset = offsets.get(key);
    if (offset === undefined) {
      const shifted = (d: number) =>
        segmentSupport(map, { x: p.x + nx * d, y: p.y + ny * d }, { x: q.x + nx * d, y: q.y + ny * d }, 1.5);
      offset = null;
      if ((side.strength - shifted(OUTWARD_SHIFT).strength) / side.strength < MIN_DISTINCT_SUPPORT) {
        let best = side.strength;
        for (let d = 1; d <= TWIN_REACH; d += 0.5) {
          const there = shifted(d);
          if (there.strength > best && there.support >= MIN_SIDE_SUPPORT) {
            best = there.strength;
            offset = d;
          }
        }
        if (offset !== null && (best - shifted(offset + OUTWARD_SHIFT).strength) / best < MIN_DISTINCT_SUPPORT)
          offset = null;
      }
      offsets.set(key, offset);
    }
    if (offset === null) continue;
    const line = lines[k] as Line;
    // sidesOf's normal (a, b) points one way or the other: c moves along the outward one.
    const shiftedLine = { ...line, c: line.c + offset * (line.a * nx + line.b * ny) };
    // A line found in the photo running there is that edge: the twin keeps it, and with it the
    // sides it shares with other outlines (swallowing and sharing are told on shared lines).
    const ends = [
      { x: p.x + nx * offset, y: p.y + ny * offset },
      { x: q.x + nx * offset, y: q.y + ny * offset },
    ];
    lines[k] =
      found.find((l) => ends.every((e) => Math.abs(l.a * e.x + l.b * e.y - l.c) <= SHARED_SIDE_PX)) ?? shiftedLine;
    moved = true;
  }
  if (!moved) return null;
  const corner = (k: number) => intersect(lines[(k + 3) % 4] as Line, lines[k] as Line);
  return [corner(0), corner(1), corner(2), corner(3)];
}

/** Worst side's share of its strength that the same side moved OUTWARD_SHIFT px outward lacks. */
function distinctness(map: GradientMap, quad: Quad, sides: SegmentSupport[]): number {
  return Math.min(
    ...sides.map((side, k) => {
      const { p, q, nx, ny } = outwardSide(quad, k);
      const shift = (point: Point) => ({ x: point.x + nx * OUTWARD_SHIFT, y: point.y + ny * OUTWARD_SHIFT });
      const beside = segmentSupport(map, shift(p), shift(q), 1.5);
      return side.strength > 0 ? (side.strength - beside.strength) / side.strength : 0;
    }),
  );
}

/** How far (coarse px) snapToEdges moves each end of a side along its normal, either way. */
const SNAP_REACH = 6;

/**
 * `quad` (an outline from a region, not from lines) with each side moved to the line of best edge
 * support near it: each end of the side shifted along its normal by up to SNAP_REACH px, in 1 px
 * steps, and the segment of most support (then strength) taken. The region's own boundary lies a
 * few pixels off the cut (its texture read over a window, a shadow taken in at one end).
 */
export function snapToEdges(map: GradientMap, quad: Quad): Quad | null {
  const lines: Line[] = [];
  for (let k = 0; k < 4; k++) {
    const { p, q, nx, ny } = outwardSide(quad, k);
    let best: { support: number; strength: number; from: Point; to: Point } | null = null;
    for (let a = -SNAP_REACH; a <= SNAP_REACH; a++) {
      for (let b = -SNAP_REACH; b <= SNAP_REACH; b++) {
        const from = { x: p.x + nx * a, y: p.y + ny * a };
        const to = { x: q.x + nx * b, y: q.y + ny * b };
        const side = segmentSupport(map, from, to, 1.5);
        if (!best || side.support > best.support || (side.support === best.support && side.strength > best.strength))
          best = { support: side.support, strength: side.strength, from, to };
      }
    }
    if (!best) return null;
    lines.push(lineThrough(best.from, best.to));
  }
  const corner = (k: number) => intersect(lines[(k + 3) % 4] as Line, lines[k] as Line);
  const snapped: Quad = [corner(0), corner(1), corner(2), corner(3)];
  return snapped.every((p) => Number.isFinite(p.x) && Number.isFinite(p.y)) ? snapped : null;
}
