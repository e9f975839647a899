// A card in a coloured sleeve (a deck protector: clear front, coloured back). The sleeve's edge is
// then the outline, its margin around the card a band of even colour, and the card's cut the
// first line inside it: read as a card, the sleeve is measured as a border and the card's place
// in the sleeve as its centering. The shapes give it away: a Yu-Gi-Oh card (59 × 86 mm) in its
// 62 × 89 mm sleeve reads as a 1952–56 Topps card (1.435 against 1.429), and the lines 1–2 mm
// inside enclose a 59 × 86 mm card.
import type { Widths } from "./centering";
import type { CardFormat } from "./evidence";
import { describeFormat, recogniseFormat } from "./formats";
import { FLAT_PX_PER_MM } from "./geometry";

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

/** Why a sleeved card is refused, for the face named. */
export function sleeveMessage(name: string, format: CardFormat, sleeve: SleeveReading): string {
  const margins = Object.values(sleeve.marginsMm);
  const range = `${Math.min(...margins).toFixed(1)}–${Math.max(...margins).toFixed(1)} mm`;
  return `The card in the ${name} photo seems to be in a sleeve: its outline reads as a ${describeFormat(format)} card, but lines ${range} inside it enclose the shape of a ${describeFormat(sleeve.inner)} card, so the sleeve's margin would be measured as its border. Take the card out of its sleeve and photograph it again.`;
}
