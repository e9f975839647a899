// The printed frame on the flat card: where the border ends and the artwork begins, per side.
// Each side's line is read from its scan lines (frame-side.ts, measureSide): the first step out
// of the border's colour along each, a straight line through the depth most of them share, and
// print in the border read past as islands. That line is the side's frame only as follows.
// A frame behind print is read only beside a plain opposite border (printReading): the print
// within that border's depth, it is the side's frame; deeper and as deep as a collector bar (a modern Magic card's), the end is a bar of the
// border's colour, whose designed width a photo cannot tell from a miscut, and centering.ts reads
// that axis from the other end against the side borders; deeper but shallower than such a bar,
// the side is refused. Print before the frame that is no island is
// refused on more than a quarter of the lines. Nor is a line with a fainter straight
// line before it, found when the side is read again at a lower threshold (a frame of nearly the
// border's colour, the art's edge beyond it: fainterLineBefore). A side with a plain border on
// which no clear line is found is read again at that lower threshold, and a clear line found so
// is its frame (faintWhereUnclear). The side's width is the line's
// mean distance from the edge. A side without a frame whose border strip varies as print does is
// refused as having no plain border (a full-art card: borderless). The whole measurement is made
// twice, on the flat card and on a copy at half its resolution (an independent second scale):
// centering.ts compares the two before anything is reported. On the half copy the border's
// colour is read no deeper than on the flat card.
// A border printed as a bevelled rim (rim.ts: shading steadily darker from the cut to a sharp
// step into the body, as a Yu-Gi-Oh! card's) on all four sides is read from its darkest instead:
// the border's colour on the pixel where each side's rim is darkest (at both scales), the frame
// the first step past it; such a side must find that step on the line on MIN_RIM_AGREEMENT of
// its scan lines.

import { medianFrame } from "./frame-median";
import {
  measureSide,
  medianLumaProfile,
  SIDES,
  type Side,
  type SideMeasurement,
  type SideReading,
  type StripAt,
} from "./frame-side";
import { FLAT_PX_PER_MM, median } from "./geometry";
import { downscaleByArea, downscaleToFit, oneBorderInk, type RgbaImage } from "./image";
import { rimFromCut, rimLow, rimReach } from "./rim";

export type FrameResult =
  | {
      ok: true;
      sides: Record<Side, SideMeasurement>;
      /** The end border printed as a bar deeper than the others (printReading), or null. */
      bar: "top" | "bottom" | null;
    }
  | {
      ok: false;
      side: Side;
      reason: string;
      /**
       * Refused for two inks (differentInks): every side as measured, the lines found and the
       * colours read before them (analyse-face.ts reads a card lying on another from them).
       */
      inks?: Record<Side, SideMeasurement>;
      /**
       * The side's scan lines did not tell one line (none clear, print before the line most find,
       * a broken line, a line leaning past the limit, print with no frame behind it): the card
       * may be read from its sides' median profiles (medianFrameOf, frame-median.ts).
       */
      unclear?: true;
    };

const MIN_AGREEMENT = 0.4;

const MIN_COVERAGE = 0.6;

/**
 * Over the 60 % of a side that is scanned, the frame line may lean at most this much (mm; 0.43°
 * over the 53 mm scanned of a long side), or 1.5 of the measured image's pixels where those are
 * coarser. A real phone photo's rectified edge leans 0.2–0.38 mm against a frame printed square
 * (the corners are found to about a pixel, the lens bends lines); a 0.38 mm lean on a
 * yellow-bordered card small in a 1920 × 1080 photo was its true frame, checked by eye.
 */
export const MAX_FRAME_LEAN_MM = 0.4;

/**
 * Beside a cut traced cleanly (refine-outline.ts: at least MIN_CLEAN_CUT of the side's profiles
 * on its line), the frame line may lean up to this much (mm): the card's edge is then not in
 * doubt, and a frame leaning against it is printed off square (a real vintage back's left border
 * narrows from 2.9 to 2.4 mm down its side, a lean of 0.43 mm read row by row). Where the lean
 * reached this with the limit at MAX_FRAME_LEAN_MM for every side, on one drawn photo of the 910
 * measured, the side's line ran off the cut at one corner: half its profiles lay on its line.
 */
export const MAX_CLEAN_CUT_LEAN_MM = 0.5;

/**
 * ...and only in a sharp photo, the cut rising over at most this much (mm): blurred, the frame's
 * step spreads and its line leans of itself (a drawn card blurred over 0.81 mm, its cuts traced
 * cleanly, leans 0.44 mm and is 1.73 points off; the real back above rises over 0.37 mm).
 */
export const MAX_CLEAN_CUT_BLUR_MM = 0.5;

/**
 * At most this share of the scan lines may meet print before the frame line (by more than 0.25 mm):
 * a chip or a speck of dirt in the border is a few lines, text printed in the border a run of them.
 */
export const MAX_PRINT_BEFORE = 0.25;

const MAX_FRAME_LEAN_PX = 1.5;

/** The lean a frame line may have on an image measured at `scale` flat-card pixels per pixel (mm). */
const maxLeanMm = (scale: number) => Math.max(MAX_FRAME_LEAN_MM, (MAX_FRAME_LEAN_PX * scale) / FLAT_PX_PER_MM);

/**
 * A side whose frame is not found, and whose "border" (the strip 0.35–0.75 mm in from the cut)
 * varies more than this (colour levels, the strip's noise), has no plain border there: the art
 * runs to the cut. On the real photos measured a printed border's noise is 1–37 levels (35: a
 * yellow border photographed on red felt, measured), and full-art One Piece cards' strips 93–117.
 * Only the refusal's wording depends on it.
 */
const BORDERLESS_NOISE = 60;

/**
 * The frame measured on the flat card (scale 1) and on its half-resolution copy (scale 2), and,
 * when asked (centering.ts, agreeAtThreeScales), on a copy at three quarters of its resolution.
 * `blurMm`: how far the card's cut rises (10–90 %) in the photo, in mm (the frame's step is spread
 * as far).
 */
export function measureFrameTwice(
  flat: RgbaImage,
  blurMm = 0,
  cleanCuts: ReadonlySet<Side> = new Set(),
  bows: Partial<Record<Side, number>> = {},
  tableLuma = 0,
): {
  full: FrameResult;
  half: FrameResult;
  threeQuarter: () => FrameResult;
  softFull: (sides: readonly Side[]) => FrameResult;
} {
  const half = downscaleToFit(flat, Math.round(Math.max(flat.width, flat.height) / 2));
  const rim = bevelledRim(flat, 1, blurMm) ?? undefined;
  const full = frameAt(flat, 1, blurMm, cleanCuts, tableLuma, rim, bows);
  let threeQuarter: FrameResult | undefined;
  return {
    full: full.result,
    half: frameAt(half, flat.width / half.width, blurMm, cleanCuts, tableLuma, full.strips, bows).result,
    threeQuarter: () => {
      if (!threeQuarter) {
        const copy = downscaleByArea(flat, Math.round((flat.width * 3) / 4), Math.round((flat.height * 3) / 4));
        threeQuarter = frameAt(copy, flat.width / copy.width, blurMm, cleanCuts, tableLuma, full.strips, bows).result;
      }
      return threeQuarter;
    },
    softFull: (sides) => frameAt(flat, 1, blurMm, cleanCuts, tableLuma, softSteps(rim, sides), bows).result,
  };
}

/**
 * How far (mm) a frame's step is followed either way as a ramp on the sides where the flat card
 * and its half copy disagree (centering.ts, softStepSettles), whatever the cut's blur: a printed
 * frame whose step rises over 0.4–0.8 mm into flat ink (a modern Magic card's bevelled frame) is
 * read part-way up by the flat card's fixed window and near its middle by the half copy's, whose
 * pixels are twice as wide. Followed to where it levels off, the flat card reads its middle too.
 */
export const SOFT_STEP_MM = 0.8;

/** `given` (where each side's border colour is read) with SOFT_STEP_MM on `sides`. */
function softSteps(given: Record<Side, StripAt> | undefined, sides: readonly Side[]): Record<Side, StripAt> {
  return Object.fromEntries(
    SIDES.map((side) => [
      side,
      sides.includes(side) ? { ...(given?.[side] ?? {}), softStepMm: SOFT_STEP_MM } : (given?.[side] ?? {}),
    ]),
  ) as Record<Side, StripAt>;
}

/**
 * The frame measured on a flat card drawn at twice the flat card's resolution (rectify.ts,
 * unwarpCard with `times` 2) from the photo's own pixels, read as the flat card is (its first
 * reading, at scale ½: widths in flat-card pixels): a second estimate finer than the flat card
 * where its half copy is too coarse for the frame's step (centering.ts, agreeAtThreeScales).
 */
export function measureFrameDouble(
  double: RgbaImage,
  blurMm = 0,
  cleanCuts: ReadonlySet<Side> = new Set(),
  bows: Partial<Record<Side, number>> = {},
  tableLuma = 0,
  softSides: readonly Side[] = [],
): FrameResult {
  const scale = 1 / 2;
  const rim = bevelledRim(double, scale, blurMm) ?? undefined;
  return frameAt(
    double,
    scale,
    blurMm,
    cleanCuts,
    tableLuma,
    softSides.length > 0 ? softSteps(rim, softSides) : rim,
    bows,
  ).result;
}

/**
 * Two sides whose border colours cannot be one ink in two lights (image.ts, sameInk), or null: a
 * card's border is printed in one ink all round. On the 240 drawn photos (both faces; uneven
 * light, colour casts, vignetting, glare) the sides' colours differ by at most 0.013 in
 * chromaticity and a brightness ratio of 0.84; on the four real photos measured, 0.032 and 0.89.
 * A card lying on another, offset 1–2 mm and square to it, makes an outline that takes in the
 * other card's band along two sides: read as border there, a white band against a yellow border
 * differs by 0.17 in chromaticity, a black one by a brightness ratio of 0.08. A black border
 * under a sheen is grey, lit as the table is not (sameInkOrSheen); a navy border is not a black
 * band's ink, though both are too dark for their chromaticity to tell (oneBorderInk).
 * A bevelled rim read on every side (rim.ts) is not compared: a bevel takes the light by the way
 * it faces, and its darkest is read where it turns from the light (a real photo of a Yu-Gi-Oh!
 * card: the rim's darkest rgb(116, 131, 146) along the left and top, toward the lamp, and
 * rgb(31, 65, 85) along the right and bottom). Another card's band read as border along two
 * sides shows no rim's shading there.
 */
function differentInks(sides: Record<Side, SideMeasurement>, tableLuma: number): [Side, Side] | null {
  if (SIDES.every((side) => sides[side].rim)) return null;
  const colour = (side: Side) => sides[side].borderColor;
  for (const [i, a] of SIDES.entries()) {
    for (const b of SIDES.slice(i + 1)) {
      if (oneBorderInk(colour(a), colour(b), tableLuma)) continue;
      const between = SIDES.some(
        (c) =>
          c !== a &&
          c !== b &&
          oneBorderInk(colour(a), colour(c), tableLuma) &&
          oneBorderInk(colour(c), colour(b), tableLuma) &&
          colourBetween(colour(a), colour(c), colour(b)),
      );
      if (!between) return [a, b];
    }
  }
  return null;
}

/**
 * A sheen that grows across a glossy card: two sides' colours too far apart to be one ink in two
 * lights (oneBorderInk) are still one ink when a third side's colour lies between them, on the
 * line joining them in RGB (within SHEEN_LINE_SHARE of their distance apart from it, at least
 * SHEEN_BETWEEN_SHARE of the way from either end), and is one ink with each. A lamp's reflection
 * spreads over the face, not along one side only, so the side between them in the light reads
 * between them in colour; another card's band or a sleeve's margin along one or two sides is a
 * second material, and no side reads between it and the ink. Light adds linearly, so the line
 * bends a little in the photo's gamma-encoded levels: a blue border drawn under a warm light
 * growing across the card (black-sheen.test.ts) reads its top 3.5 % of the way apart off it.
 * On a real photo of a Pokémon card's back on a dark mat under a warm lamp, its blue border
 * reads rgb(46, 83, 177) along the left, rgb(81, 105, 180) along the right and rgb(138, 145, 185)
 * along the bottom, where the warm light's reflection keeps 0.38 of the ink's hue
 * (sameInkUnderSheen asks 0.4, for a grey light's): the right's colour lies 37 % of the way from
 * the left's to the bottom's, 1.3 levels off that line. So read, the card measures 51.6 / 49.3;
 * the same card photographed upright, its sheen within one ink in two lights, 51.3 / 49.3.
 */
const SHEEN_LINE_SHARE = 0.08;

const SHEEN_BETWEEN_SHARE = 0.2;

function colourBetween(a: readonly number[], c: readonly number[], b: readonly number[]): boolean {
  let length2 = 0;
  let dot = 0;
  let fromA2 = 0;
  for (let ch = 0; ch < 3; ch++) {
    const ab = (b[ch] ?? 0) - (a[ch] ?? 0);
    const ac = (c[ch] ?? 0) - (a[ch] ?? 0);
    length2 += ab * ab;
    dot += ab * ac;
    fromA2 += ac * ac;
  }
  const length = Math.sqrt(length2);
  if (length === 0) return false;
  const along = dot / length;
  const off = Math.sqrt(Math.max(0, fromA2 - along * along));
  return (
    off <= SHEEN_LINE_SHARE * length &&
    along >= SHEEN_BETWEEN_SHARE * length &&
    along <= (1 - SHEEN_BETWEEN_SHARE) * length
  );
}

const rgb = (c: readonly number[]) => `rgb(${c.map((v) => Math.round(v)).join(", ")})`;

/** `scale`: flat-card pixels per pixel of `flat` (widths are reported in flat-card pixels). */
export function measureFrame(flat: RgbaImage, scale = 1, blurMm = 0): FrameResult {
  return frameAt(flat, scale, blurMm, new Set(), 0, bevelledRim(flat, scale, blurMm) ?? undefined).result;
}

/** The frame on `side` read from its median profiles (frame-median.ts), where the scan lines' `reading` began its border. */
function medianSide(
  flat: RgbaImage,
  side: Side,
  scale: number,
  reading: SideReading,
  maxLean: number,
): SideMeasurement | null {
  if (reading.strip.rimAt !== undefined) return null;
  const noise = reading.ok ? reading.measured.borderNoise : reading.borderNoise;
  return medianFrame(flat, side, scale, reading.strip.settledFrom ?? 0.35, maxLean, noise);
}

/**
 * All four sides read from their median profiles (marked so in their strips), or null where one
 * is not. A card whose scan lines do not tell its frame on a side (FrameResult `unclear`) is read
 * so (frameAt), all four sides alike, so that the borders set against each other are read the same
 * way, and is measured so when the frame then passes every check the scan lines' reading must
 * (frameOf); its other scales read those sides so too (StripAt `median`). A side on a bevelled rim
 * or beside a bowed cut, which the scan lines read in their own way, is not read so. On the local
 * real photos this measured two cards the scan lines had refused (a black-bordered Magic card, its
 * frame 12–27 levels off the border, and a Flesh and Blood card's gold rule before a black body),
 * 0.6 and 0.1 points from a hand reading; of the drawn photos of `npm run accuracy` none changed.
 * On a real photo of an old-frame Magic card the top's frame rises 7 luma levels out of the border
 * 3.15 mm in and on into a light edge at 3.9 mm: a step followed on past where it first stands out
 * took the light edge for the frame, a centering 5 points off, so a step is placed within a window
 * of where it first stands out (frame-median.ts, firstStep), and there the stretches disagree and
 * the card is refused.
 */
function medianFrameOf(
  flat: RgbaImage,
  scale: number,
  readings: Record<Side, SideReading>,
  maxLean: (side: Side) => number,
  bows: Partial<Record<Side, number>>,
): Record<Side, SideReading> | null {
  const again = {} as Record<Side, SideReading>;
  for (const side of SIDES) {
    if ((bows[side] ?? 0) !== 0) return null;
    const reading = readings[side];
    // A side whose scan lines' line leaned past the limit is read so only where its median
    // profiles find the frame nearly square, leaning at most half as much: the lean was then
    // the scatter of the scan lines' steps over a textured border (drawn black cards, 0.68–0.74
    // mm against 0.00–0.10). A frame printed turned leans in both readings (0.45 mm and 0.375,
    // frame.test.ts), and keeps the scan lines' refusal.
    const limit = reading.ok && reading.measured.lean > maxLean(side) ? reading.measured.lean / 2 : maxLean(side);
    const measured = medianSide(flat, side, scale, reading, limit);
    if (!measured) return null;
    again[side] = { ok: true, measured, strip: { ...reading.strip, median: true } };
  }
  return again;
}

/**
 * The frame at one scale (measureFrame), and where each side's border colour was read (`given`:
 * where the other scale read it, or each side's rim). The half-resolution copy's strip starts no deeper than its first pixel whose
 * centre lies past where the flat card's began. Settled on its own pixels of 0.25 mm (the flat
 * card's are 0.125 mm), a soft cut moved it up to 0.5 mm further in than on the flat card, onto
 * print beginning 0.6–0.8 mm from the cut (the first row of a two-row copyright line): the scan
 * lines that met that print there took its second row for print before the frame, not an island
 * in the border, and at that scale the frame went unfound on 4 of 350 drawn photos whose flat
 * card measured it. It still settles less deep than that where it can (clear of a chipped or
 * whitened rim on the cut's side).
 */
function frameAt(
  flat: RgbaImage,
  scale: number,
  blurMm: number,
  cleanCuts: ReadonlySet<Side>,
  tableLuma: number,
  given?: Record<Side, StripAt>,
  bows: Partial<Record<Side, number>> = {},
): { result: FrameResult; strips: Record<Side, StripAt> } {
  const readings = {} as Record<Side, SideReading>;
  for (const side of SIDES) {
    const reading = measureSide(flat, side, scale, blurMm, given?.[side], undefined, undefined, bows[side] ?? 0);
    readings[side] = faintWhereUnclear(
      flat,
      side,
      scale,
      blurMm,
      reading,
      leanLimit(side, scale, cleanCuts),
      bows[side] ?? 0,
    );
  }
  // Sides the flat card read from their median profiles are read so at this scale too.
  for (const side of SIDES) {
    if (!given?.[side]?.median) continue;
    const reading = readings[side];
    const measured = medianSide(flat, side, scale, reading, leanLimit(side, scale, cleanCuts));
    readings[side] = measured
      ? { ok: true, measured, strip: reading.strip }
      : {
          ok: false,
          borderNoise: reading.ok ? reading.measured.borderNoise : reading.borderNoise,
          strip: reading.strip,
        };
  }
  let result = frameOf(flat, scale, blurMm, readings, cleanCuts, tableLuma);
  // One side's border read as another ink than the three others' one, or one side refused while the
  // three others are measured in one ink: read again where its border shows theirs (a thumb over
  // part of it), and taken when it then passes.
  const odd = result.ok
    ? null
    : result.inks
      ? oddInk(result.inks, tableLuma)
      : refusedBesideOneInk(readings, result.side, tableLuma);
  if (odd) {
    const { side, ink } = odd;
    const strip: StripAt = { ...(given?.[side] ?? {}), ink };
    const bow = bows[side] ?? 0;
    const reading = measureSide(flat, side, scale, blurMm, strip, undefined, undefined, bow);
    const again = {
      ...readings,
      [side]: faintWhereUnclear(flat, side, scale, blurMm, reading, leanLimit(side, scale, cleanCuts), bow),
    };
    const retried = frameOf(flat, scale, blurMm, again, cleanCuts, tableLuma);
    if (retried.ok) {
      Object.assign(readings, again);
      result = retried;
    }
  }
  // A first reading refused for a side its scan lines did not tell: the card read again from its
  // sides' median profiles, all four, and taken when that passes.
  if (!result.ok && result.unclear && scale <= 1 && !SIDES.some((side) => given?.[side]?.median)) {
    const again = medianFrameOf(flat, scale, readings, (side) => leanLimit(side, scale, cleanCuts), bows);
    const retried = again ? frameOf(flat, scale, blurMm, again, cleanCuts, tableLuma) : null;
    if (again && retried?.ok) {
      Object.assign(readings, again);
      result = retried;
    }
  }
  const strips = Object.fromEntries(SIDES.map((side) => [side, readings[side].strip])) as Record<Side, StripAt>;
  const banded = scale === 1 ? greyBandBesideBlack(flat, tableLuma, bows) : null;
  return { result: banded ?? result, strips };
}

/** A black border: its median luma past the cut at most this. */
const BAND_BLACK_MAX_LUMA = 30;
/** The table beside it is light: at least this many luma levels above the border. */
const BAND_TABLE_CONTRAST = 90;
/** The band's first two flat-card pixels (0.25 mm) are each at least this many levels above the border... */
const BAND_MIN_RISE = 20;
/** ...and one of the next two is back within this many levels of the border's black, past a step (not a blur's ramp)... */
const BAND_BACK_WITHIN = 8;
/** ...while the opposite side's first two are within this of its own border (no band there). */
const BAND_OPPOSITE_MAX_RISE = 16;

/**
 * A side refused because a grey band runs along its cut beside a black border on a light table,
 * on that side only: the median luma over the side's middle 60 % stays BAND_MIN_RISE or more
 * above the border's black over the first 0.25 mm inside the cut, then steps back to the black
 * within 0.5 mm, falling faster past the band than across it (a cut's blur is a ramp, falling
 * ever less steeply), and the opposite side shows no such band. That band is the card's edge
 * seen at a slant (its thickness, the paper between its printed faces), its contact shadow on
 * the table (lit from the other side), or a strip of its face along the whole side (its rolled
 * edge lit from that side, or whitened): the outline takes it in, and where the face begins
 * cannot be told. Two held-out real photos so were taken from over the card itself (their
 * lenses named: the camera 11.7 and 13.2 cm above a point inside its outline), from where no
 * side of a flat card shows its edge: a shadow or the face, which no colour tells apart. On a
 * held-out real photo of a modern Magic card on white paper (2026-12-05), a band 0.4 mm wide
 * along its left cut (luma 51 and 42 against the border's 18) was measured as border: 57.0 left
 * to right, against 52–55 read by hand from the black's own edge. Sides read from a bowed cut
 * (`bows`) are not looked at: their flat edge is not the cut. Null when no side shows such a
 * band, or the table is not known (0).
 */
function greyBandBesideBlack(
  flat: RgbaImage,
  tableLuma: number,
  bows: Partial<Record<Side, number>>,
): { ok: false; side: Side; reason: string } | null {
  // No black border lies BAND_TABLE_CONTRAST below a table darker than that (nor an unknown one, 0).
  if (tableLuma < BAND_TABLE_CONTRAST) return null;
  const profiles = Object.fromEntries(SIDES.map((side) => [side, medianLumaProfile(flat, side, 11)])) as Record<
    Side,
    Float64Array
  >;
  const borderOf = (profile: Float64Array) => median(Array.from(profile.subarray(5, 11)));
  for (const side of SIDES) {
    if ((bows[side] ?? 0) > 0) continue;
    const profile = profiles[side];
    const black = borderOf(profile);
    if (black > BAND_BLACK_MAX_LUMA || tableLuma < black + BAND_TABLE_CONTRAST) continue;
    const [, first = 0, second = 0, third = 0, fourth = 0] = profile;
    if (Math.min(first, second) < black + BAND_MIN_RISE) continue;
    // A step: the fall into the black is steeper than the band's own (a blur's ramp falls
    // steadily less, 56, 39, 28, 21 on a real soft cut beside a black border of 11).
    if (Math.min(third, fourth) > black + BAND_BACK_WITHIN || second - third <= first - second) continue;
    const opposite = profiles[OPPOSITE[side]];
    const [, oFirst = 0, oSecond = 0] = opposite;
    if (Math.max(oFirst, oSecond) > borderOf(opposite) + BAND_OPPOSITE_MAX_RISE) continue;
    return {
      ok: false,
      side,
      reason: `the card's ${side} edge has a grey band along its cut, lighter than its black border and not shown along its ${OPPOSITE[side]} edge (the card's edge seen at a slant, its shadow on the table, or a strip of its face), so where its face begins on that side cannot be told; photograph the card from straight above, lit evenly`,
    };
  }
  return null;
}

/**
 * `side`, refused, when the three other sides were measured in one ink (oneInkOf), and that ink;
 * null otherwise.
 */
function refusedBesideOneInk(
  readings: Record<Side, SideReading>,
  side: Side | null,
  tableLuma: number,
): { side: Side; ink: [number, number, number] } | null {
  if (side === null) return null;
  const colours: [number, number, number][] = [];
  for (const other of SIDES) {
    if (other === side) continue;
    const reading = readings[other];
    if (!reading.ok) return null;
    colours.push(reading.measured.borderColor);
  }
  const ink = oneInkOf(colours, tableLuma);
  return ink ? { side, ink } : null;
}

/**
 * The one side whose border colour is no ink of the other three's, which are one (oneInkOf), and
 * their ink; null otherwise.
 */
function oddInk(
  sides: Record<Side, SideMeasurement>,
  tableLuma: number,
): { side: Side; ink: [number, number, number] } | null {
  const odd: { side: Side; ink: [number, number, number] }[] = [];
  for (const side of SIDES) {
    const others = SIDES.filter((other) => other !== side).map((other) => sides[other].borderColor);
    const ink = oneInkOf(others, tableLuma);
    if (ink && others.some((colour) => !oneBorderInk(sides[side].borderColor, colour, tableLuma)))
      odd.push({ side, ink });
  }
  return odd.length === 1 ? (odd[0] ?? null) : null;
}

/** The colours' per-channel median when every two of them are one ink (image.ts, oneBorderInk), else null. */
function oneInkOf(colours: readonly [number, number, number][], tableLuma: number): [number, number, number] | null {
  const oneInk = colours.every((a, i) => colours.slice(i + 1).every((b) => oneBorderInk(a, b, tableLuma)));
  return oneInk ? ([0, 1, 2].map((ch) => median(colours.map((c) => c[ch] ?? 0))) as [number, number, number]) : null;
}

/**
 * The frame from the four sides' readings, or the first side's reason it cannot be measured.
 * `cleanCuts`: the sides whose cut was traced cleanly (MAX_CLEAN_CUT_LEAN_MM); `tableLuma`: the
 * table's, for a black border under a sheen (differentInks; 0 when not known: no sheen allowed).
 */
function frameOf(
  flat: RgbaImage,
  scale: number,
  blurMm: number,
  readings: Record<Side, SideReading>,
  cleanCuts: ReadonlySet<Side>,
  tableLuma: number,
): FrameResult {
  const sides = {} as Record<Side, SideMeasurement>;
  let bar: "top" | "bottom" | null = null;
  for (const side of SIDES) {
    const reading = readings[side];
    if (!reading.ok) {
      return {
        ok: false,
        side,
        ...unclearUnlessBorderless(
          side,
          reading.borderNoise,
          `the printed frame could not be found on the ${side} side`,
        ),
      };
    }
    const measured = reading.measured;
    if (measured.coverage < MIN_COVERAGE || measured.agreement < MIN_AGREEMENT) {
      return {
        ok: false,
        side,
        ...unclearUnlessBorderless(
          side,
          measured.borderNoise,
          `the printed frame on the ${side} side is not clear enough to measure`,
        ),
      };
    }
    if (
      reading.strip.rimAt !== undefined &&
      (measured.behind > MAX_RIM_BEHIND || measured.agreement < MIN_RIM_AGREEMENT)
    ) {
      return {
        ok: false,
        side,
        reason: `the ${side} border's rim does not end at one line: on ${Math.round(100 * (1 - measured.agreement))} % of its scan lines the step out of it lies off the line the others find (print or dark art across the rim's inner edge), so the printed frame cannot be told on that side`,
      };
    }
    const print = printReading(side, measured, readings[OPPOSITE[side]], scale);
    if (print.refusal) return { ok: false, side, reason: print.refusal, unclear: true };
    // Print is read on the ends only (measureSide), so a bar is the top's or the bottom's.
    if (print.bar && (side === "top" || side === "bottom")) bar = side;
    if (measured.brokenIsland) {
      return {
        ok: false,
        side,
        reason: `the ${side} border holds a broken line ${(measured.width / FLAT_PX_PER_MM).toFixed(1)} mm in with the border's colour behind it (print along the side, or a frame of nearly the border's colour), so which line is the printed frame cannot be told`,
        unclear: true,
      };
    }
    // A bar's line is in no offset (centering.ts), and the print in it is more than rows of
    // letters (a set's icon, a rarity's dot, three rows of credits): print that is no island
    // there leaves its line standing for the evidence and wear, as the deepest line most reach.
    if (measured.printBefore > MAX_PRINT_BEFORE && bar !== side) {
      return {
        ok: false,
        side,
        reason: `the ${side} border holds print before the line most scan lines find, so the printed frame cannot be told on that side`,
        unclear: true,
      };
    }
    // A bar's line may lean too: its width is in no offset, and its frame may step (a modern
    // card's text box trimmed in another ink along part of its foot, 0.3 mm apart).
    if (measured.lean > leanLimit(side, scale, cleanCuts) && bar !== side) {
      return {
        ok: false,
        side,
        reason: `the line found on the ${side} side is not parallel to the card's edge (it leans ${measured.lean.toFixed(2)} mm): either it is not the printed frame, or the card's edge there was placed off true (a worn edge or a shadow taken in along part of it)`,
        unclear: true,
      };
    }
    const length = sideLength(flat, side);
    if (
      scale === 1 &&
      measured.bow > 0 &&
      measured.frameBow < MIN_FRAME_BOW_FOLLOW * measured.bow &&
      (measured.bow - measured.frameBow) * length > MIN_UNFOLLOWED_BOW_MM * FLAT_PX_PER_MM
    ) {
      const mm = (share: number) => ((share * length) / FLAT_PX_PER_MM).toFixed(2);
      return {
        ok: false,
        side,
        reason: `the card's ${side} edge bows ${mm(measured.bow)} mm out from a straight line, but the printed frame beside it ${measured.frameBow * length >= 0.05 * FLAT_PX_PER_MM ? `only ${mm(measured.frameBow)} mm` : "not at all"}: a card that bends (or a lens that bends it) bends its frame with it, so the curve is not the card's cut but something along part of it (a shadow, a band, a sleeve's edge), and where the card ends on that side cannot be told; photograph the card lying flat, lit from above`,
      };
    }
    // A bar's line is in no offset (centering.ts: that axis is read from the opposite border
    // against the sides'), so a fainter line before it moves no centering: on a real photo of a
    // modern Magic card, a straight shade 1.4 mm in across its collector bar, in front of the
    // bar's two rows of print (2.8 mm in) and its frame (6.3 mm), refused a card the engine reads
    // past it at 48.4 / 50.7 (by hand on luma profiles, 48.4 / 49.9).
    const faint = bar === side ? null : fainterLineBefore(flat, side, scale, blurMm, measured, reading.strip);
    if (faint !== null) {
      const mm = (px: number) => (px / FLAT_PX_PER_MM).toFixed(1);
      return {
        ok: false,
        side,
        reason: `the ${side} border shows a faint straight line ${mm(faint)} mm in, before the line found ${mm(measured.width)} mm in: the printed frame may be that faint line (a frame of nearly the border's colour, as a yellow body inside a yellow border) and the line found the art's edge, so which is the frame cannot be told`,
      };
    }
    sides[side] = measured;
  }
  const odd = differentInks(sides, tableLuma);
  if (odd) {
    const [a, b] = odd;
    return {
      ok: false,
      side: b,
      reason: `the ${a} border reads ${rgb(sides[a].borderColor)} and the ${b} border ${rgb(sides[b].borderColor)}, not one ink in two lights, so what lies along the card's edge on one of them is not its border (another card beneath it, a sleeve's margin)`,
      inks: sides,
    };
  }
  return { ok: true, sides, bar };
}

/**
 * On a side whose cut is read as a curve (refine-outline.ts, bowedCut), the printed frame must bow
 * out with it by at least this share of the cut's bow (on the flat card, at full scale): a card
 * that does not lie flat, or a lens bending its edge near the photo's edge, bends the frame 3 mm
 * further in nearly as much. On the real photos and their variants (JPEG 60, noise, a turn, blur,
 * dim light) whose cut bows, the frame followed its cut by 0.40–0.71 (two Magic cards on a
 * playmat and on a desk), 0.92–1.01 (a Pokémon card near the photo's edge) and 0.91–2.2 (a
 * baseball card bent along its length). A blurred copy of a real photo of a black-bordered Magic
 * card on white paper traced its left cut through its shadow's outer edge along the middle, a
 * curve 1.2 mm out past the card's straight cut, and its frame bowed -0.05 times as much: read from
 * the curve, its left border took in 0.6 mm of shadow (55.6 left to right, against 50.8 read from
 * the sharp photo).
 */
const MIN_FRAME_BOW_FOLLOW = 0.25;

/**
 * ...unless the cut bows past the frame by less than this (mm): a frame line's curve is read over
 * the middle 60 % of its side, where a bow of 0.25 mm moves it by 0.09 mm, under a pixel of the
 * flat card; drawn with its edges shared across pixels, a frame bowing 0.3 mm was read as 0.23
 * and 0.6 mm as 0.64.
 */
const MIN_UNFOLLOWED_BOW_MM = 0.25;

/** A side's length on the flat card (pixels). */
const sideLength = (flat: RgbaImage, side: Side) => (side === "left" || side === "right" ? flat.height : flat.width);

/**
 * Where print in the border begins on each side that has it (flat-card pixels from the edge): wear
 * is not read in it (wear.ts), print being no damage.
 */
export function printStarts(sides: Record<Side, SideMeasurement>): Partial<Record<Side, number>> {
  const starts: Partial<Record<Side, number>> = {};
  for (const side of SIDES) {
    const print = sides[side].print;
    if (print && print.share >= MIN_PRINT_SHARE) starts[side] = print.from;
  }
  return starts;
}

/** Print read past on fewer of a side's scan lines than this is a speck, not a line of print. */
const MIN_PRINT_SHARE = 0.1;

const OPPOSITE: Record<Side, Side> = { left: "right", right: "left", top: "bottom", bottom: "top" };

/**
 * Print in a border read past (BorderPrint) on more than MAX_PRINT_BEFORE of a side's scan lines.
 * A card's design prints its copyright or credit line in the border, inside the depth its frame
 * leaves there (a modern Pokémon card's bottom border); or in a bar of the border's colour deeper
 * than the other borders (a modern Magic card's collector bar, 6–7 mm against 2–3 mm). Either is
 * read only beside a plain opposite border measured without print, and only when the print was
 * read past to the frame on MIN_FRAME_BEHIND_PRINT of the scan lines that met it. The frame read
 * past the print is then measured as the side's when the print ends within the opposite side's
 * width and PRINT_DEPTH_MARGIN_MM, and the frame lies at most MAX_PRINTED_SIDE_RATIO times as deep
 * as that side's. Past either, and as deep as a collector bar (MIN_BAR_MM), the side is a bar
 * (`bar`): its designed depth a photo cannot tell from a miscut, so centering.ts reads that axis
 * from the opposite border against the side borders instead (print is read on the ends only, so
 * a bar is an end's); shallower, it is refused. On the real photos
 * measured: a Pokémon card's copyright line ends 2.0 mm in, its frame 2.6 mm and the top's
 * 2.3 mm; modern Magic cards' collector lines reach 4.1–4.4 mm in, their frames 6.6–7.3 mm
 * against 2.2–2.5 mm.
 */
const PRINT_DEPTH_MARGIN_MM = 0.5;

const MAX_PRINTED_SIDE_RATIO = 1.6;

const MIN_FRAME_BEHIND_PRINT = 0.6;

type PrintReading = { refusal: string; bar?: undefined } | { refusal?: undefined; bar: boolean };

function printReading(side: Side, measured: SideMeasurement, opposite: SideReading, scale: number): PrintReading {
  const print = measured.print;
  if (!print || print.share <= MAX_PRINT_BEFORE) return { bar: false };
  const mm = (px: number) => (px / FLAT_PX_PER_MM).toFixed(1);
  const other = OPPOSITE[side];
  const held = `the ${side} border holds print up to ${mm(print.depth)} mm in on ${Math.round(100 * print.share)} % of its scan lines`;
  if (print.frameBehind < MIN_FRAME_BEHIND_PRINT) {
    return {
      refusal: `${held}, and the frame line behind it is not found on most of them, so the printed frame cannot be told on that side`,
    };
  }
  const plain =
    opposite.ok &&
    !(opposite.measured.print && opposite.measured.print.share > MAX_PRINT_BEFORE) &&
    opposite.measured.printBefore <= MAX_PRINT_BEFORE &&
    opposite.measured.coverage >= MIN_COVERAGE &&
    opposite.measured.agreement >= MIN_AGREEMENT &&
    opposite.measured.lean <= maxLeanMm(scale);
  if (!plain) {
    return {
      refusal: `${held}, and the ${other} border is not a plain one to compare it with, so whether the line behind the print is the printed frame cannot be told`,
    };
  }
  const oppositeWidth = opposite.measured.width;
  const deeper =
    print.depth > oppositeWidth + PRINT_DEPTH_MARGIN_MM * FLAT_PX_PER_MM ||
    measured.width > MAX_PRINTED_SIDE_RATIO * oppositeWidth;
  if (!deeper) return { bar: false };
  if (measured.width < MIN_BAR_MM * FLAT_PX_PER_MM || print.depth < MIN_BAR_PRINT_MM * FLAT_PX_PER_MM) {
    return {
      refusal: `${held}, against the ${other} border's ${mm(oppositeWidth)} mm, the line behind it ${mm(measured.width)} mm in: deeper than the ${other} border, yet no collector bar (at least ${MIN_BAR_MM} mm to its frame, print reaching ${MIN_BAR_PRINT_MM} mm in), so a miscut cannot be told from the design and the ${side} border cannot be measured`,
    };
  }
  return { bar: true };
}

/**
 * A bar is read as such only when it is as deep as a collector bar: its frame at least
 * MIN_BAR_MM in and its print reaching MIN_BAR_PRINT_MM (modern Magic cards' frames 5.98–6.92 mm
 * behind print reaching 4.1–5.8 mm on the real photos, a Flesh and Blood card's 5.57 behind
 * 4.4). A copyright line in a border of a design whose top is wider than its sides (older
 * Japanese Pokémon cards read 2.8–3.0 mm at the sides, 3.1–3.7 at the top), deepened only by a
 * miscut, would need a miscut over 1.5 mm to reach both, and read against the sides would be
 * off by that design's difference: short of them the side is refused, as every bar was before.
 */
const MIN_BAR_MM = 5;

const MIN_BAR_PRINT_MM = 3.5;

/** How far a side's frame line may lean (mm): further beside a cut traced cleanly (MAX_CLEAN_CUT_LEAN_MM). */
function leanLimit(side: Side, scale: number, cleanCuts: ReadonlySet<Side>): number {
  return cleanCuts.has(side) ? Math.max(maxLeanMm(scale), MAX_CLEAN_CUT_LEAN_MM) : maxLeanMm(scale);
}

/** A line found as a frame must be: on most scan lines, shared by enough of them, and square to the edge. */
function clearLine(measured: SideMeasurement, maxLean: number): boolean {
  return measured.coverage >= MIN_COVERAGE && measured.agreement >= MIN_AGREEMENT && measured.lean <= maxLean;
}

/**
 * A frame printed in nearly the border's colour, with no clear line further in to take for it (a
 * yellow body inside a yellow border, its frame a faint darker line, and the art's edge running
 * square to the side on only some scan lines): at the step threshold the side finds no line shared
 * by enough of its scan lines (or no step at all). Such a side is read again at FAINT_SIGMAS × its
 * noise (at least FAINT_FLOOR levels) when its border is plain (its scatter at most
 * FAINT_PLAIN_NOISE: a border with print in it would show the print's faint edges first), and that
 * reading is taken when its line is clear by the same rules. On a real photo of a
 * yellow-bordered card (3264 × 1836, the card 764 px wide in it) the left side so found its frame 2.68 mm
 * in (2.64 mm by hand, on the darker line), instead of the art's edge 4.63 mm in on 38 % of the lines.
 */
const FAINT_PLAIN_NOISE = 24;

function faintWhereUnclear(
  flat: RgbaImage,
  side: Side,
  scale: number,
  blurMm: number,
  reading: SideReading,
  maxLean: number,
  bow: number,
): SideReading {
  if (reading.strip.rimAt !== undefined) return reading;
  if ((reading.ok ? reading.measured.borderNoise : reading.borderNoise) > FAINT_PLAIN_NOISE) return reading;
  // A line found but leaning is not read again: blur leans a frame's line of itself (a drawn card
  // blurred over 0.81 mm leans 0.44 mm), and a fainter reading would hide the blur it shows.
  if (reading.ok && clearLine(reading.measured, Number.POSITIVE_INFINITY)) return reading;
  const faint = measureSide(flat, side, scale, blurMm, reading.strip, FAINT_SIGMAS, FAINT_FLOOR, bow);
  return faint.ok && clearLine(faint.measured, maxLean) ? faint : reading;
}

/**
 * The frame must be the first line in from the edge, faint or not. A frame printed in nearly the
 * border's colour (a modern yellow-bordered card's yellow body) can stay under the step threshold
 * on most scan lines while the art's edge further in clears it on all: measured so, the art's
 * edge is taken for the frame. Each side that passed is read again at FAINT_SIGMAS × the noise
 * (at least FAINT_FLOOR levels); when that reading finds a line by the same rules (coverage,
 * agreement, lean) lying more than FAINT_MARGIN_MM, or the cut's blur, nearer the edge, its depth
 * is returned (flat-card pixels) and the side is refused. A blurred step is crossed earlier at a
 * lower threshold, by up to about its blur: hence the margin.
 */
const FAINT_SIGMAS = 3;

const FAINT_FLOOR = 12;

const FAINT_MARGIN_MM = 0.5;

function fainterLineBefore(
  flat: RgbaImage,
  side: Side,
  scale: number,
  blurMm: number,
  found: SideMeasurement,
  strip: StripAt,
): number | null {
  const before = found.width - Math.max(FAINT_MARGIN_MM, blurMm) * FLAT_PX_PER_MM;
  if (before <= 0) return null;
  // The whole depth is read again, not only up to `before`: the faint line must be the line most
  // scan lines share, as the frame must, among every step the lower threshold finds.
  const reading = measureSide(flat, side, scale, blurMm, strip, FAINT_SIGMAS, FAINT_FLOOR, found.bow);
  if (!reading.ok) return null;
  const faint = reading.measured;
  return clearLine(faint, maxLeanMm(scale)) && faint.width < before ? faint.width : null;
}

/** A side with no frame found: refused as borderless (not read again), or for `reason` and unclear. */
function unclearUnlessBorderless(side: Side, noise: number, reason: string): { reason: string; unclear?: true } {
  const none = borderless(side, noise);
  return none ? { reason: none } : { reason, unclear: true };
}

/** Why a side without a frame found has no border to measure, or null when its border is plain. */
function borderless(side: Side, noise: number): string | null {
  if (noise <= BORDERLESS_NOISE) return null;
  return `the card shows no plain border along its ${side} edge: within 0.75 mm of the cut its colour varies as print does (noise ${Math.round(noise)} levels; a printed border's is under 40), so either its art runs to the cut (a borderless or full-art card, whose centering has no border to be measured by) or the outline found there is not the card's cut`;
}

/**
 * Each border (flat-card pixels) as far as it reaches in from the flat card's edge along its whole
 * side: on a side whose cut bows out past that edge (SideMeasurement.bow), the border read from
 * the cut is wider than the flat card shows at the side's middle by the bow there. The wear
 * readings take the border from the flat card's edge, and would otherwise reach into the frame.
 */
export function bordersWithinChord(sides: Record<Side, SideMeasurement>, flat: RgbaImage): Record<Side, number> {
  const along = (side: Side) => (side === "left" || side === "right" ? flat.height : flat.width);
  const within = (side: Side) => Math.max(0, sides[side].width - sides[side].bow * along(side));
  return { left: within("left"), right: within("right"), top: within("top"), bottom: within("bottom") };
}

/**
 * On a rim, at most MAX_RIM_BEHIND of a side's scan lines may find their first step past its frame
 * line, and at least MIN_RIM_AGREEMENT must find it on the line: a rim's inner edge is a step
 * into the body all along (every scan line of the drawn and real rims measured finds it, but one
 * in fifty), and where the dark runs on past it on more lines (print or dark art across it), the
 * line fitted leans into them and which line is the frame cannot be told.
 */
const MAX_RIM_BEHIND = 0.25;

const MIN_RIM_AGREEMENT = 0.75;

/**
 * Each side's strip when all four sides of `flat` (at `scale` flat-card pixels per pixel) are
 * bevelled rims (rim.ts), read on their median luma profile over the scan lines; null otherwise.
 * Each side's border colour is then read on the strip ending at its rim's darkest, and the first
 * step past it is the frame (on both scales).
 */
export function bevelledRim(flat: RgbaImage, scale: number, blurMm: number): Record<Side, StripAt> | null {
  const pxPerMm = FLAT_PX_PER_MM / scale;
  const strips = {} as Record<Side, StripAt>;
  for (const side of SIDES) {
    const low = rimLow(medianLumaProfile(flat, side, rimReach(pxPerMm, blurMm)), pxPerMm, blurMm);
    if (low === null) return null;
    strips[side] = { rimAt: (low + 1) / pxPerMm };
  }
  return strips;
}

/**
 * True when every side of the flat card (at scale 1) reads as a bevelled rim beginning at the cut
 * (rim.ts, rimFromCut), `blurMm` the cut's rise: a Yu-Gi-Oh! card's rim all round, not a sleeve's
 * margin before one.
 */
export function rimAllRound(flat: RgbaImage, blurMm: number): boolean {
  return SIDES.every(
    (side) =>
      rimFromCut(medianLumaProfile(flat, side, rimReach(FLAT_PX_PER_MM, blurMm)), FLAT_PX_PER_MM, blurMm) !== null,
  );
}
