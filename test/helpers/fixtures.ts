// Small binary fixtures that cannot be drawn in the test runtime.

/** A 4×3 red WebP, lossless (VP8L), made with `cwebp -lossless` from a drawn PNG. */
export const WEBP_LOSSLESS_4X3 = new Uint8Array([
  82, 73, 70, 70, 30, 0, 0, 0, 87, 69, 66, 80, 86, 80, 56, 76, 17, 0, 0, 0, 47, 3, 128, 0, 0, 7, 80, 143, 34, 215, 163,
  255, 129, 136, 232, 127, 0, 0,
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
