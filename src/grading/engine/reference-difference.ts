// Lines in the artwork against the catalog's reference image of the identified card. A light line
// wholly inside the artwork may be printed (rays, a rim, hatching) or a scratch; the photo alone
// cannot say which (surface.ts keeps it as an art line). The reference (a scan, or a photo of the
// card on a table) is flattened to the face's format, aligned on its printed frame (two copies of
// a card are printed off centre by different amounts, so their card edges do not align, their
// frames do) and its ridge strength looked up along each line: a line the reference shows too is
// print; one it lacks is damage, reported as a reference difference.
import { WORKING_MAX_SIDE } from "./analyse-face";
import { DecodeError, decodeImage } from "./decode";
import type { CardFormat, DefectRegion, FaceName } from "./evidence";
import { findCardOutline } from "./find-card";
import { recogniseFormat } from "./formats";
import { measureFrame } from "./frame";
import type { Quad } from "./geometry";
import type { RgbaImage } from "./image";
import { orientCard, unwarpCard } from "./rectify";
import { type ArtLine, RIDGE_MIN, surfaceRidges } from "./surface";

/** How far (flat-card px, 0.25 mm) around a line's point the reference's ridge is looked for: the frames' alignment and the line's blur. */
export const ALIGN_TOLERANCE_PX = 2;
/** The reference shows the line at a point when its ridge there is at least this share of the photo's line (and RIDGE_MIN). */
export const REFERENCE_RIDGE_SHARE = 0.5;
/** A line is print when the reference shows it on at least this share of its points. */
export const PRINTED_SHARE = 0.5;

export interface ReferenceComparison {
  /** Art lines the reference lacks: damage. */
  differences: { line: ArtLine; defect: DefectRegion }[];
  /** Art lines the reference shows too: print. */
  printed: number;
}

/**
 * Compares the face's art lines with the reference image (`bytes`). Null when the reference cannot
 * be used (not decodable, no frame to align on): the art lines then stay unexamined.
 * `frame`: the face's border widths in flat-card pixels (left and top align the two).
 */
export function compareWithReference(
  face: FaceName,
  lines: ArtLine[],
  format: CardFormat,
  frame: { left: number; top: number },
  bytes: Uint8Array,
): ReferenceComparison | null {
  const flat = referenceFlat(bytes, format);
  if (!flat) return null;
  const measured = measureFrame(flat);
  if (!measured.ok) return null;
  // Reference coordinates = face coordinates − shift.
  const dx = frame.left - measured.sides.left.width;
  const dy = frame.top - measured.sides.top.width;
  const { ridge, x0, y0, w, h } = surfaceRidges(flat);
  const ridgeAround = (x: number, y: number) => {
    let best = 0;
    const cx = Math.round(x - dx) - x0;
    const cy = Math.round(y - dy) - y0;
    for (let v = cy - ALIGN_TOLERANCE_PX; v <= cy + ALIGN_TOLERANCE_PX; v++) {
      if (v < 0 || v >= h) continue;
      for (let u = cx - ALIGN_TOLERANCE_PX; u <= cx + ALIGN_TOLERANCE_PX; u++) {
        if (u >= 0 && u < w) best = Math.max(best, ridge[v * w + u] ?? 0);
      }
    }
    return best;
  };
  const differences: ReferenceComparison["differences"] = [];
  let printed = 0;
  for (const line of lines) {
    const needed = Math.max(RIDGE_MIN, REFERENCE_RIDGE_SHARE * line.ridge);
    const shown = line.points.filter((p) => ridgeAround(p.x, p.y) >= needed).length;
    if (line.points.length > 0 && shown >= PRINTED_SHARE * line.points.length) {
      printed++;
      continue;
    }
    differences.push({
      line,
      defect: {
        type: "reference_difference",
        face,
        location: "surface",
        box_mm: line.box_mm,
        area_mm2: Math.round(line.lengthMm * 0.2 * 100) / 100,
        length_mm: Math.round(line.lengthMm * 100) / 100,
      },
    });
  }
  return { differences, printed };
}

/**
 * The reference as a flat card of the face's format: the card found in it when it is a photo, the
 * whole image when it is a scan of the card alone.
 */
function referenceFlat(bytes: Uint8Array, format: CardFormat): RgbaImage | null {
  let image: RgbaImage;
  try {
    image = decodeImage(bytes, WORKING_MAX_SIDE).image;
  } catch (error) {
    if (error instanceof DecodeError) return null;
    throw error;
  }
  const found = findCardOutline(image);
  const whole: Quad = [
    { x: 0, y: 0 },
    { x: image.width, y: 0 },
    { x: image.width, y: image.height },
    { x: 0, y: image.height },
  ];
  const oriented = found.ok ? orientCard(found.outline.corners, image.width, image.height) : null;
  const match = oriented ? recogniseFormat(oriented.aspect) : null;
  const sameFormat = match?.ok === true && match.format.id === format.id;
  return unwarpCard(image, oriented && sameFormat ? oriented.corners : whole, format);
}
