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
import type { RgbaImage } from "./image";
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
/**
 * ... and, counted by cutCorners, one within this of it is a sleeve's: square, or rounded by up to
 * about 1.3 mm (a sleeve's 1 mm corner lies 0.13 mm in there, a card's 3 mm cut 1.34 mm), read on
 * a photo whose blur spreads the rounding (mm).
 */
const MAX_SLEEVE_CORNER_INSET_MM = 0.3;
/** The least step (colour distance, levels) from outside the outline to the border for a cut to be read. */
const MIN_CUT_STEP = 15;
/** A profile across a side, in half flat-card pixels: this far outside the outline and inside it (mm). */
const PROFILE_OUTSIDE_MM = 0.75;
const PROFILE_INSIDE_MM = 3;

type Rgb = readonly [number, number, number];

const meanColour = (colours: readonly Rgb[]): Rgb => {
  let [r, g, b] = [0, 0, 0];
  for (const c of colours) [r, g, b] = [r + c[0], g + c[1], b + c[2]];
  return [r / colours.length, g / colours.length, b / colours.length];
};

type CutReading = { rounded: boolean; square: boolean; sleeveSquare: boolean; fades: boolean };

/**
 * Each side's cut read on its straight part and near each corner (`side`, read from its start or
 * its end): rounded, square, or fading out before the corner.
 */
function cutReadings(image: RgbaImage, corners: Quad, format: CardFormat): (side: End, fromEnd: boolean) => CutReading {
  const W = Math.round(format.width_mm * FLAT_PX_PER_MM);
  const H = Math.round(format.height_mm * FLAT_PX_PER_MM);
  const sample = flatSampler(image, corners, format);
  const rgb = new Float64Array(3);
  // The colour `d` flat px inside side `side`, `t` flat px along it from its start (top and
  // bottom run left to right, left and right top to bottom) or from its end.
  const at = (side: End, t: number, d: number, fromEnd: boolean): Rgb => {
    const along = fromEnd ? (side === "top" || side === "bottom" ? W : H) - t : t;
    if (side === "top") sample(along, d, rgb);
    else if (side === "bottom") sample(along, H - d, rgb);
    else if (side === "left") sample(d, along, rgb);
    else sample(W - d, along, rgb);
    return [rgb[0] ?? 0, rgb[1] ?? 0, rgb[2] ?? 0];
  };
  const mm = FLAT_PX_PER_MM;
  // The cut's depth (mm) on the profile across `side` at `t` px from that end: the first 50 %
  // crossing, inward, from the colour just outside the outline to the border's colour `inside`
  // (each colour read as its share of the way from the one to the other, so a blue border on a
  // green table of its brightness shows its cut); null where the two colours lie less than
  // MIN_CUT_STEP apart or the profile never crosses.
  const cutAt = (side: End, t: number, fromEnd: boolean, inside: Rgb): number | null => {
    const colours: Rgb[] = [];
    for (let d = -2 * PROFILE_OUTSIDE_MM * mm; d <= 2 * PROFILE_INSIDE_MM * mm; d++)
      colours.push(at(side, t, d / 2, fromEnd));
    const [r0, g0, b0] = meanColour(colours.slice(0, 3));
    const [dr, dg, db] = [inside[0] - r0, inside[1] - g0, inside[2] - b0];
    const step = Math.hypot(dr, dg, db);
    if (step < MIN_CUT_STEP) return null;
    const share = ([r, g, b]: Rgb) => ((r - r0) * dr + (g - g0) * dg + (b - b0) * db) / step ** 2;
    for (let k = 3; k < colours.length - 1; k++) {
      const a = share(colours[k] ?? inside) - 0.5;
      const b = share(colours[k + 1] ?? inside) - 0.5;
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
    // The border's colour: 0.9–1.5 mm in, on the straight part.
    const inside = meanColour(Array.from({ length: 6 }, (_, k) => at(side, STRAIGHT_AT_MM * mm, 7 + k, fromEnd)));
    const straight = cutAt(side, STRAIGHT_AT_MM * mm, fromEnd, inside);
    const near = cutAt(side, NEAR_CORNER_MM * mm, fromEnd, inside);
    const inset = straight === null || near === null ? null : near - straight;
    const read = {
      rounded: inset !== null && inset >= MIN_ROUNDED_INSET_MM,
      square: inset !== null && Math.abs(inset) <= MAX_SQUARE_INSET_MM,
      sleeveSquare: inset !== null && Math.abs(inset) <= MAX_SLEEVE_CORNER_INSET_MM,
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
 * deeper near the corner than on its straight part) and neither reads it as a sleeve's; square when
 * both read it as a sleeve's (within MAX_SLEEVE_CORNER_INSET_MM of the straight part's cut). A
 * card's cut has corners rounded 3 mm; a sleeve's outline (a penny sleeve's) is square, or rounded
 * 1 mm as drawn, which a photo at 7 px per mm reads 0.06–0.17 mm in.
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
      if ((across.rounded || along.rounded) && !across.sleeveSquare && !along.sleeveSquare) rounded++;
      if (across.sleeveSquare && along.sleeveSquare) square++;
    }
  }
  return { rounded, square };
}
