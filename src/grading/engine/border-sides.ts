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
import { fitLine, intersect, type Line, lineThrough, outwardSide, type Point, type Quad } from "./geometry";
import { colourDistance as distance, luma, medianColour, type Rgb, type RgbaImage } from "./image";

/** Colours within this RGB distance are the same (the border's on two sides, JPEG and light aside). */
const SAME_COLOUR = 30;
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
  const { width: W, height: H, data } = image;
  const colourAt = (x: number, y: number): Rgb | null => {
    const px = Math.round(x - 0.5);
    const py = Math.round(y - 0.5);
    if (px < 0 || py < 0 || px >= W || py >= H) return null;
    const i = (py * W + px) * 4;
    return [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
  };
  const sides = [0, 1, 2, 3].map((k) => {
    const { p, q, length, nx, ny } = outwardSide(quad, k);
    const strip = (from: number, to: number) => {
      const colours: Rgb[] = [];
      for (let s = 0; s < PROFILES; s++) {
        const t = 0.15 + (0.7 * (s + 0.5)) / PROFILES;
        for (let d = from; d <= to; d++) {
          const c = colourAt(p.x + (q.x - p.x) * t + nx * d, p.y + (q.y - p.y) * t + ny * d);
          if (c) colours.push(c);
        }
      }
      return medianColour(colours);
    };
    return { p, q, nx, ny, length, inside: strip(-4, -2), outside: strip(2, 4) };
  });
  const lengthOf = (k: number) => sides[k]?.length ?? 0;
  const shortSide = Math.min((lengthOf(0) + lengthOf(2)) / 2, (lengthOf(1) + lengthOf(3)) / 2);
  const reach = Math.max(6, Math.round(MAX_BORDER_SHARE * shortSide));
  const minDepth = (MIN_BORDER_MM / CARD_SHORT_MM) * shortSide;
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
          distance(o.outside, side.inside as Rgb) <= SAME_COLOUR &&
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
        distance(o.inside, outside) <= SAME_COLOUR &&
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
      sides.every(
        (o) =>
          o.outside !== null &&
          o.inside !== null &&
          distance(o.outside, outside) <= SAME_COLOUR &&
          distance(o.inside, outside) >= PANEL_CONTRAST,
      )
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
      const t = 0.15 + (0.7 * (s + 0.5)) / PROFILES;
      const bx = side.p.x + (side.q.x - side.p.x) * t;
      const by = side.p.y + (side.q.y - side.p.y) * t;
      // From 2 px out, past the blur of the panel's edge (the outside strip starts there too).
      for (let d = 2; d <= reach; d++) {
        const c = colourAt(bx + side.nx * d, by + side.ny * d);
        if (!c) {
          offPhoto++;
          break;
        }
        if (distance(c, border) > limit) {
          const depth = d - 0.5;
          ends.push({ point: { x: bx + side.nx * depth, y: by + side.ny * depth }, depth });
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
