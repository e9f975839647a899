// One face, from bytes to measurements: decode → find the card (find-card.ts) → its region read
// again from the stored photo when the card is small in it (decode.ts) → widened to a bevelled
// rim's cut where it closed on the rim's inner step (outer-border.ts) → its edges refined
// (refine-outline.ts) → widened to a printed border left outside it (outer-border.ts) → orientation and
// true proportions (rectify.ts) → format (formats.ts) → resolution → flat card → printed frame at
// two scales (frame.ts, centering.ts) → not a sleeve's margin (sleeve.ts: when the outline is a
// sleeve's and the lines inside it a card's cut, the card is refined from them and measured inside
// it, cardInSleeve) → wear. Every step that cannot be stood behind ends in a refusal that says
// what the photo lacks.
import {
  agreeAtThreeScales,
  centeringSigma,
  cutBetweenReadings,
  cutReadingsSpread,
  designedWidths,
  edgeBlurLimitMm,
  faceCentering,
  MAX_CENTERING_SIGMA,
  MAX_CUT_READINGS_APART,
  MAX_EDGE_BLUR_MM,
  MIN_PX_PER_MM,
  type TwoScaleResult,
  type Widths,
  widthsOf,
} from "./centering";
import { type Aberration, measureAberration, withoutAberration } from "./chromatic";
import { EDGE_PROFILES, MIN_CLEAN_CUT } from "./cut-profiles";
import {
  type DecodedImage,
  DecodeError,
  type DetailImage,
  decodeImage,
  decodeRegion,
  FULL_FRAME_DIAGONAL_MM,
  type Region,
} from "./decode";
import type { CardFormat, FaceName } from "./evidence";
import { applyGain, exposureGain, UNDEREXPOSED_LEVEL } from "./exposure";
import { type CardOutline, type LocatedCard, locateCard } from "./find-card";
import {
  describeFormat,
  FORMATS,
  formatAcrossLenses,
  nearSmallFormat,
  recogniseFormat,
  SMALL_FORMAT,
  STANDARD_FORMAT,
  TOPPS_FORMAT,
} from "./formats";
import {
  bordersWithinChord,
  type FrameResult,
  MAX_CLEAN_CUT_BLUR_MM,
  measureFrameDouble,
  measureFrameTwice,
  printStarts,
  rimAllRound,
} from "./frame";
import { ruleBefore, SIDES, type Side, type SideMeasurement } from "./frame-side";
import { dist, FLAT_PX_PER_MM, median, type Point, type Quad, signedArea2 } from "./geometry";
import { luma, medianColour, oneBorderInk, type Rgb, type RgbaImage } from "./image";
import { borderOutside, borderPartlyOutside, type OuterBorder, rimOutside } from "./outer-border";
import { cutCorners, OPPOSITE_END, outlineEndBeyondCard } from "./outline-ends";
import { perceptualHash } from "./phash";
import {
  aspectsAcrossLenses,
  cornerSensitivity,
  DIAGONAL_MARGIN_DEG,
  flatSampler,
  flatToPhoto,
  lensMatters,
  liesDiagonally,
  longLensReading,
  longSideTilt,
  type Oriented,
  orientCard,
  photoOrder,
  type TelephotoReading,
  telephotoFormat,
  unwarpCard,
} from "./rectify";
import { type Refined, refineOutline } from "./refine-outline";
import {
  borderNotTable,
  cutInsideMessage,
  cutInsideOutline,
  roundedFrameCorners,
  sleeveMessage,
  sleeveReading,
  sleeveShaped,
  squatCard,
} from "./sleeve";
import type { Rejected, RejectionReason } from "./types";
import { type FaceWear, measureWear } from "./wear";

/** Photos are analysed at most this large on their longer side. */
export const WORKING_MAX_SIDE = 1600;
/** The card's sides in the order of its corners (top-left, top-right, bottom-right, bottom-left). */
const CARD_SIDES: readonly Side[] = ["top", "right", "bottom", "left"];
/**
 * Smallest photo (shorter side, after scaling) that can be graded: the narrowest card format
 * filling that side has MIN_PX_PER_MM there (59 mm × 3 = 177 px). A smaller photo is refused at
 * once, since no card in it can have the pixels a 1-point centering measurement needs; a larger
 * one is refused for its card's pixels only once the card is found and its px per mm measured.
 */
const NARROWEST_CARD_MM = Math.min(...FORMATS.map((f) => f.width_mm));
export const MIN_PHOTO_SHORT_SIDE = Math.ceil(MIN_PX_PER_MM * NARROWEST_CARD_MM);
/**
 * Graded-card holders (PSA 84 × 137 mm, BGS and SGC alike) are 1.6–1.7 times as tall as wide once
 * rectified; every card format is below 1.46.
 */
export const HOLDER_ASPECT = { min: 1.52, max: 1.85 } as const;
/** Mean brightness (8-bit luma) of the card that can be graded. */
export const EXPOSURE = { min: 40, max: 235 } as const;
/**
 * A card darker on average than EXPOSURE.min, but not than `min`, is still read when its brightest
 * 1 % (luma, as photographed) reach `brightest`: a card of dark print (a black border and dark
 * art) in a dim room, its text box or lit art showing what its print is, as against a photo too
 * dark to show anything. A real photo of a black-bordered Magic card under a dim purple lamp reads
 * 35 on average and 94 at its brightest 1 %, and is measured within 0.3 points of a hand reading
 * of its luma profiles (its frame a step from 2 to 30 levels); every other local real photo's card
 * reads 61 or more on average. Drawn so (360 dark-bordered cards round photographs at 0.25–0.45
 * of their light, noise 3, JPEG 85), the cards graded at 30–40 on average lay at most 0.50 points
 * from the truth, those at 20–30 up to 1.11 (6 of 91 over 0.7, which lit fully read 0.25–0.43
 * off): under `min` the sensor's noise is too much of the frame's step.
 */
const DIM_CARD = { min: 30, brightest: 64 } as const;
/**
 * Mean brightness of the whole photo below or above which nothing in it is looked for: a black or
 * burnt-out photo (a deliberately dark one measures 7–13). Wider than EXPOSURE, because a well-lit
 * card on a dark cloth makes a photo of mean 33–37 (and a light card on a white desk a bright one);
 * the card itself is held to EXPOSURE once found.
 */
export const PHOTO_EXPOSURE = { min: 20, max: 245 } as const;

/**
 * A card with fewer than this many px per mm in the working image, in a photo stored at least
 * MIN_DETAIL_GAIN times larger per side, is measured on its region read again from the stored
 * photo (decode.ts, decodeRegion) at about DETAIL_PX_PER_MM: a card a tenth of a 12 MP photo wide
 * (400 px) has 2.4 px per mm at its working size (1500 px) and 6.3 in the photo. A card whose long
 * side spans more than about a third of such a photo's longer side is measured at the working size.
 */
export const DETAIL_BELOW_PX_PER_MM = 6;
/** The flat card is drawn at FLAT_PX_PER_MM (8); the edges are read finer than that. */
const DETAIL_PX_PER_MM = 10;
const MIN_DETAIL_GAIN = 1.5;
/**
 * The memory a region's second read may take (decode.ts: the whole photo decodes in the codec's
 * memory at the scale chosen): half the per-image decode budget, since it comes on top of the
 * working image and what was measured on it. A 12 MP JPEG is then read at 6/8 of its size.
 */
const DETAIL_DECODE_BYTES = 32 * 1024 * 1024;
/**
 * The region read around the card's quadrilateral: its refinement's reach twice (the median
 * profile reads that far), and at least this share of the card's longer extent (the table beside
 * the cut, read for wear and blur).
 */
const DETAIL_MARGIN_SHARE = 0.12;

export interface FaceAnalysis {
  decoded: DecodedImage;
  outline: CardOutline;
  /** The card's own corners (top-left first) in the photo's pixels. */
  corners: Quad;
  orientation: "portrait" | "landscape";
  /** Rectified height / width. */
  aspect: number;
  /**
   * Pixels of the image the card was measured on per working-image pixel: 1, or more when its
   * region was read again from the stored photo (DETAIL_BELOW_PX_PER_MM). `pxPerMm` and the
   * outline's edge width and residual are in the measured image's pixels.
   */
  measuredScale: number;
  /** The focal length (working-image pixels) the proportions were recovered with; its source (rectify.ts). */
  focal: number;
  focalSource: Oriented["focalSource"];
  format: CardFormat;
  /**
   * Every format the proportions fit: `format` alone, or, when they rest on a guessed lens at a
   * slant, each format some main-camera lens gives (formatAcrossLenses).
   */
  formatCandidates: CardFormat[];
  /** The format is the small one because the card shows a bevelled rim all round (smallCardRim). */
  smallByRim: boolean;
  /** The format is the standard one because the card shows a collector bar (barNamesStandard). */
  standardByBar: boolean;
  pxPerMm: number;
  flat: RgbaImage;
  /** The frame at two scales; `ok` only when both agree and the pixels support a 1-point measurement. */
  centering: TwoScaleResult;
  /** Predicted 1 σ of the centering offsets, in points (null without a frame). */
  sigma: number | null;
  /**
   * How far apart (points) the centerings lie with a side's cut at either of its two readings
   * (cutReadingsSpread), on the side where they lie furthest; null where no side was read twice
   * or without a frame.
   */
  cutSpread: number | null;
  wear: FaceWear | null;
  hash: string;
  /** The card's mean luma as photographed (before `exposureGain`). */
  meanLuma: number;
  /** The gain an underexposed photo's levels were read at (exposure.ts); 1 for an exposed one. */
  exposureGain: number;
  /** The margins (mm) of the sleeve the card was measured inside (cardInSleeve), or null. */
  sleeveMarginsMm: Widths | null;
}

/**
 * `shape`: the refusal is about the card's proportions (a back of another shape is another card).
 * `candidates`: the refusal is only that a guessed lens leaves the card between these formats, none
 * of them the standard one (builtin.ts measures it again as the other face's, when that is one).
 */
export type FaceResult =
  | { ok: true; face: FaceAnalysis }
  | { ok: false; rejection: Rejected; shape?: boolean; candidates?: CardFormat[] };

/**
 * A card seen this many degrees or more from square to the lens (rectify.ts, `slant`) and read as
 * no format is said to be photographed at a steep slant. On the 165 local real photos the graded
 * cards lie at up to 32°; the four refused for their shape beyond 35° (37–48°: among them a Magic
 * card on paper 39° from square with the lens named, one held in the hand, one in a sleeve) read
 * 1.1–3.4 % off a format, where a pixel at one corner moves their proportions by 0.36–1.20 %
 * (cornerSensitivity).
 */
const STEEP_SLANT_DEG = 35;

/** What a steep slant does to the card's proportions (STEEP_SLANT_DEG), or null short of it. */
function steepSlant(oriented: Oriented, photoQuad: Quad, width: number, height: number): string | null {
  if (!(oriented.slant >= STEEP_SLANT_DEG)) return null;
  const perPixel = 100 * cornerSensitivity(photoQuad, width, height, oriented.focal);
  return `it was photographed at a steep slant, about ${Math.round(oriented.slant)}° from square to the lens, where a pixel at one corner moves its proportions by up to ${perPixel.toFixed(2)} % (the formats are told within 1 %): photograph the card from straight above`;
}

const reject = (reason: RejectionReason, message: string, shape = false): FaceResult => ({
  ok: false,
  rejection: { status: "rejected", reason, message },
  shape,
});

/**
 * `forcedFormat`: grade against this format, not the one the proportions suggest (builtin.ts: the
 * other face's, when this face's format rests on a guessed lens and that one is among its candidates).
 */
export function analyseFace(name: FaceName, bytes: Uint8Array, forcedFormat?: CardFormat): FaceResult {
  if (bytes.byteLength === 0) return reject("face_check_failed", `The ${name} image is empty.`);
  let decoded: DecodedImage;
  try {
    decoded = decodeImage(bytes, WORKING_MAX_SIDE);
  } catch (error) {
    const detail = error instanceof DecodeError ? error.message : "unreadable image data";
    return reject("grading_failed", `The ${name} image could not be decoded: ${detail}.`);
  }
  const { image } = decoded;
  const { width, height } = image;
  if (Math.min(width, height) < MIN_PHOTO_SHORT_SIDE) {
    // The photo as sent (upright), and whether it is small or only long and narrow: read with its
    // longer side at WORKING_MAX_SIDE, a strip's shorter side holds too few pixels either way.
    const turned = decoded.orientation >= 5;
    const [sentWidth, sentHeight] = turned
      ? [decoded.sourceHeight, decoded.sourceWidth]
      : [decoded.sourceWidth, decoded.sourceHeight];
    const atMost = Math.min(width, height) / NARROWEST_CARD_MM;
    const why = `a card filling its shorter side would have ${atMost.toFixed(1)} px per mm, too few pixels to tell the printed frame from the card's edge, so centering cannot be measured to 1 point (at least ${MIN_PX_PER_MM} px per mm`;
    return reject(
      "grading_failed",
      Math.min(sentWidth, sentHeight) < MIN_PHOTO_SHORT_SIDE
        ? `The ${name} photo is too small (${sentWidth}×${sentHeight}): ${why}: a photo at least ${MIN_PHOTO_SHORT_SIDE} px on its shorter side, the card filling it); send a larger photo or move closer.`
        : `The ${name} photo is ${sentWidth}×${sentHeight}, too long and narrow: read with its longer side at ${WORKING_MAX_SIDE} px (${width}×${height}), ${why}); crop it round the card, with a margin of the table on every side.`,
    );
  }
  // A photo burnt out or black as a whole is refused before anything in it is taken for a card.
  const photoLuma = averageLuma(image);
  if (photoLuma < PHOTO_EXPOSURE.min) return reject("grading_failed", `The ${name} photo is too dark.`);
  if (photoLuma > PHOTO_EXPOSURE.max) return reject("grading_failed", `The ${name} photo is too bright.`);
  // An underexposed photo is read twice (exposure.ts): as if exposed, its levels scaled up, and as
  // photographed; where both measure the centering, they must agree.
  const gain = exposureGain(image);
  if (gain === 1) return readFace(name, bytes, forcedFormat, decoded, 1);
  const litImage = applyGain({ width, height, data: image.data.slice() }, gain);
  const lit = readFace(name, bytes, forcedFormat, { ...decoded, image: litImage }, gain);
  // Without a centering lit there is nothing to compare: the photo as taken is not read.
  if (!lit.ok || !lit.face.centering.ok) return lit;
  return agreeInLight(name, gain, lit, readFace(name, bytes, forcedFormat, decoded, 1));
}

/**
 * The face in `decoded` (its working image's levels scaled by `gain`, exposure.ts; a region read
 * again from `bytes` is scaled alike): the card found, its outline refined, measured (measureCard).
 */
function readFace(
  name: FaceName,
  bytes: Uint8Array,
  forcedFormat: CardFormat | undefined,
  decoded: DecodedImage,
  gain: number,
): FaceResult {
  const { image } = decoded;
  const { width, height } = image;
  const found = locateCard(image, decoded.focalPx);
  if (!found.ok) {
    if (found.holder) return holderRejection(name, found.holder.aspect);
    const reason = name === "back" && found.reason.startsWith("no card") ? "face_check_failed" : "grading_failed";
    return reject(reason, `The ${name} photo: ${found.reason}.`);
  }
  // The card is measured on the working image, or, small in a photo stored larger, on its region
  // read again from the photo (detailOf). Its sides are refined there; the outline's corners are
  // kept in working-image pixels (the lens, the orientation and the evidence refer to those), and
  // its edge measurements in pixels of the image measured.
  const { quad, reach, faintCut, ...located } = found.card;
  const detail = detailOf(bytes, decoded, quad, reach);
  if (detail) applyGain(detail.image, gain);
  const toMeasured = (p: Point): Point =>
    detail ? { x: (p.x - detail.originX) * detail.scaleX, y: (p.y - detail.originY) * detail.scaleY } : p;
  const toWorking = (p: Point): Point =>
    detail ? { x: p.x / detail.scaleX + detail.originX, y: p.y / detail.scaleY + detail.originY } : p;
  const detailScale = detail ? Math.sqrt(detail.scaleX * detail.scaleY) : 1;
  // Colour fringes of the lens (lateral chromatic aberration), measured on the card's outline about
  // the photo's centre, are taken out before any edge is read in colour (chromatic.ts).
  const measuredReach = Math.ceil(reach * detailScale);
  const photoCentre = toMeasured({ x: width / 2, y: height / 2 });
  const read = detail ? detail.image : image;
  const aberration = measureAberration(read, quad.map(toMeasured) as Quad, measuredReach + 2, photoCentre);
  const measuredImage = aberration ? withoutAberration(read, aberration) : read;
  // An outline closed on a bevelled rim's inner step along some sides and on its cut along the
  // others is first widened to the cut all round (outer-border.ts, rimOutside).
  // A side found in a shadow beside the cut shows no rim from there: the outline refined is read
  // for one again.
  const measuredQuad = quad.map(toMeasured) as Quad;
  const rimFirst = rimOutside(measuredImage, measuredQuad);
  let first = refineOutline(measuredImage, rimFirst ?? measuredQuad, measuredReach);
  const rimAfter = first.ok && !rimFirst ? rimOutside(measuredImage, first.outline.corners) : null;
  if (rimAfter) first = refineOutline(measuredImage, rimAfter, measuredReach);
  if (!first.ok) return reject("grading_failed", `The ${name} photo: ${first.reason}.`);
  // A printed border the outline left outside (outer-border.ts): the card is the wider outline
  // when its proportions are a card format's.
  let refined = first;
  const border =
    borderOutside(measuredImage, first.outline.corners) ?? borderPartlyOutside(measuredImage, first.outline.corners);
  if (border) {
    // Refined again, each corner must stay within half the narrowest border of where the steps
    // put it: a border narrower than the refinement's reach lets a side fall back on the panel's
    // stronger edge, or the side shows two edges and is refused.
    const again = refineOutline(measuredImage, border.corners, measuredReach);
    const stays = (corners: Quad) =>
      corners.every((c, k) => dist(c, border.corners[k] as Point) <= Math.min(...border.widthsPx) / 2);
    const wider: typeof first = again.ok && stays(again.outline.corners) ? again : tracedBorder(border, first);
    const aspect = orientCard(wider.outline.corners.map(toWorking) as Quad, width, height, decoded.focalPx).aspect;
    if (recogniseFormat(aspect).ok) refined = wider;
  }
  // No border found outside an outline that may be the card's panel with a faint cut round it
  // (find-card.ts): the card cannot be told from its print. (A rim's cut found outside it is that
  // faint cut: the outline was widened to it.)
  if (refined === first && faintCut && !rimFirst) {
    return reject(
      "grading_failed",
      `The ${name} photo: just outside the outline found lies one colour all round, with a faint straight edge further out on all four sides, so the outline may be the card's printed frame inside a border that barely stands out from the background; photograph the card on a background that contrasts with its border.`,
    );
  }
  const measuring: Measuring = {
    name,
    bytes,
    aberration,
    decoded,
    forcedFormat,
    image: measuredImage,
    toMeasured,
    toWorking,
    detailScale,
    gain,
    reach: measuredReach,
  };
  const measured = measureCard(measuring, refined, located, null);
  return forcedFormat === undefined ? barNamesStandard(measuring, refined, located, measured) : measured;
}

/**
 * An underexposed photo's two readings (analyseFace): `lit`, its levels scaled by `gain`, read to
 * a centering, and `asTaken`. The lit reading stands where the photo as taken is not read to a
 * centering; where it is, the two centerings may lie at most MAX_LIGHT_DISAGREEMENT points apart
 * on either axis, or the face is refused: what the centering rests on then moves with the light.
 */
export function agreeInLight(name: FaceName, gain: number, lit: FaceResult, asTaken: FaceResult): FaceResult {
  if (!lit.ok || !lit.face.centering.ok || !asTaken.ok || !asTaken.face.centering.ok) return lit;
  const a = lit.face.centering.centering;
  const b = asTaken.face.centering.centering;
  const apart = Math.max(Math.abs(a.left_right - b.left_right), Math.abs(a.top_bottom - b.top_bottom));
  if (apart <= MAX_LIGHT_DISAGREEMENT) return lit;
  return reject(
    "grading_failed",
    `The ${name} photo is underexposed (its brightest pixels under ${UNDEREXPOSED_LEVEL} of 255): read with its levels raised ${gain.toFixed(2)} times and as it was taken, the card's centering lies ${apart.toFixed(1)} points apart (left to right ${a.left_right.toFixed(1)} and ${b.left_right.toFixed(1)}, top to bottom ${a.top_bottom.toFixed(1)} and ${b.top_bottom.toFixed(1)}), so it cannot be measured to a point; photograph the card in more light.`,
  );
}

/**
 * Of a card's four corners, how many must read as a cut's rounded ones (outline-ends.ts,
 * cutCorners) for an outline measured through a guessed telephoto to be taken for the card.
 */
const MIN_ROUNDED_CUT_CORNERS = 3;
/**
 * ...and how many reading square (a sleeve's) refuse an outline whose proportions rest on a lens
 * the photo does not name: a guessed main-camera lens at a slant (aspectsAcrossLenses), or one
 * found from the outline's own vanishing points. A card's corners are read often neither way on
 * real photos.
 */
const MIN_SQUARE_SLEEVE_CORNERS = 3;

/** An underexposed photo's two readings (agreeInLight) may put the centering this many points apart. */
const MAX_LIGHT_DISAGREEMENT = 1;

/**
 * A collector bar (frame.ts, printReading: an end printed as a bar of the border's colour, its
 * frame 5 mm or more in) is a modern design's, a Magic or a Flesh and Blood card's, and those are
 * 63 × 88 mm. A card showing one whose proportions name the 1952 Topps format (2.2 % taller than
 * the standard) is measured again as the standard format, and is that when the bar is read again
 * there; the other face, of the Topps card's shape, then takes that format (builtin.ts). On a real
 * photo of a Magic foil on wood, a screenshot's crop of a phone photo with the lens guessed, the
 * card reads 1.427 tall and was graded as the Topps format.
 */
function barNamesStandard(
  m: Measuring,
  refined: Extract<Refined, { ok: true }>,
  located: Omit<LocatedCard, "quad" | "reach" | "faintCut">,
  measured: FaceResult,
): FaceResult {
  const barred = (result: FaceResult) => result.ok && result.face.centering.ok && result.face.centering.bar !== null;
  if (!measured.ok || measured.face.format.id !== TOPPS_FORMAT.id || !barred(measured)) return measured;
  const again = measureCard({ ...m, forcedFormat: STANDARD_FORMAT }, refined, located, null);
  return again.ok && barred(again) ? { ok: true, face: { ...again.face, standardByBar: true } } : measured;
}

/** What measureCard needs of the photo and of the image the card is measured on. */
interface Measuring {
  name: FaceName;
  /** The photo as sent: a region of it may be read again finer (doubleFlat). */
  bytes: Uint8Array;
  /** The lens's colour fringes taken out of the image measured (chromatic.ts), or null. */
  aberration: Aberration | null;
  decoded: DecodedImage;
  forcedFormat: CardFormat | undefined;
  /** The working image, or the card's region read again from the photo, its colour fringes taken out. */
  image: RgbaImage;
  toMeasured: (p: Point) => Point;
  toWorking: (p: Point) => Point;
  /** Pixels of `image` per working-image pixel. */
  detailScale: number;
  /** The gain the photo's levels are read at (exposure.ts): a region read again from `bytes` takes it too. */
  gain: number;
  /** How far (pixels of `image`) the refinement looked for each side. */
  reach: number;
}

/**
 * The card inside its refined outline (`refined`, in pixels of the image measured): orientation
 * and true proportions, format, the flat card, the printed frame at two scales, wear. `inSleeve`:
 * the margins (mm) of the sleeve the card was found in (cardInSleeve), or null; `beneath`: the
 * colour of the card it was found lying on (cardOnAnother), or null.
 */
function measureCard(
  m: Measuring,
  refined: Extract<Refined, { ok: true }>,
  located: Omit<LocatedCard, "quad" | "reach" | "faintCut">,
  inSleeve: Widths | null,
  beneath: Rgb | null = null,
): FaceResult {
  const { name, decoded, forcedFormat, toMeasured, toWorking, detailScale } = m;
  const measuredImage = m.image;
  const { width, height } = decoded.image;
  const outline: CardOutline = {
    ...refined.outline,
    ...located,
    corners: refined.outline.corners.map(toWorking) as Quad,
  };
  const oriented = orientCard(outline.corners, width, height, decoded.focalPx);
  // A steep slant with a guessed lens: the proportions are the guess's, so neither a holder's
  // shape nor a format's absence is claimed from them; the refusal says what the photo lacks.
  // Then the format is whichever the proportions fit through some main-camera lens (formats.ts:
  // `standard` when it is among them), and the other candidates are kept for the other face.
  const aspects = oriented.focalSource === "assumed" ? aspectsAcrossLenses(outline.corners, width, height) : null;
  const guessedShape = aspects !== null && lensMatters(aspects);
  const holderShaped = oriented.aspect >= HOLDER_ASPECT.min && oriented.aspect <= HOLDER_ASPECT.max;
  if (holderShaped && !guessedShape) return holderShapedOutline(name, oriented.aspect);
  const match = recogniseFormat(oriented.aspect);
  const acrossLenses = aspects !== null && guessedShape ? formatAcrossLenses(aspects) : null;
  const byProportions = forcedFormat ?? (acrossLenses ? acrossLenses.format : match.ok ? match.format : null);
  // A bevelled rim all round is a Yu-Gi-Oh! card's (formats.ts, RIM_FORMAT_TOLERANCE): where the
  // proportions name the 1952 Topps format within that of the small format's, name no format
  // within it (a little taller: no card format lies between the small one and a holder's shape),
  // or a guessed lens leaves the card between the two, a card with such a rim is the small format.
  const rimMayDecide =
    forcedFormat === undefined &&
    inSleeve === null &&
    (byProportions === null
      ? acrossLenses
        ? acrossLenses.candidates.some((candidate) => candidate.id === SMALL_FORMAT.id)
        : nearSmallFormat(oriented.aspect)
      : byProportions.id === TOPPS_FORMAT.id && nearSmallFormat(oriented.aspect));
  const rimFlat = rimMayDecide
    ? smallCardRim(measuredImage, oriented.corners.map(toMeasured) as Quad, outline.edgeWidth)
    : null;
  const smallByRim = rimFlat !== null;
  const recognised = smallByRim ? SMALL_FORMAT : byProportions;
  // A card read a little squatter than its format, with no sleeve found around it (squatCard), is
  // measured as its format; `squat` then holds its refusal for its shape, which stands unless its
  // frame shows a card's border.
  let squat: FaceResult | null = null;
  // Or a card read as no format through a main camera's lens and as one through a telephoto's.
  let telephoto: TelephotoReading | null = null;
  let format: CardFormat;
  if (recognised !== null) format = recognised;
  else {
    const nearest = match.ok ? match.format : match.nearest;
    // Squatter than the nearest format by a sleeve's slack: the outline may be a sleeve's, the
    // card's cut the first line inside it. Read with the outline's own proportions (the nearest
    // format's width), the card is looked for there (cardInSleeve).
    if (inSleeve === null && acrossLenses === null && sleeveShaped(oriented.aspect, nearest)) {
      const sleeveFormat: CardFormat = {
        id: "sleeve",
        width_mm: nearest.width_mm,
        height_mm: nearest.width_mm * oriented.aspect,
      };
      const inner = cardInSleeve(m, oriented, sleeveFormat, refined, located, null);
      if (inner) return inner;
    }
    const shape = `The card in the ${name} photo, rectified, is ${oriented.aspect.toFixed(3)} times as tall as wide: no known card format (nearest: ${describeFormat(nearest)}, ${(nearest.height_mm / nearest.width_mm).toFixed(3)})`;
    const candidates = acrossLenses?.candidates.map((format) => format.id).join(" and ");
    // Nor through a main camera's lens, guessed: through a longer one (a telephoto, a zoom) a
    // slanted card may read as one.
    const longLens =
      oriented.focalSource === "assumed" && !acrossLenses
        ? longLensReading(outline.corners, width, height, (aspect) => recogniseFormat(aspect).ok)
        : null;
    const longLensFormat = longLens ? recogniseFormat(longLens.aspect) : null;
    const throughLongLens =
      longLens && longLensFormat?.ok
        ? `, or it was photographed at a slant through a longer lens than a phone's main camera (through a ${Math.round((longLens.focal * FULL_FRAME_DIAGONAL_MM) / Math.hypot(width, height))} mm-equivalent lens it reads as a ${describeFormat(longLensFormat.format)} card), which the photo does not name (no EXIF focal length): photograph the card from straight above, or send the camera's original photo, with its EXIF`
        : "";
    const rejection = reject(
      "grading_failed",
      acrossLenses
        ? `${candidates ? `The card in the ${name} photo could be ${candidates}: its proportions depend on the lens` : shape}. It was photographed at a slant and the photo does not name its lens (no EXIF focal length), so its proportions rest on a guessed one: photograph the card from straight above, or send the camera's original photo, with its EXIF.`
        : `${shape}; ${steepSlant(oriented, outline.corners, width, height) ?? "its edge may be hidden against the background"}${sleeveShaped(oriented.aspect, nearest) ? ", or it may be in a sleeve, whose edge is then taken for the card's: take it out of the sleeve" : ""}${throughLongLens}.`,
      // A shape that rests on a guessed lens, or may be a longer lens's, is not evidence of another object.
      acrossLenses === null && throughLongLens === "",
    );
    if (acrossLenses !== null && acrossLenses.candidates.length > 1 && inSleeve === null && !rejection.ok) {
      return { ...rejection, candidates: acrossLenses.candidates };
    }
    // Nor through a main camera's lens, guessed, but through a phone's telephoto (or a crop of a
    // photo, which reads as one): measured as the format a telephoto gives, the outline taken for
    // a card's only as a squat one is (below), its frame showing a card's border.
    telephoto =
      oriented.focalSource === "assumed" && inSleeve === null ? telephotoFormat(outline.corners, width, height) : null;
    if (telephoto) {
      squat = rejection;
      format = telephoto.format;
    } else {
      if (inSleeve !== null || acrossLenses !== null || !squatCard(oriented.aspect, nearest)) return rejection;
      squat = rejection;
      format = nearest;
    }
  }
  if (liesDiagonally(outline.corners, width, height, decoded.focalPx)) {
    return reject(
      "grading_failed",
      `The card in the ${name} photo lies diagonally (its long sides ${Math.round(longSideTilt(oriented.corners))}° from the photo's vertical): it is neither standing upright nor lying sideways (read with its top toward the left edge of the frame), and turned ${DIAGONAL_MARGIN_DEG}° it would be read the other way, with its left and right, top and bottom, swapped; turn the card until its long side is nearer the photo's vertical (or horizontal, its top toward the left).`,
    );
  }
  const measuredCorners = oriented.corners.map(toMeasured) as Quad;
  const pxPerMm = cardPxPerMm(measuredCorners, format);
  if (pxPerMm < MIN_PX_PER_MM) {
    return reject(
      "grading_failed",
      `The card in the ${name} photo is ${pxPerMm.toFixed(1)} px per mm: too few pixels to tell the printed frame from the card's edge, so centering cannot be measured to 1 point (at least ${MIN_PX_PER_MM} px per mm, e.g. the card ${Math.ceil(MIN_PX_PER_MM * format.width_mm)} px wide); move closer.`,
    );
  }
  // One end of the outline on something beyond the card (a stand's lip): square corners there,
  // the card's sides fading out before them, a cut's rounded corners at the other end.
  const beyond =
    inSleeve === null && beneath === null ? outlineEndBeyondCard(measuredImage, measuredCorners, format) : null;
  if (beyond) {
    const sides = beyond === "top" || beyond === "bottom" ? "left and right" : "top and bottom";
    const opposite = OPPOSITE_END[beyond];
    return reject(
      "grading_failed",
      `The card in the ${name} photo: the outline's ${beyond} edge is not the card's. Its ${beyond} corners are square where its ${opposite} corners are a cut's rounded ones, and the card's ${sides} edges fade out before reaching them, so something of the card's colours lies along its ${beyond} edge (a stand's lip, a ledge, another card) and where the card ends there cannot be told; photograph the card lying flat on a plain surface, with a margin of it round every edge.`,
    );
  }
  // Its proportions read through a lens the photo does not name (a main camera's at a slant that
  // makes the lens matter, a telephoto's, or one found from the outline's vanishing points), the
  // outline must show a card's cut at its corners: rounded as a cut is, where a sleeve's are
  // square. Through an unknown lens the shape cannot tell a card from a sleeve round one: a penny
  // sleeve is 1.15 % squatter than its card, and the lenses the photo may have been taken through
  // span more than that (a sleeve of a red card's red, its lens found from its vanishing points,
  // read 0.9 % squatter than the card and was graded 3.17 points off).
  const lensUnnamed =
    telephoto !== null ||
    acrossLenses !== null ||
    (oriented.focalSource === "vanishing_points" && inSleeve === null && beneath === null);
  const cut = lensUnnamed ? cutCorners(measuredImage, measuredCorners, format) : null;
  if (
    cut !== null &&
    (telephoto !== null ? cut.rounded < MIN_ROUNDED_CUT_CORNERS : cut.square >= MIN_SQUARE_SLEEVE_CORNERS)
  ) {
    return (
      squat ??
      reject(
        "grading_failed",
        `The card in the ${name} photo was photographed at a slant and the photo does not name its lens (no EXIF focal length), so its proportions cannot tell the card from a sleeve round it (a penny sleeve is 1.15 % squatter than its card), and the outline's corners are square, as a sleeve's are, not a card's rounded ones (a card cut square, as sports cards are, cannot be told from a sleeve so): take the card out of any sleeve and photograph it from straight above, or send the camera's original photo, with its EXIF.`,
      )
    );
  }
  // Read as the small format for its rim, the card is already flat (smallCardRim).
  const flat = rimFlat ?? unwarpCard(measuredImage, measuredCorners, format);
  // The card's exposure is judged as photographed, before the gain.
  const meanLuma = averageLuma(flat) / m.gain;
  if (meanLuma < DIM_CARD.min || (meanLuma < EXPOSURE.min && brightestLuma(flat) / m.gain < DIM_CARD.brightest)) {
    return reject("grading_failed", `The ${name} photo is too dark.`);
  }
  if (meanLuma > EXPOSURE.max) return reject("grading_failed", `The ${name} photo is too bright.`);
  const blurMm = outline.edgeWidth / pxPerMm;
  // The card's sides whose cut was traced cleanly, in a sharp photo (frame.ts,
  // MAX_CLEAN_CUT_LEAN_MM): the photo's sides in the card's own order (lying sideways, the card's
  // top is the photo's left side).
  const photoSideOf = (k: number) => (oriented.orientation === "landscape" ? (k + 3) % 4 : k);
  const cleanCuts = new Set(
    blurMm <= MAX_CLEAN_CUT_BLUR_MM ? CARD_SIDES.filter((_, k) => refined.clean[photoSideOf(k)]) : [],
  );
  // Sides whose cut bows out past the flat card's edge (refine-outline.ts, bowedCut): their
  // borders are read from the curve.
  const bows = Object.fromEntries(CARD_SIDES.map((side, k) => [side, refined.bows[photoSideOf(k)]])) as Record<
    Side,
    number
  >;
  // Inside a sleeve the "table" is the sleeve's margin, and on another card that card's band lies
  // beside two sides: there the colour found round the outline stands (cardInSleeve, cardOnAnother).
  const tableLuma =
    inSleeve === null && beneath === null
      ? tableLumaBeside(measuredImage, measuredCorners, format)
      : luma(outline.background);
  const frames = measureFrameTwice(flat, blurMm, cleanCuts, bows, tableLuma);
  // The flat card drawn at twice its resolution, where the photo holds it (read once).
  let fine: RgbaImage | null | undefined;
  const doubleCard = () => {
    if (fine === undefined) fine = doubleFlat(m, oriented.corners, format);
    return fine;
  };
  const double = () => {
    const card = doubleCard();
    return card && measureFrameDouble(card, blurMm, cleanCuts, bows, tableLuma);
  };
  const soft = (sides: readonly Side[]) => ({
    full: frames.softFull(sides),
    double: () => {
      const card = doubleCard();
      return card && measureFrameDouble(card, blurMm, cleanCuts, bows, tableLuma, sides);
    },
  });
  let centering = agreeAtThreeScales(
    frames.full,
    frames.half,
    frames.threeQuarter,
    blurMm,
    double,
    (side, from, to) => ruleBefore(flat, side, from, to),
    soft,
  );
  // Two inks along the outline: another card's band beside the card's cut (cardOnAnother).
  if (!frames.full.ok && frames.full.inks && inSleeve === null && beneath === null) {
    const upper = cardOnAnother(m, oriented, format, located, frames.full.inks);
    if (upper) return upper;
  }
  // The frame lines may be a sleeved card's cut, the "border" the sleeve's margin (sleeve.ts):
  // the card is measured inside it when its cut is found there (cardInSleeve).
  const sleeve = centering.ok ? sleeveReading(format, centering.widths) : null;
  if (sleeve) {
    const inner =
      inSleeve === null ? cardInSleeve(m, oriented, format, refined, located, { flat, frame: frames.full }) : null;
    return inner ?? reject("grading_failed", sleeveMessage(name, format, sleeve));
  }
  // Or a card's cut inside something of its own proportions: the lines' corners are rounded.
  const cutInside = centering.ok && (name === "front" || squat !== null) && cutInsideOutline(flat, centering.widths);
  if (name === "front" && cutInside) return reject("grading_failed", cutInsideMessage(name));
  // A squat outline is taken for a card's only when its frame is measured at both scales, with
  // square corners (no card's cut inside a sleeve) and a border of another colour than the table
  // (not the table seen through a clear sleeve's margin); otherwise it is refused for its shape.
  if (
    squat &&
    !(centering.ok && frames.full.ok && !cutInside && borderNotTable(frames.full.sides, outline.background))
  ) {
    return squat;
  }
  let sigma: number | null = null;
  if (centering.ok) {
    sigma = centeringSigma(outline.edgeWidth, EDGE_PROFILES, pxPerMm, centering.widths, centering.bar);
  }
  const wear = frames.full.ok
    ? measureWear(
        name,
        flat,
        frames.full.sides.left.borderColor,
        outline.background,
        {
          ...bordersWithinChord(frames.full.sides, flat),
          printFrom: printStarts(frames.full.sides),
          rim: frames.full.sides.left.rim,
        },
        flatSampler(measuredImage, measuredCorners, format),
        beneath,
      )
    : null;
  const blurLimitMm = centering.ok
    ? edgeBlurLimitMm(designedWidths(centering.widths, centering.bar))
    : MAX_EDGE_BLUR_MM;
  if (centering.ok && blurMm > blurLimitMm) {
    centering = {
      ok: false,
      side: null,
      reason: `the card's edges are blurred over ${blurMm.toFixed(2)} mm (at most ${blurLimitMm.toFixed(2)} with these borders), and the printed frame as much, so a border cannot be placed to a point; hold the phone steady, let it focus on the card or move closer`,
    };
  }
  // Each side's cut placed by its other reading (refine-outline.ts, `gaps`): the centering the two
  // placements give must agree (MAX_CUT_READINGS_APART), or, placed midway between them
  // (cutBetweenReadings), lie within that of either.
  const gapsMm = Object.fromEntries(
    CARD_SIDES.map((side, k) => {
      const gap = refined.gaps[photoSideOf(k)] ?? null;
      return [side, gap === null ? null : gap / pxPerMm];
    }),
  ) as Record<Side, number | null>;
  // The evidence reports the two readings' spread (cutSpread), wherever the cut was placed.
  const spread = centering.ok ? cutReadingsSpread(centering.widths, centering.bar, gapsMm) : null;
  let unsettled = spread !== null && spread.points > MAX_CUT_READINGS_APART;
  if (centering.ok && unsettled) {
    const between = cutBetweenReadings(centering.widths, centering.bar, gapsMm);
    const remaining = cutReadingsSpread(between.widths, centering.bar, between.gapsMm);
    if (remaining && remaining.points <= MAX_CUT_READINGS_APART) {
      centering = { ...centering, widths: between.widths, centering: faceCentering(between.widths, centering.bar) };
      unsettled = false;
    }
  }
  if (centering.ok && spread && unsettled) {
    centering = {
      ok: false,
      side: spread.side,
      reason: `the card's ${spread.side} edge, read two ways, lies in two places ${spread.mm.toFixed(2)} mm apart, ${spread.points.toFixed(1)} centering points apart, so its border cannot be measured to a point (a shadow or a lit edge along the cut, a table of nearly the border's colour, or a border this thin for the pixels on it); move closer, light the card evenly from above, or photograph it on a plain background of another colour`,
    };
  }
  if (centering.ok && sigma !== null && sigma > MAX_CENTERING_SIGMA) {
    centering = {
      ok: false,
      side: null,
      reason: `the photo's pixels cannot support a 1-point centering measurement: at ${pxPerMm.toFixed(1)} px per mm with edges ${outline.edgeWidth.toFixed(1)} px wide (blur), a border is placed only to ±${sigma.toFixed(2)} points (at most ${MAX_CENTERING_SIGMA}); move closer or hold the phone steady`,
    };
  }
  return {
    ok: true,
    face: {
      decoded,
      outline,
      corners: oriented.corners,
      orientation: oriented.orientation,
      measuredScale: detailScale,
      aspect: telephoto?.aspect ?? oriented.aspect,
      focal: telephoto?.focal ?? oriented.focal,
      focalSource: oriented.focalSource,
      formatCandidates: telephoto
        ? telephoto.candidates
        : acrossLenses && !smallByRim
          ? acrossLenses.candidates
          : [format],
      smallByRim,
      standardByBar: false,
      format,
      pxPerMm,
      flat,
      centering,
      sigma,
      cutSpread: spread?.points ?? null,
      wear,
      hash: perceptualHash(flat),
      meanLuma,
      exposureGain: m.gain,
      sleeveMarginsMm: inSleeve,
    },
  };
}

/**
 * A card inside a sleeve (a deck protector, its back coloured): the outline found is the
 * sleeve's, and the lines found inside it as the printed frame are the card's cut when they enclose
 * a card of a known format up to a sleeve's slack smaller (sleeve.ts, sleeveReading) and all four
 * of their corners are rounded as a cut's are, a printed frame's not (roundedFrameCorners). The
 * card is then refined from those lines in the photo, the sleeve's margin beside its cut taken for
 * the table, and measured as any card is (measureCard, which looks for no second sleeve). Null when
 * the lines are no such cut, or when the card inside is not measured (its refusal would name
 * something inside a sleeve the photo shows otherwise: the sleeve's refusal is given).
 * `measured`: the flat card of `format` (the outline's) and the frame read on it at full scale,
 * else they are read here.
 */
function cardInSleeve(
  m: Measuring,
  oriented: Oriented,
  format: CardFormat,
  refined: Extract<Refined, { ok: true }>,
  located: Omit<LocatedCard, "quad" | "reach" | "faintCut">,
  measured: { flat: RgbaImage; frame: FrameResult } | null,
): FaceResult | null {
  const corners = oriented.corners.map(m.toMeasured) as Quad;
  const pxPerMm = cardPxPerMm(corners, format);
  if (pxPerMm < MIN_PX_PER_MM) return null;
  // The lines found on the flat card at its full scale: only where the cut is looked for, in the
  // photo. The card is measured afterwards as any card is, at both scales.
  const flat = measured?.flat ?? unwarpCard(m.image, corners, format);
  const frame = measured?.frame ?? measureFrameTwice(flat, refined.outline.edgeWidth / pxPerMm).full;
  if (!frame.ok) return null;
  const widths = widthsOf(frame.sides);
  const sleeve = sleeveReading(format, widths);
  const corner = roundedFrameCorners(flat, widths);
  if (!sleeve || corner.read < 4 || corner.rounded < 4) return null;
  const cut = insetOutline(corners, format, widths);
  // Each side is looked for no further than half the narrowest margin: past it lies the sleeve's edge.
  const { left, right, top, bottom } = widths;
  const marginPx = (Math.min(left, right, top, bottom) / FLAT_PX_PER_MM) * pxPerMm;
  const reach = Math.min(m.reach, Math.floor(marginPx / 2));
  if (reach < MIN_SLEEVE_REACH_PX) return null;
  const card = refineOutline(m.image, cut, reach);
  if (!card.ok) return null;
  const margin = medianColour(SIDES.map((side) => [...frame.sides[side].borderColor]));
  const inner = measureCard(
    m,
    card,
    { ...located, background: (margin ?? located.background) as CardOutline["background"] },
    sleeve.marginsMm,
  );
  return inner.ok && inner.face.centering.ok ? inner : null;
}

/**
 * The card inside `corners` (the image measured's pixels, the card's own order) flat as the small
 * format, when it shows a bevelled rim beginning at the cut along all four sides (frame.ts,
 * rimAllRound); null otherwise. `edgeWidth`: the cut's rise in those pixels.
 */
function smallCardRim(image: RgbaImage, corners: Quad, edgeWidth: number): RgbaImage | null {
  const flat = unwarpCard(image, corners, SMALL_FORMAT);
  return rimAllRound(flat, edgeWidth / cardPxPerMm(corners, SMALL_FORMAT)) ? flat : null;
}

/**
 * The card drawn flat at twice the flat card's resolution (unwarpCard, `times` 2) from the photo's
 * own pixels: from the image measured when it holds that many on the card, else from the card's
 * region read again from the photo at up to that resolution (decode.ts, decodeRegion), its colour
 * fringes taken out as the image measured's were. Null when fewer than MIN_DOUBLE_PX_PER_MM of the
 * photo's pixels lie on the card, or its region cannot be read with them within
 * DETAIL_DECODE_BYTES. `corners`: the card's, in working-image pixels, its own order.
 */
function doubleFlat(m: Measuring, corners: Quad, format: CardFormat): RgbaImage | null {
  const target = 2 * FLAT_PX_PER_MM;
  const { decoded } = m;
  const { width, height } = decoded.image;
  const working = cardPxPerMm(corners, format);
  const sourceGain = Math.max(decoded.sourceWidth, decoded.sourceHeight) / Math.max(width, height);
  if (working * sourceGain < MIN_DOUBLE_PX_PER_MM) return null;
  if (working * m.detailScale >= Math.min(target, working * sourceGain)) {
    return unwarpCard(m.image, corners.map(m.toMeasured) as Quad, format, 2);
  }
  // The flat card samples no further out than its own edge; two working pixels round it cover the
  // bilinear sampling and a corner placed a pixel out.
  const region = regionAround(corners, 2, width, height);
  let detail: DetailImage | null;
  try {
    detail = decodeRegion(m.bytes, decoded, region, target / working, 1, DETAIL_DECODE_BYTES);
  } catch {
    return null;
  }
  if (!detail) return null;
  applyGain(detail.image, m.gain);
  const { originX, originY, scaleX, scaleY } = detail;
  const quad = corners.map((p) => ({ x: (p.x - originX) * scaleX, y: (p.y - originY) * scaleY })) as Quad;
  if (cardPxPerMm(quad, format) < MIN_DOUBLE_PX_PER_MM) return null;
  const image = m.aberration
    ? withoutAberration(detail.image, {
        ...m.aberration,
        centre: { x: (width / 2 - originX) * scaleX, y: (height / 2 - originY) * scaleY },
      })
    : detail.image;
  return unwarpCard(image, quad, format, 2);
}

/**
 * The reading finer than the flat card (doubleFlat) is drawn at twice its resolution from at least
 * this many of the photo's pixels per mm on the card (DETAIL_PX_PER_MM, 1.25 times the flat
 * card's), never from the working image's alone when the photo holds more: a 12 MP photo's card
 * region is read again at most at 5/8 of its size within DETAIL_DECODE_BYTES, which gives a card
 * a third of the photo wide 12–13 px/mm.
 */
const MIN_DOUBLE_PX_PER_MM = DETAIL_PX_PER_MM;

/**
 * The table's luma just outside the card's cut, all round: the median of TABLE_RING_SAMPLES places
 * a side at each of TABLE_RING_MM outside it (`corners`: the card's in `image`, its own order).
 * The frame's readings are judged against it (frame.ts: how light a black border's sheen may be,
 * the table beside a grey band), not against the photo's outer frame, which a lens's vignetting
 * darkens: on a webcam photo of a black-bordered card on white paper the outer frame's luma is
 * 120 and the table beside the card 186, and the top border under a lamp's sheen, rgb(99, 97, 86),
 * was lighter than 0.75 of the first (sameInkOrSheen) and refused as another ink.
 */
function tableLumaBeside(image: RgbaImage, corners: Quad, format: CardFormat): number {
  const sample = flatSampler(image, corners, format);
  const width = Math.round(format.width_mm * FLAT_PX_PER_MM);
  const height = Math.round(format.height_mm * FLAT_PX_PER_MM);
  const colour = new Float64Array(3);
  const lumas: number[] = [];
  for (const mm of TABLE_RING_MM) {
    const out = mm * FLAT_PX_PER_MM;
    for (let i = 0; i < TABLE_RING_SAMPLES; i++) {
      const t = (i + 0.5) / TABLE_RING_SAMPLES;
      for (const [u, v] of [
        [t * width, -out],
        [width + out, t * height],
        [t * width, height + out],
        [-out, t * height],
      ] as const) {
        sample(u, v, colour);
        lumas.push(luma(colour));
      }
    }
  }
  return median(lumas);
}

const TABLE_RING_MM = [1.5, 2.5] as const;
const TABLE_RING_SAMPLES = 40;

/** Pixels per mm of a card of `format` whose corners (card order) are `corners`: the scarcer of its two axes'. */
function cardPxPerMm(corners: Quad, format: CardFormat): number {
  const [tl, tr, br, bl] = corners;
  return Math.min(
    (dist(tl, tr) + dist(bl, br)) / 2 / format.width_mm,
    (dist(tl, bl) + dist(tr, br)) / 2 / format.height_mm,
  );
}

/** The card's cut inside a sleeve is looked for at least this far (px) either side of the lines found. */
const MIN_SLEEVE_REACH_PX = 2;

/**
 * The outline `corners` (image measured, card order) of a flat card of `format` moved in by
 * `widths` (flat-card pixels) on each side, through the flat card's homography, in photo order.
 */
function insetOutline(corners: Quad, format: CardFormat, widths: Widths): Quad {
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0, h8 = 1] = flatToPhoto(corners, format);
  const toImage = (u: number, v: number): Point => {
    const w = h6 * u + h7 * v + h8;
    return { x: (h0 * u + h1 * v + h2) / w, y: (h3 * u + h4 * v + h5) / w };
  };
  const { left, right, top, bottom } = widths;
  const flatWidth = Math.round(format.width_mm * FLAT_PX_PER_MM);
  const flatHeight = Math.round(format.height_mm * FLAT_PX_PER_MM);
  return photoOrder([
    toImage(left, top),
    toImage(flatWidth - right, top),
    toImage(flatWidth - right, flatHeight - bottom),
    toImage(left, flatHeight - bottom),
  ]);
}

/**
 * The sides that may be another card's band along the outline (cardOnAnother): one side, or two
 * adjacent ones, whose colours are one ink among themselves and another than the other sides',
 * which are one ink among themselves (frame.ts, oneBorderInk). Two adjacent sides against two
 * give both pairs: the colours do not tell which is the card's border.
 */
export function bandSides(colours: Record<Side, readonly number[]>, tableLuma: number): Side[][] {
  const same = (a: Side, b: Side) => oneBorderInk(colours[a], colours[b], tableLuma);
  const candidates: Side[][] = [
    ...CARD_SIDES.map((side) => [side]),
    ...CARD_SIDES.map((side, k) => [side, CARD_SIDES[(k + 1) % 4] as Side]),
  ];
  return candidates.filter((band) => {
    const rest = CARD_SIDES.filter((side) => !band.includes(side));
    const oneInk = (group: Side[]) => group.every((a) => group.every((b) => same(a, b)));
    return oneInk(band) && oneInk(rest) && band.every((a) => rest.every((b) => !same(a, b)));
  });
}

/**
 * A card lying on another, offset a little and square to it: the outline found takes in the
 * other card's band along one side or two adjacent ones, which the frame reads as border of
 * another ink than the card's (frame.ts, differentInks), its line the step from the band into
 * the card's border: the upper card's cut. For each way of reading the sides as band and border
 * (bandSides), with every band MIN_BAND_MM–MAX_BAND_MM wide, the outline is moved in to those
 * lines, refined there in the photo (no further than half the narrowest band: past it lies the
 * other card's edge), and measured as any card is (measureCard, which looks for no card beneath
 * this one; its wear reads the band's colour beside the cut, or in a chip, as the table's). The
 * card is the one reading that gives a card of a known format whose frame is measured at both
 * scales, one ink all round; null when none does, or more than one (which is the band cannot be
 * told).
 */
function cardOnAnother(
  m: Measuring,
  oriented: Oriented,
  format: CardFormat,
  located: Omit<LocatedCard, "quad" | "reach" | "faintCut">,
  sides: Record<Side, SideMeasurement>,
): FaceResult | null {
  const corners = oriented.corners.map(m.toMeasured) as Quad;
  const pxPerMm = cardPxPerMm(corners, format);
  const colours = {
    left: sides.left.borderColor,
    right: sides.right.borderColor,
    top: sides.top.borderColor,
    bottom: sides.bottom.borderColor,
  };
  const found: FaceResult[] = [];
  for (const band of bandSides(colours, luma(located.background))) {
    const widths: Widths = { left: 0, right: 0, top: 0, bottom: 0 };
    for (const side of band) widths[side] = sides[side].width;
    const bandsMm = band.map((side) => widths[side] / FLAT_PX_PER_MM);
    if (bandsMm.some((mm) => mm < MIN_BAND_MM || mm > MAX_BAND_MM)) continue;
    if (band.some((side) => sides[side].lean > MAX_BAND_LEAN_MM)) continue;
    const reach = Math.min(m.reach, Math.floor((Math.min(...bandsMm) * pxPerMm) / 2));
    if (reach < MIN_SLEEVE_REACH_PX) continue;
    const card = refineOutline(m.image, insetOutline(corners, format, widths), reach);
    if (!card.ok) continue;
    const [r = 0, g = 0, b = 0] = medianColour(band.map((side) => [...sides[side].borderColor])) ?? [];
    const upper = measureCard(m, card, located, null, [r, g, b]);
    if (upper.ok && upper.face.centering.ok) found.push(upper);
  }
  return found.length === 1 ? (found[0] as FaceResult) : null;
}

/** Another card's band along the outline (cardOnAnother) is at least this wide (mm): narrower, the refinement reads it as the cut's. */
const MIN_BAND_MM = 0.4;
/** ...and at most this wide (mm): a card's printed border is wider than another's band is taken to be. */
const MAX_BAND_MM = 3;
/**
 * The band's inner line (the card's cut) leans at most this much (mm) against the outline's side
 * (the other card's edge): the other card lies square to it. Turned, it shows a sliver along the
 * card's other sides as well, which their cuts take in: drawn beneath a card turned 0.5°, the
 * bands' lines lean 0.32–0.45 mm, a thin border beside the sliver read 0.08 mm wide and the card
 * 1.55 points off; square, they lean at most 0.01 mm.
 */
const MAX_BAND_LEAN_MM = 0.15;

/**
 * An outline with a holder's proportions and no card found inside it (find-card.ts tells a holder
 * by the card inside its rim): a holder whose card was not found, or part of a raw card closed by
 * a line across it (a patterned mat's, the art's edge) where one edge was not found. Which cannot
 * be told, so it is no claim that the card is in a holder.
 */
function holderShapedOutline(name: FaceName, aspect: number): FaceResult {
  return reject(
    "grading_failed",
    `The ${name} photo: the outline found is ${aspect.toFixed(2)} times as tall as wide, a graded-card holder's shape, with no card found inside it: either the card is in a holder (send the raw card) or one of the card's edges was not found (it barely stands out from the background) and a line across the card closed the outline.`,
  );
}

function holderRejection(name: FaceName, aspect: number): FaceResult {
  return reject(
    "holder_detected",
    `The ${name} photo shows an object ${aspect.toFixed(2)} times as tall as wide, the shape of a graded-card holder; send the raw card.`,
  );
}

/** The box round `quad` widened by `margin` on every side, within a `width` × `height` image. */
function regionAround(quad: Quad, margin: number, width: number, height: number): Region {
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  return {
    x0: Math.max(0, Math.min(...xs) - margin),
    y0: Math.max(0, Math.min(...ys) - margin),
    x1: Math.min(width, Math.max(...xs) + margin),
    y1: Math.min(height, Math.max(...ys) + margin),
  };
}

/**
 * The card's region read again from the stored photo at about DETAIL_PX_PER_MM, when the card
 * is small in the working image (DETAIL_BELOW_PX_PER_MM) and the photo holds more; null otherwise.
 * `quad`: the card's quadrilateral in working-image pixels; `reach`: its refinement's.
 */
function detailOf(bytes: Uint8Array, decoded: DecodedImage, quad: Quad, reach: number): DetailImage | null {
  // Pixels per mm as if the card were a standard one: its area against 63 × 88 mm.
  const pxPerMm = Math.sqrt(Math.abs(signedArea2(quad)) / 2 / (63 * 88));
  if (pxPerMm >= DETAIL_BELOW_PX_PER_MM) return null;
  const { width, height } = decoded.image;
  if (Math.max(decoded.sourceWidth, decoded.sourceHeight) < MIN_DETAIL_GAIN * Math.max(width, height)) return null;
  const xs = quad.map((p) => p.x);
  const ys = quad.map((p) => p.y);
  const extent = Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
  const region = regionAround(quad, Math.max(2 * reach + 2, DETAIL_MARGIN_SHARE * extent), width, height);
  try {
    return decodeRegion(bytes, decoded, region, DETAIL_PX_PER_MM / pxPerMm, MIN_DETAIL_GAIN, DETAIL_DECODE_BYTES);
  } catch {
    // The photo decoded once already; a second read that fails (over its budget, data the decoder
    // rejects at this scale, a trap in the codec) leaves the card to the working image.
    return null;
  }
}

/**
 * The outline of a border's outer steps as outer-border.ts traced them, where refining it again
 * fails or leaves them: a border narrower than the refinement's reach (about 1.5 mm on drawn
 * photos) puts the frame's line within it. The blur is the first outline's (the frame's edge,
 * printed on the same card).
 */
export function tracedBorder(
  border: OuterBorder,
  first: Extract<Refined, { ok: true }>,
): Extract<Refined, { ok: true }> {
  const kept = border.kept ?? [false, false, false, false];
  return {
    ok: true,
    clean: border.traced.map((share, k) => (kept[k] ? first.clean[k] : share >= MIN_CLEAN_CUT)) as [
      boolean,
      boolean,
      boolean,
      boolean,
    ],
    bows: [0, 0, 0, 0],
    gaps: kept.map((keep, k) => (keep ? first.gaps[k] : null)) as [
      number | null,
      number | null,
      number | null,
      number | null,
    ],
    outline: {
      corners: border.corners,
      edgeContrast: border.contrast,
      edgeResidual: border.residual,
      edgeWidth: first.outline.edgeWidth,
    },
  };
}

/** The luma under which all but the brightest 1 % of `image`'s pixels lie (every fourth pixel read). */
function brightestLuma(image: RgbaImage): number {
  const histogram = new Uint32Array(256);
  const { data } = image;
  let count = 0;
  for (let p = 0; p < data.length; p += 16) {
    const level = Math.round(0.299 * (data[p] ?? 0) + 0.587 * (data[p + 1] ?? 0) + 0.114 * (data[p + 2] ?? 0));
    histogram[level] = (histogram[level] ?? 0) + 1;
    count++;
  }
  let above = 0;
  for (let level = 255; level > 0; level--) {
    above += histogram[level] ?? 0;
    if (above >= count / 100) return level;
  }
  return 0;
}

function averageLuma(image: RgbaImage): number {
  let sum = 0;
  const { data } = image;
  for (let p = 0; p < data.length; p += 16)
    sum += 0.299 * (data[p] ?? 0) + 0.587 * (data[p + 1] ?? 0) + 0.114 * (data[p + 2] ?? 0);
  return sum / (data.length / 16);
}
