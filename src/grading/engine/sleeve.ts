// A card in a coloured sleeve (a deck protector: clear front, coloured back). The sleeve's edge is
// then the outline, its margin around the card a band of even colour, and the card's cut the
// first line inside it: read as a card, the sleeve is measured as a border and the card's place
// in the sleeve as its centering. The shapes give it away: a Yu-Gi-Oh card (59 × 86 mm) in its
// 62 × 89 mm sleeve reads as a 1952–56 Topps card (1.435 against 1.429), and the lines 1–2 mm
// inside enclose a 59 × 86 mm card. When those lines enclose a card of a known format and their
// corners are rounded as a cut's (roundedFrameCorners), the card is measured inside the sleeve
// (analyse-face.ts, cardInSleeve); otherwise the photo is refused as sleeved.
import type { Widths } from "./centering";
import type { CardFormat } from "./evidence";
import { aspectOf, describeFormat, FORMAT_TOLERANCE, FORMATS, recogniseFormat } from "./formats";
import type { SideMeasurement } from "./frame-side";
import { FLAT_PX_PER_MM } from "./geometry";
import { colourDistance, medianColour, type RgbaImage } from "./image";

/**
 * How much wider and longer than its card a sleeve is, at most, in mm of the card: 1 mm for an
 * inner "perfect fit" sleeve (64 × 89 mm on 63 × 88), 3 mm for a deck protector (66 × 91 on
 * 63 × 88, 62 × 89 on 59 × 86). A 1952–56 Topps card's white borders, about 3 mm a side, leave
 * 6 mm or more; so do a standard card's 3 mm borders.
 */
export const MAX_SLEEVE_SLACK_MM = 4;

/**
 * A sleeve up to MAX_SLEEVE_SLACK_MM larger than its card makes the outline up to this much
 * squatter (relative height / width) than the card's format: 67 × 92 mm on 63 × 88 is 1.7 %,
 * 63 × 90 on 59 × 86 is 2.0 %.
 */
export const MAX_SLEEVE_SQUAT = 0.022;

/** A shape that matches no format could be a sleeve's around a card of `nearest`: squatter than it, by at most MAX_SLEEVE_SQUAT. */
export function sleeveShaped(aspect: number, nearest: CardFormat): boolean {
  const card = nearest.height_mm / nearest.width_mm;
  return aspect < card && aspect >= card * (1 - MAX_SLEEVE_SQUAT);
}

/**
 * A raw card's outline may read up to this much squatter (relative height / width) than its
 * format: a slant the outline cannot show (a near-parallelogram says nothing of the tilt that
 * foreshortens it), a lens's barrel, its cut traced a pixel inside a rounded corner. The 22 faces
 * graded on the local real photos read from 0.9 % squatter to 0.7 % taller than their format,
 * and one more raw card reads 1.01 % squat (1.383 for 1.397). The squattest common sleeve, a
 * penny sleeve (66.7 × 92.1 mm round 63 × 88), reads 1.15 % squat, and deck protectors more
 * (66 × 91, 1.3 %), so a squat outline is measured as its format only when no sleeve is found
 * round the card (cardInSleeve) and its frame shows a card's border (analyse-face.ts).
 */
const MAX_CARD_SQUAT = 0.011;
/** No other format may lie within this (relative) of a squat card's proportions: which it is would be a guess. */
const SQUAT_FORMAT_GAP = 0.02;

/** Proportions just outside `nearest`'s tolerance, squatter by at most MAX_CARD_SQUAT, and clear of every other format. */
export function squatCard(aspect: number, nearest: CardFormat): boolean {
  const card = aspectOf(nearest);
  const misfit = (format: CardFormat) => Math.abs(aspect - aspectOf(format)) / aspectOf(format);
  return (
    aspect < card * (1 - FORMAT_TOLERANCE) &&
    aspect >= card * (1 - MAX_CARD_SQUAT) &&
    FORMATS.every((format) => format.id === nearest.id || misfit(format) > SQUAT_FORMAT_GAP)
  );
}

/**
 * A border this far (RGB) from the table's colour, or more, is the card's ink; nearer, it may be the
 * table seen through a clear sleeve's margin, the sleeve's edge taken for the card's.
 */
const MIN_BORDER_FROM_TABLE = 40;

/** True when the borders' colour (the median over the four sides) is not the table's. */
export function borderNotTable(
  sides: Record<string, Pick<SideMeasurement, "borderColor">>,
  table: readonly number[],
): boolean {
  const border = medianColour(Object.values(sides).map((side) => [...side.borderColor]));
  return border !== null && colourDistance(border, table) >= MIN_BORDER_FROM_TABLE;
}

export interface SleeveReading {
  /** The format of the card the frame lines enclose. */
  inner: CardFormat;
  /** The margins between the outline and that card, in mm of the card inside. */
  marginsMm: Widths;
}

/**
 * The lines found as the printed frame, read as a sleeved card's cut: their rectangle has the
 * proportions of a card of another format than the outline's, and is at most MAX_SLEEVE_SLACK_MM
 * smaller than the outline across and along. Null otherwise. A rectangle of the 1952–56 Topps
 * proportions is not taken for a card: a standard card's frame inside 3 mm borders has that shape
 * (57 × 82 mm, 1.439), and vintage cards are not kept in players' coloured sleeves.
 */
export function sleeveReading(format: CardFormat, widths: Widths): SleeveReading | null {
  const mm = (px: number) => px / FLAT_PX_PER_MM;
  const innerWidth = format.width_mm - mm(widths.left + widths.right);
  const innerHeight = format.height_mm - mm(widths.top + widths.bottom);
  if (innerWidth <= 0 || innerHeight <= 0) return null;
  const match = recogniseFormat(innerHeight / innerWidth);
  if (!match.ok || match.format.id === format.id || match.format.id === "vintage_topps_1952") return null;
  // In mm of the card inside, whose width is the format's.
  const scale = match.format.width_mm / innerWidth;
  const marginsMm: Widths = {
    left: mm(widths.left) * scale,
    right: mm(widths.right) * scale,
    top: mm(widths.top) * scale,
    bottom: mm(widths.bottom) * scale,
  };
  const slackAcross = marginsMm.left + marginsMm.right;
  const slackAlong = marginsMm.top + marginsMm.bottom;
  return slackAcross <= MAX_SLEEVE_SLACK_MM && slackAlong <= MAX_SLEEVE_SLACK_MM
    ? { inner: match.format, marginsMm }
    : null;
}

/**
 * The frame lines found on a front are a card's cut when all four of their corners are read and
 * rounded (roundedFrameCorners): the outline is then something the card lies in or on, of its own
 * proportions (a sleeve, a binder page's pocket with white paper behind the card), and its margin
 * would be measured as the card's border. Fronts only: a card's back is printed to its own design.
 */
export function cutInsideOutline(flat: RgbaImage, widths: Widths): boolean {
  const corners = roundedFrameCorners(flat, widths);
  return corners.read >= MIN_CUT_CORNERS_READ && corners.rounded === corners.read;
}

/** Why a card whose frame lines are a card's cut is refused, for the face named. */
export function cutInsideMessage(name: string): string {
  return `The ${name} photo: the lines found inside the outline have rounded corners, as a card's cut has and a printed frame does not, so the outline is something the card lies in (a sleeve, a binder page's pocket, a holder) and its margin would be measured as the card's border. Take the card out and photograph it on its own.`;
}

/** Why a sleeved card is refused, for the face named. */
export function sleeveMessage(name: string, format: CardFormat, sleeve: SleeveReading): string {
  const margins = Object.values(sleeve.marginsMm);
  const range = `${Math.min(...margins).toFixed(1)}–${Math.max(...margins).toFixed(1)} mm`;
  return `The card in the ${name} photo seems to be in a sleeve: its outline reads as a ${describeFormat(format)} card, but lines ${range} inside it enclose the shape of a ${describeFormat(sleeve.inner)} card, so the sleeve's margin would be measured as its border. Take the card out of its sleeve and photograph it again.`;
}

/**
 * A card's cut has corners rounded 3 mm (2.8 mm as it shows inside a sleeve or a pocket of its own
 * proportions); a printed frame's are square or rounded 2 mm at most (an SV-era Pokémon card's
 * art). Each corner of the frame lines is read ROUND_PROBE_MM inside both lines, where a corner
 * rounded R mm still shows what lies outside it for R ≥ 2.4 mm (its arc crosses the diagonal
 * 0.29 R inside both lines): the colour there is set against the border's (outside the lines, near the corner, along
 * both sides) and against what lies just inside each line near the corner. Counts the corners
 * that show the border's colour there, of those whose border and inside differ by at least
 * MIN_CORNER_CONTRAST.
 */
export function roundedFrameCorners(flat: RgbaImage, widths: Widths): { rounded: number; read: number } {
  const { width: W, height: H, data } = flat;
  const mm = (value: number) => value * FLAT_PX_PER_MM;
  const patch = (x: number, y: number) => {
    const colours: number[][] = [];
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const px = Math.min(W - 1, Math.max(0, Math.round(x + dx)));
        const py = Math.min(H - 1, Math.max(0, Math.round(y + dy)));
        const o = (py * W + px) * 4;
        colours.push([data[o] ?? 0, data[o + 1] ?? 0, data[o + 2] ?? 0]);
      }
    }
    return medianColour(colours) as number[];
  };
  let rounded = 0;
  let read = 0;
  for (const [horizontal, vertical] of [
    ["left", "top"],
    ["right", "top"],
    ["right", "bottom"],
    ["left", "bottom"],
  ] as const) {
    const sx = horizontal === "left" ? 1 : -1;
    const sy = vertical === "top" ? 1 : -1;
    const x = horizontal === "left" ? widths.left : W - widths.right;
    const y = vertical === "top" ? widths.top : H - widths.bottom;
    const along = mm(CORNER_SAMPLE_MM);
    const probe = mm(ROUND_PROBE_MM);
    // The border: halfway across each border, CORNER_SAMPLE_MM along it from the corner.
    const border = medianColour([
      patch(x - (sx * widths[horizontal]) / 2, y + sy * along),
      patch(x + sx * along, y - (sy * widths[vertical]) / 2),
    ]) as number[];
    // Inside the lines, ROUND_PROBE_MM in from one, CORNER_SAMPLE_MM along it.
    const inside = medianColour([
      patch(x + sx * probe, y + sy * along),
      patch(x + sx * along, y + sy * probe),
    ]) as number[];
    if (colourDistance(border, inside) < MIN_CORNER_CONTRAST) continue;
    read++;
    const corner = patch(x + sx * probe, y + sy * probe);
    if (colourDistance(corner, border) < colourDistance(corner, inside)) rounded++;
  }
  return { rounded, read };
}

/** How far inside both frame lines a corner is read (mm). */
const ROUND_PROBE_MM = 0.7;
/**
 * The corners that must be read, all of them rounded, for the frame lines to be a card's cut: a
 * corner hidden (a thumb over it, the sleeve's margin there the colour of the card's border) is
 * not read, and tells neither way. With all four asked for, a card in a green penny sleeve held by
 * a thumb over one corner was graded on the sleeve's margin as its border, 9.1 points off.
 */
const MIN_CUT_CORNERS_READ = 3;
/** How far from the corner, along the sides, the border and the inside are read (mm). */
const CORNER_SAMPLE_MM = 4;
/** A corner is read only where its border and the inside near it differ by this much (RGB). */
const MIN_CORNER_CONTRAST = 40;
