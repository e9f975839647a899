// A side of the outline on the edge of the card's inner panel instead of its cut. A white border
// on a light table barely stands out, while the edge between that border and a dark panel inside
// it is strong, so an outline can take the cut on three sides and the panel's edge on the fourth
// (a card 1.35 or 1.42 times as tall as wide, no format), the cut on one side and the panel's
// edge on three, or the panel's edge all round. Such a side shows it: just outside it lies the
// colour that another side shows just inside it with the table, of another colour, outside (the
// border), or that lies just outside all four, and just inside it another colour. A side that is
// itself such a cut stays. The cut is then where that border colour ends, further out along the
// side: found on most profiles at one depth, at least a border's width (1 mm) out, it replaces
// the side. Whether every side was moved on the colour of sides on the cut (not on the colour
// found outside all four) is reported: find-card.ts asks less of such an outline.
// A side whose border's colour runs on past the photo's edge, once that colour is shown to be a
// border (by a side on the cut, or by the colour ending at one depth along half a side), has the
// card's cut outside the photo: the photo is refused (a scan cropped into the card's border).
// And an outline on the panel's edge all round where no side moved is read once more for a cut
// too faint for that (faintCutOutside): a cream border on off-white paper, 16–20 levels apart.
import { fitLine, intersect, type Line, lineThrough, outwardSide, type Point, type Quad } from "./geometry";
import { colourDistance as distance, luma, medianColour, type Rgb, type RgbaImage } from "./image";

/** Colours within this RGB distance are the same (the border's on two sides, JPEG and light aside). */
const SAME_COLOUR = 30;
/**
 * Two colours both darker than this (luma) are one black however far apart: a black border's
 * level is lifted where a white panel's edge blurs into it. On a real photo of a white Magic card
 * (black border, white frame) on grey wood, its border read rgb(34, 31, 29) 2–4 px outside the
 * coarse outline's top side, on the frame's edge, and rgb(6, 6, 5) and rgb(14, 12, 13) inside its
 * bottom and left sides, on the cut: 44 and 32 apart.
 */
const NEAR_BLACK_LUMA = 40;
const sameColour = (a: Rgb, b: Rgb) => distance(a, b) <= SAME_COLOUR || Math.max(luma(a), luma(b)) < NEAR_BLACK_LUMA;
/**
 * Where the border's colour ends: half way to the table's colour, or with no cut to show the
 * table's (the outline is the panel's on all four sides), this far from the border's.
 */
const ENDS_WITHOUT_TABLE = 45;
/**
 * A side is a cut when the table just outside it differs from the border just inside by at least
 * CUT_CONTRAST; by LIGHT_CUT_CONTRAST when the border is at least as bright as the table (a light
 * border on a light table). A cast shadow darkens the table beside the cut: a band of it can pass
 * for more border only where the border is darker than the table, so only there is the wider
 * margin needed. On 80 drawn photos of light borders on light tables (white, cream, light grey,
 * yellow and pale blue on beige paper, beige cloth, light wood and white paper) the 20 grades 5
 * more, cream and light grey borders 23–32 levels from beige, within 0.13 points, and no other
 * outcome changes. Applied to dark borders too, it graded a black border on dark cloth, 36 levels
 * apart, 9.1 and 6.4 points off: the card's shadow along two sides read as more border.
 */
const CUT_CONTRAST = 2 * SAME_COLOUR;
const LIGHT_CUT_CONTRAST = 20;
const isCut = (border: Rgb, table: Rgb) =>
  distance(table, border) >= (luma(border) >= luma(table) ? LIGHT_CUT_CONTRAST : CUT_CONTRAST);
/** A side's inside differs from the border by at least this much when the side is a panel's edge. */
const PANEL_CONTRAST = 60;
/** The border is looked for up to this share of the outline's shorter side outward (5 mm of 63). */
const MAX_BORDER_SHARE = 0.08;
/** Share of the profiles along the side that must find the border's end. */
const MIN_FOUND = 0.6;
/**
 * Share of a side's profiles on which the border's colour ending at one depth shows it to be a
 * border, not the table, when no side is on the cut: then a side whose profiles run past the
 * photo's edge in that colour has its cut outside the photo.
 */
const MIN_BAND = 0.5;
/** …at depths within this many pixels of the depth most of them share. */
const MAX_SCATTER = 1.5;
const PROFILES = 30;
/**
 * A faint cut outside an outline on the panel's edge all round (faintCutOutside): the median
 * colour of a side's profiles stepping by FAINT_STEP across FAINT_SPAN px either side of one
 * depth, FAINT_CONTRAST times its typical step along them, and the step one straight edge on the
 * profiles one by one, on MIN_FAINT_SIDES sides. Over the drawn sets, on three sides and
 * without the profile-by-profile edge, a photographed table's texture (grass, gravel, cloth)
 * passed for it on more than a dozen graded cards.
 */
const FAINT_STEP = 12;
const FAINT_SPAN = 2;
const FAINT_WINDOW = 3;
const FAINT_CONTRAST = 3;
const MIN_FAINT_SIDES = 4;
/** The faint step is looked for this many times as far out as a border is (8 mm): the table past it must show. */
const FAINT_REACH = 1.6;
/** The narrowest border a moved side must show (mm), and the card's short side (mm). */
const MIN_BORDER_MM = 1;
const CARD_SHORT_MM = 63;

/**
 * The outline with each side that lies on a panel's edge moved out to the cut, or null when no
 * side does (or where the border ends cannot be found along it).
 */
export function sidesToCut(
  image: RgbaImage,
  quad: Quad,
): { quad: Quad; fromCuts: boolean } | { runsOffPhoto: true } | null {
  const { colourAt, sides, reach, minDepth } = readSides(image, quad);
  const lines: Line[] = sides.map((s) => lineThrough(s.p, s.q));
  // A side on the cut: the border's colour just inside it, the table (of another colour) just
  // outside, and that border colour just outside some other side (a panel's edge). It stays.
  const onCut = sides.map(
    (side, k) =>
      side.inside !== null &&
      side.outside !== null &&
      isCut(side.inside, side.outside) &&
      sides.some(
        (o, j) =>
          j !== k &&
          o.outside !== null &&
          o.inside !== null &&
          sameColour(o.outside, side.inside as Rgb) &&
          distance(o.inside, o.outside) >= PANEL_CONTRAST,
      ),
  );
  let moved = false;
  let allRound = false;
  // The border shown to be one: by sides on the cut, or by a band of its colour ending at one
  // depth along half a side's profiles. And a side whose border colour runs past the photo's edge.
  let borderShown = false;
  let runsOff = false;
  for (const [k, side] of sides.entries()) {
    if (!side.inside || !side.outside || onCut[k]) continue;
    const outside = side.outside;
    // The cuts: other sides with the border's colour (this side's outside) just inside them and
    // the table, of another colour, just outside.
    const cuts = sides.filter(
      (o, j) =>
        j !== k &&
        o.inside !== null &&
        o.outside !== null &&
        sameColour(o.inside, outside) &&
        isCut(o.inside, o.outside),
    );
    let border: Rgb;
    let limit: number;
    const onAllRound = cuts.length === 0;
    if (cuts.length >= 1) {
      border = medianColour(cuts.map((o) => o.inside as Rgb)) as Rgb;
      const table = medianColour(cuts.map((o) => o.outside as Rgb)) as Rgb;
      limit = Math.max(SAME_COLOUR, distance(border, table) / 2);
    } else if (
      // No side on the cut: the outline is the panel's all round when the same colour lies just
      // outside all four sides, and another just inside each.
      panelAllRound(sides, outside)
    ) {
      border = medianColour(sides.map((o) => o.outside as Rgb)) as Rgb;
      limit = ENDS_WITHOUT_TABLE;
    } else continue;
    if (distance(side.inside, border) < PANEL_CONTRAST) continue;
    if (!onAllRound) borderShown = true;
    // Where the border's colour ends on each profile, outward from the side.
    const ends: { point: Point; depth: number }[] = [];
    let offPhoto = 0;
    for (let s = 0; s < PROFILES; s++) {
      // From 2 px out, past the blur of the panel's edge (the outside strip starts there too).
      for (let d = 2; d <= reach; d++) {
        const at = profilePoint(side, s, d);
        const c = colourAt(at.x, at.y);
        if (!c) {
          offPhoto++;
          break;
        }
        if (distance(c, border) > limit) {
          const depth = d - 0.5;
          ends.push({ point: profilePoint(side, s, depth), depth });
          break;
        }
      }
    }
    // The depth most profiles share (the border's width), and a line through those profiles.
    const depths = ends.map((e) => e.depth).sort((a, b) => a - b);
    const typical = depths[depths.length >> 1] ?? 0;
    const agreeing = ends.filter((e) => Math.abs(e.depth - typical) <= MAX_SCATTER).map((e) => e.point);
    if (offPhoto >= MIN_FOUND * PROFILES) runsOff = true;
    if (agreeing.length >= MIN_BAND * PROFILES && typical >= minDepth) borderShown = true;
    // A side moves a border's width at least (MIN_BORDER_MM), not onto a shadow or a blur beside it.
    if (agreeing.length < MIN_FOUND * PROFILES || typical < minDepth) continue;
    const line = fitLine(agreeing);
    if (!line) continue;
    lines[k] = line;
    moved = true;
    if (onAllRound) allRound = true;
  }
  if (runsOff && borderShown) return { runsOffPhoto: true };
  if (!moved) return null;
  return {
    quad: [0, 1, 2, 3].map((k) => intersect(lines[(k + 3) % 4] as Line, lines[k] as Line)) as Quad,
    fromCuts: !allRound,
  };
}

type ColourAt = (x: number, y: number) => Rgb | null;

/** The outline is the panel's edge all round: `colour` just outside every side, another just inside each. */
function panelAllRound(sides: OutlineSide[], colour: Rgb): boolean {
  return sides.every(
    (side) =>
      side.outside !== null &&
      side.inside !== null &&
      sameColour(side.outside, colour) &&
      distance(side.inside, colour) >= PANEL_CONTRAST,
  );
}

/** Profile `s` of a side's PROFILES (along its middle 70 %), `d` px out from it (inward when negative). */
function profilePoint(side: { p: Point; q: Point; nx: number; ny: number }, s: number, d: number): Point {
  const t = 0.15 + (0.7 * (s + 0.5)) / PROFILES;
  return {
    x: side.p.x + (side.q.x - side.p.x) * t + side.nx * d,
    y: side.p.y + (side.q.y - side.p.y) * t + side.ny * d,
  };
}

interface OutlineSide {
  p: Point;
  q: Point;
  nx: number;
  ny: number;
  length: number;
  /** Median colour 2–4 px inside the side, and 2–4 px outside it. */
  inside: Rgb | null;
  outside: Rgb | null;
}

/**
 * The outline's sides with the colours just inside and outside each; how far out a border is
 * looked for (MAX_BORDER_SHARE of the shorter side) and the least depth a cut may lie at (1 mm).
 */
function readSides(
  image: RgbaImage,
  quad: Quad,
): { colourAt: ColourAt; sides: OutlineSide[]; reach: number; minDepth: number } {
  const { width: W, height: H, data } = image;
  const colourAt: ColourAt = (x, y) => {
    const px = Math.round(x - 0.5);
    const py = Math.round(y - 0.5);
    if (px < 0 || py < 0 || px >= W || py >= H) return null;
    const i = (py * W + px) * 4;
    return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
  };
  const sides = [0, 1, 2, 3].map((k) => {
    const side = outwardSide(quad, k);
    const strip = (from: number, to: number) => {
      const colours: Rgb[] = [];
      for (let s = 0; s < PROFILES; s++) {
        for (let d = from; d <= to; d++) {
          const at = profilePoint(side, s, d);
          const c = colourAt(at.x, at.y);
          if (c) colours.push(c);
        }
      }
      return medianColour(colours);
    };
    return { ...side, inside: strip(-4, -2), outside: strip(2, 4) };
  });
  const lengthOf = (k: number) => sides[k]?.length ?? 0;
  const shortSide = Math.min((lengthOf(0) + lengthOf(2)) / 2, (lengthOf(1) + lengthOf(3)) / 2);
  return {
    colourAt,
    sides,
    reach: Math.max(6, Math.round(MAX_BORDER_SHARE * shortSide)),
    minDepth: (MIN_BORDER_MM / CARD_SHORT_MM) * shortSide,
  };
}

/**
 * True when `quad` may be the panel's edge all round with the card's cut too faint to find: one
 * colour just outside all four sides (within SAME_COLOUR), another just inside each (PANEL_CONTRAST
 * from it), and outside MIN_FAINT_SIDES of them a faint step at one depth (faintStepOutside), where
 * sidesToCut found no cut. A card on a plain table shows the first two; outside it the table runs
 * on without a step. The caller refuses the photo unless a border outside the outline is found and
 * taken some other way (outer-border.ts).
 */
export function faintCutOutside(image: RgbaImage, quad: Quad): boolean {
  const { colourAt, sides, reach, minDepth } = readSides(image, quad);
  const outside = sides[0]?.outside;
  if (!outside) return false;
  if (!panelAllRound(sides, outside)) return false;
  const faintReach = Math.round(FAINT_REACH * reach);
  return sides.filter((side) => faintStepOutside(colourAt, side, faintReach, minDepth)).length >= MIN_FAINT_SIDES;
}

/**
 * True when, outward from a side, the median colour of its profiles steps by at least FAINT_STEP
 * (and FAINT_CONTRAST times its typical step elsewhere along them) at one depth, at least
 * `minDepth` out, and the profiles one by one cross half way through that step within MAX_SCATTER
 * px of one depth (MIN_FOUND of them): a cut too faint for sidesToCut's fixed threshold (a cream
 * border on off-white paper, 16–20 levels apart). Each side of the step is the median over
 * FAINT_WINDOW depths, FAINT_SPAN px from it: a thin line of the table (a ruled line, a grain) is
 * no step, the colour on both sides of it being the same.
 */
function faintStepOutside(colourAt: ColourAt, side: OutlineSide, reach: number, minDepth: number): boolean {
  const medians: (Rgb | null)[] = [];
  for (let d = 0; d <= reach; d++) {
    const colours: Rgb[] = [];
    for (let s = 0; s < PROFILES; s++) {
      const at = profilePoint(side, s, d);
      const c = colourAt(at.x, at.y);
      if (c) colours.push(c);
    }
    medians.push(colours.length >= PROFILES / 2 ? medianColour(colours) : null);
  }
  // The colour over FAINT_WINDOW depths from `from` on: a thin line of the table in it is outvoted.
  const level = (from: number) => {
    const colours = medians.slice(from, from + FAINT_WINDOW).filter((c): c is Rgb => c !== null);
    return colours.length === FAINT_WINDOW ? medianColour(colours) : null;
  };
  const steps: { depth: number; step: number }[] = [];
  let best: { depth: number; step: number } | null = null;
  for (let d = 2 + FAINT_SPAN + FAINT_WINDOW - 1; d + FAINT_SPAN + FAINT_WINDOW - 1 <= reach; d++) {
    const before = level(d - FAINT_SPAN - FAINT_WINDOW + 1);
    const after = level(d + FAINT_SPAN);
    if (!before || !after) continue;
    const step = { depth: d, step: distance(before, after) };
    steps.push(step);
    if (d >= minDepth && step.step > (best?.step ?? 0)) best = step;
  }
  if (!best || best.step < FAINT_STEP) return false;
  // The typical step away from this one (which spreads over the windows either side of it).
  const bestDepth = best.depth;
  const elsewhere = steps
    .filter((s) => Math.abs(s.depth - bestDepth) > FAINT_SPAN + FAINT_WINDOW)
    .map((s) => s.step)
    .sort((a, b) => a - b);
  if (elsewhere.length < FAINT_WINDOW) return false;
  const typical = elsewhere[elsewhere.length >> 1] ?? 0;
  if (best.step < FAINT_CONTRAST * Math.max(1, typical)) return false;
  // Profile by profile, the step is one straight edge along the side: on most profiles the colour
  // crosses half way from the colour before it to the colour after it within MAX_SCATTER px of one
  // depth. A table's texture, whose median happens to step, crosses all over.
  const from = level(bestDepth - FAINT_SPAN - FAINT_WINDOW + 1);
  const to = level(bestDepth + FAINT_SPAN);
  if (!from || !to) return false;
  const diff: Rgb = [to[0] - from[0], to[1] - from[1], to[2] - from[2]];
  const norm2 = diff[0] * diff[0] + diff[1] * diff[1] + diff[2] * diff[2];
  const share = (c: Rgb) =>
    ((c[0] - from[0]) * diff[0] + (c[1] - from[1]) * diff[1] + (c[2] - from[2]) * diff[2]) / norm2;
  const crossings: number[] = [];
  const lo = Math.max(2, bestDepth - FAINT_SPAN - FAINT_WINDOW);
  const hi = Math.min(reach, bestDepth + FAINT_SPAN + FAINT_WINDOW);
  for (let s = 0; s < PROFILES; s++) {
    const at = (d: number) => {
      const point = profilePoint(side, s, d);
      return colourAt(point.x, point.y);
    };
    let previous = at(lo);
    for (let d = lo + 1; d <= hi && previous; d++) {
      const c = at(d);
      if (!c) break;
      const a = share(previous);
      const b = share(c);
      if (a < 0.5 && b >= 0.5) {
        crossings.push(d - 1 + (0.5 - a) / Math.max(1e-6, b - a));
        break;
      }
      previous = c;
    }
  }
  const middle = crossings.sort((a, b) => a - b)[crossings.length >> 1] ?? 0;
  return crossings.filter((d) => Math.abs(d - middle) <= MAX_SCATTER).length >= MIN_FOUND * PROFILES;
}
