// An end of the outline that lies beyond the card. A card photographed standing on a display
// stand, or lying against a ledge, can have something of its border's colour along one end: the
// stand's lip below its cut. The outline then closes on the lip's far edge, the card reads a
// little longer than it is (a standard card with 1.3 mm of lip reads 1.422 tall, the 1952 Topps
// format's shape), and it is measured with the lip as a border and its own cut as the frame: a
// confident grade 20 points off (`sert-turtwig0.png`, docs/engine.md). Its colours do not tell it
// (the lip, a silver border and a light background pass as one ink in two lights); the corners'
// shapes do. A card's cut turns its corners the same way at both ends (rounded, or square on a
// vintage card); at the lip's end the outline's corners are square, and the card's sides, which
// run straight to within a millimetre of their rounded corners at the other end, fade out before
// reaching them, because the outline's sides there are the card's sides carried on across the lip.
import type { CardFormat } from "./evidence";
import { FLAT_PX_PER_MM, type Quad } from "./geometry";
import { luma, type RgbaImage } from "./image";
import { flatSampler } from "./rectify";

export type End = "top" | "bottom" | "left" | "right";

/** The end across the card from each. */
export const OPPOSITE_END: Record<End, End> = { top: "bottom", bottom: "top", left: "right", right: "left" };

/** Where each side's cut is read on its straight part, from either end (mm). */
const STRAIGHT_AT_MM = 6;
/** Where it is read near a corner (mm from the end): a 3 mm rounded corner is 1.3 mm in there. */
const NEAR_CORNER_MM = 0.5;
/** A corner whose cut lies this much deeper near it than on the straight part is rounded (mm). */
const MIN_ROUNDED_INSET_MM = 0.5;
/** ... and one whose cut lies within this of the straight part's is square (mm). */
const MAX_SQUARE_INSET_MM = 0.15;
/** The least step (luma levels) from outside the outline to the border for a cut to be read. */
const MIN_CUT_STEP = 15;
/** A profile across a side, in half flat-card pixels: this far outside the outline and inside it (mm). */
const PROFILE_OUTSIDE_MM = 0.75;
const PROFILE_INSIDE_MM = 3;

type CutReading = { rounded: boolean; square: boolean; fades: boolean };

/**
 * Each side's cut read on its straight part and near each corner (`side`, read from its start or
 * its end): rounded, square, or fading out before the corner.
 */
function cutReadings(image: RgbaImage, corners: Quad, format: CardFormat): (side: End, fromEnd: boolean) => CutReading {
  const W = Math.round(format.width_mm * FLAT_PX_PER_MM);
  const H = Math.round(format.height_mm * FLAT_PX_PER_MM);
  const sample = flatSampler(image, corners, format);
  const rgb = new Float64Array(3);
  // A point `d` flat px inside side `side`, `t` flat px along it from its start (top and bottom
  // run left to right, left and right top to bottom) or from its end.
  const at = (side: End, t: number, d: number, fromEnd: boolean) => {
    const along = fromEnd ? (side === "top" || side === "bottom" ? W : H) - t : t;
    if (side === "top") sample(along, d, rgb);
    else if (side === "bottom") sample(along, H - d, rgb);
    else if (side === "left") sample(d, along, rgb);
    else sample(W - d, along, rgb);
    return luma(rgb);
  };
  const mm = FLAT_PX_PER_MM;
  // The cut's depth (mm) on the profile across `side` at `t` px from that end: the first 50 %
  // crossing, inward, from the level just outside the outline to the border's level `inside`;
  // null where the two differ by less than MIN_CUT_STEP or the profile never crosses.
  const cutAt = (side: End, t: number, fromEnd: boolean, inside: number): number | null => {
    const profile: number[] = [];
    for (let d = -2 * PROFILE_OUTSIDE_MM * mm; d <= 2 * PROFILE_INSIDE_MM * mm; d++)
      profile.push(at(side, t, d / 2, fromEnd));
    const outside = ((profile[0] ?? 0) + (profile[1] ?? 0) + (profile[2] ?? 0)) / 3;
    if (Math.abs(inside - outside) < MIN_CUT_STEP) return null;
    const half = (inside + outside) / 2;
    for (let k = 3; k < profile.length - 1; k++) {
      const a = (profile[k] ?? 0) - half;
      const b = (profile[k + 1] ?? 0) - half;
      if (a === 0 || a * b < 0) return (k + a / (a - b)) / 2 / mm - PROFILE_OUTSIDE_MM;
    }
    return null;
  };
  // Each side's cut on its straight part and near each corner, read from each of its ends (once).
  const readings = new Map<string, CutReading>();
  const reading = (side: End, fromEnd: boolean) => {
    const key = `${side} ${fromEnd}`;
    const known = readings.get(key);
    if (known) return known;
    // The border's level: 0.9–1.5 mm in, on the straight part.
    let inside = 0;
    for (let d = 7; d <= 12; d++) inside += at(side, STRAIGHT_AT_MM * mm, d, fromEnd) / 6;
    const straight = cutAt(side, STRAIGHT_AT_MM * mm, fromEnd, inside);
    const near = cutAt(side, NEAR_CORNER_MM * mm, fromEnd, inside);
    const inset = straight === null || near === null ? null : near - straight;
    const read = {
      rounded: inset !== null && inset >= MIN_ROUNDED_INSET_MM,
      square: inset !== null && Math.abs(inset) <= MAX_SQUARE_INSET_MM,
      fades: straight !== null && near === null,
    };
    readings.set(key, read);
    return read;
  };
  return reading;
}

/** The two sides meeting each end, and whether that end is where they end (or start). */
const meeting = (end: End): { sides: [End, End]; fromEnd: boolean } => ({
  sides: end === "top" || end === "bottom" ? ["left", "right"] : ["top", "bottom"],
  fromEnd: end === "bottom" || end === "right",
});

/**
 * The end of the outline (the card's own top, bottom, left or right) that lies beyond the card,
 * or null: that end's two corners are square, the two sides meeting it show no cut within
 * NEAR_CORNER_MM of it though they show one on their straight parts, and the opposite end's
 * corners are a cut's rounded ones, seen along all four sides that meet them.
 * `corners`: the card's own top-left, top-right, bottom-right and bottom-left in `image`.
 */
export function outlineEndBeyondCard(image: RgbaImage, corners: Quad, format: CardFormat): End | null {
  const reading = cutReadings(image, corners, format);
  for (const end of ["bottom", "top", "left", "right"] as const) {
    const { sides, fromEnd } = meeting(end);
    if (![false, true].every((fromOwnEnd) => reading(end, fromOwnEnd).square)) continue;
    if (!sides.every((side) => reading(side, fromEnd).fades)) continue;
    const opposite = OPPOSITE_END[end];
    const far = meeting(opposite);
    const rounded =
      [false, true].every((fromOwnEnd) => reading(opposite, fromOwnEnd).rounded) &&
      far.sides.every((side) => reading(side, far.fromEnd).rounded);
    if (rounded) return end;
  }
  return null;
}

/**
 * How many of the outline's four corners read as a cut's rounded ones and how many as square ones.
 * A corner is rounded when a side meeting it reads its cut rounded there (MIN_ROUNDED_INSET_MM
 * deeper near the corner than on its straight part) and neither reads it square; square when both
 * read it square (within MAX_SQUARE_INSET_MM of the straight part's cut). A card's cut has corners
 * rounded 3 mm; a sleeve's outline (a penny sleeve's) is square, or rounded 1 mm as drawn.
 */
export function cutCorners(image: RgbaImage, corners: Quad, format: CardFormat): { rounded: number; square: number } {
  const reading = cutReadings(image, corners, format);
  let rounded = 0;
  let square = 0;
  for (const end of ["top", "bottom"] as const) {
    const { sides, fromEnd } = meeting(end);
    for (const [k, side] of sides.entries()) {
      const across = reading(end, k === 1);
      const along = reading(side, fromEnd);
      if ((across.rounded || along.rounded) && !across.square && !along.square) rounded++;
      if (across.square && along.square) square++;
    }
  }
  return { rounded, square };
}
