// How two outlines found in one photo relate (find-card.ts, step 3): the sides they share, a side
// swung from one edge to another, a border running round part of another outline, print lying
// inside it, a ring of the card's border round an inner outline (addsBorder), and a border ring
// all round an outline (borderRingAllRound).
import { boxOverlap, contains, crosswise, dist, type Line, lineThrough, type Point, type Quad } from "./geometry";
import { colourDistance, luma, medianColour, oneBorderInk, type RgbaImage } from "./image";
import type { Hypothesis } from "./quad-hypotheses";

/**
 * Two outlines share a side when the outer one's ends lie within this many coarse pixels of the
 * inner one's side, and have different sides when both ends lie at least DISTINCT_SIDE_PX apart
 * (closer, they are one edge placed twice, or a thin border's cut and its art).
 */
export const SHARED_SIDE_PX = 2;

const DISTINCT_SIDE_PX = 5;

/**
 * What an outline adds beside one it shares two sides with is the card's border (addsBorder) when
 * its colour is within this RGB distance of the colour just inside the shared sides.
 */
const MAX_RING_BORDER_DIFFERENCE = 40;

/**
 * ...and it differs from the table by more than MAX_RING_BORDER_DIFFERENCE, or, at least
 * MIN_NEARER_RING_LUMA light, by more than MIN_RING_TABLE_DIFFERENCE and RING_NEARER_BORDER times
 * as much as from the border: nearer the border's colour than the table's by that much, it is the
 * border. A real photo of a silver border on off-white paper: the border added 8 from the
 * border's colour and 31–39 from the table's; the card's own outline, around its sides closed by
 * its art box's top, was set aside as lines of the table closing the card, and the art box's
 * outline was refined as the card. In the dark a shadow is as near a black border's colour as the
 * border is to the cloth it lies on (drawn, a black border on dark cloth, its shadow taken in as
 * border on two sides, was graded 6–9 points off), so only a ring light enough to show the
 * difference is read so.
 */
const MIN_RING_TABLE_DIFFERENCE = 20;

const RING_NEARER_BORDER = 2;

const MIN_NEARER_RING_LUMA = 80;

/** addsBorder reads the table this many coarse pixels outside the outer outline's added sides. */
const TABLE_BEYOND_PX = 3;

/** The lines through a quadrilateral's sides, side k from corner k to corner k + 1. */
export const sidesOf = (quad: Quad): Line[] =>
  [0, 1, 2, 3].map((k) => lineThrough(quad[k] as Point, quad[(k + 1) % 4] as Point));

/** How far the two ends of `outer`'s side k lie from the line of an inner outline's side k (`innerSides`, sidesOf). */
function endsOff(outer: Quad, innerSides: Line[], k: number): [number, number] {
  const side = innerSides[k] as Line;
  const off = (p: Point) => Math.abs(side.a * p.x + side.b * p.y - side.c);
  return [off(outer[k] as Point), off(outer[(k + 1) % 4] as Point)];
}

/**
 * The side of `outer` swung off `inner`'s: the other three lie on the inner's sides (within
 * SHARED_SIDE_PX at both ends), and this one meets the inner's at one end and lies at least
 * DISTINCT_SIDE_PX off it at the other. Such an outline is the inner one with a side on another
 * line crossing the corner (a table's seam, a line of print), not something around it: a holder's
 * or a sleeve's walls run beside the card's cut. Null when no side is swung so.
 */
export function swungSide(outer: Quad, inner: Quad): number | null {
  const sides = sidesOf(inner);
  let shared = 0;
  let swung: number | null = null;
  for (let k = 0; k < 4; k++) {
    const ends = endsOff(outer, sides, k);
    const onIt = ends.filter((d) => d <= SHARED_SIDE_PX).length;
    if (onIt === 2) shared++;
    else if (onIt === 1 && Math.max(...ends) >= DISTINCT_SIDE_PX) swung = k;
  }
  return shared === 3 ? swung : null;
}

/**
 * True when `outer` is `inner` with one side swung off onto a weaker line (swungSide): it does not
 * swallow it. A Yu-Gi-Oh! card drawn on bricks was swallowed by its own outline with the left side
 * on a joint that crossed the cut at the bottom corner (strength 2.6 there, the cut's 4.4), and
 * refused for the joints' outlines around it; swung onto a stronger line (a real card's top on its
 * cut, the inner outline's on a slanting line of the print) the outer one still swallows.
 */
export function swungOntoWeaker(
  outer: Pick<Hypothesis, "quad" | "sideStrengths">,
  inner: Pick<Hypothesis, "quad" | "sideStrengths">,
): boolean {
  const k = swungSide(outer.quad, inner.quad);
  if (k === null) return false;
  return (outer.sideStrengths[k] ?? 0) < (inner.sideStrengths[k] ?? 0);
}

/**
 * How `outer` shares sides with an inner outline (`innerSides`, sidesOf): "two" when two opposite
 * sides lie on the inner's (within SHARED_SIDE_PX at both ends) and the other two at least
 * DISTINCT_SIDE_PX outside them at both ends (the card's top and bottom, or sides, closed by two
 * lines of the table); "three" when one of those two lies on the inner's too (one side closed by
 * a line); otherwise null.
 */
export function sidesShared(outer: Quad, innerSides: Line[]): "two" | "three" | null {
  return sharedSides(outer, innerSides)?.kind ?? null;
}

/**
 * True when `outer` lies on two opposite sides of the inner outline (within SHARED_SIDE_PX at both
 * ends), whatever its other two sides do: no holder does, its rim surrounding the card on every side.
 * (sidesShared asks more: each other side on the inner's or clear of it at both ends. A joint of a
 * brick table crossing a white back's corner, 1 and 16 px off its cut at the ends, with another
 * joint 100 px past its far side, closed an outline 1.74 times as wide as tall on the card's long
 * sides that sidesShared did not count, so the table round the card was read strictly, the bricks
 * past the joints as no table, and the outline swallowed the card: refused as a holder's shape.)
 */
export function sharesOppositeSides(outer: Quad, innerSides: Line[]): boolean {
  const shared = (k: number) => endsOff(outer, innerSides, k).every((d) => d <= SHARED_SIDE_PX);
  return (shared(0) && shared(2)) || (shared(1) && shared(3));
}

/** sidesShared, with which of the outer outline's sides lie on the inner's and which lie outside them. */
export function sharedSides(
  outer: Quad,
  innerSides: Line[],
): { kind: "two" | "three"; shared: number[]; outside: number[] } | null {
  const shared = (k: number) => endsOff(outer, innerSides, k).every((d) => d <= SHARED_SIDE_PX);
  const distinct = (k: number) => endsOff(outer, innerSides, k).every((d) => d >= DISTINCT_SIDE_PX);
  for (const [a, b, c, d] of [
    [0, 2, 1, 3],
    [1, 3, 0, 2],
  ] as const) {
    if (!shared(a) || !shared(b)) continue;
    if (distinct(c) && distinct(d)) return { kind: "two", shared: [a, b], outside: [c, d] };
    if (distinct(c) && shared(d)) return { kind: "three", shared: [a, b, d], outside: [c] };
    if (shared(c) && distinct(d)) return { kind: "three", shared: [a, b, c], outside: [d] };
  }
  return null;
}

/** A card's border is at most this share of its width (6.3 mm on a standard card). */
const MAX_BORDER_SHARE = 0.1;

/**
 * True when `outer` lies on some of `inner`'s sides (within SHARED_SIDE_PX at both ends) and at
 * least DISTINCT_SIDE_PX outside each of the others, no further than a border's width
 * (MAX_BORDER_SHARE of `outer`'s shorter side; a slab's window round the card inside it lies
 * further), and what it adds beside those is the colour just inside the shared ones, not the
 * table's (addsBorder): `inner` is part of the card inside its border, some of its sides on the
 * card's cut and the others on its art's edge.
 */
export function borderRoundPart(coarse: RgbaImage, outer: Quad, inner: Quad, table: readonly number[]): boolean {
  const innerSides = sidesOf(inner);
  const widest = MAX_BORDER_SHARE * Math.min(dist(outer[0], outer[1]), dist(outer[1], outer[2]));
  const shared: number[] = [];
  const outside: number[] = [];
  for (let k = 0; k < 4; k++) {
    const ends = endsOff(outer, innerSides, k);
    if (ends.every((d) => d <= SHARED_SIDE_PX)) shared.push(k);
    else if (ends.every((d) => d >= DISTINCT_SIDE_PX && d <= widest)) outside.push(k);
    else return false;
  }
  return shared.length > 0 && outside.length > 0 && addsBorder(coarse, outer, inner, { shared, outside }, table);
}

/**
 * HOLDER_SHARES_NO_SIDE: true when a side of `outer` lies on the same side of `inner` (both its
 * ends within SHARED_SIDE_PX of that side's line), leaving out sides with an end within
 * PHOTO_EDGE_PX of the photo's edge (`width` × `height`), where the photo cuts off whatever lies
 * there. Of the raw cards drawn on seeds 2020–9090, 1111 and 2222 and refused as "a graded-card
 * holder" (8 of 350 modern layouts, 11 of 350 bevelled rims, on lawns, gravel and bricks), 13 were
 * such outlines (a side on the text panel's edge, the art box's or the rim's inner step), and 5 of
 * those are now graded within 0.07 points; the other 8 are refused for what their outline lacks.
 * Of the 12 real photos of slabs, toploaders and cases none is graded; one, a slab cut off by the
 * photo's bottom edge, shares that side with the outline inside it and is a holder still (without
 * the photo's edge left out it was refused for two edges).
 */
const PHOTO_EDGE_PX = 3;

export function sharesASide(outer: Quad, inner: Quad, width: number, height: number): boolean {
  const inPhoto = (p: Point) =>
    p.x > PHOTO_EDGE_PX && p.y > PHOTO_EDGE_PX && p.x < width - PHOTO_EDGE_PX && p.y < height - PHOTO_EDGE_PX;
  return sidesOf(inner).some((side, k) =>
    [outer[k] as Point, outer[(k + 1) % 4] as Point].every(
      (p) => inPhoto(p) && Math.abs(side.a * p.x + side.b * p.y - side.c) <= SHARED_SIDE_PX,
    ),
  );
}

/**
 * True when `inner` lies crosswise inside `outer` (geometry.ts, crosswise), at least
 * DISTINCT_SIDE_PX clear of each of its sides: part of a card's print (a panel, a text box, half
 * the card below its art), not a card. Two cards side by side, which an outline round both holds
 * crosswise, share three of its sides.
 */
export function printLyingInside(outer: Quad, inner: Quad): boolean {
  // A negative tolerance: every corner at least that far inside every side.
  return crosswise(outer, inner) && contains(outer, inner, -DISTINCT_SIDE_PX);
}

/**
 * True when what `outer` adds outside the sides it does not share with `inner` (sharedSides) is
 * the colour just inside the sides they share: the card's border running on round the card, the
 * inner outline being the card's own sides closed by lines of its print (a panel's, a text
 * box's), not table beyond the card's cut. Read on the coarse copy along the middle 60 % of the
 * sides: the colour 2 px inside each shared side against the colour midway between the two
 * outlines' other sides, each a median; the latter must also stand apart from the table's colour
 * over the photo (`table`) or from the table's just outside those sides (TABLE_BEYOND_PX out):
 * further than MAX_RING_BORDER_DIFFERENCE, or far nearer the border's than the table's
 * (MIN_NEARER_RING_LUMA, MIN_RING_TABLE_DIFFERENCE, RING_NEARER_BORDER).
 */
export function addsBorder(
  coarse: RgbaImage,
  outer: Quad,
  inner: Quad,
  sides: { shared: number[]; outside: number[] },
  table: readonly number[],
): boolean {
  const { border, added, tableBeyond } = ringColours(coarse, outer, inner, sides);
  // A border of nearly the table's colour (a black one on a dark cloth) is not told from table,
  // or from the card's shadow on it, this way. The table is read twice, its colour over the photo
  // and just outside the outer outline: light falling off across a white table leaves a silver
  // border, which mirrors the table, as light as the table's far end, yet darker than beside it.
  const fromTable = (colour: readonly number[] | null) => {
    if (colour === null || added === null || border === null) return false;
    const off = colourDistance(added, colour);
    return (
      off > MAX_RING_BORDER_DIFFERENCE ||
      (luma(added) >= MIN_NEARER_RING_LUMA &&
        off > MIN_RING_TABLE_DIFFERENCE &&
        off > RING_NEARER_BORDER * colourDistance(added, border))
    );
  };
  return (
    border !== null &&
    added !== null &&
    colourDistance(border, added) <= MAX_RING_BORDER_DIFFERENCE &&
    (fromTable(table) || fromTable(tableBeyond))
  );
}

/**
 * The colours addsBorder and addsTableBeside compare, each a median over the middle 60 % of the
 * sides: `border` 2 coarse px inside `inner`'s shared sides, `beside` TABLE_BEYOND_PX outside
 * them, `added` midway between the two outlines' other sides, `tableBeyond` TABLE_BEYOND_PX
 * outside `outer`'s other sides.
 */
interface RingColours {
  border: number[] | null;
  beside: number[] | null;
  added: number[] | null;
  tableBeyond: number[] | null;
}

function ringColours(
  coarse: RgbaImage,
  outer: Quad,
  inner: Quad,
  sides: { shared: number[]; outside: number[] },
): RingColours {
  const centre = centreOf(inner);
  const colourAt = (x: number, y: number) => colourNear(coarse, x, y);
  const along = (quad: Quad, k: number, t: number) => {
    const p = quad[k] as Point;
    const q = quad[(k + 1) % 4] as Point;
    return { x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t };
  };
  const outerCentre = centreOf(outer);
  const inside: number[][] = [];
  const besides: number[][] = [];
  const ring: number[][] = [];
  const beyond: number[][] = [];
  for (let t = 0.2; t <= 0.8 + 1e-9; t += 0.6 / 15) {
    for (const k of sides.shared) {
      const point = along(inner, k, t);
      const length = Math.hypot(centre.x - point.x, centre.y - point.y);
      inside.push(
        colourAt(point.x + (2 * (centre.x - point.x)) / length, point.y + (2 * (centre.y - point.y)) / length),
      );
      // Out square to the side: away from the centre would lean along it near its ends.
      const out = outwardNormal(inner, k, centre);
      besides.push(colourAt(point.x + TABLE_BEYOND_PX * out.x, point.y + TABLE_BEYOND_PX * out.y));
    }
    for (const k of sides.outside) {
      const a = along(outer, k, t);
      const b = along(inner, k, t);
      ring.push(colourAt((a.x + b.x) / 2, (a.y + b.y) / 2));
      const length = Math.hypot(a.x - outerCentre.x, a.y - outerCentre.y);
      beyond.push(
        colourAt(
          a.x + (TABLE_BEYOND_PX * (a.x - outerCentre.x)) / length,
          a.y + (TABLE_BEYOND_PX * (a.y - outerCentre.y)) / length,
        ),
      );
    }
  }
  return {
    border: medianColour(inside),
    added: medianColour(ring),
    beside: medianColour(besides),
    tableBeyond: medianColour(beyond),
  };
}

/** The unit normal of `quad`'s side k pointing away from `centre` (a point inside it). */
function outwardNormal(quad: Quad, k: number, centre: Point): Point {
  const p = quad[k] as Point;
  const q = quad[(k + 1) % 4] as Point;
  const length = Math.hypot(q.x - p.x, q.y - p.y) || 1;
  const n = { x: (q.y - p.y) / length, y: -(q.x - p.x) / length };
  const toCentre = (centre.x - p.x) * n.x + (centre.y - p.y) * n.y;
  return toCentre > 0 ? { x: -n.x, y: -n.y } : n;
}

/**
 * True when what `outer` adds outside the sides it does not share with `inner` is the colour just
 * outside the sides they share, and not the colour just inside them: the surface the card lies on
 * running on past its cut to a line beyond it (a sheet's edge, a mat's), not the card's border.
 * The photo-wide table colour (the colour cue's) is not asked: a card on a sheet of white paper
 * lying on a dark mat has the mat and the sheet in the photo's frame, and the sheet, read as no
 * table, made the card's sides closed by the sheet's edge a holder's shape round the card (a real
 * photo, refused so).
 */
export function addsTableBeside(
  coarse: RgbaImage,
  outer: Quad,
  inner: Quad,
  sides: { shared: number[]; outside: number[] },
): boolean {
  const { border, added, beside } = ringColours(coarse, outer, inner, sides);
  if (border === null || added === null || beside === null) return false;
  return (
    colourDistance(added, beside) <= MAX_RING_BORDER_DIFFERENCE &&
    colourDistance(added, border) > MAX_RING_BORDER_DIFFERENCE
  );
}

/** Where borderRingAllRound reads: this far inside the outline's sides, and this far outside (mm). */
const RING_INSIDE_MM = 0.8;
const RING_OUTSIDE_MM = 1.2;

/**
 * True when the band just inside every side of `outer` (RING_INSIDE_MM in, read at 16 places over
 * the middle 60 % of the side, as a median) is one ink all round (image.ts, oneBorderInk: a
 * border paled by a lamp's sheen along one side too), and on every side stands more than
 * MAX_RING_BORDER_DIFFERENCE from what lies RING_OUTSIDE_MM beyond it: a card's border round its
 * print, whatever the colour cue counts as table. The millimetres are the outline's own, its
 * shortest side taken as a standard card's width.
 */
export function borderRingAllRound(coarse: RgbaImage, outer: Quad): boolean {
  const sides = [0, 1, 2, 3].map((k) => dist(outer[k] as Point, outer[(k + 1) % 4] as Point));
  const pxPerMm = Math.min(...sides) / STANDARD_WIDTH_MM;
  const centre = centreOf(outer);
  const colourAt = (x: number, y: number) => colourNear(coarse, x, y);
  const inks: number[][] = [];
  for (let k = 0; k < 4; k++) {
    const p = outer[k] as Point;
    const q = outer[(k + 1) % 4] as Point;
    const length = sides[k] ?? 1;
    // The side's normal, turned toward the outline's centre.
    let nx = -(q.y - p.y) / length;
    let ny = (q.x - p.x) / length;
    if ((centre.x - (p.x + q.x) / 2) * nx + (centre.y - (p.y + q.y) / 2) * ny < 0) {
      nx = -nx;
      ny = -ny;
    }
    const inside: number[][] = [];
    const beyond: number[][] = [];
    for (let t = 0.2; t <= 0.8 + 1e-9; t += 0.6 / 15) {
      const x = p.x + (q.x - p.x) * t;
      const y = p.y + (q.y - p.y) * t;
      inside.push(colourAt(x + nx * RING_INSIDE_MM * pxPerMm, y + ny * RING_INSIDE_MM * pxPerMm));
      beyond.push(colourAt(x - nx * RING_OUTSIDE_MM * pxPerMm, y - ny * RING_OUTSIDE_MM * pxPerMm));
    }
    const ink = medianColour(inside);
    const outside = medianColour(beyond);
    if (!ink || !outside || colourDistance(ink, outside) <= MAX_RING_BORDER_DIFFERENCE) return false;
    inks.push(ink);
  }
  return inks.every((a) => inks.every((b) => oneBorderInk(a, b, 0)));
}

const STANDARD_WIDTH_MM = 63;

/** The mean of a quadrilateral's corners. */
const centreOf = (quad: Quad): Point => ({
  x: quad.reduce((sum, p) => sum + p.x, 0) / 4,
  y: quad.reduce((sum, p) => sum + p.y, 0) / 4,
});

/** The colour of the pixel nearest (x, y), clamped to the image. */
function colourNear(image: RgbaImage, x: number, y: number): number[] {
  const px = Math.min(image.width - 1, Math.max(0, Math.round(x)));
  const py = Math.min(image.height - 1, Math.max(0, Math.round(y)));
  const o = (py * image.width + px) * 4;
  return [image.data[o] ?? 0, image.data[o + 1] ?? 0, image.data[o + 2] ?? 0];
}

/** How much better a ringed outline must be supported to take the place of a winner with no ring. */
const MIN_RINGED_SUPPORT_GAIN = 0.05;

/**
 * The outline to take for the card in place of `winner` when the winner shows no border ring all
 * round (`ringed`, borderRingAllRound) and a card-shaped outline over it does: the strongest of
 * `outermost` (strongest first) that overlaps it (box overlap 0.6 or more), is supported along its
 * sides MIN_RINGED_SUPPORT_GAIN better, and shows such a ring; `winner` otherwise. On two real
 * photos of yellow-bordered cards on a white wall (GarrettMaury7921/pokemon_card_grader) the
 * strongest outline ran along a line of the print on one side: a panel's edge (support 0.93,
 * strength 8.4, beside the cut all round at 1.00 and 5.9), or the art box's top with the card's
 * top edge faint against the wall (0.90 and 7.6, beside 1.00 and 7.5); the cards read 1.355 and
 * 1.253 times as tall as wide, no format. Asked only that the ringed outline be as well supported,
 * it took for a Yu-Gi-Oh! card (whose correct winner shows no ring, its rim dark) an outline with
 * one corner 55 px off.
 * `ringedOnceMoved`: the ring shown by an outline over the winner once its sides on a panel's
 * edge are moved out to the cut (find-card.ts); the winner is judged as found.
 */
export function ringedOverWinner(
  winner: Hypothesis,
  outermost: readonly Hypothesis[],
  cardShaped: (h: Hypothesis) => boolean,
  ringed: (quad: Quad) => boolean,
  ringedOnceMoved: (quad: Quad) => boolean = () => false,
): Hypothesis {
  if (ringed(winner.quad)) return winner;
  return (
    outermost.find(
      (h) =>
        h !== winner &&
        cardShaped(h) &&
        boxOverlap(h.quad, winner.quad) >= 0.6 &&
        h.support >= winner.support + MIN_RINGED_SUPPORT_GAIN &&
        (ringed(h.quad) || ringedOnceMoved(h.quad)),
    ) ?? winner
  );
}
