// The same photo made again a little differently, for `npm run measure -- --stability`: a grade
// that moves by more than a point when the photo is mirrored, turned half round, stored smaller or
// compressed again rests on something other than the card (a threshold that noise tips one way or
// the other). `half`, the photo at half its size, asks the same of fewer pixels: a refusal is
// right where its card has too few, but a grade must still agree (a contact shadow beside a cut,
// resolved in the photo, can join the cut's blur at half the resolution and move it).
// `warm` and `cool` (since stop 111) are the photo under a colour cast, as a lamp's or a shade's
// light the camera did not balance leaves it: each pixel's red and blue levels scaled by CAST_GAIN
// one way or the other (clipped at 255), its geometry unchanged. A careful reader's answer does
// not change with the light's colour.
// Each variant is built from the photo's pixels as decoded (at most VARIANT_MAX_SIDE
// on the longer side, or less where the decoder's budget asks: a 12 MP phone photo's variants are
// 2000 px long; `smaller` and `half` shrunk from it by area, as the engine shrinks a PNG) and names
// the lens the original's EXIF names; `copy` is that decoded photo stored
// losslessly as it is, which tells what the re-decoding (and, for a larger photo, the smaller
// size) alone does. The variants are made in the engine's Worker
// (scripts/bench/photo-variant.ts); this file holds only what the measuring script needs too.
export const VARIANTS = ["copy", "mirrored", "turned", "smaller", "half", "recompressed", "warm", "cool"] as const;
export type Variant = (typeof VARIANTS)[number];

export const isVariant = (value: string): value is Variant => (VARIANTS as readonly string[]).includes(value);

/**
 * Variants are built at most this large (px, longer side): a PNG of 2400 × 1800 pixels is within
 * the engine's decode budget (image-header.ts, DECODE_LIMITS), one of 3000 × 2250 is not.
 */
export const VARIANT_MAX_SIDE = 2400;
/** `smaller`: the photo's sides are scaled by this. */
export const SMALLER_SHARE = 0.8;
/** `half`: the photo's sides are scaled by this. */
export const HALF_SHARE = 0.5;
/** `recompressed`: JPEG quality. */
export const RECOMPRESSED_QUALITY = 75;
/** `warm`: red levels × (1 + CAST_GAIN), blue × (1 − CAST_GAIN); `cool` the other way round. */
export const CAST_GAIN = 0.15;

/**
 * A variant's centering (left/right, top/bottom shares, %) as the original photo's would read:
 * turned half round, the card's left and right and its top and bottom change places; mirrored, a
 * card standing upright has its left and right swapped, and one lying sideways (read with its top
 * toward the left edge of the photo) its top and bottom, its top now toward the right edge.
 */
export function asOriginal(
  variant: Variant,
  orientation: "portrait" | "landscape",
  leftRight: number,
  topBottom: number,
): { leftRight: number; topBottom: number } {
  if (variant === "turned") return { leftRight: 100 - leftRight, topBottom: 100 - topBottom };
  if (variant === "mirrored") {
    return orientation === "portrait"
      ? { leftRight: 100 - leftRight, topBottom }
      : { leftRight, topBottom: 100 - topBottom };
  }
  return { leftRight, topBottom };
}
