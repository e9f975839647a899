// The engine's contract: bytes of two photos (and optional hints) in, a grade or a refusal out.
// Both the built-in engine and the http engine (a model hosted elsewhere) implement it.

import type { GradeEvidence } from "./evidence";
import type { CardFingerprint } from "./fingerprint";
import type { CardHints, CatalogReference, Confidence, EstimatedValue, Identification } from "./identify";

export interface EngineImage {
  bytes: Uint8Array;
  contentType: string;
}

export interface GradeInput {
  front: EngineImage;
  back: EngineImage;
  /** Presigned URLs of the same images, for engines that fetch them (the http engine). */
  urls?: { front: string; back: string };
  hints?: CardHints;
  /** Catalog cards to identify against (id, reference hash, fields, value). */
  references?: CatalogReference[];
  /**
   * The reference image of a catalog card (its bytes, or null when it has none): asked for once,
   * for the card the front is identified as with high confidence, when the front shows lines inside
   * the artwork that only the reference can tell from print.
   */
  referenceImage?: (catalogId: number) => Promise<Uint8Array | null>;
}

export interface FaceCentering {
  /** Left border's share of left + right, in % (55 = 55/45). */
  left_right: number;
  /** Top border's share of top + bottom, in %. */
  top_bottom: number;
  /** Border widths in mm; null when the engine did not report them. */
  borders_mm: { left: number; right: number; top: number; bottom: number } | null;
}

export interface Subgrades {
  overall: number;
  centering: number;
  corners: number;
  edges: number;
  surface: number;
}

export interface DerivedImage {
  bytes: Uint8Array;
  contentType: "image/png";
}

export interface Graded {
  status: "graded";
  model_version: string;
  grades: Subgrades;
  /** 0–1 per subgrade: how much the measurement can be trusted. */
  confidence: { centering: number; corners: number; edges: number; surface: number };
  /** Front face, percentage points off centre (+ = left/top border larger), one decimal. */
  centering_offset: { horizontal: number; vertical: number };
  centering: { front: FaceCentering; back: FaceCentering | null };
  /** The measurements behind each subgrade (stored as the grade run's model_grade). */
  model_grade: Record<string, unknown>;
  /**
   * What the engine saw and measured (outline, frame lines, borders, defects, area examined), stored
   * in the grade run's model_grade and on the certificate; null for engines that give none (http).
   */
  evidence: GradeEvidence | null;
  card: Identification;
  estimated_value: EstimatedValue;
  /** The physical card's fingerprint; absent from engines that do not measure one (the http engine). */
  fingerprint?: CardFingerprint | null;
  /**
   * Draws the damage reports. A function, so that drawing them (a PNG of each photo) happens after
   * the response, and only for a grade that keeps them (a partner view's grade run). Null images
   * when the engine has none (a remote model may not render reports).
   */
  renderReports: () => Promise<DamageReports>;
}

export interface DamageReports {
  damage_report_front: DerivedImage | null;
  damage_report_back: DerivedImage | null;
}

export type RejectionReason = "holder_detected" | "face_check_failed" | "grading_failed";

export interface Rejected {
  status: "rejected";
  reason: RejectionReason;
  message: string;
}

/** The engine could not answer (e.g. a remote model timed out); `retryable` says whether to try again. */
export interface EngineFailure {
  status: "failed";
  retryable: boolean;
  message: string;
}

export type GradeResult = Graded | Rejected | EngineFailure;

export interface GradingEngine {
  /** `<engine id>@<version>`, as the certificate's `pipeline.engine` shows it. */
  readonly id: string;
  grade(input: GradeInput): Promise<GradeResult>;
}

export type { CardHints, CatalogReference, Confidence };
