// A bevelled rim's cut (refine-outline.ts).
// A card whose border is a bevelled rim (rim.ts: shading steadily darker from the cut to a sharp
// step into the body) shows two edges along a side, the rim's outer and inner: the outer is the
// cut when two other sides show the same rim (outerPastRim). With a rim inside every side's line,
// each cut is where the colour changes fastest (rimCuts: a crossing halfway to the colour further
// in lies in the shading), and the blur is read on the rim's step into the body (rimStepRise).

import { outerOf } from "./cut-bands";
import {
  EDGE_PROFILES,
  inwardTo,
  linesApart,
  MAX_BORDER_DIFFERENCE,
  profileBase,
  type SideGeometry,
  type SideReadings,
  type Trace,
  traced,
} from "./cut-profiles";
import type { RgbSampler } from "./edges";
import { type Line, median, type Point } from "./geometry";
import { colourDistance as distance, luma, medianColour } from "./image";
import { rimLow, rimReach } from "./rim";

/**
 * The cuts of a card with a bevelled rim (rim.ts) read inward from every side's line (`lines`):
 * on each profile, where the colour changes fastest within RIM_CUT_REACH px of the line (inward
 * no further than halfway to the rim's darkest: past it lies the body's step, a larger change),
 * to a fraction of a pixel. A rim shades on from its lightest at the cut, so the card's colour
 * past the step has no level: a crossing halfway to the colour further in lies in the shading,
 * 0.9 px inside the cut on a card drawn at 6 px per mm and up to 0.2 mm on drawn photos (2
 * centering points on a 1.8 mm rim); the fastest change is the step itself. Each side's line
 * through those points must trace it (MIN_EDGE_COVERAGE within 1.5 px) and lie within the reach
 * of the line it replaces; outside a side read past a dark band (`pastDarkBand`), no further
 * than PAST_BAND_REACH. Null when a side shows no rim, or one is not so traced.
 */
const RIM_CUT_REACH = 3;

/**
 * How far outside a side read past a dark band (the card's dark edge beside its face) the rim's
 * cut is looked for (px): not back across the band, whose step out into the table is the larger
 * change (a drawn rim card with a 0.3 mm dark edge band along two cuts was measured to the band's
 * outer edge, 3–5 points off, stop 79).
 */
const PAST_BAND_REACH = 1;

export function rimCuts(
  colourAt: RgbSampler,
  sides: SideGeometry[],
  lines: Line[],
  pxPerMm: number,
  blurPx: number,
  pastDarkBand: readonly boolean[] = [],
): Line[] | null {
  const cuts: Line[] = [];
  for (const [k, side] of sides.entries()) {
    const line = lines[k] as Line;
    const rim = rimInward(colourAt, side, line, pxPerMm, blurPx / pxPerMm);
    if (!rim) return null;
    const inward = Math.min(RIM_CUT_REACH, Math.max(1, rim.low / 2));
    const cut = fastestChange(colourAt, side, line, inward, pastDarkBand[k] ? PAST_BAND_REACH : RIM_CUT_REACH);
    if (!cut) return null;
    cuts.push(cut.line);
  }
  return cuts;
}

/**
 * The line along a side where the colour changes fastest on each profile (0.5 px samples, the
 * change across 1 px, its peak to a fraction of a pixel by a parabola), from `outward` px
 * outside `line` to `inward` px inside it; null when those points trace no line
 * (MIN_EDGE_COVERAGE within 1.5 px) or it lies further than RIM_CUT_REACH from `line`.
 */
function fastestChange(
  colourAt: RgbSampler,
  side: SideGeometry,
  line: Line,
  inward: number,
  outward = RIM_CUT_REACH,
): Trace | null {
  const pixel = new Float64Array(3);
  const points: Point[] = [];
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(side.p, side.q, s);
    const start = inwardTo(side, line, base);
    const colours: number[][] = [];
    for (let d = -outward - 1; d <= inward + 1; d += 0.5) {
      colourAt(base.x + side.nx * (start + d), base.y + side.ny * (start + d), pixel);
      colours.push([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0]);
    }
    // The change across each sample (its neighbours 1 px apart), and where it is largest.
    const change = (i: number) => distance(colours[i + 1] as number[], colours[i - 1] as number[]);
    let best = 1;
    for (let i = 2; i < colours.length - 1; i++) if (change(i) > change(best)) best = i;
    if (best < 2 || best > colours.length - 3) continue;
    const [a, b, c] = [change(best - 1), change(best), change(best + 1)];
    const offset = a - 2 * b + c < 0 ? (0.5 * (a - c)) / (a - 2 * b + c) : 0;
    const d = -outward - 1 + (best + offset) * 0.5;
    points.push({ x: base.x + side.nx * (start + d), y: base.y + side.ny * (start + d) });
  }
  const cut = traced(points);
  return cut && linesApart(side, cut.line, line) <= RIM_CUT_REACH ? cut : null;
}

/**
 * The blur of a card with a bevelled rim (rim.ts) on all four sides (read inward from `lines`, the
 * sides taken): the median 10–90 % rise of the step from each rim's darkest into the body, on each
 * side's EDGE_PROFILES profiles (0.5 px apart), where it rises by at least RIM_STEP_MIN_RISE. On
 * the card's side of its cut a rim shades over its whole width, which read as the cut's rise would
 * be a blur of a millimetre or more; the printed step into the body is as sharp as the cut, and
 * the lens blurs both alike. Null when a side shows no rim, or fewer than half the profiles a step.
 */
const RIM_STEP_MIN_RISE = 30;

export function rimStepRise(
  colourAt: RgbSampler,
  sides: SideGeometry[],
  lines: Line[],
  pxPerMm: number,
  blurPx: number,
): number | null {
  const rises: number[] = [];
  const pixel = new Float64Array(3);
  let profiles = 0;
  for (const [k, side] of sides.entries()) {
    const cut = lines[k] as Line;
    const rim = rimInward(colourAt, side, cut, pxPerMm, blurPx / pxPerMm);
    if (!rim) return null;
    const from = rim.low - 3;
    const to = rim.low + 3 + Math.ceil(blurPx) + 3;
    for (let s = 0; s < EDGE_PROFILES; s++) {
      profiles++;
      const base = profileBase(side.p, side.q, s);
      const start = inwardTo(side, cut, base);
      const lumas: number[] = [];
      for (let d = from; d <= to; d += 0.5) {
        colourAt(base.x + side.nx * (start + d), base.y + side.ny * (start + d), pixel);
        lumas.push(luma(pixel));
      }
      let lowAt = 0;
      for (let i = 1; i < lumas.length / 2; i++) if ((lumas[i] ?? 0) < (lumas[lowAt] ?? 0)) lowAt = i;
      const lo = lumas[lowAt] ?? 0;
      const hi = Math.max(...lumas.slice(lowAt));
      if (hi - lo < RIM_STEP_MIN_RISE) continue;
      const crossing = (level: number) => {
        for (let i = lowAt + 1; i < lumas.length; i++) {
          const a = lumas[i - 1] ?? 0;
          const b = lumas[i] ?? 0;
          if (a < level && b >= level) return i - 1 + (level - a) / (b - a);
        }
        return null;
      };
      const low10 = crossing(lo + 0.1 * (hi - lo));
      const high90 = crossing(lo + 0.9 * (hi - lo));
      if (low10 !== null && high90 !== null) rises.push((high90 - low10) / 2);
    }
  }
  return rises.length >= profiles / 2 ? median(rises) : null;
}

/**
 * The cut of a side whose two readings found two edges, when the band between them is the card's
 * bevelled rim (rim.ts): the cut is read where the colour changes fastest about the outer edge
 * (fastestChange), and from there inward the side's median luma profile is a rim's, darkest where
 * the inner edge lies (the body's step: at most 1 px past the rim's darkest, and at most
 * RIM_INNER_SLACK of the band short of it); two other sides show the same rim inward from their
 * outer edge (its colours at the cut and at its darkest within MAX_BORDER_DIFFERENCE of this
 * one's): a card's rim runs all round it, a shadow cast down and to one side lies along two. The
 * rim's outer colour must stand MIN_RIM_STEP from the table's (the cut is a step out of the table,
 * not a shadow's soft edge). `pxPerMm`: the card's scale; `blurPx`: the edges' rise. Null otherwise.
 */
const RIM_INNER_SLACK = 0.3;

const MIN_RIM_STEP = 30;

export function outerPastRim(
  colourAt: RgbSampler,
  side: SideReadings,
  sides: SideReadings[],
  pxPerMm: number,
  blurPx: number,
): Trace | null {
  if (!side.crossings || !side.median || !side.table) return null;
  const depth = (line: Line) => (inwardTo(side, line, side.p) + inwardTo(side, line, side.q)) / 2;
  const [outer, inner] =
    depth(side.crossings.line) < depth(side.median.line)
      ? [side.crossings, side.median]
      : [side.median, side.crossings];
  // The cut read where the colour changes fastest about the outer line (fastestChange): read
  // halfway to the colour further in, the outer line lies in the rim's shading.
  const cut = fastestChange(colourAt, side, outer.line, (depth(inner.line) - depth(outer.line)) / 2);
  if (!cut) return null;
  const here = rimInward(colourAt, side, cut.line, pxPerMm, blurPx / pxPerMm);
  if (!here) return null;
  const band = depth(inner.line) - depth(cut.line);
  if (here.low > band + 1 || here.low < band - Math.max(3, RIM_INNER_SLACK * band)) return null;
  if (distance(here.outer, side.table) < MIN_RIM_STEP) return null;
  const alike = sides.filter((other) => {
    if (other === side) return false;
    const outerThere = outerOf(other, other.crossings, other.median);
    const otherCut = outerThere && fastestChange(colourAt, other, outerThere.line, RIM_CUT_REACH);
    const there = otherCut ? rimInward(colourAt, other, otherCut.line, pxPerMm, blurPx / pxPerMm) : null;
    return (
      there !== null &&
      distance(there.outer, here.outer) <= MAX_BORDER_DIFFERENCE &&
      distance(there.darkest, here.darkest) <= MAX_BORDER_DIFFERENCE
    );
  }).length;
  return alike >= 2 ? cut : null;
}

/**
 * A bevelled rim read inward from `cut` along a side (its median luma profile over the middle
 * 60 %, one pixel apart; rim.ts): where it is darkest (px from the cut), its colour there and at
 * the cut (0.35–0.75 mm in); null when the profile is no rim's.
 */
function rimInward(
  colourAt: RgbSampler,
  side: SideGeometry,
  cut: Line,
  pxPerMm: number,
  blurMm: number,
): { low: number; outer: number[]; darkest: number[] } | null {
  const reach = rimReach(pxPerMm, blurMm);
  const pixel = new Float64Array(3);
  const rows: number[][][] = [];
  for (let t = 0.2; t <= 0.8 + 1e-9; t += 0.01) {
    const at = { x: side.p.x + (side.q.x - side.p.x) * t, y: side.p.y + (side.q.y - side.p.y) * t };
    const from = inwardTo(side, cut, at);
    const row: number[][] = [];
    for (let d = 0; d < reach; d++) {
      colourAt(at.x + side.nx * (from + d), at.y + side.ny * (from + d), pixel);
      row.push([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0]);
    }
    rows.push(row);
  }
  const colourAtDepth = (d: number) => medianColour(rows.map((row) => row[d] as number[])) ?? [0, 0, 0];
  const lumas = Array.from({ length: reach }, (_, d) => median(rows.map((row) => luma(row[d] as number[]))));
  const low = rimLow(lumas, pxPerMm, blurMm);
  if (low === null) return null;
  const near = Array.from({ length: Math.max(1, Math.round(0.75 * pxPerMm) - Math.round(0.35 * pxPerMm)) }, (_, i) =>
    colourAtDepth(Math.round(0.35 * pxPerMm) + i),
  );
  return { low, outer: medianColour(near) ?? [0, 0, 0], darkest: colourAtDepth(low) };
}
