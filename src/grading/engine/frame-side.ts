// One side's printed frame line on the flat card (frame.ts reads the four and decides).
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
// were print the frame is the depth most lines reach so (measureSide).
import { FLAT_PX_PER_MM, fitLine, fitParabola, median, type Point, selectKth } from "./geometry";
import { type RgbaImage, rgbDistance, sameInk } from "./image";

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
  /**
   * On a side read from a bowed cut (`bow` over 0): how far the frame line itself bows out toward
   * the table at the side's middle, on the flat card, as a share of the side's length (the
   * parabola through the scan lines' depths, the cut's curve taken out); 0 on a straight side.
   */
  frameBow: number;
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

/** How far inward the frame is looked for: 30 % of the card's width (19 mm). */
export const MAX_SCAN_SHARE = 0.3;

/**
 * Where in `flat`'s data the pixel `depth` pixels in from `side`'s edge lies on scan line `line`
 * (a row for left and right, a column for top and bottom): its red byte's offset.
 */
export function sideOffset(flat: RgbaImage, side: Side): (line: number, depth: number) => number {
  const { width: W, height: H } = flat;
  const horizontal = side === "left" || side === "right";
  const across = horizontal ? W : H;
  const fromEnd = side === "right" || side === "bottom";
  return (line, depth) => {
    const pos = fromEnd ? across - 1 - depth : depth;
    return ((horizontal ? line : pos) * W + (horizontal ? pos : line)) * 4;
  };
}

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

/**
 * On the half copy, a pixel of the art's window whose distance from the border's colour falls
 * back below this share of the level read before it (above the border's) lies past a thin dark
 * rule, on a body nearer the border's colour behind it, and ends the window. A Baseball Heroes
 * card's frame is a 0.7 mm dark rule between a pink border and a tan body: its window's last
 * pixel took in the body, and on three real photos of such cards the half copy placed the frame
 * 0.01–0.07 mm short of the flat card on 10 of 12 sides (one photo refused, its two scales 0.8
 * points apart); with the window so ended, 0–0.05 mm. The flat card's window, 0.25–0.5 mm past
 * the step, lies on such a rule; there the window is kept whole (on a real photo of a Magic
 * card's top border under a lamp's sheen, ended early at both scales, the two scales read
 * 0.12 mm apart where they had agreed).
 */
const FALL_BACK = 0.5;

const NEAR_ART_WINDOW = [1, 2] as const;

const MAX_LATE_RISE = 0.15;

const MIN_FAR_RISE = 0.25;

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
 * Where a side's border colour is read: where it settles past the cut (`settledFrom`: no deeper
 * than this many mm, which another scale read it from); or, on a bevelled rim (bevelledRim), on
 * the strip ending at the rim's darkest (`rimAt`: the far side of its darkest pixel, mm from the
 * cut; on a coarser copy the strip ends on the last pixel wholly before that). `thinRule`: the
 * flat card read the side's frame as a thin rule before a lighter body (ART_WINDOW). `lineAlong`:
 * the flat card's first line, the border's colour behind most of it, is met at one depth by
 * nearly every scan line (MAX_PRINT_SHARE): a rule along the side, not print. `ink`: the
 * side is read on the scan lines whose border shows this ink only (inkLines).
 */
export type StripAt = {
  /** The flat card's frame was read from median profiles (frame.ts, medianFrameOf): every scale reads this side so. */
  median?: boolean;
  thinRule?: boolean;
  lineAlong?: boolean;
  ink?: readonly [number, number, number];
  /** How far (mm) a step is followed either way as a ramp, where further than the cut's blur (SOFT_STEP_MM). */
  softStepMm?: number;
} & ({ settledFrom?: number; rimAt?: undefined } | { rimAt: number; settledFrom?: undefined });

/** A scan line's colour distance from the border's colour at a depth (pixels from the edge). */
type Profile = (depth: number) => number;

/** `strip`: where the border's colour was read (for the other scale, and a second reading). */
export type SideReading = ({ ok: true; measured: SideMeasurement } | { ok: false; borderNoise: number }) & {
  strip: StripAt;
};

/**
 * `strip`: where the border's colour is read (StripAt; settled on this image's own pixels when
 * not given); `sigmas`, `floor`: a step is where three pixels in a row differ from the border by
 * more than max(floor, sigmas × its noise).
 */
export function measureSide(
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
  const rampMax = Math.ceil(Math.max(RAMP_SPREAD * blurMm, strip.softStepMm ?? 0) * pxPerMm);
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
    const borderLevel = ramp
      ? profile(foot)
      : (profile(Math.max(floor, start - 2)) + profile(Math.max(floor, start - 3))) / 2;
    let artLevel = profile(top);
    if (!ramp) {
      let sum = 0;
      let count = 0;
      for (let d = start + artFrom; d <= start + artTo; d++) {
        const value = profile(d);
        if (scale > 1 && count > 0 && value - borderLevel < FALL_BACK * (sum / count - borderLevel)) break;
        sum += value;
        count++;
      }
      artLevel = sum / count;
    }
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
  const islandsFirst = readPast >= MIN_BORDER_BEHIND * firstCluster.length;
  // Nor is a first line with the border's colour behind most of it that nearly every scan line
  // meets at one depth (`lineAlong`): a rule printed along the side before a body of nearly the
  // border's colour, not words, which have gaps. The coarser copies take the flat card's word for
  // it (StripAt), where the rule, blurred, may stand out on fewer of their scan lines.
  const lineAlong = strip.lineAlong ?? (islandsFirst && firstCluster.length >= MAX_PRINT_SHARE * lines.length);
  const printed = !horizontal && islandLines < MAX_PRINT_SHARE * lines.length && !lineAlong;
  const pastPrint = printed && islandsFirst;
  const brokenIsland =
    !printed && islandsFirst && !lineAlong && firstCluster.length <= MAX_PRINT_LINE_SHARE * lines.length;
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
  const frameBow = bow > 0 ? frameBowOf(cluster, scale, along, cutOutside) : 0;
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
    strip: lineAlong ? { ...read, lineAlong } : read,
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
      frameBow,
      borderColor: ref,
      borderNoise,
      print,
    },
  };
}

/**
 * How far a frame line bows out toward the table at its side's middle, as a share of the side's
 * length (`along`, the measured image's pixels): the parabola through its scan lines' depths
 * (`points`, flat-card pixels; the cut's curve `cutOutside` taken out, as read from the flat
 * card's straight edge), its sagitta over the whole side. 0 when no parabola fits.
 */
function frameBowOf(points: Point[], scale: number, along: number, cutOutside: (line: number) => number): number {
  const ts = points.map((p) => p.x / scale - along / 2);
  const depths = points.map((p) => p.y / scale - cutOutside(p.x / scale - 0.5));
  const parabola = fitParabola(ts, depths);
  // Bowing out, the line lies nearer the edge at the middle than at the ends: a > 0.
  return parabola ? (parabola.a * (along / 2) ** 2) / along : 0;
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

/** The median luma over a side's middle 60 % at each depth from its edge, 0 … `depths` − 1 (pixels). */
export function medianLumaProfile(flat: RgbaImage, side: Side, depths: number): Float64Array {
  const { width: W, height: H, data } = flat;
  const horizontal = side === "left" || side === "right";
  const along = horizontal ? H : W;
  const across = horizontal ? W : H;
  const offset = sideOffset(flat, side);
  const lines: number[] = [];
  for (let line = Math.round(along * 0.2); line < along * 0.8; line += 1) lines.push(line);
  const values = new Float64Array(lines.length);
  const profile = new Float64Array(Math.min(depths, across));
  for (let depth = 0; depth < profile.length; depth++) {
    lines.forEach((line, i) => {
      const p = offset(line, depth);
      values[i] = 0.299 * (data[p] ?? 0) + 0.587 * (data[p + 1] ?? 0) + 0.114 * (data[p + 2] ?? 0);
    });
    profile[depth] = selectKth(values, lines.length, lines.length >> 1);
  }
  return profile;
}

/**
 * A line that returns to the border's colour within this many mm of its front is finer than three
 * pixels of the half copy (4 px/mm): a step there needs three pixels in a row off the border's
 * colour, and a rule 0.3 mm wide with the border's colour 0.25 mm behind it fills at most two.
 */
export const MAX_RULE_MM = 0.75;

/**
 * Whether the flat card's frame line on `side`, `from` px in, is a rule of its own before a line
 * `to` px in: over the side's median luma profile the rule stands out (its largest departure from
 * the border's luma, read 0.35–0.75 mm in, at least 24 levels), the profile comes back to within a
 * quarter of that departure before MAX_RULE_MM past `from`, and departs again by half of it
 * before `to`. Two lines, then, not one step read at two depths; and the first too fine for the
 * half copy's pixels.
 */
export function ruleBefore(flat: RgbaImage, side: Side, from: number, to: number): boolean {
  const profile = medianLumaProfile(flat, side, Math.ceil(to) + 2);
  const stripFrom = Math.round(0.35 * FLAT_PX_PER_MM);
  const stripTo = Math.round(0.75 * FLAT_PX_PER_MM);
  const border = median(Array.from(profile.subarray(stripFrom, stripTo)));
  const off = (d: number) => Math.abs((profile[d] ?? border) - border);
  const start = Math.floor(from);
  const reach = Math.min(Math.floor(to) - 1, Math.ceil(from + MAX_RULE_MM * FLAT_PX_PER_MM));
  let peak = 0;
  let gap = -1;
  for (let d = start; d <= reach && gap < 0; d++) {
    peak = Math.max(peak, off(d));
    if (peak >= 24 && off(d) <= 0.25 * peak) gap = d;
  }
  if (gap < 0) return false;
  for (let d = gap + 1; d <= Math.ceil(to); d++) if (off(d) >= 0.5 * peak) return true;
  return false;
}
