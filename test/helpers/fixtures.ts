// Small binary fixtures that cannot be drawn in the test runtime.

/** A 4×3 red WebP, lossless (VP8L), made with `cwebp -lossless` from a drawn PNG. */
export const WEBP_LOSSLESS_4X3 = new Uint8Array([
  82, 73, 70, 70, 30, 0, 0, 0, 87, 69, 66, 80, 86, 80, 56, 76, 17, 0, 0, 0, 47, 3, 128, 0, 0, 7, 80, 143, 34, 215, 163,
  255, 129, 136, 232, 127, 0, 0,
]);

/**
 * A 16×8 four-ink (CMYK) JPEG as print tools save one, with Adobe's APP14 marker and its samples
 * inverted: the left half red (220, 30, 30), the right blue (30, 30, 200). Made with Pillow from
 * those RGB colours (C = 255 − R, M = 255 − G, Y = 255 − B, K = 0), quality 95, no subsampling.
 */
export const JPEG_CMYK_16X8 = new Uint8Array([
  255, 216, 255, 238, 0, 14, 65, 100, 111, 98, 101, 0, 100, 0, 0, 0, 0, 0, 255, 219, 0, 67, 0, 2, 1, 1, 1, 1, 1, 2, 1,
  1, 1, 2, 2, 2, 2, 2, 4, 3, 2, 2, 2, 2, 5, 4, 4, 3, 4, 6, 5, 6, 6, 6, 5, 6, 6, 6, 7, 9, 8, 6, 7, 9, 7, 6, 6, 8, 11, 8,
  9, 10, 10, 10, 10, 10, 6, 8, 11, 12, 11, 10, 12, 9, 10, 10, 10, 255, 192, 0, 20, 8, 0, 8, 0, 16, 4, 67, 17, 0, 77, 17,
  0, 89, 17, 0, 75, 17, 0, 255, 196, 0, 31, 0, 0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7,
  8, 9, 10, 11, 255, 196, 0, 181, 16, 0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 125, 1, 2, 3, 0, 4, 17, 5, 18, 33,
  49, 65, 6, 19, 81, 97, 7, 34, 113, 20, 50, 129, 145, 161, 8, 35, 66, 177, 193, 21, 82, 209, 240, 36, 51, 98, 114, 130,
  9, 10, 22, 23, 24, 25, 26, 37, 38, 39, 40, 41, 42, 52, 53, 54, 55, 56, 57, 58, 67, 68, 69, 70, 71, 72, 73, 74, 83, 84,
  85, 86, 87, 88, 89, 90, 99, 100, 101, 102, 103, 104, 105, 106, 115, 116, 117, 118, 119, 120, 121, 122, 131, 132, 133,
  134, 135, 136, 137, 138, 146, 147, 148, 149, 150, 151, 152, 153, 154, 162, 163, 164, 165, 166, 167, 168, 169, 170,
  178, 179, 180, 181, 182, 183, 184, 185, 186, 194, 195, 196, 197, 198, 199, 200, 201, 202, 210, 211, 212, 213, 214,
  215, 216, 217, 218, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 241, 242, 243, 244, 245, 246, 247, 248, 249,
  250, 255, 218, 0, 14, 4, 67, 0, 77, 0, 89, 0, 75, 0, 0, 63, 0, 253, 112, 175, 199, 122, 252, 119, 175, 223, 202, 254,
  65, 232, 175, 234, 162, 138, 255, 217,
]);

/** A valid answer of a hosted model (GRADING_ENGINE=http), as the README's contract describes it. */
export const HOSTED_MODEL_GRADE = {
  status: "graded",
  model_version: "remote-7",
  grades: { overall: 9, centering: 9.5, corners: 9, edges: 9, surface: 8.5 },
  confidence: { centering: 0.9, corners: 0.8, edges: 0.8, surface: 0.7 },
  centering_offset: { horizontal: 3.2, vertical: -1.5 },
  centering: { front: { left_right: 53.2, top_bottom: 48.5 }, back: null },
  model_grade: { layers: 12 },
};
