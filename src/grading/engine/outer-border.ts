// A printed border the outline left outside: a border of nearly the table's tone (black on dark
// stone, silver on white paper) stands out from the table less than the coloured panel inside it
// does, so the strongest outline is the panel's and the border lies outside it. Nothing inside the
// outline tells the two apart (a panel is often nearly a card's shape); outside it they differ:
// past the panel's line, the border, one flat colour, runs to a straight cut and the table begins,
// on all four sides alike, while past a card's cut lies the table itself. (A Yu-Gi-Oh card's slate
// rim, shading from near black to grey, is no flat band and is not taken.)
// Each side is read from its median profile outward (EDGE_PROFILES profiles along its middle 80 %),
// from its line to MAX_BAND_MM past it. A border is taken only when, on every side:
// - the colour just outside the line stays flat (within BAND_FLATNESS of the contrast; a shadow
//   is a gradient) for at least MIN_BAND_MM, then steps away from it, at most MAX_BAND_MM out, toward the colour further out (the table),
//   by at least MIN_BAND_CONTRAST, and does not come back (a line of the table is a band, not a cut);
// - that step, found on each profile, is a straight line (half the profiles within 1.5 px of it)
//   running along the side, its distance from the side changing by at most MAX_BAND_TAPER_MM;
// and across the four sides the border's colours agree within MAX_BAND_COLOUR_SPREAD (one ink)
// and the widths of opposite sides are within MAX_OPPOSITE_RATIO of each other (a card printed
// 75/25 off centre at worst). Stripes of a cloth parallel to two sides give a band on those two
// only; a sleeve's margin is the table's colour through plastic; a soft shadow has no flat band;
// a card lying on another shows the other's margin on two sides, not four at once.
// The caller (analyse-face.ts) refines the wider outline's sides as it did the first outline's (or
// keeps the traced steps where that fails or leaves them) and takes it only when its proportions
// are a card format's.
// A flat border left outside some sides only (borderPartlyOutside): on a black border on dark
// gravel the cut may stand out along two sides and not the other two, so the outline closes on
// the cut there and on the panel's edge elsewhere, and the frame is then looked for inside the
// panel on those sides (drawn: 15 of 350 modern-layout fronts refused so). Each side is read
// both ways: on the cut, the border runs in from its line, flat for MIN_BAND_MM or more, then
// steps into the panel; on the panel, it runs out to a straight step into the table (sideBand),
// with another colour inside the line. The sides move out only when exactly one choice among the
// four gives one border colour all round, with both kinds among them, and not where the band
// moved to may be a shadow: beside adjacent sides only (or one), darker than the table past it,
// as a card's cast shadow is (a black border's shadow on dark cloth has the border's colour).
// A bevelled rim left outside some sides (rimOutside): on a Yu-Gi-Oh! card the rim (rim.ts) meets
// a busy or dark table with less contrast than its inner step into the body does, so the outline
// found may close on that step along some sides and on the cut along others (a real photo of a
// card on striped cloth: the top and left lines 2.2–2.7 mm inside the cut, the right and bottom
// on it). Before the outline is refined, each side is read across: on the cut, a rim runs in
// from its line (rimLow) and something else lies outside; on the rim's inner step, a band runs
// out from its line to a step into another colour, and read back in from that step it is a rim
// whose darkest lies at the line (or further out past the body's print, RIM_FAR_MM: the outline
// closed on a line of the print inside the step). Where every side is one or the other, at least one on the inner
// step (all four: the outline is the card's body), and the rims' darkest colours agree (one ink),
// the sides on the inner step move out to the rim's cut, traced profile by profile where the
// colour changes fastest (the rim lightens toward the cut, so no one level marks it on every
// profile, and a patterned table beside it changes from one profile to the next). A side may also lie out in a shadow beside the cut (a soft shadow
// and the card's dark edge along it): in from its line the colour falls to a band and rises out
// of it by 30 levels onto a rim (rimPastShadow). A rim is lightest at its cut, so the band darker
// than it outside is not card: that side moves in to the rise, traced profile by profile where
// the luma rises fastest inward (a real photo's bottom edge lay 7 px out so, and the card read
// 1.48 tall, no format). analyse-face.ts reads the outline for a rim again once refined, where the
// outline found showed none (a side out in a shadow beyond this reading's reach).

import { EDGE_PROFILES } from "./cut-profiles";
import { type RgbSampler, rgbSampler } from "./edges";
import { dist, fitLine, intersect, type Line, lineThrough, median, type Point, type Quad, selectKth } from "./geometry";
import { colourDistance as distance, luma, medianColour, type RgbaImage } from "./image";
import { RIM_MIN_RISE, RIM_RISE_MM, rimLow, rimReach } from "./rim";

/** The narrowest border taken (mm): narrower ones are read as the card's edge by the refinement. */
const MIN_BAND_MM = 0.5;
/** The widest border looked for (mm); a printed border is 1.5–4 mm (a 75/25 one up to 4.5). */
const MAX_BAND_MM = 5;
/** How far past the widest border the table is read (mm). */
const TABLE_READ_MM = 1.5;
/** The least colour distance between the border and the table past it. */
const MIN_BAND_CONTRAST = 30;
/** The border's flat colour: every sample of the median profile across it within this of its median. */
const BAND_FLATNESS = 0.35;
/** The step line's distance from the side may change by at most this (mm) from one end to the other. */
const MAX_BAND_TAPER_MM = 0.6;
/** The four sides' border colours all within this distance of their median. */
const MAX_BAND_COLOUR_SPREAD = 30;
/** Opposite sides' border widths within this ratio of each other. */
const MAX_OPPOSITE_RATIO = 3;
/** A traced step must lie within 1.5 px of its line on at least this share of the profiles. */
const MIN_STEP_COVERAGE = 0.5;
/** The narrowest card format's short side (mm): the outline's scale is taken from it. */
const NARROWEST_MM = 59;
/** Samples per pixel along each profile. */
const STEPS_PER_PX = 2;

export interface OuterBorder {
  /** The wider outline, photo order (top-left, top-right, bottom-right, bottom-left as they appear). */
  corners: Quad;
  /** Per side (photo order): the share of its profiles whose step lies within 1.5 px of its line. */
  traced: [number, number, number, number];
  /** RMS distance of those steps from their lines (px). */
  residual: number;
  /** Median colour distance between the border and the table past it. */
  contrast: number;
  /** The border's width on each side (photo order: top, right, bottom, left), in pixels. */
  widthsPx: [number, number, number, number];
  /** Sides (photo order) whose line was kept, on the cut already (borderPartlyOutside). */
  kept?: [boolean, boolean, boolean, boolean];
}

interface SideBand {
  line: Line;
  width: number;
  colour: number[];
  /** The table's colour past the step. */
  table: number[];
  contrast: number;
  /** Steps within 1.5 px of the line: their count and squared distances' sum. */
  close: number;
  squares: number;
}

/**
 * The outline widened to a printed border lying outside `corners` (photo order), or null when the
 * four sides do not all show one (see the file's head).
 */
export function borderOutside(image: RgbaImage, corners: Quad): OuterBorder | null {
  const colourAt = rgbSampler(image);
  const pxPerMm = outlineScale(corners);
  const bands: SideBand[] = [];
  for (let k = 0; k < 4; k++) {
    const band = sideBand(image, colourAt, outwardSide(corners, k), pxPerMm);
    if (!band) return null;
    bands.push(band);
  }
  if (!sameBorder(bands.map((band) => band.colour))) return null;
  const widths = bands.map((band) => band.width);
  if (!oppositeWithinRatio(widths)) return null;
  const wider = outlineThrough(bands.map((band) => band.line));
  if (!wider) return null;
  const close = bands.reduce((sum, band) => sum + band.close, 0);
  return {
    corners: wider,
    traced: bands.map((band) => band.close / EDGE_PROFILES) as [number, number, number, number],
    residual: Math.sqrt(bands.reduce((sum, band) => sum + band.squares, 0) / Math.max(1, close)),
    contrast: median(bands.map((band) => band.contrast)),
    widthsPx: widths as [number, number, number, number],
  };
}

/**
 * The outline widened to a printed border lying outside some of its sides only (`corners`, photo
 * order, refined): a border of nearly the table's tone stands out from it less on some sides than
 * the panel inside it does (a black border on dark grey: the outline closes on the cut along two
 * sides and on the panel's edge along the other two). Each side is either on the cut, the border
 * running in from its line (insideBand), or on the panel, the border running out from its line to
 * the cut (sideBand) with another colour inside the line (colourInside). Taken when every side is
 * one or the other, both kinds are found, only one way of reading them agrees (the outline on the
 * cut all round is one way), the border's colour agrees all round (one ink, within
 * MAX_BAND_COLOUR_SPREAD of its colour on the sides on the cut), the bands moved to are no
 * possible shadow (two opposite sides among them, or none darker than the table past it), and
 * opposite widths are within MAX_OPPOSITE_RATIO; null otherwise. The sides on the cut keep their
 * lines.
 */
export function borderPartlyOutside(image: RgbaImage, corners: Quad): OuterBorder | null {
  const colourAt = rgbSampler(image);
  const pxPerMm = outlineScale(corners);
  const sides = [0, 1, 2, 3].map((k) => outwardSide(corners, k));
  const inside = sides.map((side) => insideBand(image, colourAt, side, pxPerMm));
  // The outline on the cut all round, one border inside every side (most photos): nothing to move,
  // whatever lies outside.
  if (sameBorder(inside.map((band) => band?.colour))) return null;
  // A side on the panel's edge has the panel inside its line, not more of the band outside it (a
  // shadow of the border's colour beside a wide border is no border outside the cut).
  const outside = sides.map((side) => {
    const band = sideBand(image, colourAt, side, pxPerMm);
    const within = band && colourInside(image, colourAt, side, pxPerMm);
    return band && within && distance(within, band.colour) >= MIN_BAND_CONTRAST ? band : null;
  });
  // Every reading with a side on the cut: the one whose four colours lie within
  // MAX_BAND_COLOUR_SPREAD of the border's as the sides on the cut show it.
  let found: boolean[] | null = null;
  for (let mask = 1; mask < 15; mask++) {
    const moved = [0, 1, 2, 3].map((k) => (mask & (1 << k)) !== 0);
    const colours = moved.map((out, k) => (out ? outside[k]?.colour : inside[k]?.colour));
    if (
      !sameBorder(
        colours,
        colours.filter((_, k) => !moved[k]),
      )
    )
      continue;
    if (found) return null;
    found = moved;
  }
  if (!found) return null;
  const moved = found;
  // A shadow cast by one light lies beside at most two adjacent sides, darker than the table past
  // it: a band darker than that table beside adjacent sides only may be the shadow of a border of
  // nearly its colour, and the cut inside it cannot be told. (Two opposite sides moved by a
  // shadow's width would put the outline 1 % or more off the card's proportions: no format, or
  // another than the other face's; adjacent sides' changes cancel there.)
  const opposite = (moved[0] && moved[2]) || (moved[1] && moved[3]);
  const shadowLike = moved.some(
    (m, k) => m && luma((outside[k] as SideBand).colour) < luma((outside[k] as SideBand).table),
  );
  if (!opposite && shadowLike) return null;
  const widths = sides.map((_, k) => (moved[k] ? outside[k]?.width : inside[k]?.width) ?? 0);
  if (!oppositeWithinRatio(widths)) return null;
  const wider = outlineThrough(
    sides.map((side, k) => (moved[k] ? (outside[k] as SideBand).line : lineThrough(side.p, side.q))),
  );
  if (!wider) return null;
  const bands = outside.filter((band, k): band is SideBand => moved[k] === true && band !== null);
  const close = bands.reduce((sum, band) => sum + band.close, 0);
  return {
    corners: wider,
    traced: sides.map((_, k) => (moved[k] ? (outside[k] as SideBand).close / EDGE_PROFILES : 1)) as [
      number,
      number,
      number,
      number,
    ],
    residual: Math.sqrt(bands.reduce((sum, band) => sum + band.squares, 0) / Math.max(1, close)),
    contrast: median(bands.map((band) => band.contrast)),
    widthsPx: widths as [number, number, number, number],
    kept: moved.map((m) => !m) as [boolean, boolean, boolean, boolean],
  };
}

/**
 * Whether every side shows a border (`colours`, one per side), each within MAX_BAND_COLOUR_SPREAD
 * of the median of `reference` (the colours of the sides on the cut; all of them unless given).
 */
function sameBorder(
  colours: readonly (number[] | undefined)[],
  reference?: readonly (number[] | undefined)[],
): boolean {
  if (colours.some((colour) => !colour)) return false;
  const border = medianColour((reference ?? colours) as number[][]);
  return border !== null && colours.every((colour) => distance(colour as number[], border) <= MAX_BAND_COLOUR_SPREAD);
}

/** The median colour from 2 px to MIN_BAND_MM inside a side's line (its middle 80 %), or null. */
function colourInside(image: RgbaImage, colourAt: RgbSampler, side: Side, pxPerMm: number): number[] | null {
  const depth = Math.max(3, MIN_BAND_MM * pxPerMm);
  const n = Math.ceil((depth - 2) * STEPS_PER_PX) + 1;
  const read = readAcross(image, colourAt, side, { from: -depth, count: n, perPx: STEPS_PER_PX, reach: 0 });
  return read ? medianColour(read.medianProfile) : null;
}

/**
 * A border running in from a side's line (the line on the cut): the median profile flat (within
 * MIN_BAND_CONTRAST / 2 of its colour) from past the cut's blur for at least MIN_BAND_MM, then
 * stepping away from that colour by MIN_BAND_CONTRAST at most MAX_BAND_MM in, the table just
 * outside the line as far from it. Its colour and width (px), or null.
 */
function insideBand(
  image: RgbaImage,
  colourAt: RgbSampler,
  side: Side,
  pxPerMm: number,
): { colour: number[]; width: number } | null {
  const depth = MAX_BAND_MM * pxPerMm;
  const outer = MIN_BAND_MM * pxPerMm + 2;
  const from = -depth;
  const n = Math.ceil((depth + outer) * STEPS_PER_PX) + 1;
  const read = readAcross(image, colourAt, side, { from, count: n, perPx: STEPS_PER_PX, reach: outer });
  if (!read) return null;
  const { medianProfile } = read;
  const at = (t: number) => medianProfile[Math.round((t - from) * STEPS_PER_PX)] as number[] | undefined;
  const samples = (t0: number, t1: number) => {
    const out: number[][] = [];
    for (let t = t0; t <= t1; t += 1 / STEPS_PER_PX) {
      const c = at(t);
      if (c) out.push(c);
    }
    return out;
  };
  const colour = medianColour(samples(-MIN_BAND_MM * pxPerMm, -2));
  const table = medianColour(samples(2, outer));
  if (!colour || !table || distance(colour, table) < MIN_BAND_CONTRAST) return null;
  for (let t = -2; t >= -depth; t -= 1 / STEPS_PER_PX) {
    const c = at(t);
    if (!c) return null;
    if (distance(c, colour) < MIN_BAND_CONTRAST / 2) continue;
    if (-t < MIN_BAND_MM * pxPerMm) return null;
    const beyond = samples(t - 2, t - 1);
    if (beyond.length === 0 || beyond.some((b) => distance(b, colour) < MIN_BAND_CONTRAST)) return null;
    return { colour, width: -t };
  }
  return null;
}

interface Side {
  p: Point;
  q: Point;
  /** Outward unit normal. */
  nx: number;
  ny: number;
}

/** One side's border: its median profile outward, then the step traced profile by profile. */
function sideBand(image: RgbaImage, colourAt: RgbSampler, side: Side, pxPerMm: number): SideBand | null {
  const reach = (MAX_BAND_MM + TABLE_READ_MM) * pxPerMm;
  const n = Math.ceil(reach * STEPS_PER_PX) + 1;
  const read = readAcross(image, colourAt, side, { from: 0, count: n, perPx: STEPS_PER_PX, reach });
  if (!read) return null;
  const { profiles, bases, medianProfile } = read;
  // The border's colour: just outside the line, past the blur of the frame's edge (2 px), over
  // the narrowest border.
  const start = 2 * STEPS_PER_PX;
  const minEnd = Math.max(start + STEPS_PER_PX, Math.round(MIN_BAND_MM * pxPerMm * STEPS_PER_PX));
  const colour = medianColour(medianProfile.slice(start, minEnd + 1));
  const table = medianColour(medianProfile.slice(Math.round((reach - TABLE_READ_MM * pxPerMm) * STEPS_PER_PX)));
  if (!colour || !table) return null;
  const contrast = distance(colour, table);
  if (contrast < MIN_BAND_CONTRAST) return null;
  // The step: the first sample past the narrowest border as far from the border's colour as half
  // the contrast; everything before it (past the blur) flat.
  const maxStep = Math.round(MAX_BAND_MM * pxPerMm * STEPS_PER_PX);
  let step = -1;
  for (let i = minEnd; i <= Math.min(maxStep, n - 1); i++) {
    if (distance(medianProfile[i] as number[], colour) >= contrast / 2) {
      step = i;
      break;
    }
  }
  if (step < 0) return null;
  const flatEnd = step - 2 * STEPS_PER_PX;
  for (let i = start; i <= flatEnd; i++) {
    if (distance(medianProfile[i] as number[], colour) > BAND_FLATNESS * contrast) return null;
  }
  // Past the step the colour stays away from the border's (to the table's read end).
  for (let i = step + 2 * STEPS_PER_PX; i < n; i++) {
    if (distance(medianProfile[i] as number[], colour) < contrast / 2) return null;
  }
  // The step on each profile: the half-contrast crossing nearest the median's, interpolated.
  const window = Math.max(3, 0.5 * pxPerMm) * STEPS_PER_PX;
  const points: Point[] = [];
  for (const [j, samples] of profiles.entries()) {
    const at = (i: number) => distance([samples[i * 3], samples[i * 3 + 1], samples[i * 3 + 2]] as number[], colour);
    let best = -1;
    for (let i = Math.max(start + 1, Math.round(step - window)); i <= Math.min(n - 1, Math.round(step + window)); i++) {
      if (at(i - 1) < contrast / 2 && at(i) >= contrast / 2 && (best < 0 || Math.abs(i - step) < Math.abs(best - step)))
        best = i;
    }
    if (best < 0) continue;
    const a = at(best - 1);
    const b = at(best);
    const t = (best - 1 + (contrast / 2 - a) / Math.max(1e-6, b - a)) / STEPS_PER_PX;
    const base = bases[j] as Point;
    points.push({ x: base.x + side.nx * t, y: base.y + side.ny * t });
  }
  const line = fitLine(points);
  if (!line) return null;
  const close = points.filter((pt) => Math.abs(line.a * pt.x + line.b * pt.y - line.c) <= 1.5);
  if (close.length < EDGE_PROFILES * MIN_STEP_COVERAGE) return null;
  // Distance of the step's line from the side at its two ends (along the outward normal).
  const along = (pt: Point) => {
    const denom = line.a * side.nx + line.b * side.ny;
    return (line.c - line.a * pt.x - line.b * pt.y) / denom;
  };
  const atP = along(side.p);
  const atQ = along(side.q);
  if (!Number.isFinite(atP) || !Number.isFinite(atQ)) return null;
  if (Math.abs(atP - atQ) > MAX_BAND_TAPER_MM * pxPerMm) return null;
  const width = (atP + atQ) / 2;
  if (width < MIN_BAND_MM * pxPerMm || width > MAX_BAND_MM * pxPerMm) return null;
  const squares = close.reduce((sum, pt) => sum + (line.a * pt.x + line.b * pt.y - line.c) ** 2, 0);
  return { line, width, colour, table, contrast, close: close.length, squares };
}

/**
 * The blur assumed where a rim is read before the outline is refined (mm): it only lengthens how
 * far past its darkest the rim's step into the body is looked for (rim.ts).
 */
const RIM_BLUR_MM = 0.5;
/** How far out from a side's line its rim's colour is read, where the line is on the inner step (mm). */
const RIM_COLOUR_MM = 0.25;
/** The strongest changes of colour outside a side's line tried as the rim's cut, strongest first. */
const MAX_RIM_STEPS_TRIED = 3;
/**
 * How far out from a side's line (mm) the rim's darkest may lie with the body's print between: the
 * outline closed on a line of the print inside the rim's inner step (its body's colour, then the
 * rim, lie outside it). A real photo of a Yu-Gi-Oh! card on grey paper was outlined on the rim's
 * inner step along three sides and on its text box's lower edge along the bottom, the rim's darkest
 * 3.1 mm out from it, past a band of the body's teal: the sides on the step were found, the bottom
 * was no rim's, and the card was measured on its body (refused at the frame).
 */
const RIM_FAR_MM = 4;

/** A side read across for a bevelled rim (rimSide). */
interface RimSide {
  /** The rim's outer step, where the side's line lies on its inner step; null where the line is the cut. */
  cut: Line | null;
  /** The rim's darkest colour. */
  colour: number[];
}

/**
 * The outline widened to a bevelled rim's cut along the sides where it closed on the rim's inner
 * step (on all four, when the outline found is the card's body), or null when it did on none, or a
 * side shows no rim (see the file's head). `corners` in photo order. An outline on the inner step
 * all round was once left as it was: a slanted Yu-Gi-Oh! card on a brick table (drawn, tilted 20°,
 * the photo naming no lens) was then measured on its body, the art's edge taken for the frame, and
 * graded 3.14 points off.
 */
export function rimOutside(image: RgbaImage, corners: Quad): Quad | null {
  const colourAt = rgbSampler(image);
  const pxPerMm = outlineScale(corners);
  const sides: Side[] = [];
  const rims: RimSide[] = [];
  for (let k = 0; k < 4; k++) {
    const side = outwardSide(corners, k);
    const rim = rimSide(image, colourAt, side, pxPerMm);
    if (!rim) return null;
    sides.push(side);
    rims.push(rim);
  }
  const moved = rims.filter((rim) => rim.cut !== null).length;
  if (moved === 0) return null;
  if (!sameBorder(rims.map((rim) => rim.colour))) return null;
  return outlineThrough(sides.map((side, k) => rims[k]?.cut ?? lineThrough(side.p, side.q)));
}

/** Opposite sides' border widths (photo order) within MAX_OPPOSITE_RATIO of each other. */
function oppositeWithinRatio(widths: readonly number[]): boolean {
  for (let k = 0; k < 2; k++) {
    const a = widths[k] as number;
    const b = widths[k + 2] as number;
    if (Math.max(a, b) > MAX_OPPOSITE_RATIO * Math.min(a, b)) return false;
  }
  return true;
}

/** The quadrilateral (photo order) whose sides lie on `lines` (top, right, bottom, left), or null. */
function outlineThrough(lines: readonly Line[]): Quad | null {
  const [t, r, b, l] = lines as [Line, Line, Line, Line];
  const corners: Quad = [intersect(l, t), intersect(t, r), intersect(r, b), intersect(b, l)];
  return corners.every((c) => Number.isFinite(c.x) && Number.isFinite(c.y)) ? corners : null;
}

/**
 * Pixels per mm as if the outline were a whole card of the narrowest format: it is smaller than
 * the card when a border or a rim lies outside it, so a reach in mm reads a little further out.
 */
function outlineScale(corners: Quad): number {
  const lengths = [0, 1, 2, 3].map((k) => dist(corners[k] as Point, corners[(k + 1) % 4] as Point));
  const shortSide = Math.min(((lengths[0] ?? 0) + (lengths[2] ?? 0)) / 2, ((lengths[1] ?? 0) + (lengths[3] ?? 0)) / 2);
  return shortSide / NARROWEST_MM;
}

/** Side k of `corners` with its outward unit normal (away from the outline's centre). */
function outwardSide(corners: Quad, k: number): Side {
  const cx = corners.reduce((s, c) => s + c.x, 0) / 4;
  const cy = corners.reduce((s, c) => s + c.y, 0) / 4;
  const p = corners[k] as Point;
  const q = corners[(k + 1) % 4] as Point;
  const length = dist(p, q);
  let nx = (q.y - p.y) / length;
  let ny = -(q.x - p.x) / length;
  if (nx * ((p.x + q.x) / 2 - cx) + ny * ((p.y + q.y) / 2 - cy) < 0) {
    nx = -nx;
    ny = -ny;
  }
  return { p, q, nx, ny };
}

/**
 * One side read across for a bevelled rim, one pixel apart from rimReach inside its line to as far
 * outside: the rim running in from the line (the line is the cut), or out from it to the cut (the
 * line is on the rim's inner step, and the cut is traced); null when neither.
 */
function rimSide(image: RgbaImage, colourAt: RgbSampler, side: Side, pxPerMm: number): RimSide | null {
  const reach = rimReach(pxPerMm, RIM_BLUR_MM) + 2;
  const read = readAcross(image, colourAt, side, { from: -reach, count: 2 * reach + 1, perPx: 1, reach });
  if (!read) return null;
  const { profiles, bases, medianProfile } = read;
  const at = (t: number) => medianProfile[t + reach] as number[];
  /** Lumas inward from `t` px outside the line, one pixel apart. */
  const inwardFrom = (t: number) => {
    const lumas: number[] = [];
    for (let d = t; d >= -reach; d--) lumas.push(luma(at(d)));
    return lumas;
  };
  const tableReach = Math.max(3, Math.round(0.5 * pxPerMm));
  const table = medianColour(medianProfile.slice(medianProfile.length - tableReach));
  if (!table) return null;
  const onCutAt = (low: number | null) => {
    if (low === null) return null;
    const colour = at(-low);
    return distance(colour, table) >= MIN_BAND_CONTRAST ? { cut: null, colour } : null;
  };
  const fromLine = rimLow(inwardFrom(0), pxPerMm, RIM_BLUR_MM);
  if (fromLine !== null) return onCutAt(fromLine);
  // In a shadow outside the cut (a penumbra and the card's dark edge beside a rim lightest at its
  // cut): in from the line, the colour falls to a band and rises sharply out of it onto a rim.
  const beyond = rimPastShadow(side, pxPerMm, reach, read, table);
  if (beyond) return beyond;
  // On the inner step: out from the line, the rim runs to the cut, the median profile's fastest
  // change of colour past it from which, read back in, the rim's darkest lies at the line (within
  // its rise), or further out past the body's print (RIM_FAR_MM). (A patterned table makes its
  // colour far out no guide to where the cut is.)
  const change = (colours: (t: number) => number[], t: number) => distance(colours(t + 1), colours(t - 1));
  const maxima: number[] = [];
  for (let t = 3; t < reach - 1; t++) {
    const here = change(at, t);
    if (here >= MIN_BAND_CONTRAST / 2 && here >= change(at, t - 1) && here > change(at, t + 1)) maxima.push(t);
  }
  maxima.sort((a, b) => change(at, b) - change(at, a));
  const riseReach = Math.max(3, (RIM_RISE_MM + RIM_BLUR_MM) * pxPerMm);
  let step = -1;
  let low: number | null = null;
  for (const t of maxima.slice(0, MAX_RIM_STEPS_TRIED)) {
    const darkest = rimLow(inwardFrom(t), pxPerMm, RIM_BLUR_MM);
    // The rim's darkest, this many px out from the line.
    const out = darkest === null ? Number.NaN : t - darkest;
    if (Math.abs(out) <= riseReach || (out > 0 && out <= RIM_FAR_MM * pxPerMm)) {
      step = t;
      low = darkest;
      break;
    }
  }
  if (step < 0 || low === null) return null;
  // The rim's colour: just outside the line, on its inner step; at its darkest, past the body.
  const rim = step - low <= riseReach ? at(Math.max(2, Math.round(RIM_COLOUR_MM * pxPerMm))) : at(step - low);
  // The cut on each profile: where its colour changes fastest within half a millimetre of the
  // median's step, against a table of its own that stands out from the rim.
  const window = Math.max(3, Math.round(0.5 * pxPerMm));
  const points: Point[] = [];
  for (const [j, samples] of profiles.entries()) {
    const colourOf = (t: number) => {
      const i = (t + reach) * 3;
      return [samples[i] as number, samples[i + 1] as number, samples[i + 2] as number];
    };
    const own = medianColour(Array.from({ length: tableReach }, (_, i) => colourOf(reach - i)));
    if (!own || distance(own, rim) < MIN_BAND_CONTRAST) continue;
    let best = -1;
    for (let t = Math.max(2, step - window); t <= Math.min(reach - 2, step + window); t++)
      if (best < 0 || change(colourOf, t) > change(colourOf, best)) best = t;
    if (best < 0 || change(colourOf, best) < MIN_BAND_CONTRAST / 2) continue;
    points.push(peakPoint((t) => change(colourOf, t), best, bases[j] as Point, side));
  }
  const line = coveringLine(points);
  return line ? { cut: line, colour: at(step - low) } : null;
}

/**
 * The point on the side's normal through `base` where `value` (read along it, t px outward) peaks,
 * to a fraction of a pixel: the vertex of the parabola through its value at `best` and the two
 * beside it, at most half a pixel off.
 */
function peakPoint(value: (t: number) => number, best: number, base: Point, side: Side): Point {
  const [before, here, after] = [value(best - 1), value(best), value(best + 1)];
  const curvature = before - 2 * here + after;
  const offset = curvature < 0 ? Math.max(-0.5, Math.min(0.5, (before - after) / (2 * curvature))) : 0;
  return { x: base.x + side.nx * (best + offset), y: base.y + side.ny * (best + offset) };
}

/** The line fitted through `points` when MIN_STEP_COVERAGE of the profiles lie within 1.5 px of it, else null. */
function coveringLine(points: Point[]): Line | null {
  const line = fitLine(points);
  if (!line) return null;
  const close = points.filter((pt) => Math.abs(line.a * pt.x + line.b * pt.y - line.c) <= 1.5);
  return close.length >= EDGE_PROFILES * MIN_STEP_COVERAGE ? line : null;
}

/** How far in from a side's line a rim's cut is looked for past a shadow (mm). */
const SHADOW_REACH_MM = 1.5;

/**
 * The rim's cut inside a side's line that lies out in a shadow beside it (rimSide): read inward
 * from the line on the median profile, the colour falls to its lowest within SHADOW_REACH_MM and
 * then rises by RIM_MIN_RISE or more within the rim's blur (0.5 mm), onto a rim that runs in from
 * the rise's middle (rimLow); the lowest lies DARK_BELOW_TABLE under the table's colour (the last
 * 0.5 mm read outside). A rim is lightest at its cut, so a band darker than the rim there lying
 * outside it is no part of the card (its dark edge, its contact shadow, a shadow's penumbra). The
 * cut is traced on each profile where its luma rises fastest inward within 2 px of the median's
 * rise, the line through them holding half the profiles within 1.5 px. Null otherwise.
 */
const DARK_BELOW_TABLE = 20;

function rimPastShadow(
  side: Side,
  pxPerMm: number,
  reach: number,
  read: NonNullable<ReturnType<typeof readAcross>>,
  table: number[],
): RimSide | null {
  const { profiles, bases, medianProfile } = read;
  const lumaAt = (t: number) => luma(medianProfile[t + reach] as number[]);
  const deepest = Math.min(reach - 1, Math.round(SHADOW_REACH_MM * pxPerMm));
  const riseReach = Math.max(2, Math.ceil(RIM_BLUR_MM * pxPerMm));
  let low = 0;
  let risen = 0;
  for (let d = 0; d <= deepest + riseReach && -d > -reach; d++) {
    if (lumaAt(-d) < lumaAt(-low)) low = d;
    if (lumaAt(-d) - lumaAt(-low) >= RIM_MIN_RISE) {
      risen = d;
      break;
    }
    if (d - low > riseReach) return null;
  }
  if (risen === 0 || low > deepest || lumaAt(-low) > luma(table) - DARK_BELOW_TABLE) return null;
  // The rise's middle: halfway from the lowest to the colour it rises to.
  let top = risen;
  while (top < low + riseReach && -top > -reach + 1 && lumaAt(-top - 1) > lumaAt(-top)) top++;
  const half = (lumaAt(-low) + lumaAt(-top)) / 2;
  let cut = low;
  while (cut < top && lumaAt(-cut) < half) cut++;
  const inward: number[] = [];
  for (let d = cut; d <= reach; d++) inward.push(lumaAt(-d));
  const darkest = rimLow(inward, pxPerMm, RIM_BLUR_MM);
  if (darkest === null) return null;
  const points: Point[] = [];
  for (const [j, samples] of profiles.entries()) {
    const lumaOf = (t: number) => {
      const i = (t + reach) * 3;
      return luma([samples[i] as number, samples[i + 1] as number, samples[i + 2] as number]);
    };
    // The rise inward at t: the colour at t - 1 (further in) against t + 1.
    const rise = (t: number) => lumaOf(t - 1) - lumaOf(t + 1);
    let best = -cut;
    for (let t = -cut - 2; t <= -cut + 2; t++) if (t - 1 > -reach && t + 1 < reach && rise(t) > rise(best)) best = t;
    if (rise(best) < RIM_MIN_RISE / 2) continue;
    points.push(peakPoint(rise, best, bases[j] as Point, side));
  }
  const line = coveringLine(points);
  return line ? { cut: line, colour: medianProfile[reach - cut - darkest] as number[] } : null;
}

/**
 * The side's profiles along its middle 80 % (EDGE_PROFILES of them), `count` samples each,
 * `perPx` to a pixel from `from` px along the outward normal, and their median profile; a
 * profile whose point `reach` px out leaves the photo is not read. Null when fewer than
 * MIN_STEP_COVERAGE of them are.
 */
function readAcross(
  image: RgbaImage,
  colourAt: RgbSampler,
  side: Side,
  at: { from: number; count: number; perPx: number; reach: number },
): { profiles: Float64Array[]; bases: Point[]; medianProfile: number[][] } | null {
  const { from, count, perPx, reach } = at;
  const profiles: Float64Array[] = [];
  const bases: Point[] = [];
  const out = new Float64Array(3);
  for (let s = 0; s < EDGE_PROFILES; s++) {
    const f = 0.1 + (0.8 * (s + 0.5)) / EDGE_PROFILES;
    const bx = side.p.x + (side.q.x - side.p.x) * f;
    const by = side.p.y + (side.q.y - side.p.y) * f;
    const ex = bx + side.nx * reach;
    const ey = by + side.ny * reach;
    if (ex < 0 || ey < 0 || ex > image.width || ey > image.height) continue;
    const samples = new Float64Array(count * 3);
    for (let i = 0; i < count; i++) {
      const t = from + i / perPx;
      colourAt(bx + side.nx * t, by + side.ny * t, out);
      samples[i * 3] = out[0] as number;
      samples[i * 3 + 1] = out[1] as number;
      samples[i * 3 + 2] = out[2] as number;
    }
    profiles.push(samples);
    bases.push({ x: bx, y: by });
  }
  if (profiles.length < EDGE_PROFILES * MIN_STEP_COVERAGE) return null;
  const medianProfile: number[][] = [];
  const column = new Float64Array(profiles.length);
  for (let i = 0; i < count; i++) {
    const colour: number[] = [];
    for (let ch = 0; ch < 3; ch++) {
      for (let j = 0; j < profiles.length; j++) column[j] = (profiles[j] as Float64Array)[i * 3 + ch] as number;
      colour.push(selectKth(column, column.length, column.length >> 1));
    }
    medianProfile.push(colour);
  }
  return { profiles, bases, medianProfile };
}
