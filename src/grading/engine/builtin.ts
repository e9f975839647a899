// The built-in grading engine: real image analysis of two photos inside the Worker.
// Pipeline per face: decode (≤ WORKING_MAX_SIDE px) → card outline → checks → unwarp → printed
// frame → wear; then face checks across both faces, subgrades by the rubric, identification,
// value and the damage reports. It refuses (a Rejected result) whenever a measurement cannot be
// stood behind: a wrong grade is worse than a refusal.
import { centeringEvidence, type FaceInput, flatToPhoto, gradeEvidence } from "./build-evidence";
import { type DecodedImage, DecodeError, decodeImage } from "./decode";
import type { GradeEvidence } from "./evidence";
import { cardFingerprint } from "./fingerprint";
import { type FrameResult, measureFrame, type SideMeasurement } from "./frame";
import { CARD_ASPECT, type CardOutline, FLAT_PX_PER_MM, findCardOutline, unwarpCard } from "./geometry";
import { estimateValue, identifyCard } from "./identify";
import { downscaleToFit, type RgbaImage } from "./image";
import { hammingDistance, perceptualHash } from "./phash";
import { renderDamageReport } from "./render";
import {
  CORNER_WEAR_TABLE,
  centeringGrade,
  EDGE_WEAR_TABLE,
  gradeFromTable,
  MODEL_VERSION,
  overallGrade,
  SURFACE_TABLE,
} from "./rubric";
import type {
  EngineImage,
  FaceCentering,
  GradeInput,
  GradeResult,
  GradingEngine,
  Rejected,
  RejectionReason,
} from "./types";
import { type FaceWear, measureWear } from "./wear";

/** Photos are analysed at most this large on their longer side. */
export const WORKING_MAX_SIDE = 1600;
/** Smallest photo (shorter side, after scaling) and card (width in pixels) that can be graded. */
export const MIN_PHOTO_SHORT_SIDE = 400;
export const MIN_CARD_WIDTH_PX = 220;
/** The outline must be within 3 % of the 63 × 88 mm shape (mild keystone stays inside). */
export const ASPECT_TOLERANCE = 0.03;
/**
 * Graded-card holders (PSA 84 × 137 mm, BGS and SGC alike) are 1.6–1.7 times as tall as wide. The
 * lower bound stays clear of a card's printed frame alone (about 1.43–1.47), which is what the
 * outline finds when a border melts into the table.
 */
export const HOLDER_ASPECT = { min: 1.52, max: 1.85 } as const;
/** The edge's 10–90 % rise may take at most this share of the card's width (≈ 0.6 mm). */
export const MAX_EDGE_WIDTH_SHARE = 0.01;
/** The card edge must stand this many times above the background's own variation. */
export const MIN_EDGE_CONTRAST_RATIO = 4;
/** Mean brightness (8-bit luma) of the card that can be graded. */
export const EXPOSURE = { min: 40, max: 235 } as const;
/** Front and back of one card have the same shape within this much of their aspect ratio. */
export const FACE_ASPECT_MATCH = 0.035;
/** Hash distance (of 64 bits) at or below which front and back are the same picture. */
export const DUPLICATE_HASH_DISTANCE = 6;

interface FaceAnalysis {
  decoded: DecodedImage;
  outline: CardOutline;
  flat: RgbaImage;
  frame: FrameResult;
  wear: FaceWear | null;
  hash: string;
  meanLuma: number;
}

type FaceResult = { ok: true; face: FaceAnalysis } | { ok: false; rejection: Rejected };

const reject = (reason: RejectionReason, message: string): Rejected => ({ status: "rejected", reason, message });
const round1 = (value: number) => Math.round(value * 10) / 10;

function analyseFace(name: "front" | "back", image: EngineImage): FaceResult {
  if (image.bytes.byteLength === 0) {
    return { ok: false, rejection: reject("face_check_failed", `The ${name} image is empty.`) };
  }
  let decoded: DecodedImage;
  try {
    decoded = decodeImage(image.bytes, WORKING_MAX_SIDE);
  } catch (error) {
    const detail = error instanceof DecodeError ? error.message : "unreadable image data";
    return { ok: false, rejection: reject("grading_failed", `The ${name} image could not be decoded: ${detail}.`) };
  }
  const { width, height } = decoded.image;
  if (Math.min(width, height) < MIN_PHOTO_SHORT_SIDE) {
    return {
      ok: false,
      rejection: reject(
        "grading_failed",
        `The ${name} photo is too small (${width}×${height}); send at least ${MIN_PHOTO_SHORT_SIDE} px on the shorter side.`,
      ),
    };
  }
  const found = findCardOutline(decoded.image);
  if (!found.ok) {
    const reason = name === "back" && found.reason.startsWith("no card") ? "face_check_failed" : "grading_failed";
    return { ok: false, rejection: reject(reason, `The ${name} photo: ${found.reason}.`) };
  }
  const outline = found.outline;
  if (outline.aspect >= HOLDER_ASPECT.min && outline.aspect <= HOLDER_ASPECT.max) {
    return {
      ok: false,
      rejection: reject(
        "holder_detected",
        `The ${name} photo shows an object ${outline.aspect.toFixed(2)} times as tall as wide, the shape of a graded-card holder; send the raw card.`,
      ),
    };
  }
  const cardWidthPx = Math.hypot(
    outline.corners[1].x - outline.corners[0].x,
    outline.corners[1].y - outline.corners[0].y,
  );
  if (cardWidthPx < MIN_CARD_WIDTH_PX) {
    return {
      ok: false,
      rejection: reject(
        "grading_failed",
        `The card fills too little of the ${name} photo (${Math.round(cardWidthPx)} px wide); move closer.`,
      ),
    };
  }
  if (outline.edgeContrast < MIN_EDGE_CONTRAST_RATIO * Math.max(1, outline.backgroundNoise)) {
    return {
      ok: false,
      rejection: reject(
        "grading_failed",
        `The card's edge in the ${name} photo barely stands out from the background; use a background of a different colour.`,
      ),
    };
  }
  if (outline.edgeWidth / cardWidthPx > MAX_EDGE_WIDTH_SHARE) {
    return {
      ok: false,
      rejection: reject("grading_failed", `The ${name} photo is too blurred to measure the card's edges.`),
    };
  }
  const flat = unwarpCard(decoded.image, outline.corners);
  const meanLuma = averageLuma(flat);
  if (meanLuma < EXPOSURE.min)
    return { ok: false, rejection: reject("grading_failed", `The ${name} photo is too dark.`) };
  if (meanLuma > EXPOSURE.max)
    return { ok: false, rejection: reject("grading_failed", `The ${name} photo is too bright.`) };
  const frame = measureFrame(flat);
  const wear = frame.ok
    ? measureWear(name, flat, frame.sides.left.borderColor, outline.background, widths(frame.sides))
    : null;
  return { ok: true, face: { decoded, outline, flat, frame, wear, hash: perceptualHash(flat), meanLuma } };
}

function widths(sides: Record<"left" | "right" | "top" | "bottom", SideMeasurement>) {
  return { left: sides.left.width, right: sides.right.width, top: sides.top.width, bottom: sides.bottom.width };
}

function averageLuma(image: RgbaImage): number {
  let sum = 0;
  const { data } = image;
  for (let p = 0; p < data.length; p += 16)
    sum += 0.299 * (data[p] ?? 0) + 0.587 * (data[p + 1] ?? 0) + 0.114 * (data[p + 2] ?? 0);
  return sum / (data.length / 16);
}

function faceCentering(frame: FrameResult): FaceCentering | null {
  if (!frame.ok) return null;
  const { left, right, top, bottom } = widths(frame.sides);
  const mm = (px: number) => round1(px / FLAT_PX_PER_MM);
  return {
    left_right: (left / (left + right)) * 100,
    top_bottom: (top / (top + bottom)) * 100,
    borders_mm: { left: mm(left), right: mm(right), top: mm(top), bottom: mm(bottom) },
  };
}

const worseSide = (c: FaceCentering) => Math.max(c.left_right, 100 - c.left_right, c.top_bottom, 100 - c.top_bottom);

export class BuiltinEngine implements GradingEngine {
  readonly id = `builtin@${MODEL_VERSION}`;

  async grade(input: GradeInput): Promise<GradeResult> {
    const front = analyseFace("front", input.front);
    if (!front.ok) return front.rejection;
    const back = analyseFace("back", input.back);
    if (!back.ok) return back.rejection;
    const f = front.face;
    const b = back.face;

    // The front's outline must have the card's shape; the back must match it.
    const frontAspectError = Math.abs(f.outline.aspect - CARD_ASPECT) / CARD_ASPECT;
    if (
      Math.abs(b.outline.aspect - f.outline.aspect) / f.outline.aspect > FACE_ASPECT_MATCH &&
      frontAspectError <= ASPECT_TOLERANCE
    ) {
      return reject(
        "face_check_failed",
        `Front and back are not the same card: their shapes differ (height/width ${f.outline.aspect.toFixed(3)} and ${b.outline.aspect.toFixed(3)}).`,
      );
    }
    for (const [name, face] of [
      ["front", f],
      ["back", b],
    ] as const) {
      const error = Math.abs(face.outline.aspect - CARD_ASPECT) / CARD_ASPECT;
      if (error > ASPECT_TOLERANCE) {
        return reject(
          "grading_failed",
          `The card's outline in the ${name} photo is not the 63 × 88 mm shape (height/width ${face.outline.aspect.toFixed(3)}, expected ${CARD_ASPECT.toFixed(3)}); its border may be too close to the background's colour.`,
        );
      }
    }
    if (hammingDistance(f.hash, b.hash) <= DUPLICATE_HASH_DISTANCE) {
      return reject("face_check_failed", "Front and back show the same picture; send a photo of each side.");
    }
    const frontCentering = faceCentering(f.frame);
    if (!frontCentering || !f.frame.ok || !f.wear) {
      return reject(
        "grading_failed",
        `The front's printed frame could not be measured: ${f.frame.ok ? "no border" : f.frame.reason}.`,
      );
    }
    const backCentering = faceCentering(b.frame);

    // Subgrades.
    const centering = centeringGrade(worseSide(frontCentering), backCentering ? worseSide(backCentering) : null);
    const faces = [f.wear, b.wear].filter((w): w is FaceWear => w !== null);
    const cornerShare = Math.max(...faces.map((w) => w.worstCornerMm2));
    const edgeShare = Math.max(...faces.map((w) => w.edgeWornMm));
    const surfaceShare = Math.max(...faces.map((w) => w.surfaceLineMm));
    const corners = gradeFromTable(cornerShare, CORNER_WEAR_TABLE);
    const edges = gradeFromTable(edgeShare, EDGE_WEAR_TABLE);
    const surface = gradeFromTable(surfaceShare, SURFACE_TABLE);
    const overall = overallGrade({ centering, corners, edges, surface });

    const sides = Object.values(f.frame.sides);
    const frameAgreement = sides.reduce((sum, s) => sum + s.agreement, 0) / sides.length;
    const whitening = faces.some((w) => w.whiteningMeasurable);
    const confidence = {
      centering: round2(frameAgreement * (backCentering ? 1 : 0.85) * (f.outline.edgeResidual < 0.5 ? 1 : 0.8)),
      corners: whitening ? 0.8 : 0.45,
      edges: whitening ? 0.8 : 0.45,
      surface: 0.6,
    };

    const references = input.references ?? [];
    const card = identifyCard(f.hash, input.hints ?? {}, references);
    const estimatedValue = estimateValue(card, references, overall);

    const captureOf = (face: FaceAnalysis) => ({
      source_size: [face.decoded.sourceWidth, face.decoded.sourceHeight],
      analysed_size: [face.decoded.image.width, face.decoded.image.height],
      format: face.decoded.format,
      exif_orientation: face.decoded.orientation,
      outline_aspect: round3(face.outline.aspect),
      edge_contrast: round1(face.outline.edgeContrast),
      edge_width_px: round2(face.outline.edgeWidth),
      edge_residual_px: round2(face.outline.edgeResidual),
      mean_luma: round1(face.meanLuma),
      hash: face.hash,
    });
    const centeringOut = (c: FaceCentering | null) =>
      c && {
        left_right: `${round1(c.left_right)}/${round1(100 - c.left_right)}`,
        top_bottom: `${round1(c.top_bottom)}/${round1(100 - c.top_bottom)}`,
        borders_mm: c.borders_mm,
      };

    // The evidence, and the damage reports drawn from it over each photo.
    const frontInput = faceInput(f);
    const backInput = faceInput(b);
    const evidence = gradeEvidence(
      frontInput,
      backInput,
      centeringEvidence(frontCentering, backCentering, secondEstimate(f.flat)),
    );
    const mmToPhoto = (face: FaceInput) => {
      const toPhoto = flatToPhoto(face);
      return (x: number, y: number) => toPhoto(x * FLAT_PX_PER_MM, y * FLAT_PX_PER_MM);
    };
    const [reportFront, reportBack] = await Promise.all([
      renderDamageReport(f.decoded.image, evidence.faces.front, defectsOf(evidence, "front"), mmToPhoto(frontInput)),
      renderDamageReport(b.decoded.image, evidence.faces.back, defectsOf(evidence, "back"), mmToPhoto(backInput)),
    ]);
    return {
      status: "graded",
      model_version: MODEL_VERSION,
      grades: { overall, centering, corners, edges, surface },
      confidence,
      centering_offset: {
        horizontal: round1(frontCentering.left_right - 50),
        vertical: round1(frontCentering.top_bottom - 50),
      },
      centering: { front: frontCentering, back: backCentering },
      model_grade: {
        model_version: MODEL_VERSION,
        centering: {
          grade: centering,
          front: centeringOut(frontCentering),
          back: centeringOut(backCentering),
          rubric: "PSA grading standards",
        },
        corners: { grade: corners, worst_corner_worn_mm2: round2(cornerShare), whitening_measurable: whitening },
        edges: { grade: edges, worn_length_mm: round2(edgeShare), whitening_measurable: whitening },
        surface: { grade: surface, line_defects_mm: round2(surfaceShare) },
        overall: { grade: overall, formula: "mean of subgrades, capped at lowest + 1, rounded down to a half point" },
        capture: { front: captureOf(f), back: captureOf(b) },
        identification: { confidence: card.confidence, hash_distance: card.hash_distance, source: card.source },
      },
      evidence,
      card,
      estimated_value: estimatedValue,
      fingerprint: cardFingerprint({
        frontHash: f.hash,
        backHash: b.hash,
        frontBordersPx: widths(f.frame.sides),
        backBordersPx: b.frame.ok ? widths(b.frame.sides) : null,
        frontWear: f.wear,
      }),
      renders: {
        damage_report_front: { bytes: reportFront, contentType: "image/png" },
        damage_report_back: { bytes: reportBack, contentType: "image/png" },
      },
    };
  }
}

function faceInput(face: FaceAnalysis): FaceInput {
  return {
    decoded: face.decoded,
    corners: face.outline.corners,
    flatSize: { width: face.flat.width, height: face.flat.height },
    frame: face.frame.ok ? widths(face.frame.sides) : null,
    wear: face.wear,
  };
}

/** The front's centering measured again on the flat card at half the resolution. */
function secondEstimate(flat: RgbaImage): FaceCentering | null {
  const half = downscaleToFit(flat, Math.max(flat.width, flat.height) / 2);
  const frame = measureFrame(half);
  if (!frame.ok) return null;
  const { left, right, top, bottom } = widths(frame.sides);
  return { left_right: (left / (left + right)) * 100, top_bottom: (top / (top + bottom)) * 100, borders_mm: null };
}

const defectsOf = (evidence: GradeEvidence, face: "front" | "back") =>
  [...evidence.corners.defects, ...evidence.edges.defects, ...evidence.surface.defects].filter((d) => d.face === face);

const round2 = (value: number) => Math.round(value * 100) / 100;
const round3 = (value: number) => Math.round(value * 1000) / 1000;
