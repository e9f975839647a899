// The catalog's print of a card: its reference image (a scan, or a photo of the card on a table)
// flattened to the face's format, with its printed frame measured there. It is used twice. Its
// frame aligns it with the photographed card, for the lines in the artwork
// (reference-difference.ts): two copies of a card are printed off centre by different amounts, so
// their card edges do not align, their frames do. And its frame's size checks the outline the
// photo was measured in (checkPrintSize): a copy's frame may sit anywhere on its card, but it is
// printed at one size, so the frame measured inside a true outline has the print's size, and one
// measured inside an outline that also takes in something beside the card (another card beneath
// it, a sleeve's margin, both of the border's colour) is smaller by as much as that adds.
import { WORKING_MAX_SIDE } from "./analyse-face";
import type { Widths } from "./centering";
import { DecodeError, decodeImage } from "./decode";
import type { CardFormat } from "./evidence";
import { measureFrame } from "./frame";
import type { Side, SideMeasurement } from "./frame-side";
import { FLAT_PX_PER_MM } from "./geometry";
import { SAME_CARD } from "./identify";
import type { RgbaImage } from "./image";
import { hammingDistance, perceptualHash } from "./phash";
import { referenceCard } from "./reference";

export interface ReferencePrint {
  /** The reference card, flat at FLAT_PX_PER_MM in the face's format. */
  flat: RgbaImage;
  /** Its printed frame's sides (widths in flat-card pixels). */
  sides: Record<Side, SideMeasurement>;
  /** Its perceptual hash (the catalog's, as reference.ts makes it). */
  hash: string;
}

/** The reference as a flat card of the face's format with its frame measured; null if it shows none. */
export function referencePrint(bytes: Uint8Array, format: CardFormat): ReferencePrint | null {
  let image: RgbaImage;
  try {
    image = decodeImage(bytes, WORKING_MAX_SIDE).image;
  } catch (error) {
    if (error instanceof DecodeError) return null;
    throw error;
  }
  const card = referenceCard(image);
  if (!card || card.format.id !== format.id) return null;
  const frame = measureFrame(card.flat);
  return frame.ok ? { flat: card.flat, sides: frame.sides, hash: perceptualHash(card.flat) } : null;
}

/**
 * How far (mm) the frame measured on the photo may differ in width or height from the print's.
 * Both are measured inside a card outline scaled to the format's size, so a copy cut up to 0.3 mm
 * narrower or wider (three times the spread of a print run's cut) reads its frame 0.3 mm larger
 * or smaller, and each frame line is placed to about 0.1 mm on either image. Another card beneath
 * one, 1.5 mm out, shrinks the frame measured by 1.3 mm across and 1.4 mm down; a 66 × 91 mm
 * sleeve's margin read as border, by 2.6 mm.
 */
export const PRINT_SIZE_TOLERANCE_MM = 0.6;

/** A frame's size in mm: the card's size less its borders. */
export interface FrameSize {
  width_mm: number;
  height_mm: number;
}

export function frameSize(widths: Widths, format: CardFormat): FrameSize {
  return {
    width_mm: format.width_mm - (widths.left + widths.right) / FLAT_PX_PER_MM,
    height_mm: format.height_mm - (widths.top + widths.bottom) / FLAT_PX_PER_MM,
  };
}

export interface PrintSizeCheck {
  measured: FrameSize;
  /** The nearest print's frame. */
  reference: FrameSize;
  /** The nearest print. */
  print: ReferencePrint;
  /** "same": within the tolerance; "smaller": the outline takes in more than the card (refused); "other": no print's frame fits (another printing than any compared, say). */
  verdict: "same" | "smaller" | "other";
}

/**
 * The frame measured on the face against the prints' (the identified card's and any catalog card
 * it cannot be told from): "same" when any print's frame is within PRINT_SIZE_TOLERANCE_MM in
 * both width and height. Else, against the nearest print, "smaller" when the frame measured is
 * smaller across or down by more than that and larger on neither: an outline that takes in more
 * than the card (another card beneath it, or a sleeve's margin, of its border's colour), whose
 * borders would be measured too wide. "other" when it is larger on either: a print framed
 * differently (a reprint with thinner borders the hash cannot tell from this one) more likely than
 * an outline inside the cut, which the outline's own checks refuse; not refused. Null when there
 * is no print to compare with.
 */
export async function checkPrintSize(
  widths: Widths,
  format: CardFormat,
  prints: AsyncIterable<ReferencePrint>,
): Promise<PrintSizeCheck | null> {
  const measured = frameSize(widths, format);
  let nearest: { size: FrameSize; off: number; print: ReferencePrint } | null = null;
  for await (const print of prints) {
    const { left, right, top, bottom } = print.sides;
    const size = frameSize({ left: left.width, right: right.width, top: top.width, bottom: bottom.width }, format);
    const off = Math.max(Math.abs(size.width_mm - measured.width_mm), Math.abs(size.height_mm - measured.height_mm));
    if (!nearest || off < nearest.off) nearest = { size, off, print };
    if (off <= PRINT_SIZE_TOLERANCE_MM) break;
  }
  if (!nearest) return null;
  const { size: reference, print } = nearest;
  if (nearest.off <= PRINT_SIZE_TOLERANCE_MM) return { measured, reference, print, verdict: "same" };
  const larger =
    measured.width_mm > reference.width_mm + PRINT_SIZE_TOLERANCE_MM ||
    measured.height_mm > reference.height_mm + PRINT_SIZE_TOLERANCE_MM;
  return { measured, reference, print, verdict: larger ? "other" : "smaller" };
}

/** Why a "smaller" frame is refused. */
export function printSizeRefusal(check: PrintSizeCheck): string {
  const mm = (size: FrameSize) => `${size.width_mm.toFixed(1)} × ${size.height_mm.toFixed(1)} mm`;
  return `the printed frame measures ${mm(check.measured)} inside the outline found, where the catalog's print of this card measures ${mm(check.reference)}: the outline takes in more than the card (another card beneath it, or a sleeve's margin, of its border's colour), so its borders cannot be measured`;
}

/**
 * Whether the card, cut again from the face to the print's size around the frame measured, is the
 * print's card: its perceptual hash within SAME_CARD bits of the print's. A card identified only
 * probably (a hash 9–14 bits off, as the band of another card beneath it makes it) is refused for
 * a frame smaller than its print's only so: a different card taken for it would not come closer.
 * The frame is assumed centred in the card cut again (the hash does not see a millimetre).
 */
export function recutMatchesPrint(flat: RgbaImage, widths: Widths, format: CardFormat, check: PrintSizeCheck): boolean {
  const { width: W, height: H } = flat;
  const perMm = W / format.width_mm;
  const frameX0 = widths.left / FLAT_PX_PER_MM;
  const frameX1 = format.width_mm - widths.right / FLAT_PX_PER_MM;
  const frameY0 = widths.top / FLAT_PX_PER_MM;
  const frameY1 = format.height_mm - widths.bottom / FLAT_PX_PER_MM;
  // The card's size in the face's (squeezed) millimetres: the format's, scaled as its frame is.
  const cardW = format.width_mm * (check.measured.width_mm / check.reference.width_mm);
  const cardH = format.height_mm * (check.measured.height_mm / check.reference.height_mm);
  const x0 = Math.max(0, Math.round(((frameX0 + frameX1) / 2 - cardW / 2) * perMm));
  const y0 = Math.max(0, Math.round(((frameY0 + frameY1) / 2 - cardH / 2) * perMm));
  const x1 = Math.min(W, Math.round(((frameX0 + frameX1) / 2 + cardW / 2) * perMm));
  const y1 = Math.min(H, Math.round(((frameY0 + frameY1) / 2 + cardH / 2) * perMm));
  if (x1 - x0 < 8 || y1 - y0 < 8) return false;
  const data = new Uint8Array((x1 - x0) * (y1 - y0) * 4);
  for (let y = y0; y < y1; y++)
    data.set(flat.data.subarray((y * W + x0) * 4, (y * W + x1) * 4), (y - y0) * (x1 - x0) * 4);
  const recut = perceptualHash({ width: x1 - x0, height: y1 - y0, data });
  return hammingDistance(recut, check.print.hash) <= SAME_CARD;
}
