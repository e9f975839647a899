// What the built-in engine makes of one photo read as one face: a centering (with the borders,
// corners and wear behind it), or the reason it refuses. Shared by the real-photo tests, `npm run
// accuracy` and `npm run measure` (scripts/measure-photos.ts, which runs it in workerd).
import { analyseFace } from "../../src/grading/engine/analyse-face";
import type { FaceName } from "../../src/grading/engine/evidence";
import { FLAT_PX_PER_MM } from "../../src/grading/engine/geometry";
import { CORNER_WEAR_TABLE, EDGE_WEAR_TABLE, gradeFromTable, SURFACE_TABLE } from "../../src/grading/engine/rubric";

export type FaceOutcome =
  | {
      graded: true;
      leftRight: number;
      topBottom: number;
      format: string;
      /** Standing upright (long side vertical) or lying sideways, read with its top toward the left (rectify.ts). */
      orientation: "portrait" | "landscape";
      /** Border widths per side, in mm, as the centering was computed from them. */
      bordersMm: { left: number; right: number; top: number; bottom: number };
      /**
       * The card's corners in the photo's pixels as stored, after EXIF orientation (top-left first,
       * as the card is read): the working image's, scaled up where a large photo was decoded smaller.
       */
      corners: { x: number; y: number }[];
      /** The face's wear read as subgrades (rubric.ts), and the defects behind them. */
      wear: { corners: number; edges: number; surface: number; defects: number };
    }
  | {
      graded: false;
      message: string;
      /**
       * Read as the back, the card was found and measured but its frame was not: a grading leaves
       * such a back out of centering (builtin.ts) and goes on, so the photo is not refused.
       */
      centeringLeftOut?: true;
    };

/** Border widths (flat-card pixels) in mm, to 0.01. */
const mmOf = (widths: Record<"left" | "right" | "top" | "bottom", number>) => {
  const mm = (px: number) => Math.round((px / FLAT_PX_PER_MM) * 100) / 100;
  return { left: mm(widths.left), right: mm(widths.right), top: mm(widths.top), bottom: mm(widths.bottom) };
};

/** The engine's answer for `bytes` (a photo as uploaded) read as the `name` face. */
export function faceOutcome(bytes: Uint8Array, name: FaceName = "front"): FaceOutcome {
  const result = analyseFace(name, bytes);
  if (!result.ok) return { graded: false, message: result.rejection.message };
  const { centering, format, corners, wear, orientation, decoded } = result.face;
  const toPhoto =
    Math.max(decoded.sourceWidth, decoded.sourceHeight) / Math.max(decoded.image.width, decoded.image.height);
  if (!centering.ok) {
    return name === "back"
      ? { graded: false, message: centering.reason, centeringLeftOut: true }
      : { graded: false, message: centering.reason };
  }
  if (!wear) throw new Error("a face whose centering is measured has its wear read");
  return {
    graded: true,
    leftRight: centering.centering.left_right,
    topBottom: centering.centering.top_bottom,
    format: format.id,
    orientation,
    bordersMm: mmOf(centering.widths),
    corners: corners.map((p) => ({ x: p.x * toPhoto, y: p.y * toPhoto })),
    wear: {
      corners: gradeFromTable(wear.worstCornerMm2, CORNER_WEAR_TABLE),
      edges: gradeFromTable(wear.edgeWornMm, EDGE_WEAR_TABLE),
      surface: gradeFromTable(wear.surfaceLineMm, SURFACE_TABLE),
      defects: wear.corners.defects.length + wear.edges.defects.length + wear.surface.defects.length,
    },
  };
}
