// Bands along a side's cut that the colour readings take for card (refine-outline.ts), and the
// face read past them.
// A dark band wider than both readings reach, lying inside a side's line (a soft shadow cast on
// the table, 2–2.5 mm on real photos, that the outline found took in): the side's median reading
// steps into a colour of another ink than the other sides show past their cut, darker than it
// and the table, and read on inward that colour comes back past the band. The side lies on the
// band's outer edge and is refused, naming the band (darkBandBeyondReach).
// A band darker than the table and the border lying at the line a side was given (the card's
// dark core seen along its cut, or a shadow of another hue than the table's) is read as card by
// both colour readings, which project it onto the step from the table's colour to the border's:
// a brown band beside a yellow border on white paper lies 83 % of the way to the border, a
// grey-brown one beside a red border on beige 87 %. The side's line is then the band's outer edge
// or lies in it, up to 3.95 px outside the cut on drawn photos; the face begins where the colour
// comes back from the band to the border's (isDarkBand, bandInside, pastBand). A band wider than
// the 2.5 px first read (its colour is then what that reading takes for the border) is read again
// as far in as the readings reach, taken only where it runs in from the line unbroken (a dark
// line printed inside a light border has border between it and the cut). A band along
// part of a side only splits the profiles between its outer edge and the cut, and the line fitted
// through both lies between them: each profile with the band is read past it (pastPartialBand).
// Where the readings reach into such a band on one side and past it on the other, they find two
// edges with the band between them; when it is dark, of no ink of the border, and the border's
// colour lies past the inner edge, the inner edge is the cut (innerPastDarkBand).
// Beside a dark border the card's light paper edge is such a band too (isLightBand, pastLightBand):
// on green felt beside a black border its grey lies off every blend of the two, and the readings
// put the cut in it, on its inner step short of the middle, or find two edges (a real photo's
// right side 4 px out, its frame then unreadable).

import {
  EDGE_PROFILES,
  inwardTo,
  MAX_BORDER_DIFFERENCE,
  MIN_GREY_BORDER_LUMA,
  profileBase,
  profileColour,
  profileIndex,
  profileOf,
  type SideGeometry,
  type SideReadings,
  type Trace,
  traced,
} from "./cut-profiles";
import type { RgbSampler } from "./edges";
import { type Line, median, type Point } from "./geometry";
import { DARK_HUE_LEVELS, colourDistance as distance, hueLevels, hueTurn, luma, medianColour, sameInk } from "./image";

/**
 * A colour within this of a border's chromaticity is that border in shade (a shadow dims all three
 * channels alike): a dark band so is the border's outer part in shadow, not a band beside it. The
 * drawn warm dark edge beside a warm grey rim lay 0.05 from the rim's, one ink by sameInk's 0.08.
 */
const MAX_SHADE_CHROMA_DIFFERENCE = 0.03;

/**
 * The faces past dark bands that lie along one side's cut, or two adjacent sides', and not along
 * the opposite sides: darker than both the table and the border past them (SHADOW_BAND), running
 * in from the line (bandInside), as a shadow cast one way or the card's dark edge seen on the
 * sides toward the lens lies, and not of the border's chromaticity (MAX_SHADE_CHROMA_DIFFERENCE:
 * the border's own outer part in shadow). The card's print runs all round it, and a dark line of
 * it at the cut lies along the opposite side as well; one the opposite side does not show (its
 * border read past its cut, no band there) is no part of the face, whose edge past it is the
 * side's (pastBand). Only sides taken as read (`asRead`), not bowed and not read past a band
 * already, are looked at. Drawn: a 0.3 mm warm dark edge outside the right and bottom cuts of a
 * bevelled rim of a warm grey (one ink with it by sameInk's measure, so not DARK_BAND) was
 * measured to its outer edge, 4.7 centering points off; read past, 1.2. Per side, the face's line
 * or null.
 */
export function pastOneWayBands(
  colourAt: RgbSampler,
  sides: SideReadings[],
  lines: Line[],
  asRead: readonly boolean[],
  pastDarkBand: readonly boolean[],
  bows: readonly number[],
  border: number[],
  shown: number[][],
  halfLength: number,
): (Trace | null)[] {
  const readings = sides.map((side, k) =>
    side.table && asRead[k] && !pastDarkBand[k] && !bows[k]
      ? bandInside(side, lines[k] as Line, side.table, border, shown, SHADOW_BAND, 2.5, true)
      : null,
  );
  const banded = readings.flatMap((reading, k) => (reading?.moved ? [k] : []));
  const [first = 0, second = 0] = banded;
  const oneWay = banded.length === 1 || (banded.length === 2 && (second - first) % 2 === 1);
  return sides.map((side, k) => {
    const reading = readings[k];
    const opposite = readings[(k + 2) % 4];
    if (!oneWay || !reading?.moved || !opposite || opposite.moved || !side.table || !reading.colour) return null;
    // The border's own ink in shade (its chromaticity kept) is the border's outer part in shadow.
    if (sameInk(reading.colour, reading.border, MAX_SHADE_CHROMA_DIFFERENCE)) return null;
    return pastBand(colourAt, side, lines[k] as Line, halfLength, side.table, reading.border, SHADOW_BAND);
  });
}

/**
 * A band beside the card's face is dark when it is this many luma levels darker than the table
 * (and, on a light border, than the border: over a card, a border's luma drifts by 10 levels or so
 * with the light).
 */
export const DARK_BAND_DEPTH = 20;

/** A border darker than this (luma) is told from a dark band by hue only (image.ts, sameInk)... */
const MIN_BANDED_BORDER_LUMA = 100;

/**
 * ...or, for a grey at least this light (its hue offset under DARK_HUE_LEVELS, image.ts), by its
 * tint: a band MIN_TINTED_BAND_DEPTH darker whose tint turns away from the grey's (their offsets
 * from grey, each MIN_TINT_LEVELS or more, pointing apart) is of another ink. A bevelled rim's cool
 * grey at its cut (rgb(99, 103, 116) on drawn Yu-Gi-Oh! cards) beside the card's warm dark edge
 * (rgb(62, 56, 50)) lay 0.068 apart in chromaticity, under sameInk's 0.08, and the band was taken
 * for the rim (stop 79); a blue-grey border's own ink in shade keeps its tint, and is not read past.
 * The turn of the tint is what tells the band, so it need not be DARK_BAND_DEPTH darker: blurred
 * into the table and the rim, a 0.3 mm edge read 15–18 levels under the rim on one drawn photo,
 * whose cut was put on its outer edge (4.8 centering points off; 0.9 read past it).
 */
const MIN_BANDED_GREY_LUMA = 80;

const MIN_TINT_LEVELS = 4;

const MIN_TINTED_BAND_DEPTH = 10;

/** Two near-neutral colours tinted apart: their offsets from grey point more than 90° apart. */
function tintedApart(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  const { sizes, cosine } = hueTurn(a, b);
  return Math.min(...sizes) >= MIN_TINT_LEVELS && cosine < 0;
}

/**
 * True when `colour` could be a dark band beside the card's face (its dark core, a contact shadow)
 * rather than its border `border` or the table `table`: DARK_BAND_DEPTH darker than the table, and
 * either that much darker than a light border, or MIN_TINTED_BAND_DEPTH darker than a mid grey
 * one with its tint turned away (tintedApart: a warm dark edge beside a rim's cool grey), or of
 * another ink than the border (a grey-brown core beside a red or blue border); or, beside a dark
 * border that shows a hue (darkTintedBorder), of a tint turned away from it, however much lighter.
 * A near-black border's rim, darker where the light leaves it, is none of these (sameInk has no hue
 * to compare under luma 60), and nor is a light border's own ink in shade (borderInShade).
 */
function isDarkBand(colour: ArrayLike<number>, border: number[], table: number[]): boolean {
  if (borderInShade(colour, border, table)) return false;
  const shade = luma(colour);
  if (shade >= luma(table) - DARK_BAND_DEPTH) return false;
  if (darkTintedBorder(border) && tintedApart(colour, border)) return true;
  if (shade >= luma(border)) return false;
  if (luma(border) >= MIN_BANDED_BORDER_LUMA) return shade < luma(border) - DARK_BAND_DEPTH;
  const grey = luma(border) >= MIN_BANDED_GREY_LUMA && hueLevels(border) < DARK_HUE_LEVELS;
  if (grey && shade < luma(border) - MIN_TINTED_BAND_DEPTH && tintedApart(colour, border)) return true;
  return !sameInk(colour, border);
}

/**
 * A light border's ink in shade keeps its hue's direction (a shadow scales the ink, and its offset
 * from grey with it): a colour of the border's ink (sameInk) whose hue turns at most
 * MAX_SHADE_HUE_TURN_DEG from the border's, and which is not of the table's ink, is the border's
 * outer part in shadow, not a band beside it. On a real photo of a yellow-bordered Pokémon card on
 * a white wall (GarrettMaury7921/pokemon_card_grader `7202b9e1`), the yellow darkens over 0.2 mm
 * into a contact shadow's warm core along the bottom cut; the colour the side's reading took
 * there, rgb(134, 115, 54) beside the border's rgb(207, 172, 53) and the wall's
 * rgb(168, 151, 141), turns 2° from the yellow. Read as a band, its inner edge was looked for and
 * not found, and the photo refused; read as the yellow, the cut lies within 0.07 mm of the
 * yellow's 50 % crossing by hand. The card's dark core and a contact shadow are of another
 * ink (the drawn warm dark edge, rgb(62, 56, 50), lies under a third of the yellow's brightness)
 * or turn away from the border's hue (a brown, rgb(120, 80, 40), turns 17° from that yellow).
 * Only a border with a hue to keep (DARK_HUE_LEVELS) and light enough for a band to be darker
 * (MIN_BANDED_BORDER_LUMA) is asked about.
 */
export function borderInShade(colour: ArrayLike<number>, border: ArrayLike<number>, table: ArrayLike<number>): boolean {
  if (luma(border) < MIN_BANDED_BORDER_LUMA || hueLevels(border) < DARK_HUE_LEVELS) return false;
  if (!sameInk(colour, border) || sameInk(colour, table)) return false;
  return hueTurn(colour, border).cosine >= Math.cos((MAX_SHADE_HUE_TURN_DEG * Math.PI) / 180);
}

const MAX_SHADE_HUE_TURN_DEG = 10;

/**
 * A border too dark for a band to be darker, yet showing its ink's hue (DARK_HUE_LEVELS, image.ts):
 * a navy Pokémon back. Beside it the card's contact shadow (and its edge in shade, where that
 * faces the lens) reads lighter, a brown-black of no blend of the table's and the border's
 * colours: on a real photo of a back on white paper, rgb(39, 27, 28) beside rgb(3, 6, 48), its hue
 * offset turned 119° from the border's. A band whose tint turns away from the border's
 * (tintedApart) is then dark; the blur between the border and a grey table keeps the border's
 * tint and is not.
 */
function darkTintedBorder(border: number[]): boolean {
  return luma(border) < MIN_BANDED_GREY_LUMA && hueLevels(border) >= DARK_HUE_LEVELS;
}

/**
 * How far (mm) past a side's line darkBandBeyondReach reads for the border's colour again; the
 * profiles it reads along the side (every fourth of EDGE_PROFILES).
 */
const BAND_BEYOND_MM = 2.5;

const BAND_BEYOND_PROFILES = 30;

/** A dark band lying inside a side's line further than its readings reach (darkBandBeyondReach). */
export interface WideBand {
  /** Its width, from the line to where the border's colour comes back (mm). */
  mm: number;
  /** The same in pixels of the image read. */
  px: number;
  /** The colour the other sides show just past their cut. */
  border: number[];
}

/**
 * A dark band lying inside `line` further than the two readings reach, with the
 * card's border past it: a soft shadow cast on the table beside the cut (on real photos of
 * Yu-Gi-Oh! cards on grey tables, 2.1–2.5 mm wide), which both readings take for the card when the
 * outline found runs along its outer edge. Such a side's median reading steps into a colour of
 * another ink than the one at least two other sides show just past their cut (`theirs`), and
 * darker than it and the table (isDarkBand); and read inward over BAND_BEYOND_MM, the median
 * colour across the side comes back to `theirs` after the band, further in than the median
 * reading reached (`reach`, px: a narrower band, the card's dark core seen along its cut, is the
 * other band rules' to read). A thin border with dark art inside it shows its border's colour
 * before the dark, not after. Null otherwise.
 */
export function darkBandBeyondReach(
  colourAt: RgbSampler,
  side: SideReadings,
  line: Line,
  sides: SideReadings[],
  pxPerMm: number,
  reach: number,
): WideBand | null {
  const { card, table } = side;
  if (!card || !table) return null;
  const shown = sides.flatMap((other) => (other !== side && other.card ? [other.card] : []));
  const theirs = medianColour(shown);
  if (!theirs || shown.filter((colour) => distance(colour, theirs) <= MAX_BORDER_DIFFERENCE).length < 2) return null;
  if (sameInk(card, theirs) || !isDarkBand(card, theirs, table)) return null;
  let dark = false;
  for (let d = 0; d <= Math.ceil(BAND_BEYOND_MM * pxPerMm); d++) {
    const colour = colourAcross(colourAt, side, line, d);
    if (dark && distance(colour, theirs) <= MAX_BORDER_DIFFERENCE) {
      return d > reach ? { mm: d / pxPerMm, px: d, border: theirs } : null;
    }
    if (isDarkBand(colour, theirs, table)) dark = true;
  }
  return null;
}

/** The median colour `d` px inside `line` over BAND_BEYOND_PROFILES profiles along the side. */
export function colourAcross(colourAt: RgbSampler, side: SideGeometry, line: Line, d: number): number[] {
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  const from = inwardTo(side, line, mid);
  const pixel = new Float64Array(3);
  const colours: number[][] = [];
  for (let s = 0; s < BAND_BEYOND_PROFILES; s++) {
    const base = profileBase(side.p, side.q, (s * EDGE_PROFILES) / BAND_BEYOND_PROFILES + 2);
    colourAt(base.x + side.nx * (from + d), base.y + side.ny * (from + d), pixel);
    colours.push([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0]);
  }
  return medianColour(colours) as number[];
}

/** Only a border darker than this (luma) shows the card's light edge beside it as a band. */
const MAX_LIGHT_BANDED_BORDER_LUMA = 100;

/** A light band is this many luma levels lighter than the border. */
const LIGHT_BAND_HEIGHT = 40;

/**
 * A light band is also lighter than the table by DARK_BAND_DEPTH, or this far (RGB distance) from
 * every blend of the table's colour and the border's: the blur of the cut itself passes through
 * those blends, at any lightness between the two.
 */
const MIN_OFF_BLEND = 30;

/**
 * True when `colour` could be the card's light edge beside a dark border `border` (the white paper
 * of its cut, seen beside the face where the card is photographed at a slant) rather than the
 * border or the table `table`: LIGHT_BAND_HEIGHT lighter than the border, and either
 * DARK_BAND_DEPTH lighter than the table or no blend of the table's colour and the border's (on a
 * green or brown table a grey edge is neither lighter nor darker than the blur of the cut).
 */
function isLightBand(colour: ArrayLike<number>, border: number[], table: number[]): boolean {
  if (luma(border) >= MAX_LIGHT_BANDED_BORDER_LUMA) return false;
  const shade = luma(colour);
  if (shade < luma(border) + LIGHT_BAND_HEIGHT) return false;
  return shade >= luma(table) + DARK_BAND_DEPTH || offBlend(colour, table, border) >= MIN_OFF_BLEND;
}

/** The RGB distance from `colour` to the nearest blend of `a` and `b`. */
function offBlend(colour: ArrayLike<number>, a: number[], b: number[]): number {
  const step = [0, 1, 2].map((ch) => (b[ch] ?? 0) - (a[ch] ?? 0));
  const along = [0, 1, 2].reduce((sum, ch) => sum + ((colour[ch] ?? 0) - (a[ch] ?? 0)) * (step[ch] ?? 0), 0);
  const length = [0, 1, 2].reduce((sum, ch) => sum + (step[ch] ?? 0) ** 2, 0);
  const t = length > 0 ? Math.min(1, Math.max(0, along / length)) : 0;
  return distance(
    colour,
    [0, 1, 2].map((ch) => (a[ch] ?? 0) + t * (step[ch] ?? 0)),
  );
}

/**
 * A band beside the card's face that the colour readings take for card: dark (its dark core, a
 * contact shadow: isDarkBand) or light (its paper edge beside a dark border: isLightBand).
 * `deeper` tells which of two band colours lies further into the band: the darker or the lighter.
 */
interface BandKind {
  is: (colour: ArrayLike<number>, border: number[], table: number[]) => boolean;
  deeper: (a: ArrayLike<number>, b: ArrayLike<number>) => boolean;
  /** Whether the face, `shift` px inside the line taken (outside it when negative), moves the line. */
  moves: (shift: number) => boolean;
  /** Whether the band's deepest sample `k` of the profile `at` stands out from what lies outside it. */
  standsOut: (at: (k: number) => ArrayLike<number>, k: number) => boolean;
  /** How far a colour lies from the border's, as the band stands out from it (RGB distance unless told). */
  away?: (colour: ArrayLike<number>, border: number[], table: number[]) => number;
}

/**
 * A dark band projects past the border's colour, so the colour readings take its outer edge: the
 * face lies inside the line taken. A light band lighter than the table projects past the table's
 * colour instead, and the readings' 50 % crossing falls on the band's inner step but short of its
 * middle (the line inside the face); one between the two falls in the band (the line outside it).
 */
export const DARK_BAND: BandKind = {
  is: isDarkBand,
  deeper: (a, b) => luma(a) < luma(b),
  moves: (shift) => shift >= MIN_BAND_SHIFT,
  standsOut: () => true,
};

/** The dark band beside a soft shadow (pastSoftShadow): darker than both the border and the table. */
export const SHADOW_BAND: BandKind = {
  is: (colour, border, table) => luma(colour) <= Math.min(luma(border), luma(table)) - DARK_BAND_DEPTH,
  deeper: (a, b) => luma(a) < luma(b),
  moves: (shift) => shift >= MIN_BAND_SHIFT,
  standsOut: () => true,
};

const LIGHT_BAND: BandKind = {
  is: isLightBand,
  deeper: (a, b) => luma(a) > luma(b),
  moves: (shift) => Math.abs(shift) >= MIN_FACE_SHIFT,
  // Lighter by DARK_BAND_DEPTH than something within BAND_CONTEXT_PX outside it (the table, or a
  // dark line between it and the band): the slope of a blur from a light table into a dark band
  // or a shadow beside the cut is no blend of the table and the border either, but nothing
  // outside it is darker (drawn, a grey-brown core beside a blue border on beige, blurred 1.5 px,
  // was read as a light band and the cut put 1.9 px out).
  standsOut: (at, k) => {
    for (let j = Math.max(0, k - 2 * BAND_CONTEXT_PX); j < k; j++)
      if (luma(at(j)) <= luma(at(k)) - DARK_BAND_DEPTH) return true;
    return false;
  },
};

/**
 * A band of another hue: its chromaticity this far (r, g, b shares) from every blend of the
 * table's and the border's.
 */
const MIN_HUE_OFF = 0.025;

/**
 * The colour between a bowed side's curve and its chord (bandAtBow) is a band of another hue this
 * far off the blends, less than MIN_HUE_OFF: halfway between the two it mixes the band with the
 * table. On a lossless copy of a real photo of a silver border on white paper (2,000 px, shrunk to
 * the working size by area), a tan band 0.5 mm wide along the left cut read 0.0205 there: taken as
 * the cut's curve, the band put the card 52.4 left to right against the photo's own 48.0. The
 * four real photos graded with a bowed side stay graded at 0.015.
 */
const BETWEEN_HUE_OFF = 0.015;

const MAX_GREY_SATURATION = 0.05;

export const greyBorder = (colour: number[]) =>
  luma(colour) >= MIN_GREY_BORDER_LUMA && saturation(colour) <= MAX_GREY_SATURATION;

/**
 * A white table under tinted light (warm lamplight on white paper) is at least this light, and
 * shows at most this saturation...
 */
const MIN_WHITE_TABLE_LUMA = 150;

const MAX_WHITE_TABLE_SATURATION = 0.1;

/**
 * ...and a border grey in that light is grey once its colour is balanced by the table's, as the
 * light tints both alike: a silver border under a warm lamp, rgb(164, 153, 139) beside paper of
 * rgb(201, 185, 165), is 0.055 saturated as it shows and 0.011 balanced.
 */
export function greyInLightOf(colour: number[], table: number[]): boolean {
  if (luma(table) < MIN_WHITE_TABLE_LUMA || saturation(table) > MAX_WHITE_TABLE_SATURATION) return false;
  const mean = ((table[0] ?? 0) + (table[1] ?? 0) + (table[2] ?? 0)) / 3;
  return greyBorder(colour.map((v, ch) => (v * mean) / Math.max(1, table[ch] ?? 0)));
}

/** `colour`'s r, g, b shares of its sum (its chromaticity). */
function shares(colour: ArrayLike<number>): number[] {
  const sum = Math.max(1, (colour[0] ?? 0) + (colour[1] ?? 0) + (colour[2] ?? 0));
  return [0, 1, 2].map((ch) => (colour[ch] ?? 0) / sum);
}

/** The spread of `colour`'s r, g, b shares: 0 for a grey. */
function saturation(colour: ArrayLike<number>): number {
  const own = shares(colour);
  return Math.max(...own) - Math.min(...own);
}

/** How far `colour`'s chromaticity lies from the nearest blend of `a`'s and `b`'s. */
function hueOffBlend(colour: ArrayLike<number>, a: ArrayLike<number>, b: ArrayLike<number>): number {
  return offBlend(shares(colour), shares(a), shares(b));
}

/** `colour` is no lighter than the table and at least `minOff` off every blend of the table's hue and the border's. */
const ofAnotherHue = (colour: ArrayLike<number>, border: number[], table: number[], minOff: number) =>
  luma(colour) <= luma(table) && hueOffBlend(colour, table, border) >= minOff;

/**
 * The card's edge seen beside a grey or pale border, of neither one's hue (a tan paper edge beside
 * a silver border on white paper): its chromaticity off every blend of the table's and the
 * border's by MIN_HUE_OFF, no lighter than the table.
 */
export const HUE_BAND: BandKind = {
  is: (colour, border, table) => ofAnotherHue(colour, border, table, MIN_HUE_OFF),
  deeper: (a, b) => saturation(a) > saturation(b),
  moves: (shift) => shift >= MIN_BAND_SHIFT,
  standsOut: () => true,
  away: (colour, border, table) => hueOffBlend(colour, table, border),
};

/** How far (px) outside a light band's deepest sample darker ones are looked for. */
const BAND_CONTEXT_PX = 4;

/**
 * Where a band's far side gives way to the card's face along a profile of colours `at(k)` (from
 * outside in, samples 0.5 px apart), `border` the face's colour: the deepest sample among
 * `from`–`to` that is a band of `kind` (the darkest of a dark band) and stands out from what lies
 * outside it, then the first approach from it to the border's colour through halfway (in colour
 * distance from the border), located at that approach's steepest point (a blurred step's
 * inflection, which the blur leaves in place where it raises a narrow band's floor), to a fraction
 * of a sample (a parabola through three). Null without such a band, or when the colour 1.5–2.5 px
 * past that point is not nearer the border's than halfway from the band's; else that point
 * (`face`) and the deepest band sample (`band`).
 */
function faceAfterBand(
  at: (k: number) => ArrayLike<number>,
  from: number,
  to: number,
  border: number[],
  table: number[],
  kind: BandKind,
): { band: number; face: number } | null {
  const awayOf = kind.away ?? ((colour: ArrayLike<number>, ink: number[]) => distance(colour, ink));
  const away = (k: number) => awayOf(at(k), border, table);
  const isBand = (k: number) => kind.is(at(k), border, table);
  let farthest = -1;
  for (let k = from; k <= to; k++) if (isBand(k) && (farthest < 0 || kind.deeper(at(k), at(farthest)))) farthest = k;
  if (farthest < 0 || !kind.standsOut(at, farthest)) return null;
  const far = away(farthest);
  let half = farthest;
  while (half < to + 4 && away(half) > far / 2) half++;
  const approach = (k: number) => away(k - 1) - away(k + 1);
  let steepest = Math.max(farthest + 1, half - 3);
  for (let k = steepest; k <= half + 2; k++) if (approach(k) > approach(steepest)) steepest = k;
  const [a, b, c] = [approach(steepest - 1), approach(steepest), approach(steepest + 1)];
  if (b <= 0) return null;
  const bend = a - 2 * b + c;
  const position = steepest + (bend < 0 ? (0.5 * (a - c)) / bend : 0);
  let past = 0;
  for (let k = Math.round(position) + 3; k <= Math.round(position) + 5; k++) past += away(k) / 3;
  return past <= far / 2 ? { band: farthest, face: position } : null;
}

/**
 * The border's colour (the median profile's 2–4 px past a band up to `inward` px inside `line`,
 * and its blur: 4.5–6.5 px in unless told), when that is the card's border as the sides where both
 * readings agree show it (`cardBorder`, their median colour just past the cut, within twice
 * MAX_BORDER_DIFFERENCE; or where `shown`, each one's, holds that colour at least as often as this
 * side's: past a thin dark border lies art of another colour, and the border would read as a band
 * beside it), a band of `kind` lies from 2.5 px outside `line` to `inward` px inside it on the
 * side's median profile (at the side's middle), and the face begins (faceAfterBand) far enough
 * from the line to move it (`kind.moves`: for a dark band MIN_BAND_SHIFT or more inside, the line
 * having been taken on the band's outer edge or in it, the colour readings having projected the
 * band onto the card's side of the step from the table); null otherwise (`band`: the deepest band
 * sample's depth inside the line, px). (A cut taken rightly, with a band outside it, has the face
 * begin on it.) `fromLine`: only a band running in from the line unbroken (from 1.5 px in to its
 * deepest sample) is taken, as for a band wider than 2.5 px looked for as far in as the readings
 * reach (`inward`): a dark line printed inside a light border has border between it and the cut.
 */
export function bandInside(
  side: SideReadings,
  line: Line,
  table: number[],
  cardBorder: number[],
  shown: number[][],
  kind: BandKind,
  inward = 2.5,
  fromLine = false,
): { border: number[]; moved: boolean; band: number | null; colour: number[] | null } | null {
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  const depth = inwardTo(side, line, mid);
  const sample = (d: number) => Math.min(side.medianProfile.length - 1, Math.max(0, profileIndex(side, d)));
  const at = (k: number) => side.medianProfile[Math.min(side.medianProfile.length - 1, Math.max(0, k))] ?? table;
  const inside: number[][] = [];
  for (let d = depth + inward + 2; d <= depth + inward + 4; d += 0.5) inside.push(at(sample(d)) as number[]);
  const border = medianColour(inside) ?? table;
  // What lies past the band must be the card's border as the other sides show it (past a thin
  // dark border lies art of another colour, and the border itself would read as a band): the
  // colour the agreeing sides show just past their cut or, where they show two (bands along some
  // cuts, none along the others: their median is neither), one that at least as many of them
  // show as show this side's colour just past its step, the band's.
  const showing = (colour: number[] | null) =>
    colour === null ? 0 : shown.filter((c) => distance(c, colour) <= 2 * MAX_BORDER_DIFFERENCE).length;
  if (distance(border, cardBorder) > 2 * MAX_BORDER_DIFFERENCE && showing(border) < Math.max(1, showing(side.card))) {
    return null;
  }
  const found = faceAfterBand(at, sample(depth - 2.5), sample(depth + inward), border, table, kind);
  // `fromLine`: the band runs in from the line unbroken (from 1.5 px in, past the cut's blur), as
  // a band the line was taken on the outer edge of does; a dark line printed inside a light border
  // lies past some border.
  if (found && fromLine) {
    for (let k = sample(depth + 1.5); k <= found.band; k++) if (!kind.is(at(k), border, table)) return null;
  }
  return {
    border,
    moved: found !== null && kind.moves((found.face - sample(depth)) / 2),
    band: found && (found.band - sample(depth)) / 2,
    colour: found && [...at(found.band)],
  };
}

/**
 * The face must begin this far (px) inside the line taken for a band to move the line: the two
 * differ by a third of a pixel where a light shadow lies against a cut taken rightly (a real
 * photo's), and by 0.9 px where the card's dark edge was taken into the card (another side of the
 * same photo).
 */
const MIN_BAND_SHIFT = 0.6;

/** The face's line, read profile by profile, must lie this far (px) inside the line on average. */
const MIN_FACE_SHIFT = 0.3;

/**
 * The card's face past a band of `kind` lying at or inside `line` (bandInside), read on each
 * profile (faceAfterBand, from 2.5 px outside the line to `reach` px inside it; the border's
 * colour `border`, bandInside's). The face's line, when it traces the side MIN_FACE_SHIFT
 * or more inside `line` on average over its two ends, and neither end lies further than that
 * outside it or more than `reach` inside (a band's width in the photo changes along a side as the
 * light and the view do); or, traced on MAX_PARTIAL_BAND of the profiles or more, when it lies so
 * at the first and the last profile with up to `reach` outside allowed (liesInsideWhereRead); null
 * otherwise.
 */
export function pastBand(
  colourAt: RgbSampler,
  side: SideGeometry,
  line: Line,
  reach: number,
  table: number[],
  border: number[],
  kind: BandKind,
): Trace | null {
  const faces = facesPastBand(colourAt, side, line, reach, table, border, kind);
  const face = traced(faces.filter((point): point is Point => point !== null));
  if (!face) return null;
  return liesInside(side, line, face.line, reach) || liesInsideWhereRead(side, line, face, reach) ? face : null;
}

/**
 * True when `face`, the face's line read past a band along nearly all the side, lies inside `line`
 * where it was read, though it may cross it: the colour readings tilt the line taken where the band
 * widens along the side (a card lifting at one corner, its contact shadow 2.4 mm wide there and a
 * few tenths of a millimetre at the other). Taken on the band's outer edge, or in it, where the
 * band is wide, and on the cut or inside it where it is narrow, the line taken turns from the cut;
 * the face lies outside it at one end, as pastPartialBand's cut may (a band seen along part of the
 * side only), and far inside it at the other, further than `reach` where both lines run on to the
 * side's corners. The face must have been read on MAX_PARTIAL_BAND of the profiles or more (the cut
 * along the side, not a line extrapolated from a stretch of it), and is judged at the first and
 * the last profile: MIN_FACE_SHIFT or more inside `line` on average, and neither more than `reach`
 * inside nor more than `reach` outside. (`2a2f35ee` of GarrettMaury7921/pokemon_card_grader's
 * photos, a yellow-bordered card on a white table: the bottom side's line taken lay 22.7 px outside
 * the yellow's cut at one end of the profiles and 3.9 px inside it at the other, 26.0 and 7.2 at
 * the corners, `reach` 24.)
 */
function liesInsideWhereRead(side: SideGeometry, line: Line, face: Trace, reach: number): boolean {
  if (face.close.length < MAX_PARTIAL_BAND * EDGE_PROFILES) return false;
  const read = {
    ...side,
    p: profileBase(side.p, side.q, -0.5),
    q: profileBase(side.p, side.q, EDGE_PROFILES - 0.5),
  };
  return liesInside(read, line, face.line, reach, reach);
}

/** Each profile's light band is looked for this far (px) either side of the median profile's. */
const BAND_ANCHOR_PX = 1.5;

/** The widest light band read past: the card's paper edge (0.3 mm thick) seen at a slant, and the blur. */
export const LIGHT_BAND_MM = 0.6;

export const MIN_LIGHT_BAND_PX = 3;

/**
 * The card's face past a light band (isLightBand) at `line` beside a dark border: the card's paper
 * edge seen beside its face, where the card is photographed at a slant. On a green or brown table
 * the band is neither lighter nor darker than the blur of the cut and the colour readings' line
 * falls in it, outside the face; on a darker or greyer one it is lighter than the table, and
 * their 50 % crossing falls on its inner step short of the middle, inside the face; a wider band
 * gives them two edges. When the median profile shows the band at the line (bandInside) and the
 * face past it (faceAfterBand) MIN_FACE_SHIFT or more from the line either way, the face read on
 * each profile (facesPastBand); its line when it traces the side within `maxShift` px of `line`
 * at both ends; null otherwise.
 */
export function pastLightBand(
  colourAt: RgbSampler,
  side: SideReadings,
  line: Line,
  table: number[],
  cardBorder: number[],
  shown: number[][],
  maxShift: number,
): Trace | null {
  const found = bandInside(side, line, table, cardBorder, shown, LIGHT_BAND, maxShift);
  if (!found?.moved || found.band === null) return null;
  // Each profile's band near the median profile's: on a speckled table, a light fleck just
  // outside the cut would pass for it.
  const faces = facesPastBand(colourAt, side, line, Math.ceil(maxShift), table, found.border, LIGHT_BAND, found.band);
  const face = traced(faces.filter((point): point is Point => point !== null));
  if (!face) return null;
  const shifts = [side.p, side.q].map((end) => inwardTo(side, face.line, end) - inwardTo(side, line, end));
  return shifts.every((shift) => Math.abs(shift) <= maxShift) ? face : null;
}

/** A band along a bowed side (bandAtBow): whether it is a dark one, and what the refusal says of it. */
export interface BowBand {
  dark: boolean;
  text: string;
}

/**
 * What bandAtBow says of a dark band: darker than the border and the background, or, beside a
 * dark border that shows its ink's hue (a navy back) where the band is no darker than the border,
 * darker than the background and of another ink than the border (isDarkBand's tinted band: a
 * real navy back's soft grey shadow along its bottom cut was said to be darker than the navy).
 */
function darkBandText(colour: ArrayLike<number> | null, border: number[]): string {
  return colour !== null && luma(colour) >= luma(border)
    ? "darker than the background and of another ink than the border"
    : "darker than the border and the background";
}

/**
 * The kind of band (dark, light, or of another hue beside a grey border) along a bowed side, or
 * null: one the median profile shows at the chord `line` between the curve's ends that would move
 * it, as a straight side's is read (bandInside); or the colour between the chord and the curve
 * over the middle fifth of the side, where the curve lies `bowPx` outside the chord (halfway
 * between them: on a bent card, its border; of another hue at BETWEEN_HUE_OFF). A band along part of a cut, widest at its middle (a
 * shadow where the card lifts), makes its crossings bow as a bent cut's do. On a real photo of a
 * silver-bordered card on beige, a tan band 0.5 mm wide (the card's edge) lies along its left
 * cut: read straight, the side's face is found past it; mirrored, the same side was read as a
 * curve through the band's outer edge, 0.5 mm out (5 centering points).
 */
export function bandAtBow(
  colourAt: RgbSampler,
  side: SideReadings,
  line: Line,
  bowPx: number,
  table: number[],
  border: number[],
  shown: number[][],
  reach: number,
): BowBand | null {
  const dark = (colour: ArrayLike<number> | null): BowBand => ({ dark: true, text: darkBandText(colour, border) });
  const LIGHT = { dark: false, text: "lighter than the border" };
  const HUE = { dark: false, text: "of another hue than the border and the background" };
  const movedBy = (kind: BandKind, inward?: number, fromLine?: boolean) => {
    const reading = bandInside(side, line, table, border, shown, kind, inward, fromLine);
    return reading?.moved === true ? reading : null;
  };
  const darkReading = movedBy(DARK_BAND) ?? movedBy(DARK_BAND, reach, true);
  if (darkReading) return dark(darkReading.colour);
  if (movedBy(LIGHT_BAND)) return LIGHT;
  const hue = bandInside(side, line, table, border, shown, HUE_BAND, reach, true);
  if (hue?.moved && greyBorder(hue.border)) return HUE;
  const pixel = new Float64Array(3);
  const colours: number[][] = [];
  for (let t = 0.4; t <= 0.6 + 1e-9; t += 0.01) {
    const at = { x: side.p.x + (side.q.x - side.p.x) * t, y: side.p.y + (side.q.y - side.p.y) * t };
    const d = inwardTo(side, line, at) - bowPx / 2;
    colourAt(at.x + side.nx * d, at.y + side.ny * d, pixel);
    colours.push([pixel[0] ?? 0, pixel[1] ?? 0, pixel[2] ?? 0]);
  }
  const between = medianColour(colours);
  if (!between) return null;
  if (DARK_BAND.is(between, border, table)) return dark(between);
  if (LIGHT_BAND.is(between, border, table)) return LIGHT;
  return ofAnotherHue(between, border, table, BETWEEN_HUE_OFF) && greyBorder(border) ? HUE : null;
}

/** Of two readings of a side, the one lying further out (toward the table) on average over its ends. */
export function outerOf(side: SideGeometry, a: Trace | null, b: Trace | null): Trace | null {
  if (!a || !b) return a ?? b;
  const depth = (line: Line) => inwardTo(side, line, side.p) + inwardTo(side, line, side.q);
  return depth(a.line) <= depth(b.line) ? a : b;
}

/** Where a side's border is read just inside its line (px), as bandInside reads it past no band. */
const INSIDE_FROM_PX = 4.5;

const INSIDE_TO_PX = 6.5;

/** The fewest sides that must show one colour just inside their line for it to be the border's. */
const MIN_SIDES_SHOWING = 3;

/**
 * The colour of a side's median profile INSIDE_FROM_PX–INSIDE_TO_PX inside the line one of its
 * readings traced (the crossings' where they did, else the median reading's; at the side's
 * middle), or null where neither traced it.
 */
export function insideColour(side: SideReadings): number[] | null {
  const trace = side.crossings ?? side.median;
  if (!trace) return null;
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  const depth = inwardTo(side, trace.line, mid);
  return profileColour(side, depth + INSIDE_FROM_PX, depth + INSIDE_TO_PX);
}

/**
 * The largest group of `colours` each within MAX_BORDER_DIFFERENCE of the group's median (the
 * group round each colour: those within twice that of it, then those within it of their median),
 * when it holds MIN_SIDES_SHOWING or more; null otherwise. (A real photo of a Yu-Gi-Oh! card: the
 * rim's blue-grey just inside three cuts, rgb(100–122, 114–136, 139–150), and 0.6 mm of
 * near-black along the fourth, which the outline had taken in; the two sides whose readings
 * agreed were the fourth and one other, and their median, rgb(63, 62, 71), neither colour.)
 */
export function mostShown(colours: number[][]): number[][] | null {
  let best: number[][] = [];
  for (const colour of colours) {
    const centre = medianColour(colours.filter((other) => distance(other, colour) <= 2 * MAX_BORDER_DIFFERENCE));
    const group = centre ? colours.filter((other) => distance(other, centre) <= MAX_BORDER_DIFFERENCE) : [];
    if (group.length > best.length) best = group;
  }
  return best.length >= MIN_SIDES_SHOWING ? best : null;
}

/** True when no colour of `colours` lies within twice MAX_BORDER_DIFFERENCE of `colour`. */
export function noneNear(colour: number[], colours: number[][]): boolean {
  return colours.every((other) => distance(colour, other) > 2 * MAX_BORDER_DIFFERENCE);
}

/**
 * Where a side's two readings lie apart with a dark band between them (the card's dark core seen
 * beside its face where it is photographed at a slant, or its contact shadow on the table), the
 * inner one, when the band (the median profile's middle half between the two lines) is dark
 * beside the table and beside the colour just past the inner line (isDarkBand), is of no ink of
 * the card's border as the sides whose readings agree show it (`border`; sameInk allows it any
 * shade down to a third, so a border in this side's shadow is that ink still), and the colour past
 * the inner line is nearer that border than the band is, within twice MAX_BORDER_DIFFERENCE. A
 * thin dark border, its art's edge the inner line, is the border's own colour and is not read
 * past. (A real photo of a Yu-Gi-Oh! card on white paper, its bottom edge 9 px of brown-black
 * beside the rim's light outer edge, in the soft shadow the card casts: the outline's bottom had
 * been taken on the band's outer edge, and the card read 1.48 times as tall as wide, no format.)
 * Null otherwise.
 */
export function innerPastDarkBand(side: SideReadings, table: number[], border: number[]): Trace | null {
  if (!side.crossings || !side.median) return null;
  const mid = { x: (side.p.x + side.q.x) / 2, y: (side.p.y + side.q.y) / 2 };
  const [outer, inner] =
    inwardTo(side, side.crossings.line, mid) < inwardTo(side, side.median.line, mid)
      ? [side.crossings, side.median]
      : [side.median, side.crossings];
  const from = inwardTo(side, outer.line, mid);
  const to = inwardTo(side, inner.line, mid);
  const band = profileColour(side, from + (to - from) / 4, to - (to - from) / 4);
  const past = profileColour(side, to + 1.5, to + 3);
  if (!band || !past || !isDarkBand(band, past, table)) return null;
  if (sameInk(band, border) || distance(band, border) <= MAX_BORDER_DIFFERENCE) return null;
  const pastBorder = distance(past, border);
  return pastBorder < distance(band, border) && pastBorder <= 2 * MAX_BORDER_DIFFERENCE ? inner : null;
}

/**
 * The cut of a side along part of which a dark band lies (a contact shadow where the card lifts
 * off the table, or its core seen where it bends), where the median profile shows none at the line
 * (half the profiles or more show the table's colour there), or shows one whose face is not read
 * along the side (pastBand; refine-outline.ts): on the profiles that show the band
 * (at least MIN_PARTIAL_BAND of them and fewer than MAX_PARTIAL_BAND: a band along the whole side
 * is bandInside's), the face past it (faceAfterBand); on the others, the edge point of the
 * reading `taken` on that profile (within 1.5 px of its line). The line through them, when
 * MIN_PARTIAL_AGREEMENT of them lie within 1.5 px of it (one straight cut), the band is not
 * there unseen between the stretches where it was seen (bandUnseen), and it lies
 * MIN_FACE_SHIFT or more inside `taken`'s on average over the side's ends, neither end more than
 * `reach` px from it; null otherwise. (On the profiles with the band both colour readings find its
 * outer edge, on the others the cut, and the line fitted through both lies between them, tilted:
 * drawn, 1.4–1.8 px outside the cut on average, and inside it at one end.)
 */
export function pastPartialBand(
  colourAt: RgbSampler,
  side: SideGeometry,
  taken: Trace,
  reach: number,
  table: number[],
  border: number[],
): Trace | null {
  const faces = facesPastBand(colourAt, side, taken.line, reach, table, border, DARK_BAND);
  const banded = faces.filter((point) => point !== null).length;
  if (banded < MIN_PARTIAL_BAND * EDGE_PROFILES || banded >= MAX_PARTIAL_BAND * EDGE_PROFILES) return null;
  const own: (Point | null)[] = faces.map(() => null);
  for (const point of taken.close) {
    const s = profileOf(side.p, side.q, point);
    if (s >= 0 && s < EDGE_PROFILES) own[s] = point;
  }
  const points = faces.map((face, s) => face ?? own[s] ?? null).filter((point): point is Point => point !== null);
  const cut = traced(points);
  if (!cut || cut.close.length < MIN_PARTIAL_AGREEMENT * points.length) return null;
  if (bandUnseen(side, cut.line, faces, own)) return null;
  // The line taken, tilted between the two groups, may lie inside the cut at one end.
  return liesInside(side, taken.line, cut.line, reach, reach) ? cut : null;
}

/**
 * True when the profiles showing no band between the first and the last that show one (at least
 * MIN_UNSEEN_PROFILES of them with an edge point on the line taken) have that point, at the median,
 * further outside the cut than UNSEEN_BAND_SHARE of the band's width (the median of the banded
 * profiles' edge points' distance outside it): the band lies there too, unseen by the colour test,
 * and where the cut lies along the side cannot be told from where the band was seen. Where a band
 * is truly broken (a card lifting off the table at two places) the edge points between its
 * stretches lie on the cut.
 */
export function bandUnseen(side: SideGeometry, cut: Line, faces: (Point | null)[], own: (Point | null)[]): boolean {
  const first = faces.findIndex((face) => face !== null);
  const last = faces.findLastIndex((face) => face !== null);
  const between: number[] = [];
  const banded: number[] = [];
  for (const [s, point] of own.entries()) {
    if (!point) continue;
    if (faces[s]) banded.push(inwardTo(side, cut, point));
    else if (s > first && s < last) between.push(inwardTo(side, cut, point));
  }
  if (between.length < MIN_UNSEEN_PROFILES || banded.length === 0) return false;
  return median(between) > UNSEEN_BAND_SHARE * median(banded);
}

/** The share of pastPartialBand's points that must lie within 1.5 px of the line through them. */
const MIN_PARTIAL_AGREEMENT = 0.9;

/**
 * Profiles showing a dark band past which pastPartialBand reads the cut, as a share of them. At
 * 0.15, a photo of a card cut out and pasted on white, the grey of its first background left along
 * the top 18 % of one side, had that side's line turned by 2.2 px end to end; its frame there then
 * read 2.85 mm at full resolution and 2.94 at half, 0.8 centering points apart, and the graded
 * photo was refused.
 */
const MIN_PARTIAL_BAND = 0.25;

const MAX_PARTIAL_BAND = 0.8;

/**
 * bandUnseen's limits. `dimas-pikachu.png` (a vintage card on a white desk, its right cut a dark
 * line, then a light one and the shadow's grey within 7 px) shows a band 1.8 px wide on 59 of the
 * top 79 profiles down its right side; the edge points of 12 of the 20 between them (the others
 * have none on the line taken) lie 1.25 px outside the cut through both, at the median (11 and
 * 0.84 px recompressed at JPEG quality 75, where 104 of the
 * 111 points, not 98 of 112, lay within 1.5 px of that line and it was taken: the card read 40.8
 * left to right, where its 50 % crossings measured by hand give 37.9–38.8 and the photo as sent
 * 38.7).
 */
const MIN_UNSEEN_PROFILES = 3;

const UNSEEN_BAND_SHARE = 1 / 3;

/**
 * Each profile's face past a band of `kind` at or inside `line` (faceAfterBand, its band looked for
 * from 2.5 px outside the line to `reach` px inside it, or within BAND_ANCHOR_PX of `around` px
 * inside it), or null where the profile shows no band.
 */
export function facesPastBand(
  colourAt: RgbSampler,
  side: SideGeometry,
  line: Line,
  reach: number,
  table: number[],
  border: number[],
  kind: BandKind,
  around: number | null = null,
): (Point | null)[] {
  const { p, q, nx, ny } = side;
  // Samples 0.5 px apart from `outside` px outside the line (2.5, or enough to hold what lies
  // outside an anchored band: kind.standsOut) in to `reach` px past it, and 3 px more.
  const outside = around === null ? 2.5 : Math.max(2.5, BAND_ANCHOR_PX + BAND_CONTEXT_PX - around);
  const n = Math.round(2 * (outside + reach + 3.5));
  const colours = Array.from({ length: n }, () => [0, 0, 0]);
  const pixel = new Float64Array(3);
  const at = (k: number) => colours[Math.min(n - 1, Math.max(0, k))] as number[];
  const faces: (Point | null)[] = [];
  // Sample k lies at `outside` px outside the line plus k / 2.
  const last = Math.round(2 * (outside + reach));
  const sampleAt = (d: number) => Math.min(last, Math.max(0, Math.round(2 * (d + outside))));
  const [from, to] =
    around === null ? [0, last] : [sampleAt(around - BAND_ANCHOR_PX), sampleAt(around + BAND_ANCHOR_PX)];
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const base = profileBase(p, q, s);
    const start = inwardTo(side, line, base) - outside;
    for (let k = 0; k < n; k++) {
      const d = start + k * 0.5;
      colourAt(base.x + nx * d, base.y + ny * d, pixel);
      const colour = colours[k] as number[];
      colour[0] = pixel[0] ?? 0;
      colour[1] = pixel[1] ?? 0;
      colour[2] = pixel[2] ?? 0;
    }
    const found = faceAfterBand(at, from, to, border, table, kind);
    const d = found && start + found.face * 0.5;
    faces.push(d === null ? null : { x: base.x + nx * d, y: base.y + ny * d });
  }
  return faces;
}

/**
 * True when `inner` lies MIN_FACE_SHIFT or more inside `line` on average over the side's two ends,
 * and neither end lies more than `outward` px outside it (MIN_FACE_SHIFT unless told) or more than
 * `reach` inside (a band's width in the photo changes along a side as the light and the view do).
 */
export function liesInside(
  side: SideGeometry,
  line: Line,
  inner: Line,
  reach: number,
  outward = MIN_FACE_SHIFT,
): boolean {
  const shifts = [side.p, side.q].map((end) => inwardTo(side, inner, end) - inwardTo(side, line, end));
  const [first = 0, last = 0] = shifts;
  return first + last >= 2 * MIN_FACE_SHIFT && shifts.every((shift) => shift >= -outward && shift <= reach);
}
