// Assembles a grade's evidence (evidence.ts) from what the pipeline measured: the card's outline
// and printed frame mapped back to the photo's own pixels, border widths, the centering's margin
// to the next grade and the agreement of independent estimates, and the wear found with the
// area each subgrade could examine.
import type { DecodedImage } from "./decode";
import type {
  CardFormat,
  CardSide,
  CenteringEvidence,
  DefectRegion,
  FaceEvidence,
  GradeEvidence,
  PixelPoint,
  PixelSegment,
  PrintSizeEvidence,
  WearEvidence,
} from "./evidence";
import { FLAT_PX_PER_MM, homography, type Point } from "./geometry";
import { CENTERING_TABLE } from "./rubric";
import type { FaceCentering } from "./types";
import type { FaceWear, FrameWidths, RegionWear } from "./wear";

export interface FaceInput {
  decoded: DecodedImage;
  /** The card's own corners in the analysed (working) image: top-left, top-right, bottom-right, bottom-left. */
  corners: [Point, Point, Point, Point];
  /** How the card lay in the photo (rectify.ts): long side vertical or horizontal. */
  orientation: "portrait" | "landscape";
  /** The format recognised from the rectified proportions (formats.ts). */
  format: CardFormat;
  /** The flat card's size in pixels (FLAT_PX_PER_MM). */
  flatSize: { width: number; height: number };
  frame: FrameWidths | null;
  /** The end read as a bar (centering.ts, designedWidths), or null. */
  bar: "top" | "bottom" | null;
  wear: FaceWear | null;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round2 = (value: number) => Math.round(value * 100) / 100;

/** The photo's size after EXIF orientation, and the factor from working-image pixels to it. */
function photoScale(decoded: DecodedImage): { width: number; height: number; scale: number } {
  const swap = decoded.orientation >= 5 && decoded.orientation <= 8;
  const width = swap ? decoded.sourceHeight : decoded.sourceWidth;
  const height = swap ? decoded.sourceWidth : decoded.sourceHeight;
  return { width, height, scale: width / decoded.image.width };
}

/** Maps flat-card pixels to photo pixels (through the working image). */
export function flatToPhoto(face: FaceInput): (x: number, y: number) => PixelPoint {
  const { scale } = photoScale(face.decoded);
  const { width: W, height: H } = face.flatSize;
  const h = homography(
    [
      { x: 0, y: 0 },
      { x: W, y: 0 },
      { x: W, y: H },
      { x: 0, y: H },
    ],
    face.corners,
  );
  return (x, y) => {
    const w = (h[6] ?? 0) * x + (h[7] ?? 0) * y + (h[8] ?? 1);
    const px = ((h[0] ?? 0) * x + (h[1] ?? 0) * y + (h[2] ?? 0)) / w;
    const py = ((h[3] ?? 0) * x + (h[4] ?? 0) * y + (h[5] ?? 0)) / w;
    return [round1(px * scale), round1(py * scale)];
  };
}

/** The frame's four lines on the flat card (each spans the frame's own corners), in flat pixels. */
export function frameSegmentsFlat(
  frame: FrameWidths,
  size: { width: number; height: number },
): Record<CardSide, [[number, number], [number, number]]> {
  const { width: W, height: H } = size;
  const l = frame.left;
  const r = W - frame.right;
  const t = frame.top;
  const b = H - frame.bottom;
  return {
    left: [
      [l, t],
      [l, b],
    ],
    right: [
      [r, t],
      [r, b],
    ],
    top: [
      [l, t],
      [r, t],
    ],
    bottom: [
      [l, b],
      [r, b],
    ],
  };
}

export function faceEvidence(face: FaceInput): FaceEvidence {
  const { width, height } = photoScale(face.decoded);
  const toPhoto = flatToPhoto(face);
  const { width: W, height: H } = face.flatSize;
  const corners: FaceEvidence["corners"] = [toPhoto(0, 0), toPhoto(W, 0), toPhoto(W, H), toPhoto(0, H)];
  const side = (a: PixelPoint, b: PixelPoint) => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const widthPx = (side(corners[0], corners[1]) + side(corners[3], corners[2])) / 2;
  const heightPx = (side(corners[0], corners[3]) + side(corners[1], corners[2])) / 2;
  let frameLines: FaceEvidence["frame_lines"] = null;
  let bordersMm: FaceEvidence["borders_mm"] = null;
  if (face.frame) {
    const flat = frameSegmentsFlat(face.frame, face.flatSize);
    const line = ([a, b]: [[number, number], [number, number]]): PixelSegment => [
      toPhoto(a[0], a[1]),
      toPhoto(b[0], b[1]),
    ];
    frameLines = { left: line(flat.left), right: line(flat.right), top: line(flat.top), bottom: line(flat.bottom) };
    bordersMm = {
      left: round2(face.frame.left / FLAT_PX_PER_MM),
      right: round2(face.frame.right / FLAT_PX_PER_MM),
      top: round2(face.frame.top / FLAT_PX_PER_MM),
      bottom: round2(face.frame.bottom / FLAT_PX_PER_MM),
    };
  }
  return {
    image_size: { width, height },
    corners,
    orientation: face.orientation,
    format: face.format,
    px_per_mm: round2(Math.min(widthPx / face.format.width_mm, heightPx / face.format.height_mm)),
    frame_lines: frameLines,
    borders_mm: bordersMm,
    bar: face.frame ? face.bar : null,
  };
}

const worstShare = (c: FaceCentering) => Math.max(c.left_right, 100 - c.left_right, c.top_bottom, 100 - c.top_bottom);

/**
 * How far (percentage points) the worse offset can move before the centering subgrade changes:
 * the distance from each face's worst share to the nearest tolerance in CENTERING_TABLE that
 * separates two different grades. Null when no tolerance separates grades within reach.
 */
export function marginToNextGrade(front: FaceCentering, back: FaceCentering | null): number | null {
  const boundaries = (column: "front" | "back") => {
    const out: number[] = [];
    for (let i = 0; i < CENTERING_TABLE.length; i++) {
      const row = CENTERING_TABLE[i];
      const next = CENTERING_TABLE[i + 1];
      if (row && (!next || next[column] !== row[column])) out.push(row[column]);
    }
    return out;
  };
  const distances = boundaries("front").map((b) => Math.abs(b - worstShare(front)));
  if (back)
    distances.push(
      ...boundaries("back")
        .filter((b) => b < 100)
        .map((b) => Math.abs(b - worstShare(back))),
    );
  if (distances.length === 0) return null;
  return round1(Math.min(...distances));
}

/**
 * `agreement`: the largest disagreement, in points, between independent estimates of the front's
 * offsets: the frame measured on the flat card and at half its resolution, and each side's cut at
 * its two readings (centering.ts, cutReadingsSpread).
 */
export function centeringEvidence(
  front: FaceCentering,
  back: FaceCentering | null,
  agreement: number,
  printSize: PrintSizeEvidence | null = null,
): CenteringEvidence {
  const horizontal = front.left_right - 50;
  const vertical = front.top_bottom - 50;
  return {
    face: "front",
    horizontal_offset: round1(horizontal),
    vertical_offset: round1(vertical),
    margin_to_next_grade: marginToNextGrade(front, back),
    agreement: round2(agreement),
    print_size: printSize,
  };
}

/** One subgrade's evidence over both faces: a face without wear measured counts as not examined. */
export function wearEvidence(
  faces: (FaceWear | null)[],
  pick: (wear: FaceWear) => RegionWear,
  regionOfMissingFace: number,
): WearEvidence {
  let examined = 0;
  let region = 0;
  const defects: DefectRegion[] = [];
  for (const wear of faces) {
    if (!wear) {
      region += regionOfMissingFace;
      continue;
    }
    const r = pick(wear);
    examined += r.examinedMm2;
    region += r.regionMm2;
    defects.push(...r.defects);
  }
  return {
    examined_share: region > 0 ? round2(Math.min(1, examined / region)) : 0,
    examined_mm2: Math.round(examined),
    defects,
  };
}

export function gradeEvidence(front: FaceInput, back: FaceInput, centering: CenteringEvidence): GradeEvidence {
  const faces = [front.wear, back.wear];
  const known = front.wear ?? back.wear;
  const regionOf = (pick: (w: FaceWear) => RegionWear) => (known ? pick(known).regionMm2 : 0);
  const corners = (w: FaceWear) => w.corners;
  const edges = (w: FaceWear) => w.edges;
  const surface = (w: FaceWear) => w.surface;
  return {
    version: 1,
    faces: { front: faceEvidence(front), back: faceEvidence(back) },
    centering,
    corners: wearEvidence(faces, corners, regionOf(corners)),
    edges: wearEvidence(faces, edges, regionOf(edges)),
    surface: wearEvidence(faces, surface, regionOf(surface)),
  };
}
