// The outline of a border's outer steps taken as the card where refining it again fails
// (analyse-face.ts, tracedBorder): which of its sides count as cut cleanly (the wider lean
// allowance beside them, frame.ts MAX_CLEAN_CUT_LEAN_MM).
import { describe, expect, it } from "vitest";
import { tracedBorder } from "../../src/grading/engine/analyse-face";
import type { OuterBorder } from "../../src/grading/engine/outer-border";
import type { Refined } from "../../src/grading/engine/refine-outline";

const corners = [
  { x: 100, y: 100 },
  { x: 730, y: 100 },
  { x: 730, y: 980 },
  { x: 100, y: 980 },
] as OuterBorder["corners"];

const first: Extract<Refined, { ok: true }> = {
  ok: true,
  clean: [false, true, true, true],
  bows: [0.002, 0, 0, 0],
  gaps: [0.1, -0.2, null, 0.05],
  outline: { corners, edgeContrast: 80, edgeResidual: 0.4, edgeWidth: 2.5 },
};

/** A border traced outside all four sides, its bottom side's steps on its line on half its profiles. */
const border: OuterBorder = {
  corners,
  traced: [0.97, 0.95, 0.5, 0.99],
  residual: 0.6,
  contrast: 60,
  widthsPx: [12, 12, 12, 12],
};

describe("the traced border taken as the card", () => {
  it("keeps the first outline's clean-cut flags on the sides kept on the cut, and reads the others from their tracing", () => {
    // The top and left were on the cut already: their steps are the first outline's, not a border's.
    const card = tracedBorder({ ...border, kept: [true, false, false, true] }, first);
    // The top is kept, and the first outline did not trace it cleanly: it does not gain the
    // clean cut's allowance though the border's tracing there reads 0.97.
    expect(card.clean).toEqual([false, true, false, true]);
    expect(card.bows).toEqual([0, 0, 0, 0]);
    // The cut's two readings are the first outline's on the sides kept; a traced side has one.
    expect(card.gaps).toEqual([0.1, null, null, 0.05]);
    expect(card.outline).toEqual({ corners, edgeContrast: 60, edgeResidual: 0.6, edgeWidth: 2.5 });
  });

  it("reads every side from its tracing when the border lay outside all four", () => {
    expect(tracedBorder(border, first).clean).toEqual([true, true, false, true]);
    expect(tracedBorder(border, first).gaps).toEqual([null, null, null, null]);
  });
});
