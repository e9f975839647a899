import { describe, expect, it } from "vitest";
import type { SideGeometry } from "../../src/grading/engine/cut-profiles";
import { tintOnset } from "../../src/grading/engine/cut-tint";
import { rgbSampler } from "../../src/grading/engine/edges";
import type { RgbaImage } from "../../src/grading/engine/image";
import navyBack1200 from "../fixtures/real-photos/pcg-back-navy-band-1200.jpg?inline";
import { faceOutcome } from "../helpers/face-outcome";
import { dataUrlBytes } from "../helpers/photos";

const TABLE = [128, 128, 126];
const NAVY = [4, 7, 54];
const BLACK = [16, 15, 17];

/**
 * A card's bottom edge across a 200 × 60 image: the table above, the border from row 40 down (the
 * cut), and over the `shadow` rows above the cut the table darkened toward the border's lightness
 * without taking its hue (a soft shadow), as a photo 1,200 px long shows a navy back's bottom.
 */
function edge(border: number[], shadow: number, band: number[] | null = null): RgbaImage {
  const width = 200;
  const height = 60;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const toCut = 40 - (y + 0.5);
      let colour = border;
      if (toCut > 0) {
        // From the table's grey at `shadow` px above the cut down to a neutral grey as dark as the border.
        const dark = shadow > 0 ? Math.max(0, 1 - toCut / shadow) : 0;
        const level = 25;
        colour = band && toCut < shadow ? band : TABLE.map((v) => v + (level - v) * dark);
      }
      data.set([...colour.map(Math.round), 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** The side along row `y` (from right to left, its inward normal pointing down, into the card). */
const sideAt = (y: number): SideGeometry => ({ p: { x: 190, y }, q: { x: 10, y }, nx: 0, ny: 1 });
/** The line y = `y` (a·x + b·y = c). */
const lineAt = (y: number) => ({ a: 0, b: 1, c: y });

describe("tintOnset (where a border's hue begins)", () => {
  it("puts a navy border's hue at its cut, and 4 px inside a line taken on the outer half of a shadow", () => {
    const image = edge(NAVY, 6);
    const sample = rgbSampler(image);
    const atCut = tintOnset(sample, sideAt(40), lineAt(40), TABLE, NAVY, 8);
    expect(atCut).not.toBeNull();
    expect(Math.abs(atCut ?? 99)).toBeLessThan(1);
    // The line where the lightness is halfway from the table to the border: 3 px out, on the shadow.
    const onShadow = tintOnset(sample, sideAt(37), lineAt(37), TABLE, NAVY, 8);
    expect(onShadow).toBeGreaterThan(2.5);
    expect(onShadow).toBeLessThan(3.5);
  });

  it("reads nothing past a band darker than both the table and the border (another card beneath)", () => {
    // A yellow card on a black one, 5 px of the black showing outside its cut: the line on the
    // black card's edge is read past later (analyse-face.ts), not refused here.
    const yellow = [222, 190, 40];
    const onBlack = edge(yellow, 5, [18, 18, 20]);
    expect(tintOnset(rgbSampler(onBlack), sideAt(35), lineAt(35), TABLE, yellow, 8)).toBeNull();
    // A grey band as light as neither, between the table's lightness and the border's, is read
    // as the lightness ramp a shadow blurred into the cut makes: the hue begins 5 px in.
    const between = edge(yellow, 5, [150, 150, 150]);
    expect(tintOnset(rgbSampler(between), sideAt(35), lineAt(35), TABLE, yellow, 8)).toBeCloseTo(5, 0);
  });

  it("reads nothing past a grey rim just inside a sharp cut (the card's own edge)", () => {
    // The table, then at row 40 a sharp step onto 6 px of neutral grey as dark as the navy nearly,
    // then the navy: the lightness drops at the line and then creeps, as along a sleeved navy back's
    // cut on white paper; the hue begins 6 px in, but the line is on the cut.
    const width = 200;
    const data = new Uint8Array(width * 60 * 4);
    for (let y = 0; y < 60; y++) {
      const colour = y < 40 ? TABLE : y < 46 ? [45, 45, 45] : NAVY;
      for (let x = 0; x < width; x++) data.set([...colour, 255], (y * width + x) * 4);
    }
    const rim = tintOnset(rgbSampler({ width, height: 60, data }), sideAt(40), lineAt(40), TABLE, NAVY, 10);
    expect(rim).toBeNull();
  });

  it("reads no hue for a black border, whose chromaticity is noise", () => {
    expect(tintOnset(rgbSampler(edge(BLACK, 6)), sideAt(37), lineAt(37), TABLE, BLACK, 8)).toBeNull();
  });
});

describe("a navy back's bottom cut blurred into its shadow, through the engine", () => {
  it("refuses a real photo shrunk to 1,200 px, read 5.6 points off without the hue's onset", () => {
    // At full size it reads 46.0 / 51.2 (bottom border 3.38 mm). Shrunk, the shadow under its
    // bottom cut and the cut's blur make one lightness ramp, and the cut was read on the ramp's
    // outer half: 45.9 / 45.6, the bottom border 4.21 mm. The navy's hue begins 0.9 mm further in.
    const outcome = faceOutcome(dataUrlBytes(navyBack1200), "front");
    expect(outcome.graded).toBe(false);
    if (!outcome.graded) expect(outcome.message).toMatch(/bottom edge .* outside where its border's hue begins/);
  });
});
