// The built-in grading engine: real image analysis of two photos inside the Worker.
// Per face (analyse-face.ts): decode → find the card (find-card.ts) → orientation and true
// proportions (rectify.ts) → format (formats.ts) → flat card → printed frame at two scales
// (frame.ts, centering.ts) → wear (wear.ts, surface.ts). Then face checks across both faces (same
// format, not the same picture), identification, the front's frame against the catalog's print of
// the card (reference-print.ts) and its art lines against it (reference-difference.ts), subgrades
// by the rubric, the evidence behind them (build-evidence.ts), value, the fingerprint and the
// damage reports. It refuses
// (a Rejected result) whenever a measurement cannot be stood behind: a wrong grade is worse than a
// refusal.
import { analyseFace, type FaceAnalysis } from "./analyse-face";
import { centeringEvidence, type FaceInput, flatToPhoto, gradeEvidence } from "./build-evidence";
import { worseSide } from "./centering";
import type { CardFormat, GradeEvidence, PrintSizeEvidence } from "./evidence";
import { cardFingerprint } from "./fingerprint";
import { describeFormat, nearSmallFormat, TOPPS_FORMAT } from "./formats";
import { FLAT_PX_PER_MM } from "./geometry";
import { type CatalogReference, estimateValue, identifyCard, sameCardCandidates } from "./identify";
import { hammingDistance } from "./phash";
import { compareWithReferences } from "./reference-difference";
import {
  checkPrintSize,
  type PrintSizeCheck,
  printSizeRefusal,
  type ReferencePrint,
  recutMatchesPrint,
  referencePrint,
} from "./reference-print";
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
import type { FaceCentering, GradeInput, GradeResult, GradingEngine, Rejected, RejectionReason } from "./types";
import type { FaceWear } from "./wear";

export { EXPOSURE, HOLDER_ASPECT, MIN_PHOTO_SHORT_SIDE, WORKING_MAX_SIDE } from "./analyse-face";
/** Hash distance (of 64 bits) at or below which front and back are the same picture. */
export const DUPLICATE_HASH_DISTANCE = 6;

const reject = (reason: RejectionReason, message: string): Rejected => ({ status: "rejected", reason, message });
const round1 = (value: number) => Math.round(value * 10) / 10;

export class BuiltinEngine implements GradingEngine {
  readonly id = `builtin@${MODEL_VERSION}`;

  async grade(input: GradeInput): Promise<GradeResult> {
    let front = analyseFace("front", input.front.bytes);
    if (!front.ok && !front.candidates) return front.rejection;
    let back = analyseFace("back", input.back.bytes);
    // A face refused only because a guessed lens leaves it between formats (candidates) is measured
    // again as the other face's format when that is one of them: its centering does not rest on
    // the lens, only its proportions do.
    const among = (candidates: CardFormat[] | undefined, format: CardFormat) =>
      candidates?.some((candidate) => candidate.id === format.id) === true;
    if (!front.ok && back.ok && among(front.candidates, back.face.format)) {
      front = analyseFace("front", input.front.bytes, back.face.format);
    } else if (front.ok && !back.ok && among(back.candidates, front.face.format)) {
      back = analyseFace("back", input.back.bytes, front.face.format);
    }
    if (!front.ok) return front.rejection;
    // A front of a known format with a back of no known shape: two different objects.
    if (!back.ok && back.shape) {
      return reject("face_check_failed", `Front and back are not the same card: ${back.rejection.message}`);
    }
    if (!back.ok) return back.rejection;

    // One card: both faces of the same format. A face whose format rests on a guessed lens (several
    // candidates) takes the other's when that is one of its candidates, and is measured again as it;
    // so does a face read as the 1952 Topps format within RIM_FORMAT_TOLERANCE of the small one's
    // proportions when the other shows a Yu-Gi-Oh! card's rim all round (formats.ts), and a face
    // read as the Topps format when the other is the standard one by its collector bar
    // (analyse-face.ts, barNamesStandard).
    if (front.face.format.id !== back.face.format.id) {
      const settles = (face: FaceAnalysis, other: FaceAnalysis) =>
        (face.formatCandidates.length > 1 && face.formatCandidates.some((format) => format.id === other.format.id)) ||
        (other.smallByRim && face.format.id === TOPPS_FORMAT.id && nearSmallFormat(face.aspect)) ||
        (other.standardByBar && face.format.id === TOPPS_FORMAT.id);
      if (settles(front.face, back.face) && !settles(back.face, front.face)) {
        front = analyseFace("front", input.front.bytes, back.face.format);
      } else if (settles(back.face, front.face) && !settles(front.face, back.face)) {
        back = analyseFace("back", input.back.bytes, front.face.format);
      }
      if (!front.ok) return front.rejection;
      if (!back.ok) return back.rejection;
    }
    const f = front.face;
    const b = back.face;
    if (f.format.id !== b.format.id) {
      const guessed = f.formatCandidates.length > 1 || b.formatCandidates.length > 1;
      return reject(
        "face_check_failed",
        `Front and back are not the same card: the front is ${describeFormat(f.format)} (height/width ${f.aspect.toFixed(3)}), the back ${describeFormat(b.format)} (${b.aspect.toFixed(3)}); if they are one card, an edge of one photo is hidden against the background or in shadow${guessed ? ", or a photo taken at a slant without its lens (no EXIF focal length) misread its proportions: photograph the card from straight above, or send the camera's original photos, with their EXIF" : ""}.`,
      );
    }
    // Not the same picture twice.
    if (hammingDistance(f.hash, b.hash) <= DUPLICATE_HASH_DISTANCE) {
      return reject("face_check_failed", "Front and back show the same picture; send a photo of each side.");
    }
    if (!f.centering.ok) {
      return reject("grading_failed", `The front's centering could not be measured: ${f.centering.reason}.`);
    }
    if (!f.wear) return reject("grading_failed", "The front's printed frame could not be measured.");
    const frontCentering = f.centering.centering;
    // A back whose frame is not measured consistently is left out of centering (lower confidence).
    const backCentering = b.centering.ok ? b.centering.centering : null;

    // Identification first: the catalog's prints of the card check the outline the front was
    // measured in, and decide its lines inside the art.
    const references = input.references ?? [];
    const card = identifyCard(f.hash, input.hints ?? {}, references);
    const prints = catalogPrints(f, card, references, input.referenceImage);
    const printSize = await checkPrintSize(f.centering.widths, f.format, prints.each());
    const outlineTooLarge =
      printSize?.verdict === "smaller" &&
      (card.confidence === "high" || recutMatchesPrint(f.flat, f.centering.widths, f.format, printSize));
    if (printSize && outlineTooLarge) {
      return reject("grading_failed", `The front's centering could not be measured: ${printSizeRefusal(printSize)}.`);
    }
    const frontWear = await withReferenceDifferences(f.wear, f.centering.widths, card, prints);

    // Subgrades.
    const centering = centeringGrade(worseSide(frontCentering), backCentering ? worseSide(backCentering) : null);
    const faces = [frontWear.wear, b.wear].filter((w): w is FaceWear => w !== null);
    const cornerShare = Math.max(...faces.map((w) => w.worstCornerMm2));
    const edgeShare = Math.max(...faces.map((w) => w.edgeWornMm));
    const surfaceShare = Math.max(...faces.map((w) => w.surfaceLineMm));
    const corners = gradeFromTable(cornerShare, CORNER_WEAR_TABLE);
    const edges = gradeFromTable(edgeShare, EDGE_WEAR_TABLE);
    const surface = gradeFromTable(surfaceShare, SURFACE_TABLE);
    const overall = overallGrade({ centering, corners, edges, surface });

    // The two scales' disagreement in points (centering.ts: up to 0.5, more on a thin border).
    const agreement = f.centering.agreement;
    const whitening = faces.some((w) => w.whiteningMeasurable);
    const confidence = {
      // 1 when the two scales agree exactly and the back was measured too; 0.5 from a
      // disagreement of half a point on.
      centering: round2(
        (1 - Math.min(0.5, agreement)) * (backCentering ? 1 : 0.85) * (f.outline.edgeResidual < 0.5 ? 1 : 0.8),
      ),
      corners: whitening ? 0.8 : 0.45,
      edges: whitening ? 0.8 : 0.45,
      surface: 0.6,
    };

    const estimatedValue = estimateValue(card, references, overall);

    const captureOf = (face: FaceAnalysis) => ({
      source_size: [face.decoded.sourceWidth, face.decoded.sourceHeight],
      analysed_size: [face.decoded.image.width, face.decoded.image.height],
      format: face.decoded.format,
      exif_orientation: face.decoded.orientation,
      card_format: face.format.id,
      card_orientation: face.orientation,
      rectified_aspect: round3(face.aspect),
      // The lens the proportions were recovered with: EXIF's, the vanishing points', or assumed.
      focal_length_px: Math.round(face.focal),
      focal_length_source: face.focalSource,
      // Every format the proportions fit (more than one only with a guessed lens at a slant).
      format_candidates: face.formatCandidates.map((format) => format.id),
      // Pixels of the image measured per working-image pixel: above 1 when the card, small in a
      // larger photo, was measured on its region read again from the photo (px_per_mm and the
      // edge's widths are in those pixels).
      measured_scale: round2(face.measuredScale),
      px_per_mm: round2(face.pxPerMm),
      edge_support: round2(face.outline.support),
      edge_contrast: round1(face.outline.edgeContrast),
      edge_width_px: round2(face.outline.edgeWidth),
      edge_residual_px: round2(face.outline.edgeResidual),
      centering_sigma_pp: face.sigma === null ? null : round2(face.sigma),
      // How far apart the centerings lie with a side's cut at either of its two readings (the
      // side where they lie furthest), in points; null where no side was read twice.
      cut_readings_apart_pp: face.cutSpread === null ? null : round2(face.cutSpread),
      // The card was found inside a sleeve: its margins beside the card's cut (mm), else null.
      sleeve_margins_mm: face.sleeveMarginsMm && {
        left: round2(face.sleeveMarginsMm.left),
        right: round2(face.sleeveMarginsMm.right),
        top: round2(face.sleeveMarginsMm.top),
        bottom: round2(face.sleeveMarginsMm.bottom),
      },
      mean_luma: round1(face.meanLuma),
      // An underexposed photo's levels were scaled by this before it was read (exposure.ts); 1 otherwise.
      exposure_gain: round2(face.exposureGain),
      hash: face.hash,
    });
    const centeringOut = (c: FaceCentering | null) =>
      c && {
        left_right: `${round1(c.left_right)}/${round1(100 - c.left_right)}`,
        top_bottom: `${round1(c.top_bottom)}/${round1(100 - c.top_bottom)}`,
        borders_mm: c.borders_mm,
      };

    // The evidence, and the damage reports drawn from it over each photo.
    const frontInput = faceInput(f, frontWear.wear);
    const backInput = faceInput(b);
    const evidence = gradeEvidence(
      frontInput,
      backInput,
      centeringEvidence(
        frontCentering,
        backCentering,
        Math.max(agreement, f.cutSpread ?? 0),
        printSize && printSizeEvidence(printSize),
      ),
    );
    const mmToPhoto = (face: FaceInput) => {
      const toPhoto = flatToPhoto(face);
      return (x: number, y: number) => toPhoto(x * FLAT_PX_PER_MM, y * FLAT_PX_PER_MM);
    };
    const renderReports = async () => {
      const [front, back] = await Promise.all([
        renderDamageReport(f.decoded.image, evidence.faces.front, defectsOf(evidence, "front"), mmToPhoto(frontInput)),
        renderDamageReport(b.decoded.image, evidence.faces.back, defectsOf(evidence, "back"), mmToPhoto(backInput)),
      ]);
      const png = (bytes: Uint8Array) => ({ bytes, contentType: "image/png" as const });
      return { damage_report_front: png(front), damage_report_back: png(back) };
    };
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
          back_not_measured: b.centering.ok ? null : b.centering.reason,
          scale_agreement_pp: round2(agreement),
          print_size: printSize
            ? { checked: true, ...printSizeEvidence(printSize) }
            : { checked: false, reason: await prints.unavailable() },
          rubric: "PSA grading standards",
        },
        corners: { grade: corners, worst_corner_worn_mm2: round2(cornerShare), whitening_measurable: whitening },
        edges: { grade: edges, worn_length_mm: round2(edgeShare), whitening_measurable: whitening },
        surface: {
          grade: surface,
          line_defects_mm: round2(surfaceShare),
          art_lines: frontWear.artLines,
        },
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
        frontBordersPx: f.centering.widths,
        backBordersPx: b.centering.ok ? b.centering.widths : null,
        frontWear: f.wear,
      }),
      renderReports,
    };
  }
}

/** At most this many catalog cards' reference images are compared with one front. */
const MAX_REFERENCES = 6;

interface CatalogPrints {
  /** The prints in order (the identified card's first), each read when first reached. */
  each(): AsyncGenerator<ReferencePrint>;
  /** More look-alikes than can be compared: a line none of the compared shows could be one left out's print. */
  tooMany: boolean;
  /** Why no print could be compared. */
  unavailable(): Promise<string>;
}

/**
 * The catalog's prints (reference-print.ts) of the identified card and of the catalog cards its
 * hash cannot tell from it (reprints, parallels), at most MAX_REFERENCES, each image read once
 * and only when reached: the print-size check stops at the first print that fits. None without a
 * catalog match (high or medium confidence; the art lines ask for high).
 */
function catalogPrints(
  face: FaceAnalysis,
  card: { catalog_id: number | null; confidence: string },
  references: CatalogReference[],
  referenceImage: GradeInput["referenceImage"],
): CatalogPrints {
  const identified = card.confidence === "high" || card.confidence === "medium";
  const ids =
    card.catalog_id !== null && identified
      ? [...new Set([card.catalog_id, ...sameCardCandidates(face.hash, references, MAX_REFERENCES + 1)])]
      : [];
  const read = new Map<number, Promise<{ image: boolean; print: ReferencePrint | null }>>();
  const readPrint = (id: number) => {
    let reading = read.get(id);
    if (!reading) {
      reading = (async () => {
        const bytes = referenceImage ? await referenceImage(id) : null;
        return { image: bytes !== null, print: bytes ? referencePrint(bytes, face.format) : null };
      })();
      read.set(id, reading);
    }
    return reading;
  };
  const compared = ids.slice(0, MAX_REFERENCES);
  async function* each() {
    for (const id of compared) {
      const { print } = await readPrint(id);
      if (print) yield print;
    }
  }
  return {
    each,
    tooMany: ids.length > MAX_REFERENCES,
    async unavailable() {
      if (!identified) return "card not identified";
      const outcomes = await Promise.all(compared.map(readPrint));
      if (outcomes.some((o) => o.print)) return "no print that fits";
      return outcomes.some((o) => o.image)
        ? "reference image could not be aligned"
        : "catalog card has no reference image";
    },
  };
}

/**
 * The print-size check as evidence: the frame's size and the nearest print's; "same" when it fits,
 * "other" when no print's does and the outline was not shown to be too large (a frame larger than
 * the print's, or a card identified only probably that the print's size does not make its).
 */
function printSizeEvidence(check: PrintSizeCheck): PrintSizeEvidence {
  const size = (s: { width_mm: number; height_mm: number }) => ({
    width: round2(s.width_mm),
    height: round2(s.height_mm),
  });
  return {
    frame_mm: size(check.measured),
    catalog_print_mm: size(check.reference),
    verdict: check.verdict === "same" ? "same" : "other",
  };
}

/**
 * The front's wear with its art lines judged against the catalog's prints (catalogPrints): lines
 * none of them shows are added to the surface's defects. Without a print, or with more look-alikes
 * than can be compared, they stay unexamined, not damage.
 */
async function withReferenceDifferences(
  wear: FaceWear,
  frame: { left: number; top: number },
  card: { confidence: string },
  prints: CatalogPrints,
): Promise<{ wear: FaceWear; artLines: ArtLinesOutcome }> {
  const found = wear.artLines.length;
  const outcome = (reference: string, printed = 0, differences = 0, compared = 0) => ({
    found,
    printed,
    differences,
    references_compared: compared,
    reference,
  });
  if (found === 0) return { wear, artLines: outcome("not needed") };
  if (card.confidence !== "high") return { wear, artLines: outcome("card not identified with high confidence") };
  if (prints.tooMany)
    return { wear, artLines: outcome(`more than ${MAX_REFERENCES} catalog cards look like this one`) };
  const all: ReferencePrint[] = [];
  for await (const print of prints.each()) all.push(print);
  const comparison = compareWithReferences("front", wear.artLines, frame, all);
  if (!comparison) return { wear, artLines: outcome(await prints.unavailable()) };
  const { differences, printed, compared } = comparison;
  const lineMm = differences.reduce((sum, d) => sum + d.line.lengthMm, 0);
  return {
    wear: {
      ...wear,
      surfaceLineMm: wear.surfaceLineMm + lineMm,
      surface: { ...wear.surface, defects: [...wear.surface.defects, ...differences.map((d) => d.defect)] },
    },
    artLines: outcome("compared", printed, differences.length, compared),
  };
}

interface ArtLinesOutcome {
  found: number;
  printed: number;
  differences: number;
  references_compared: number;
  reference: string;
}

function faceInput(face: FaceAnalysis, wear = face.wear): FaceInput {
  return {
    decoded: face.decoded,
    corners: face.corners,
    orientation: face.orientation,
    format: face.format,
    flatSize: { width: face.flat.width, height: face.flat.height },
    // Frame lines and borders only where the two scales agreed on them.
    frame: face.centering.ok ? face.centering.widths : null,
    bar: face.centering.ok ? face.centering.bar : null,
    wear,
  };
}

const defectsOf = (evidence: GradeEvidence, face: "front" | "back") =>
  [...evidence.corners.defects, ...evidence.edges.defects, ...evidence.surface.defects].filter((d) => d.face === face);

const round2 = (value: number) => Math.round(value * 100) / 100;
const round3 = (value: number) => Math.round(value * 1000) / 1000;
