// The evidence behind a grade: what the engine saw and measured, in terms a person can check
// against the photo. Returned by the engine with every grade, stored with the grade run, returned
// as the Public API grade's additive `evidence` object and the partner view's `model_grade`, and
// drawn on the damage report images and the certificate page. Snake_case: it is served as JSON.

/** A point in the photo's pixels (after EXIF orientation), x to the right, y down. */
export type PixelPoint = [x: number, y: number];

/** A segment in the photo's pixels. */
export type PixelSegment = [PixelPoint, PixelPoint];

export type FaceName = "front" | "back";
export type CardSide = "left" | "right" | "top" | "bottom";

export interface CardFormat {
  /** `standard` 63 × 88 mm, `small` 59 × 86 mm (Japanese size), or a vintage size. */
  id: string;
  width_mm: number;
  height_mm: number;
}

export interface FaceEvidence {
  /** The photo as decoded, in pixels. */
  image_size: { width: number; height: number };
  /** The card's corners in the photo: the card's own top-left, top-right, bottom-right, bottom-left. */
  corners: [PixelPoint, PixelPoint, PixelPoint, PixelPoint];
  /** How the card lay in the photo: long side vertical (`portrait`) or horizontal (`landscape`). */
  orientation: "portrait" | "landscape";
  format: CardFormat;
  /** Pixels per millimetre on the card in the photo (the smaller of its two axes). */
  px_per_mm: number;
  /** The printed frame's line on each side, in the photo's pixels; null when it could not be measured. */
  frame_lines: Record<CardSide, PixelSegment> | null;
  /** Border widths in millimetres; null when the frame could not be measured. */
  borders_mm: Record<CardSide, number> | null;
  /**
   * The end whose border is a bar of the border's colour deeper than the others (a modern Magic
   * card's collector bar, centering.ts designedWidths): top to bottom is then read from the other
   * end's border against the left and right borders' mean. Null for a plain border all round or
   * when the frame was not measured; absent from evidence stored before it was reported.
   */
  bar?: "top" | "bottom" | null;
}

export interface CenteringEvidence {
  /** The face the centering subgrade is measured on. */
  face: FaceName;
  /** Percentage points off centre (+ = left/top border larger), one decimal. */
  horizontal_offset: number;
  vertical_offset: number;
  /**
   * How far (in percentage points of the worse offset) the measurement could move before the
   * centering subgrade changes; null when no other grade is reachable.
   */
  margin_to_next_grade: number | null;
  /** Largest disagreement between the independent estimates of the offsets, in percentage points. */
  agreement: number;
  /**
   * The front's printed frame (mm, the card's size less its borders) and the catalog print's it
   * was checked against (reference-print.ts); null when no print was compared. Absent from
   * evidence stored before the check.
   */
  print_size?: PrintSizeEvidence | null;
}

export interface PrintSizeEvidence {
  frame_mm: { width: number; height: number };
  catalog_print_mm: { width: number; height: number };
  /** "same": within the tolerance; "other": another printing, or not shown to be this card's. */
  verdict: "same" | "other";
}

export type DefectType =
  | "whitening"
  | "missing_material"
  | "chip"
  | "crease"
  | "scratch"
  | "stain"
  | "reference_difference";

export interface DefectRegion {
  type: DefectType;
  face: FaceName;
  /** e.g. `top_left_corner`, `left_edge`, `surface`. */
  location: string;
  /** Box on the card, in millimetres from the card's top-left corner. */
  box_mm: { x: number; y: number; width: number; height: number };
  /** Affected area in mm² (for a line-like defect, its length × 0.2 mm). */
  area_mm2: number;
  /** Length in mm for line-like defects (creases, scratches), otherwise null. */
  length_mm: number | null;
}

export interface WearEvidence {
  /** Share (0–1) of the region this subgrade judges that could be examined on both faces. */
  examined_share: number;
  /** Area examined, in mm², both faces. */
  examined_mm2: number;
  defects: DefectRegion[];
}

export interface GradeEvidence {
  version: 1;
  faces: { front: FaceEvidence; back: FaceEvidence };
  centering: CenteringEvidence;
  corners: WearEvidence;
  edges: WearEvidence;
  surface: WearEvidence;
}
