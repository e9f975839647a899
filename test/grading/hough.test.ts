// The strongest straight lines (src/grading/engine/edges.ts houghLines) on a synthetic image: a
// long soft edge (a ramp 12 px wide down the whole height, like an out-of-focus pencil's side)
// and a short sharp one (a card's edge, a third of the width). The soft edge's votes spread over
// a bundle of lines a few pixels apart; each line taken withdraws the votes of the pixels on it,
// so the bundle gives one line and the short edge is the next.
import { describe, expect, it } from "vitest";
import { gradientMap, type HoughLine, houghLines } from "../../src/grading/engine/edges";
import type { RgbaImage } from "../../src/grading/engine/image";

const W = 320;
const H = 240;
const SOFT_EDGE_X = 100;
const SHORT_EDGE_Y = 150;

function image(): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // 60 left of the ramp, 200 right of it, rising linearly over 12 px.
      let level = 60 + 140 * Math.min(1, Math.max(0, (x - SOFT_EDGE_X + 6) / 12));
      // A dark band below a short horizontal edge, from x = 180 to 290.
      if (x >= 180 && x < 290 && y >= SHORT_EDGE_Y) level -= 90;
      const i = (y * W + x) * 4;
      data.set([level, level, level, 255], i);
    }
  }
  return { width: W, height: H, data };
}

/** The line's angle from the x axis of its normal (degrees, 0–180) and its distance from the origin. */
const normalAngle = (line: HoughLine) => ((Math.atan2(line.b, line.a) * 180) / Math.PI + 180) % 180;
const isVerticalAt = (line: HoughLine, x: number) =>
  Math.min(normalAngle(line), 180 - normalAngle(line)) <= 3 && Math.abs(Math.abs(line.c) - x) <= 8;
const isHorizontalAt = (line: HoughLine, y: number) =>
  Math.abs(normalAngle(line) - 90) <= 3 && Math.abs(line.c - y) <= 2;

describe("houghLines", () => {
  it("gives one line for a soft edge, not a bundle of near-copies, and then the short sharp edge", () => {
    const lines = houghLines(gradientMap(image()), 2, 40);
    expect(lines).toHaveLength(2);
    expect(lines.filter((line) => isVerticalAt(line, SOFT_EDGE_X))).toHaveLength(1);
    expect(lines.filter((line) => isHorizontalAt(line, SHORT_EDGE_Y))).toHaveLength(1);
  });

  it("stops at the lines with enough votes left", () => {
    // Votes of at least 200: the soft edge's 240 px qualify, the short edge's 110 do not.
    const lines = houghLines(gradientMap(image()), 10, 200);
    expect(lines).toHaveLength(1);
    expect(isVerticalAt(lines[0] as HoughLine, SOFT_EDGE_X)).toBe(true);
  });
});

describe("houghLines beside a thin border", () => {
  it("keeps the frame's line 6 px inside the cut: a parallel edge past flat colour is its own", () => {
    // Table (40) | 6 px of border (230) | art (90): two sharp vertical edges, x = 100 and 106.
    const data = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const level = x < 100 ? 40 : x < 106 ? 230 : 90;
        data.set([level, level, level, 255], (y * W + x) * 4);
      }
    }
    const lines = houghLines(gradientMap({ width: W, height: H, data }), 2, 40);
    // Each step's gradient straddles it (columns 99–100 and 105–106): its line is within a pixel.
    const at = lines.map((line) => Math.abs(line.c)).sort((p, q) => p - q);
    expect(at).toHaveLength(2);
    expect(Math.abs((at[0] ?? 0) - 99.5)).toBeLessThanOrEqual(1);
    expect(Math.abs((at[1] ?? 0) - 105.5)).toBeLessThanOrEqual(1);
  });
});

describe("houghLines beside a card's panel", () => {
  it("finds a faint cut a degree off a stronger panel edge a few pixels outside it (a keystoned photo)", () => {
    // A card's lower part from x = 100 to 309: a dark panel (60) down to its edge, turned 1°, then
    // a silver border (165) down to the cut, turned 2°, on a white table (200); the cut 5 px below
    // the panel's edge at the card's left and 8 px at its right. Both lines meet, extended, 3 px
    // apart at x = 0, so in the accumulator the cut's peak lies a bin and 3 px from the panel
    // edge's, which is the stronger.
    const panel = (x: number) => 150 + Math.tan(Math.PI / 180) * x;
    const cut = (x: number) => 153 + Math.tan((2 * Math.PI) / 180) * x;
    const data = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const card = x >= 100 && x < 310 && y >= 40;
        const level = !card || y >= cut(x) ? 200 : y >= panel(x) ? 165 : 60;
        data.set([level, level, level, 255], (y * W + x) * 4);
      }
    }
    const lines = houghLines(gradientMap({ width: W, height: H, data }), 8, 40);
    const along = (at: (x: number) => number) =>
      lines.filter((line) => [120, 200, 290].every((x) => Math.abs((line.c - line.a * x) / line.b - at(x)) <= 1.5));
    expect(along(panel)).toHaveLength(1);
    expect(along(cut)).toHaveLength(1);
  });
});
