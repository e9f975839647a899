// A cut that bows (refine-outline.ts): a card not lying flat, or a lens bending its edge, shows a
// side as a shallow curve, which a straight line would cut across. The curve is taken when it
// holds clearly more of the side's crossings than a line does and bows no more than a card does.

import { EDGE_PROFILES, MIN_CLEAN_CUT, type Trace, traced } from "./cut-profiles";
import { fitParabola, lineThrough, type Point } from "./geometry";

/** A bow's parabola spans the profiles' share of its side (profileBase: 0.1–0.9). */
export const BOW_SPAN = 0.8;

/**
 * An edge bowed rather than straight: at least MIN_BOW_PX from its chord at the middle, with
 * MIN_BOW_SHARE of the side's profiles within 1.5 px of the parabola fitted across it. A creased
 * baseball card's top edge, untraced as a line, lay on such a parabola at all 120 profiles (bowed
 * 10 px over 980), and a card held in a hand at 113; an edge traced on pieces of print where a
 * silver border meets white paper only at 67, and no other untraced side of the real photos at
 * more than 63.
 */
const MIN_BOW_PX = 2;

const MIN_BOW_SHARE = 0.8;

/**
 * A parabola across a side (from `p` to `q`) through its edge points: `along` (t, from the side's
 * middle) and `across` (n, along (-uy, ux)) for each point, the curve n(t), how many points lie
 * within 1.5 px of it, and the side's length and direction. Null for too few points.
 */
function sideParabola(points: Point[], p: Point, q: Point) {
  if (points.length < EDGE_PROFILES * MIN_BOW_SHARE) return null;
  const length = Math.hypot(q.x - p.x, q.y - p.y);
  const ux = (q.x - p.x) / length;
  const uy = (q.y - p.y) / length;
  const along = points.map((point) => (point.x - p.x) * ux + (point.y - p.y) * uy - length / 2);
  const across = points.map((point) => (point.y - p.y) * ux - (point.x - p.x) * uy);
  const parabola = fitParabola(along, across);
  if (!parabola) return null;
  const { a, b, c } = parabola;
  const curve = (t: number) => a * t * t + b * t + c;
  let close = 0;
  for (const [i, t] of along.entries()) if (Math.abs((across[i] ?? 0) - curve(t)) <= 1.5) close++;
  return { along, across, a, curve, close, length, ux, uy };
}

/**
 * How far (px) a side's edge points bow from a straight line, when a parabola across the side
 * (from `p` to `q`) holds them where no line does: its sagitta over the side's length, or null.
 */
export function bowOf(points: Point[], p: Point, q: Point): number | null {
  const fit = sideParabola(points, p, q);
  if (!fit) return null;
  const bow = Math.abs(fit.a) * (fit.length / 2) ** 2;
  return fit.close >= EDGE_PROFILES * MIN_BOW_SHARE && bow >= MIN_BOW_PX ? bow : null;
}

/**
 * The most a side's cut may bow out past its chord and still be measured from its curve
 * (bowedCut), as a share of the side's length. A real photo of a creased baseball card on dark
 * cloth bows out on three sides, its top 10 px over 980 (1.0 %): each border read from the cut
 * beside it, scan line by scan line, then varies by 0.1 mm along the side (the printed frame,
 * 3 mm further in, bows 0.6 times as much).
 */
const MAX_BOW_SHARE = 0.015;

/** The curve must hold this share of the side's profiles more than a line does. */
const MIN_BOW_GAIN = 0.1;

/**
 * A side whose edge points (`points`, from `p` to `q`; `nx`, `ny` the side's inward normal) lie
 * on a parabola that bows out past its chord (toward the table) by at least MIN_BOW_PX and at most
 * MAX_BOW_SHARE of its length, with MIN_BOW_SHARE of the profiles within 1.5 px of it (bowOf's
 * test) and MIN_BOW_GAIN of them more than any line holds, which must not trace the side cleanly:
 * the card does not lie flat, or the lens bends its edge. The side's line is then the
 * chord through the curve at the side's ends (where the corners lie), its points the edge points
 * moved onto the chord by the curve's offset (so that their scatter about the line is the
 * curve's), and `share` the bow at the middle over the side's length. The borders on such a side
 * are read from the curve (frame.ts, `bow`). A side bowing in is not taken: the flat card would
 * hold the table along it, where the wear readings would see missing material.
 */
export function bowedCut(
  points: Point[],
  p: Point,
  q: Point,
  nx: number,
  ny: number,
): { trace: Trace; share: number } | null {
  const fit = sideParabola(points, p, q);
  if (!fit) return null;
  const { along, across, curve, close, length, ux, uy } = fit;
  // `across` runs along (-uy, ux); `sign` turns it inward. Out past the chord at the middle: the
  // curve's value there lies outward of the ends' mean.
  const sign = nx * -uy + ny * ux >= 0 ? 1 : -1;
  const outward = sign * fit.a * (length / 2) ** 2;
  if (close < EDGE_PROFILES * MIN_BOW_SHARE || outward < MIN_BOW_PX || outward > MAX_BOW_SHARE * length) return null;
  // A line must not do as well: a side traced cleanly as one (MIN_CLEAN_CUT), or holding nearly as
  // many points as the curve (a dark band along part of a cut splits the crossings between its
  // outer edge and the cut, which a parabola may pass between), is no bow.
  const straight = traced(points);
  const onLine = straight ? straight.close.length : 0;
  if (onLine >= MIN_CLEAN_CUT * EDGE_PROFILES || close < onLine + MIN_BOW_GAIN * EDGE_PROFILES) return null;
  const at = (t: number, n: number): Point => ({
    x: p.x + ux * (t + length / 2) - uy * n,
    y: p.y + uy * (t + length / 2) + ux * n,
  });
  const line = lineThrough(at(-length / 2, curve(-length / 2)), at(length / 2, curve(length / 2)));
  const chord = (t: number) =>
    curve(-length / 2) + ((t + length / 2) / length) * (curve(length / 2) - curve(-length / 2));
  const close2: Point[] = [];
  for (const [i, t] of along.entries()) {
    const off = (across[i] ?? 0) - curve(t);
    if (Math.abs(off) <= 1.5) close2.push(at(t, chord(t) + off));
  }
  return { trace: { line, close: close2 }, share: outward / length };
}
