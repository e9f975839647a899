// Small binary fixtures that cannot be drawn in the test runtime.

/** A 4×3 red WebP, lossless (VP8L), made with `cwebp -lossless` from a drawn PNG. */
export const WEBP_LOSSLESS_4X3 = new Uint8Array([
  82, 73, 70, 70, 30, 0, 0, 0, 87, 69, 66, 80, 86, 80, 56, 76, 17, 0, 0, 0, 47, 3, 128, 0, 0, 7, 80, 143, 34, 215, 163,
  255, 129, 136, 232, 127, 0, 0,
]);
