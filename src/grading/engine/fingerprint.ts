// A fingerprint of the physical card: what differs between two copies of the same printed card.
// Copies of one design share their artwork (so the face's perceptual hash tells designs apart,
// not copies), but each was cut from the sheet at its own offset: the four border widths of the
// front and of the back are particular to the copy, and are measured to a few hundredths of a
// millimetre (README "The same card seen twice" has the measured error). Wear (worn pixels per
// corner and edge, and where surface defects lie) is kept with it for the record and for the
// operator; it changes as a card is handled, so it does not decide a match.
import { FLAT_PX_PER_MM } from "./geometry";
import { hammingDistance } from "./phash";
import type { FaceWear } from "./wear";

export type BorderWidths = { left: number; right: number; top: number; bottom: number };

export interface CardFingerprint {
  version: 1;
  front_hash: string;
  back_hash: string;
  /** Border widths in mm, two decimals; the back's is null when its frame could not be measured. */
  front_borders_mm: BorderWidths;
  back_borders_mm: BorderWidths | null;
  /** Worn area (mm²) per corner (tl, tr, br, bl) and edge (left, top, right, bottom), front face. */
  wear: { corners: number[]; edges: number[] } | null;
}

/**
 * Same design: front hashes within this many of 64 bits. The identification rule calls ≤ 8 the
 * same card and ≤ 14 probably the same (src/grading/engine/identify.ts); a copy's own photos sit
 * well inside 14, and different artwork lies far beyond it.
 */
export const SAME_DESIGN_HASH_DISTANCE = 14;
/**
 * Same cut: every border of both faces within this many millimetres. On the project's drawn photos
 * (npm run accuracy) one copy photographed twice differs by at most 0.03 mm, and different copies
 * of a design by 0.06 mm or more (median 0.9 mm); sheets are cut to tenths of a millimetre, so two
 * copies rarely agree on all eight borders. Chosen on one set of photos and checked on another
 * (README "The same card seen twice"); real photos measure less precisely than drawn ones.
 */
export const SAME_CUT_MM = 0.05;

const round2 = (value: number) => Math.round(value * 100) / 100;

function bordersMm(px: BorderWidths): BorderWidths {
  return {
    left: round2(px.left / FLAT_PX_PER_MM),
    right: round2(px.right / FLAT_PX_PER_MM),
    top: round2(px.top / FLAT_PX_PER_MM),
    bottom: round2(px.bottom / FLAT_PX_PER_MM),
  };
}

export function cardFingerprint(input: {
  frontHash: string;
  backHash: string;
  /** Border widths in flat-card pixels (FLAT_PX_PER_MM). */
  frontBordersPx: BorderWidths;
  backBordersPx: BorderWidths | null;
  frontWear: FaceWear | null;
}): CardFingerprint {
  return {
    version: 1,
    front_hash: input.frontHash,
    back_hash: input.backHash,
    front_borders_mm: bordersMm(input.frontBordersPx),
    back_borders_mm: input.backBordersPx ? bordersMm(input.backBordersPx) : null,
    wear: input.frontWear ? wearByPlace(input.frontWear) : null,
  };
}

const CORNERS = ["top_left_corner", "top_right_corner", "bottom_right_corner", "bottom_left_corner"];
const EDGES = ["left_edge", "top_edge", "right_edge", "bottom_edge"];

/** Worn area (mm²) at each corner and along each edge of the front, in the orders above. */
function wearByPlace(wear: FaceWear): { corners: number[]; edges: number[] } {
  const areaAt = (defects: FaceWear["corners"]["defects"], location: string) =>
    round2(defects.filter((defect) => defect.location === location).reduce((sum, d) => sum + d.area_mm2, 0));
  return {
    corners: CORNERS.map((location) => areaAt(wear.corners.defects, location)),
    edges: EDGES.map((location) => areaAt(wear.edges.defects, location)),
  };
}

/** Largest difference of any border, in mm. */
function borderDifference(a: BorderWidths, b: BorderWidths): number {
  return Math.max(
    Math.abs(a.left - b.left),
    Math.abs(a.right - b.right),
    Math.abs(a.top - b.top),
    Math.abs(a.bottom - b.bottom),
  );
}

export interface FingerprintComparison {
  match: boolean;
  hash_distance: number;
  /** Largest border difference over the faces compared, mm. */
  border_difference_mm: number;
}

/**
 * Two fingerprints are the same physical card when the faces show the same design and every
 * border measured on both agrees within SAME_CUT_MM. The back counts only when both have it.
 */
export function compareFingerprints(a: CardFingerprint, b: CardFingerprint): FingerprintComparison {
  const hashDistance = hammingDistance(a.front_hash, b.front_hash);
  const front = borderDifference(a.front_borders_mm, b.front_borders_mm);
  const back = a.back_borders_mm && b.back_borders_mm ? borderDifference(a.back_borders_mm, b.back_borders_mm) : 0;
  const difference = Math.max(front, back);
  return {
    match: hashDistance <= SAME_DESIGN_HASH_DISTANCE && difference <= SAME_CUT_MM,
    hash_distance: hashDistance,
    border_difference_mm: round2(difference),
  };
}
