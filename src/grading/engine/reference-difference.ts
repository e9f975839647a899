// Lines in the artwork against the catalog's reference image of the identified card. A light line
// wholly inside the artwork may be printed (rays, a rim, hatching) or a scratch; the photo alone
// cannot say which (surface.ts keeps it as an art line). The reference's print (reference-print.ts:
// flat in the face's format, its frame measured) is aligned on its printed frame (two copies of a
// card are printed off centre by different amounts, so their card edges do not align, their
// frames do) and its ridge strength looked up along each line: a line the reference shows too is
// print; one it lacks is damage, reported as a reference difference. Catalog cards whose hashes
// are as close as the identified one's (a parallel, a reprint) are asked too: a line any of them
// shows is print, so a card is never marked down for being a sibling of the one it was taken for.
import type { DefectRegion, FaceName } from "./evidence";
import type { ReferencePrint } from "./reference-print";
import { type ArtLine, RIDGE_MIN, surfaceRidges } from "./surface";

/** How far (flat-card px, 0.25 mm) around a line's point the reference's ridge is looked for: the frames' alignment and the line's blur. */
export const ALIGN_TOLERANCE_PX = 2;
/** The reference shows the line at a point when its ridge there is at least this share of the photo's line (and RIDGE_MIN). */
export const REFERENCE_RIDGE_SHARE = 0.5;
/** A line is print when the reference shows it on at least this share of its points. */
export const PRINTED_SHARE = 0.5;

export interface ReferenceComparison {
  /** Art lines no reference shows: damage. */
  differences: { line: ArtLine; defect: DefectRegion }[];
  /** Art lines a reference shows too: print. */
  printed: number;
  /** How many references were compared. */
  compared: number;
}

/**
 * Compares the face's art lines with the reference prints (`prints`: the identified card's, and
 * any other catalog card whose hash is as close, a parallel printed without some of the lines
 * perhaps). A line is print when any reference shows it. Null when there is no print to compare
 * with: the art lines then stay unexamined.
 * `frame`: the face's border widths in flat-card pixels (left and top align the two).
 */
export function compareWithReferences(
  face: FaceName,
  lines: ArtLine[],
  frame: { left: number; top: number },
  prints: ReferencePrint[],
): ReferenceComparison | null {
  const shown = lines.map(() => false);
  for (const print of prints) {
    const lookup = referenceRidges(print, frame);
    lines.forEach((line, k) => {
      if (!shown[k] && showsLine(lookup, line)) shown[k] = true;
    });
  }
  const compared = prints.length;
  if (compared === 0) return null;
  const differences = lines
    .filter((_, k) => !shown[k])
    .map((line) => ({
      line,
      defect: {
        type: "reference_difference" as const,
        face,
        location: "surface",
        box_mm: line.box_mm,
        area_mm2: Math.round(line.lengthMm * 0.2 * 100) / 100,
        length_mm: Math.round(line.lengthMm * 100) / 100,
      },
    }));
  return { differences, printed: lines.length - differences.length, compared };
}

/** The strongest reference ridge within ALIGN_TOLERANCE_PX of a face pixel. */
type RidgeLookup = (x: number, y: number) => number;

function referenceRidges(print: ReferencePrint, frame: { left: number; top: number }): RidgeLookup {
  // Reference coordinates = face coordinates − shift.
  const dx = frame.left - print.sides.left.width;
  const dy = frame.top - print.sides.top.width;
  const { ridge, x0, y0, w, h } = surfaceRidges(print.flat);
  return (x, y) => {
    let best = 0;
    const cx = Math.round(x - dx) - x0;
    const cy = Math.round(y - dy) - y0;
    for (let v = Math.max(0, cy - ALIGN_TOLERANCE_PX); v <= Math.min(h - 1, cy + ALIGN_TOLERANCE_PX); v++) {
      for (let u = Math.max(0, cx - ALIGN_TOLERANCE_PX); u <= Math.min(w - 1, cx + ALIGN_TOLERANCE_PX); u++) {
        best = Math.max(best, ridge[v * w + u] ?? 0);
      }
    }
    return best;
  };
}

/** The reference shows the line: its ridge is as strong as the line's on enough of the line's points. */
function showsLine(ridgeAround: RidgeLookup, line: ArtLine): boolean {
  const needed = Math.max(RIDGE_MIN, REFERENCE_RIDGE_SHARE * line.ridge);
  const shown = line.points.filter((p) => ridgeAround(p.x, p.y) >= needed).length;
  return line.points.length > 0 && shown >= PRINTED_SHARE * line.points.length;
}
