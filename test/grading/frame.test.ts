// The printed frame from line evidence (src/grading/engine/frame.ts), on flat cards drawn pixel by
// pixel at FLAT_PX_PER_MM, where the frame line is known exactly.
import { describe, expect, it } from "vitest";
import { measureFrame } from "../../src/grading/engine/frame";
import { FLAT_PX_PER_MM } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";

const MM = FLAT_PX_PER_MM;
const W = 63 * MM;
const H = 88 * MM;
const BORDER: [number, number, number] = [232, 205, 90]; // a yellow border
const ART: [number, number, number] = [60, 90, 140];
const FAINT: [number, number, number] = [224, 198, 84]; // the body's yellow, a shade off the border's

/**
 * A flat card with 3 mm borders on every side, except that on the left, from `splitRow` down, the
 * frame line is not printed: the border runs on into the body's faint yellow, and the first clear
 * step is wherever the text on that row begins (6–11 mm in), as below the art box of a modern
 * yellow-bordered card.
 */
function flatCard(splitRow: number): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inFrame = x >= 3 * MM && x < W - 3 * MM && y >= 3 * MM && y < H - 3 * MM;
      let colour = inFrame ? ART : BORDER;
      const textStarts = (6 + ((y * 37) % 50) / 10) * MM;
      if (y >= splitRow && x >= 3 * MM && x < textStarts) colour = FAINT;
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

describe("the printed frame from line evidence", () => {
  it("measures the frame line that most scan lines find, not an average with the art behind it", () => {
    // Scan lines cover rows 20–80 % of the side; the frame line is printed on 55 % of them.
    const result = measureFrame(flatCard(Math.round(H * (0.2 + 0.6 * 0.55))));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.sides.left.width / MM).toBeCloseTo(3, 1);
    expect(result.sides.left.lean).toBeLessThan(0.05);
    expect(result.sides.right.width / MM).toBeCloseTo(3, 1);
  });

  it("accepts a frame line found on 45 % of the side when those lines agree exactly", () => {
    const result = measureFrame(flatCard(Math.round(H * (0.2 + 0.6 * 0.45))));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.sides.left.width / MM).toBeCloseTo(3, 1);
  });

  it("refuses a side where no depth is shared by 40 % of the scan lines", () => {
    // The frame line on 30 % of the scan lines, the text's scattered starts on the rest.
    const result = measureFrame(flatCard(Math.round(H * (0.2 + 0.6 * 0.3))));
    expect(result).toMatchObject({ ok: false, side: "left" });
    if (!result.ok) expect(result.reason).toMatch(/left side/);
  });
});
