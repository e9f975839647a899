// The printed frame on the flat card: where the border ends and the artwork begins, per side.
// Each scan line (rows for left/right, columns for top/bottom, the middle 60 % of the side) walks
// inward from just inside the card edge, compares each pixel's colour with the border colour
// measured on a 0.4 mm strip from 0.35 mm in (or where the colour settles after the cut's blur or a
// whitened rim, up to 0.5 mm further) over the scan lines within 2 mm of it (light changes along a
// side), and marks the first run of three pixels that differ by more than the noise allows; the 50 % crossing of that step is its sub-pixel position (read
// between the step's own ends when a soft photo spreads it past the window the level is read in).
// The positions along a side are line evidence: a straight line is fitted through the depth most
// scan lines share (at least 40 % of those that found a step, within ±0.3 mm; lines that found
// something else, such as text where the frame line fades into a body of nearly the border's
// colour, are set aside), and it must run parallel to the card's edge (the frame is printed
// square to the card). Print in the border (a copyright line, an artist's credit, a collector
// line) is an island: a step the border's colour follows again within 1.5 mm. Each scan line is
// read past such islands to its first step that is not one, and when most of the first steps
// were print the frame is the depth most lines reach so. That frame is read only beside a
// plain opposite border (printReading): the print within that border's depth, it is the side's
// frame; deeper and as deep as a collector bar (a modern Magic card's), the end is a bar of the
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
import { FLAT_PX_PER_MM, fitLine, median, type Point, selectKth } from "./geometry";
import { downscaleToFit, oneBorderInk, type RgbaImage, rgbDistance, sameInk } from "./image";
import { rimFromCut, rimLow, rimReach } from "./rim";

export type Side = "left" | "right" | "top" | "bottom";
export const SIDES: readonly Side[] = ["left", "right", "top", "bottom"];

export interface SideMeasurement {
  /** Border width in flat-card pixels (at FLAT_PX_PER_MM). */
  width: number;
  /** Share of scan lines within 1.5 px (0.19 mm) of the fitted frame line. */
  agreement: number;
  /** Share of scan lines on which a transition was found. */
  coverage: number;
  /** How far the frame line leans against the card's edge over the side, in mm. */
  lean: number;
  /** Share of scan lines that met print between the edge and the frame line. */
  printBefore: number;
  /** Share of scan lines whose first step lies past the frame line (the frame missed there). */
  behind: number;
  /** Read as a bevelled rim (rim.ts): the border's colour changes with the depth, and `borderColor` is its darkest. */
  rim: boolean;
  /** Mean border colour (RGB). */
  borderColor: [number, number, number];
  /** The border's scatter: 1.4826 × the median absolute deviation of its reference strip from the side's one colour. */
  borderNoise: number;
  /** Print in the border read past to the frame line on some scan lines; null when none was. */
  print: BorderPrint | null;
  /**
   * Along a side (not read past print): the line most first steps share is broken (at most
   * MAX_PRINT_LINE_SHARE of the scan lines) and the border's colour follows it on most of them.
   */
  brokenIsland: boolean;
  /** How far the side's cut bows out past the flat card's edge at its middle, a share of its length (measureSide). */
  bow: number;
}

/**
 * Print in a border (a copyright or collector line) read past: the scan lines whose first step was
 * an island of print (the border's colour behind it) and whose step past it lies on the frame line.
 */
export interface BorderPrint {
  /** Where the print begins (its first step; 10th percentile, flat-card pixels from the edge). */
  from: number;
  /** How deep the print reaches (where the border's colour resumes behind it; 90th percentile, flat-card pixels). */
  depth: number;
  /** Share of the scan lines that met print before the frame and were read past it. */
  share: number;
  /** Share of the scan lines that met print before the frame on which it was read past to the frame. */
  frameBehind: number;
}

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
    };

/** How far inward the frame is looked for: 30 % of the card's width (19 mm). */
const MAX_SCAN_SHARE = 0.3;
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
/** A scan line's border colour is the strip's over the scan lines within this distance (mm) along the side. */
const LOCAL_BORDER_MM = 2;
/** Half the width of the band of depths the frame line is fitted in, in pixels of the measured image (0.31 mm on the flat card). */
const CLUSTER_HALF_WIDTH_PX = 2.5;
/**
 * Print in the border (a copyright line, an artist's credit, a collector line) is an island: a step
 * that the border's colour follows again, for at least BORDER_RUN_MM, after MIN_PRINT_HEIGHT_MM and
 * within PRINT_HEIGHT_MM (a row of letters is 0.6–1.3 mm tall; read so, drawn rows of 0.55–0.8 mm
 * read 0.6–1.0, a real copyright line 0.6–0.85, and the 0.2 mm shadow of a card's cut on another
 * card beneath it 0.38); behind a frame is art. Each scan line is read past such
 * islands, row after row (at most MAX_PRINT_ROWS), to its first step that is not one. The depth
 * most first steps share is the frame's unless at least MIN_BORDER_BEHIND of those steps were
 * read past: then it is the depth most lines reach past print. On 330 drawn photos the one card
 * with a second line behind its frame (a thin border, the art's edge 4.2 mm in) had the border's
 * colour behind its frame on 22 % of its scan lines; the bottom lines of print of an older and a
 * modern Magic card, 98–100 %. Only the top and bottom borders are read so, where
 * cards print their credit, copyright and collector lines. Along a side a step the border's
 * colour follows is more often the frame's own texture: a Magic card's green frame, dotted with
 * dark green close to its black border's colour, read as print along its left side on a real
 * photo, and the art's edge 4.5 mm in was taken for the frame (measured at 3.2 mm before, as the
 * other sides are).
 */
/**
 * MAX_PRINT_SHARE: drawn copyright lines are read past on at most 86 % of the scan lines, a real
 * one on 62 %; the shadow of a card's cut on another card of its colour beneath it, on every one.
 */
const MIN_BORDER_BEHIND = 0.5;
const MAX_PRINT_LINE_SHARE = 0.75;
const MAX_PRINT_SHARE = 0.95;
const BORDER_RUN_MM = 0.25;
const PRINT_HEIGHT_MM = 1.5;
const MIN_PRINT_HEIGHT_MM = 0.45;
const MAX_PRINT_ROWS = 3;
/**
 * How far a frame's step spread by blur is followed either way from where it first stands out,
 * in units of the cut's 10–90 % rise (a Gaussian-blurred step rises 1–99 % over 1.8 times that).
 */
const RAMP_SPREAD = 1.25;
/**
 * A ramp is read between its ends only when it ends on a plateau (the next two pixels within this
 * share of its rise): a step into flat ink (a body, a text box). Art rising on past the step has
 * no level to read, and keeps the window.
 */
const PLATEAU_SHARE = 0.1;
/**
 * Where past a step's first pixel over the threshold the art's level is read: pixels 2–4 of the
 * measured image (on the flat card 0.25–0.5 mm, on the half copy 0.5–1.1 mm). On a side whose
 * frame is a thin rule before a lighter body, the half copy reads the same stretch of the card as
 * the flat card instead, its pixels 1–2 (NEAR_ART_WINDOW): over the side's first steps on the flat
 * card (most of them, none followed as a ramp), the step levels off within its window (the
 * window's last two pixels within MAX_LATE_RISE of the step's rise of its first two) and rises
 * again past it (pixels 5–8 at least MIN_FAR_RISE of the step above the window's level). A modern
 * Magic card's 0.6 mm dark green rule before its lighter body is such a frame (late rise 0.08 and
 * 0.13, far rise 0.35 and 0.27 on two real photos of one): three half-copy pixels in, the body
 * set a level 60 % higher than the flat card's, and the two scales placed the frame 0.09 mm
 * apart, 2 centering points on its 2 mm borders. Elsewhere the half copy keeps its reading: a
 * step still rising through the window (print shaded from one colour to another, a frame softer
 * than the cut: late rise 0.37–0.64 on three real photos, 0.43 on a step drawn blurred over
 * 0.8 mm) is read part-way up on the flat card and past it on the half copy, and their
 * disagreement refuses it; and on plain steps the nearer pixels read 0.1 px short of the flat
 * card (the half copy's first pixel over the threshold may begin a flat-card pixel early), which
 * took two real photos graded within their two scales' tolerance beyond it.
 */
const ART_WINDOW = [2, 4] as const;
const NEAR_ART_WINDOW = [1, 2] as const;
const MAX_LATE_RISE = 0.15;
const MIN_FAR_RISE = 0.25;

/**
 * The frame measured on the flat card (scale 1) and on its half-resolution copy (scale 2).
 * `blurMm`: how far the card's cut rises (10–90 %) in the photo, in mm (the frame's step is spread
 * as far).
 */
export function measureFrameTwice(
  flat: RgbaImage,
  blurMm = 0,
  cleanCuts: ReadonlySet<Side> = new Set(),
  bows: Partial<Record<Side, number>> = {},
  tableLuma = 0,
): { full: FrameResult; half: FrameResult } {
  const half = downscaleToFit(flat, Math.round(Math.max(flat.width, flat.height) / 2));
  const full = frameAt(flat, 1, blurMm, cleanCuts, tableLuma, bevelledRim(flat, 1, blurMm) ?? undefined, bows);
  return {
    full: full.result,
    half: frameAt(half, flat.width / half.width, blurMm, cleanCuts, tableLuma, full.strips, bows).result,
  };
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
  for (const [i, a] of SIDES.entries()) {
    for (const b of SIDES.slice(i + 1)) {
      if (!oneBorderInk(sides[a].borderColor, sides[b].borderColor, tableLuma)) return [a, b];
    }
  }
  return null;
}

const rgb = (c: readonly number[]) => `rgb(${c.map((v) => Math.round(v)).join(", ")})`;

/** `scale`: flat-card pixels per pixel of `flat` (widths are reported in flat-card pixels). */
export function measureFrame(flat: RgbaImage, scale = 1, blurMm = 0): FrameResult {
  return frameAt(flat, scale, blurMm, new Set(), 0, bevelledRim(flat, scale, blurMm) ?? undefined).result;
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
  const strips = Object.fromEntries(SIDES.map((side) => [side, readings[side].strip])) as Record<Side, StripAt>;
  return { result, strips };
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
 * The scan lines (of `lines`) whose border, between 0.35 and 0.75 mm in, is `ink` in some light
 * (image.ts, sameInk): where something lies over part of a side's border (a thumb or a finger
 * holding the card), the side is read where its border shows. All of them when fewer than
 * MIN_INK_LINES do: a band running along the side (another card beneath, a sleeve's margin) is
 * not read past.
 */
function inkLines(
  lines: number[],
  pixel: (line: number, depth: number, ch: number) => number,
  pxPerMm: number,
  ink: readonly [number, number, number],
): number[] {
  const from = Math.max(1, Math.round(0.35 * pxPerMm));
  const to = Math.max(from + 1, Math.round(0.75 * pxPerMm));
  const shown = lines.filter((line) => {
    const colour = [0, 1, 2].map((ch) => {
      const values: number[] = [];
      for (let d = from; d < to; d++) values.push(pixel(line, d, ch));
      return median(values);
    });
    return sameInk(colour, ink);
  });
  return shown.length >= MIN_INK_LINES * lines.length ? shown : lines;
}

/**
 * The share of a side's scan lines that must show the other sides' ink for it to be read on them
 * alone (inkLines): 40 % of the side's middle 60 %, 15 mm along a short side. A thumb 20 mm
 * across over the middle of the bottom border leaves about half.
 */
const MIN_INK_LINES = 0.4;

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
        reason: borderless(side, reading.borderNoise) ?? `the printed frame could not be found on the ${side} side`,
      };
    }
    const measured = reading.measured;
    if (measured.coverage < MIN_COVERAGE || measured.agreement < MIN_AGREEMENT) {
      return {
        ok: false,
        side,
        reason:
          borderless(side, measured.borderNoise) ??
          `the printed frame on the ${side} side is not clear enough to measure`,
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
    if (print.refusal) return { ok: false, side, reason: print.refusal };
    // Print is read on the ends only (measureSide), so a bar is the top's or the bottom's.
    if (print.bar && (side === "top" || side === "bottom")) bar = side;
    if (measured.brokenIsland) {
      return {
        ok: false,
        side,
        reason: `the ${side} border holds a broken line ${(measured.width / FLAT_PX_PER_MM).toFixed(1)} mm in with the border's colour behind it (print along the side, or a frame of nearly the border's colour), so which line is the printed frame cannot be told`,
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
      };
    }
    if (measured.lean > leanLimit(side, scale, cleanCuts)) {
      return {
        ok: false,
        side,
        reason: `the line found on the ${side} side is not parallel to the card's edge (it leans ${measured.lean.toFixed(2)} mm): either it is not the printed frame, or the card's edge there was placed off true (a worn edge or a shadow taken in along part of it)`,
      };
    }
    const faint = fainterLineBefore(flat, side, scale, blurMm, measured, reading.strip);
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

/** Why a side without a frame found has no border to measure, or null when its border is plain. */
function borderless(side: Side, noise: number): string | null {
  if (noise <= BORDERLESS_NOISE) return null;
  return `the card shows no plain border along its ${side} edge: within 0.75 mm of the cut its colour varies as print does (noise ${Math.round(noise)} levels; a printed border's is under 40), so either its art runs to the cut (a borderless or full-art card, whose centering has no border to be measured by) or the outline found there is not the card's cut`;
}

/**
 * Where a side's border colour is read: where it settles past the cut (`settledFrom`: no deeper
 * than this many mm, which another scale read it from); or, on a bevelled rim (bevelledRim), on
 * the strip ending at the rim's darkest (`rimAt`: the far side of its darkest pixel, mm from the
 * cut; on a coarser copy the strip ends on the last pixel wholly before that). `thinRule`: the
 * flat card read the side's frame as a thin rule before a lighter body (ART_WINDOW). `ink`: the
 * side is read on the scan lines whose border shows this ink only (inkLines).
 */
type StripAt = { thinRule?: boolean; ink?: readonly [number, number, number] } & (
  | { settledFrom?: number; rimAt?: undefined }
  | { rimAt: number; settledFrom?: undefined }
);

/** A scan line's colour distance from the border's colour at a depth (pixels from the edge). */
type Profile = (depth: number) => number;

/** `strip`: where the border's colour was read (for the other scale, and a second reading). */
type SideReading = ({ ok: true; measured: SideMeasurement } | { ok: false; borderNoise: number }) & {
  strip: StripAt;
};

/**
 * `strip`: where the border's colour is read (StripAt; settled on this image's own pixels when
 * not given); `sigmas`, `floor`: a step is where three pixels in a row differ from the border by
 * more than max(floor, sigmas × its noise).
 */
function measureSide(
  flat: RgbaImage,
  side: Side,
  scale: number,
  blurMm: number,
  strip: StripAt = {},
  sigmas = 5,
  floor = 24,
  bow = 0,
): SideReading {
  const { width: W, height: H, data } = flat;
  const horizontal = side === "left" || side === "right";
  const along = horizontal ? H : W; // scan lines run across this extent
  const across = horizontal ? W : H; // each scan line's length
  const fromEnd = side === "right" || side === "bottom";
  const pixel = (line: number, depth: number, ch: number): number => {
    const pos = fromEnd ? across - 1 - depth : depth;
    const x = horizontal ? pos : line;
    const y = horizontal ? line : pos;
    return data[(y * W + x) * 4 + ch] ?? 0;
  };
  const pxPerMm = FLAT_PX_PER_MM / scale;
  const maxDepth = Math.round(W * MAX_SCAN_SHARE);
  const step = scale > 1 ? 1 : 2;
  // A cut bowing out past the flat card's edge (`bow`: at the middle, a share of the side's length;
  // refine-outline.ts, bowedCut) lies this far outside it at a scan line (px): each border is read
  // from the cut beside it, as a ruler laid across the side there would.
  const cutOutside = (line: number) => {
    const t = (line + 0.5) / along;
    return bow * along * 4 * t * (1 - t);
  };
  const span: number[] = [];
  for (let line = Math.round(along * 0.2); line < along * 0.8; line += step) span.push(line);
  const lines = strip.ink ? inkLines(span, pixel, pxPerMm, strip.ink) : span;
  // The reference strip (0.4 mm wide) starts 0.35 mm in, or where the border's colour settles
  // after the cut's blur or a whitened rim, at most 0.5 mm further: inward while the median colour
  // over the scan lines still changes less and less from one pixel to the next. With
  // `settledFrom` (where another scale's strip began, in mm), it starts no deeper than the first
  // pixel whose centre lies past that depth. On a bevelled rim the strip ends on the rim's darkest
  // pixel, and the first step past it is the frame.
  let stripWidth = Math.max(2, Math.round(0.75 * pxPerMm) - Math.round(0.35 * pxPerMm));
  let refStart: number;
  if (strip.rimAt !== undefined) {
    // The darkest of the last pixels wholly before `rimAt`, alone: across a wider strip the rim's
    // shading would lighten the colour, and the step into the body would first pass through it.
    const last = Math.max(1, Math.floor(strip.rimAt * pxPerMm + 1e-6) - 1);
    const lumas = medianLumaProfile(flat, side, last + 1);
    refStart = last;
    for (let d = Math.max(1, last - 2); d < last; d++) if ((lumas[d] ?? 0) < (lumas[refStart] ?? 0)) refStart = d;
    stripWidth = 1;
  } else {
    const settledHere = settledDepth(lines, pixel, Math.max(1, Math.round(0.35 * pxPerMm)), Math.round(0.5 * pxPerMm));
    const { settledFrom } = strip;
    refStart =
      settledFrom === undefined
        ? settledHere
        : Math.min(settledHere, Math.max(1, Math.ceil(settledFrom * pxPerMm - 0.5)));
  }
  const refEnd = refStart + stripWidth;

  // Border colour (per-channel median) from the reference strip of every scan line: robust to
  // chips and dirt in the strip. Each scan line is compared with the border's colour where it
  // runs (the median over the scan lines within LOCAL_BORDER_MM of it): light falling off along a
  // side (a phone's shadow, a lamp to one end) changes a border's colour by tens of levels from
  // one end to the other, which a single colour for the side reads as noise, raising the
  // threshold over a frame's step. The noise (1.4826 × the median absolute deviation) is the
  // strip's scatter about those local colours.
  const channels: number[][] = [[], [], []];
  for (const line of lines) {
    for (let d = refStart; d < refEnd; d++) for (let ch = 0; ch < 3; ch++) channels[ch]?.push(pixel(line, d, ch));
  }
  const ref = channels.map((values) => median(values)) as [number, number, number];
  const local = localBorderColours(lines, pixel, refStart, refEnd, Math.round((LOCAL_BORDER_MM * pxPerMm) / step));
  // Each line's place among those read (`local` holds one colour per line read, in order).
  const firstLine = span[0] ?? 0;
  const place = new Int32Array(span.length);
  lines.forEach((line, i) => {
    place[(line - firstLine) / step] = i;
  });
  const distanceAt = (line: number, d: number) => {
    const at = (place[(line - firstLine) / step] ?? 0) * 3;
    return rgbDistance(
      pixel(line, d, 0) - (local[at] ?? 0),
      pixel(line, d, 1) - (local[at + 1] ?? 0),
      pixel(line, d, 2) - (local[at + 2] ?? 0),
    );
  };
  const deviations: number[] = [];
  const scatter: number[] = [];
  for (const line of lines) {
    for (let d = refStart; d < refEnd; d++) {
      deviations.push(distanceAt(line, d));
      scatter.push(Math.hypot(pixel(line, d, 0) - ref[0], pixel(line, d, 1) - ref[1], pixel(line, d, 2) - ref[2]));
    }
  }
  const noise = 1.4826 * median(deviations);
  // The strip's scatter about the side's one colour: whether it is a plain border at all (art
  // running to the cut varies along the side as well as across the strip).
  const borderNoise = 1.4826 * median(scatter);
  const threshold = Math.max(floor, sigmas * noise);
  const rampMax = Math.ceil(RAMP_SPREAD * blurMm * pxPerMm);
  // The art's level past a step (ART_WINDOW), and how the first steps rise through that window
  // and past it (for the half copy's reading: `thinRule`).
  const [artFrom, artTo] = scale > 1 && strip.thinRule ? NEAR_ART_WINDOW : ART_WINDOW;
  // Read only where the side's flag is still to be told (the flat card's first reading).
  const readsRule = strip.thinRule === undefined && strip.rimAt === undefined;
  const lateRises: number[] = [];
  const farRises: number[] = [];
  let lateRise = Number.NaN;
  let farRise = Number.NaN;

  // A scan line's profile (its colour distance from the border's, by depth from `refStart`) is
  // read only as deep as the steps looked for on it need: most lines meet the frame a few mm in,
  // well short of the MAX_SCAN_SHARE a search may run to. Depths outside it read 0.
  const profileLength = maxDepth + 8;
  const profileEnd = Math.min(profileLength, across);
  const values = new Float64Array(profileLength);
  let profileLine = 0;
  let filled = refStart;
  const profile: Profile = (d) => {
    if (d < refStart || d >= profileEnd) return 0;
    for (; filled <= d; filled++) values[filled] = distanceAt(profileLine, filled);
    return values[d] ?? 0;
  };
  const readProfile = (line: number): Profile => {
    profileLine = line;
    filled = refStart;
    return profile;
  };
  /**
   * The first step from `from` inward (three pixels over the threshold) at its 50 % crossing
   * (sub-pixel, measured image's pixels), or null; the border's level is read no nearer the edge
   * than `floor`.
   */
  const stepFrom = (profile: Profile, from: number, floor: number): number | null => {
    let start = -1;
    for (let d = from; d < maxDepth; d++) {
      if (profile(d) > threshold && profile(d + 1) > threshold && profile(d + 2) > threshold) {
        start = d;
        break;
      }
    }
    if (start < 0) return null;
    // A step still rising past start + 3 in a soft photo is spread wider than the window below
    // reads (blur spreads the frame's step as far as the cut's). The window would read the art's
    // level part-way up the ramp and place the crossing short of the step's middle, by an amount
    // that depends on the scale; such a step is read between its own ends instead (where the
    // profile stops rising, at most as far as the cut's blur spreads a step either way). In a
    // sharp photo that reach is within the window, and art rising past the frame's step is not
    // taken for a ramp.
    let top = start;
    while (top < start + rampMax && profile(top + 1) > profile(top)) top++;
    let foot = start;
    while (foot > from && start - foot < rampMax && profile(foot - 1) < profile(foot)) foot--;
    const rise = profile(top) - profile(foot);
    const flatAt = (d: number) => Math.abs(profile(d) - profile(top)) <= PLATEAU_SHARE * rise;
    const ramp = top > start + 3 && flatAt(top + 1) && flatAt(top + 2);
    let artLevel = profile(top);
    if (!ramp) {
      artLevel = 0;
      for (let d = start + artFrom; d <= start + artTo; d++) artLevel += profile(d);
      artLevel /= artTo - artFrom + 1;
    }
    const borderLevel = ramp
      ? profile(foot)
      : (profile(Math.max(floor, start - 2)) + profile(Math.max(floor, start - 3))) / 2;
    lateRise = Number.NaN;
    if (readsRule && !ramp) {
      const early = (profile(start + 1) + profile(start + 2)) / 2;
      const late = (profile(start + 3) + profile(start + 4)) / 2;
      const far = (profile(start + 5) + profile(start + 6) + profile(start + 7) + profile(start + 8)) / 4;
      const stepRise = Math.max(1e-6, artLevel - borderLevel);
      lateRise = (late - early) / stepRise;
      farRise = (far - artLevel) / stepRise;
    }
    const target = (artLevel + borderLevel) / 2;
    // The crossing of `target` between pixel centres start-2 … start+2 (or the ramp's ends).
    for (let d = ramp ? foot : Math.max(floor, start - 2); d <= (ramp ? top - 1 : start + 2); d++) {
      const a = profile(d);
      const b = profile(d + 1);
      if (a < target && b >= target) return d + 0.5 + (target - a) / (b - a);
    }
    return start;
  };

  // Each scan line's first step, and its step past print in the border: a step
  // that the border's colour follows again within PRINT_HEIGHT_MM (for at least BORDER_RUN_MM) is
  // print, an island in the border, and the line is read on past it to the next step, row after
  // row (at most MAX_PRINT_ROWS).
  const run = Math.max(1, Math.round((BORDER_RUN_MM * FLAT_PX_PER_MM) / scale));
  const printReach = Math.round(PRINT_HEIGHT_MM * pxPerMm);
  const printFloor = MIN_PRINT_HEIGHT_MM * pxPerMm;
  const found: Point[] = [];
  const walked: Point[] = [];
  const printEnds: number[] = [];

  for (const line of lines) {
    const profile = readProfile(line);
    const position = stepFrom(profile, refEnd, refStart);
    if (position === null) continue;
    if (!Number.isNaN(lateRise)) {
      lateRises.push(lateRise);
      farRises.push(farRise);
    }
    let step = position;
    let end = -1;
    // Print is an island: the border's colour lies before it too, over the reference strip (a chip
    // or whitening that runs in from the cut stands out there already). Only the top and bottom
    // borders are read past print (`printed`, below); along the sides the walk only tells a
    // broken island line.
    let offStrip = 0;
    for (let d = refStart; d < refEnd; d++) if (profile(d) > threshold) offStrip++;
    const island = offStrip <= 1;
    for (let rows = 0; island && rows < MAX_PRINT_ROWS; rows++) {
      const after = borderRunAfter(profile, profileLength, step, printReach, run, threshold);
      // Letters are taller than a line: a cut's shadow or another card's edge is not print.
      const next = after < 0 || after - step < printFloor ? null : stepFrom(profile, after, after);
      if (next === null) break;
      end = after;
      step = next;
    }
    const x = (line + 0.5) * scale;
    const outside = cutOutside(line);
    found.push({ x, y: (position + outside) * scale });
    walked.push({ x, y: (step + outside) * scale });
    printEnds.push(end < 0 ? end * scale : (end + outside) * scale);
  }
  const read: StripAt =
    strip.rimAt !== undefined
      ? strip
      : {
          ...(strip.ink ? { ink: strip.ink } : {}),
          settledFrom: refStart / pxPerMm,
          thinRule:
            strip.thinRule ??
            (lateRises.length > found.length / 2 &&
              median(lateRises) <= MAX_LATE_RISE &&
              median(farRises) >= MIN_FAR_RISE),
        };
  const missing = { ok: false, borderNoise, strip: read } as const;
  if (found.length < 2) return missing;
  // Line evidence: positions (y) against place along the side (x), a robust straight line through
  // the depth most scan lines agree on. A line that missed a faint stretch of the frame (glare, a
  // frame colour close to the border's) finds the artwork behind it: set aside, not averaged in.
  // The depth most first steps share is the frame's, unless most of those steps are print read
  // past (MIN_BORDER_BEHIND): then it is the depth most lines reach past print.
  const tolerance = CLUSTER_HALF_WIDTH_PX * scale;
  const firstCluster = densestDepth(found, tolerance);
  const inFirst = new Set(firstCluster);
  const readPast = found.filter((p, i) => inFirst.has(p) && (walked[i]?.y ?? 0) > p.y + tolerance).length;
  // Along the sides print is not read past; a broken first line with the border's colour behind
  // most of it (print along a side, or a frame of nearly the border's colour) is refused.
  // Islands on nearly every scan line are a line along the side (the shadow of a card's cut on
  // another card beneath it), not print: letters and words have gaps (MAX_PRINT_SHARE).
  const islandLines = found.filter((p, i) => (walked[i]?.y ?? 0) > p.y + tolerance).length;
  const printed = !horizontal && islandLines < MAX_PRINT_SHARE * lines.length;
  const islandsFirst = readPast >= MIN_BORDER_BEHIND * firstCluster.length;
  const pastPrint = printed && islandsFirst;
  const brokenIsland = !printed && islandsFirst && firstCluster.length <= MAX_PRINT_LINE_SHARE * lines.length;
  const chosen = pastPrint ? densestDepth(walked, tolerance) : firstCluster;
  // Behind a thin rule (`thinRule`) the line is fitted through the depths within
  // CLUSTER_HALF_WIDTH_PX flat-card pixels of the densest at either scale: the half copy's band,
  // as many of its own pixels wide, took in a modern Magic card's body 0.6 mm behind the rule where
  // a glare hid the rule, and leaned its line 0.09 mm deeper than the flat card's. Elsewhere its
  // band stays as wide as its pixels: on a faint frame of a real photo (a tan border's step of
  // 20–40 levels) its scan lines' steps scatter over it, and the narrower band took a part of
  // them whose line lay 0.6 px off the flat card's.
  const cluster = scale > 1 && strip.thinRule ? densestDepth(chosen, CLUSTER_HALF_WIDTH_PX) : chosen;
  const line = fitLine(cluster);
  if (!line || Math.abs(line.b) < 1e-6) return missing;
  const at = (x: number) => (line.c - line.a * x) / line.b;
  // The line's ends over the whole span read, where only some scan lines were (inkLines).
  const first = (span[0] ?? 0) * scale;
  const last = (span.at(-1) ?? 0) * scale;
  const width = (at(first) + at(last)) / 2;
  // Cross-check with the plain median: a line fitted through scattered positions can sit between them.
  const medianWidth = median(cluster.map((p) => p.y));
  if (Math.abs(medianWidth - width) > 1.5) return missing;
  // Each line's first step against the frame line: on it; print before it, read past to the line
  // (an island of print) or not (print the border's colour does not follow, or that leads
  // elsewhere); or art behind it, where the frame was missed.
  const shallowest = Math.min(...cluster.map((p) => p.y));
  let agreeing = 0;
  let before = 0;
  let islands = 0;
  let behind = 0;
  const ends: number[] = [];
  const starts: number[] = [];
  for (const [i, p] of found.entries()) {
    const past = printed ? (walked[i] as Point) : p;
    if (Math.abs(p.y - at(p.x)) <= 1.5) {
      agreeing++;
      continue;
    }
    if (p.y > at(p.x)) behind++;
    if (p.y >= shallowest - 2 * scale) continue;
    if (Math.abs(past.y - at(past.x)) <= 1.5) {
      agreeing++;
      islands++;
      ends.push(printEnds[i] ?? 0);
      starts.push(p.y);
    } else {
      before++;
    }
  }
  ends.sort((a, b) => a - b);
  starts.sort((a, b) => a - b);
  const print =
    islands > 0
      ? {
          from: starts[Math.floor(0.1 * starts.length)] ?? 0,
          depth: ends[Math.min(ends.length - 1, Math.floor(0.9 * ends.length))] ?? 0,
          share: islands / lines.length,
          frameBehind: islands / (islands + before),
        }
      : null;
  return {
    ok: true,
    strip: read,
    measured: {
      width,
      agreement: agreeing / found.length,
      coverage: found.length / lines.length,
      lean: Math.abs(at(last) - at(first)) / FLAT_PX_PER_MM,
      printBefore: before / lines.length,
      behind: behind / lines.length,
      rim: strip.rimAt !== undefined,
      brokenIsland,
      bow,
      borderColor: ref,
      borderNoise,
      print,
    },
  };
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
 * Where a run of `run` pixels of the border's colour (`profile` at most `threshold`) starts within
 * `reach` pixels after the step at `step`, or -1.
 */
function borderRunAfter(
  profile: Profile,
  profileLength: number,
  step: number,
  reach: number,
  run: number,
  threshold: number,
): number {
  const from = Math.ceil(step) + 1;
  for (let d = from, length = 0; d < from + reach + run && d < profileLength; d++) {
    length = profile(d) <= threshold ? length + 1 : 0;
    if (length >= run) return d - run + 1;
  }
  return -1;
}

/**
 * The points whose depth lies within `halfWidth` of the depth most points share (the centre of
 * the fullest window of that width). A frame leaning up to MAX_FRAME_LEAN_MM stays inside it.
 */
function densestDepth(points: Point[], halfWidth: number): Point[] {
  const depths = points.map((p) => p.y).sort((a, b) => a - b);
  let best = 0;
  let bestCentre = depths[0] ?? 0;
  for (let i = 0, j = 0; i < depths.length; i++) {
    while ((depths[j] ?? 0) < (depths[i] ?? 0) - 2 * halfWidth) j++;
    if (i - j + 1 > best) {
      best = i - j + 1;
      bestCentre = ((depths[i] ?? 0) + (depths[j] ?? 0)) / 2;
    }
  }
  return points.filter((p) => Math.abs(p.y - bestCentre) <= halfWidth);
}

/**
 * Each scan line's border colour (RGB, 3 values per line in `lines`' order): the per-channel
 * median of the reference strip (depths `from` … `to` − 1) over the scan lines within `reach`
 * lines of it.
 */
function localBorderColours(
  lines: number[],
  pixel: (line: number, depth: number, ch: number) => number,
  from: number,
  to: number,
  reach: number,
): Float64Array {
  // The strip's pixels read once, per channel: strip[(ch * lines + i) * width + d - from].
  const width = Math.max(1, to - from);
  const strip = new Float64Array(3 * lines.length * width);
  for (let ch = 0; ch < 3; ch++) {
    for (let i = 0; i < lines.length; i++) {
      for (let d = from; d < to; d++) strip[(ch * lines.length + i) * width + d - from] = pixel(lines[i] ?? 0, d, ch);
    }
  }
  const colours = new Float64Array(lines.length * 3);
  const values = new Float64Array((2 * reach + 1) * width);
  for (let i = 0; i < lines.length; i++) {
    const first = Math.max(0, i - reach);
    const last = Math.min(lines.length - 1, i + reach);
    for (let ch = 0; ch < 3; ch++) {
      // The window's lines lie side by side in the strip.
      const window = strip.subarray((ch * lines.length + first) * width, (ch * lines.length + last + 1) * width);
      values.set(window);
      colours[i * 3 + ch] = selectKth(values, window.length, window.length >> 1);
    }
  }
  return colours;
}

/**
 * From `start`, inward (at most `reach` px) while the change of the median colour over the scan
 * lines from one pixel to the next keeps falling: where the border's colour has settled.
 */
function settledDepth(
  lines: number[],
  pixel: (line: number, depth: number, ch: number) => number,
  start: number,
  reach: number,
): number {
  // The median colour at each depth from start - 1 to start + reach + 1.
  const column = new Float64Array(lines.length);
  const colours: number[][] = [];
  for (let depth = start - 1; depth <= start + reach + 1; depth++) {
    colours.push(
      [0, 1, 2].map((ch) => {
        lines.forEach((line, i) => {
          column[i] = pixel(line, depth, ch);
        });
        return selectKth(column, lines.length, lines.length >> 1);
      }),
    );
  }
  const at = (depth: number) => colours[depth - start + 1] ?? [0, 0, 0];
  const change = (depth: number) => {
    const [a0 = 0, a1 = 0, a2 = 0] = at(depth + 1);
    const [b0 = 0, b1 = 0, b2 = 0] = at(depth - 1);
    return Math.hypot(a0 - b0, a1 - b1, a2 - b2) / 2;
  };
  let depth = start;
  while (depth < start + reach && change(depth + 1) < change(depth)) depth++;
  return depth;
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

/** The median luma over a side's middle 60 % at each depth from its edge, 0 … `depths` − 1 (pixels). */
function medianLumaProfile(flat: RgbaImage, side: Side, depths: number): Float64Array {
  const { width: W, height: H, data } = flat;
  const horizontal = side === "left" || side === "right";
  const along = horizontal ? H : W;
  const across = horizontal ? W : H;
  const fromEnd = side === "right" || side === "bottom";
  const lines: number[] = [];
  for (let line = Math.round(along * 0.2); line < along * 0.8; line += 1) lines.push(line);
  const values = new Float64Array(lines.length);
  const profile = new Float64Array(Math.min(depths, across));
  for (let depth = 0; depth < profile.length; depth++) {
    const pos = fromEnd ? across - 1 - depth : depth;
    lines.forEach((line, i) => {
      const p = ((horizontal ? line : pos) * W + (horizontal ? pos : line)) * 4;
      values[i] = 0.299 * (data[p] ?? 0) + 0.587 * (data[p + 1] ?? 0) + 0.114 * (data[p + 2] ?? 0);
    });
    profile[depth] = selectKth(values, lines.length, lines.length >> 1);
  }
  return profile;
}
