// Card formats: recognised from the rectified card's proportions (height / width), never from the
// raw outline in the photo. Each card is graded against its own size.
import type { CardFormat } from "./evidence";

export const FORMATS: readonly CardFormat[] = [
  { id: "standard", width_mm: 63, height_mm: 88 },
  // Yu-Gi-Oh and Japanese-size cards.
  { id: "small", width_mm: 59, height_mm: 86 },
  // 1952–56 Topps: 2-5/8 × 3-3/4 in.
  { id: "vintage_topps_1952", width_mm: 66.7, height_mm: 95.3 },
];

export const STANDARD_FORMAT = FORMATS[0] as CardFormat;
export const SMALL_FORMAT = FORMATS[1] as CardFormat;
export const TOPPS_FORMAT = FORMATS[2] as CardFormat;

/**
 * How far (relative) the rectified proportions may be from a format's. The formats lie 2.0–4.3 %
 * apart (standard 1.397, vintage 1.429, small 1.458); 1 % keeps a gap between them in which a card
 * is refused as ambiguous rather than guessed.
 */
export const FORMAT_TOLERANCE = 0.01;

export const aspectOf = (format: CardFormat) => format.height_mm / format.width_mm;

/**
 * A bevelled rim all round the card (rim.ts) is a Yu-Gi-Oh! card's: such a card is the small
 * format when its proportions lie within this (relative) of that format's, even where they fit the
 * 1952 Topps format's better (no Topps card has such a rim), or fit none (a little taller: no
 * format lies between the small one and a holder's shape). A Yu-Gi-Oh! card curls along its
 * length: of the six graded on the local real photos by stop 83, their outlines checked by eye,
 * one reads 1.436 (1.5 % squatter than the small format, 0.5 % off the Topps card's 1.429) and
 * the others 0.5 % squatter to 0.8 % taller; one more, at a slant with no lens named, reads 1.481
 * (1.6 % taller).
 */
export const RIM_FORMAT_TOLERANCE = 0.02;

/** True when `aspect` lies within RIM_FORMAT_TOLERANCE of the small format's proportions. */
export const nearSmallFormat = (aspect: number) =>
  Math.abs(aspect - aspectOf(SMALL_FORMAT)) / aspectOf(SMALL_FORMAT) <= RIM_FORMAT_TOLERANCE;

export type FormatMatch =
  | { ok: true; format: CardFormat; error: number }
  | { ok: false; nearest: CardFormat; error: number };

/** The format whose proportions are within FORMAT_TOLERANCE of `aspect` (height / width). */
export function recogniseFormat(aspect: number): FormatMatch {
  let nearest = STANDARD_FORMAT;
  let nearestError = Number.POSITIVE_INFINITY;
  for (const format of FORMATS) {
    const error = Math.abs(aspect - aspectOf(format)) / aspectOf(format);
    if (error < nearestError) {
      nearest = format;
      nearestError = error;
    }
  }
  return nearestError <= FORMAT_TOLERANCE
    ? { ok: true, format: nearest, error: nearestError }
    : { ok: false, nearest, error: nearestError };
}

export function describeFormat(format: CardFormat): string {
  return `${format.id} ${format.width_mm} × ${format.height_mm} mm`;
}

/**
 * The format for proportions known only within `aspects` (one per plausible lens, rectify.ts):
 * every format one of them fits is a candidate; `standard`, by far the most common size, when it
 * is one, else the only candidate; null when none fits or only other formats tie.
 */
export function formatAcrossLenses(aspects: number[]): { format: CardFormat | null; candidates: CardFormat[] } {
  const candidates = FORMATS.filter((format) =>
    aspects.some((aspect) => Math.abs(aspect - aspectOf(format)) / aspectOf(format) <= FORMAT_TOLERANCE),
  );
  const format = candidates.includes(STANDARD_FORMAT)
    ? STANDARD_FORMAT
    : candidates.length === 1
      ? (candidates[0] as CardFormat)
      : null;
  return { format, candidates };
}
