// A frame a shade off its border, read from median profiles (src/grading/engine/frame-median.ts,
// and frame.ts, where a card whose scan lines do not tell its frame is read again so).
import { describe, expect, it } from "vitest";
import { analyseFace } from "../../src/grading/engine/analyse-face";
import { measureFrame, measureFrameTwice } from "../../src/grading/engine/frame";
import { medianFrame } from "../../src/grading/engine/frame-median";
import { SIDES, type Side } from "../../src/grading/engine/frame-side";
import { FLAT_PX_PER_MM } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import { type CardScene, drawCardScene, encodeJpeg } from "../helpers/card-images";
import { measuredFront } from "../helpers/drawn-front";
import { seededRandom } from "../helpers/seeded-random";
import { sceneWith } from "../helpers/submissions";

const MM = FLAT_PX_PER_MM;
const W = 63 * MM;
const H = 88 * MM;
// On the flat card's pixel grid (8 per mm), so that each drawn edge lies where it is meant to.
const BORDERS: Record<Side, number> = { left: 2.75, right: 3.375, top: 3.125, bottom: 3.625 };

type Rgb = readonly [number, number, number];

interface FlatDrawing {
  /** The frame's body, inside the borders (the art lies 5–10 mm further in). */
  body: Rgb;
  /** Grey sensor noise (standard deviation, levels) over the whole card. */
  noise: number;
  /** A thin light rule (0.25 mm) at the frame's edge on these sides, before the body. */
  rule?: Side[];
  /** What is drawn over everything else at the pixel whose centre lies (x, y) mm from the card's top-left corner, if anything. */
  extra?: (x: number, y: number) => Rgb | null;
}

const BLACK: Rgb = [26, 26, 29];

/** A flat black-bordered card (63 × 88 mm at FLAT_PX_PER_MM) with BORDERS round a frame of `body`. */
function flatBlackCard({ body, noise, rule = [], extra }: FlatDrawing): RgbaImage {
  const random = seededRandom(7);
  const gauss = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const depth: Record<Side, number> = {
        left: (x + 0.5) / MM - BORDERS.left,
        right: W / MM - (x + 0.5) / MM - BORDERS.right,
        top: (y + 0.5) / MM - BORDERS.top,
        bottom: H / MM - (y + 0.5) / MM - BORDERS.bottom,
      };
      const inside = Math.min(...SIDES.map((side) => depth[side]));
      // The art begins 5–10 mm inside the frame, at another depth every 0.5 mm along each side (a
      // picture's own edges), so that no line but the frame's runs along a side.
      const nearest = SIDES.find((side) => depth[side] === inside) ?? "left";
      const along = nearest === "left" || nearest === "right" ? y : x;
      const block = Math.floor((2 * along) / MM);
      const artFrom = 5 + 5 * ((Math.abs(Math.sin(block * 12.9898)) * 43758.5453) % 1);
      let colour: Rgb = inside < 0 ? BLACK : inside < artFrom ? body : [150, 120, 90];
      if (inside >= 0 && SIDES.some((side) => rule.includes(side) && depth[side] < 0.25 && depth[side] === inside))
        colour = [90, 88, 84];
      colour = extra?.((x + 0.5) / MM, (y + 0.5) / MM) ?? colour;
      const n = gauss() * noise;
      data.set([...colour.map((c) => Math.max(0, Math.min(255, Math.round(c + n)))), 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

const widthsMm = (sides: Record<Side, { width: number }>) =>
  Object.fromEntries(SIDES.map((side) => [side, sides[side].width / MM])) as Record<Side, number>;

describe("medianFrame: a side's frame from its stretches' median profiles", () => {
  it("finds a near-black frame 12 levels off a noisy black border on every side, to 0.06 mm", () => {
    const flat = flatBlackCard({ body: [38, 38, 41], noise: 10 });
    for (const side of SIDES) {
      const measured = medianFrame(flat, side, 1, 0.35, 0.4, 0);
      if (!measured) throw new Error(`no frame read on the ${side} side`);
      expect(Math.abs(measured.width / MM - BORDERS[side])).toBeLessThan(0.06);
      expect(measured.lean).toBeLessThan(0.1);
    }
  });

  // Two rows of letters, 0.7 mm tall, 0.8–1.5 and 1.7–2.4 mm in from the bottom edge, across the
  // side's middle in words: strokes on `density` of the columns within a word, a gap after every
  // three words' width. Under noise a stretch's median is pulled toward the print by the share of
  // its columns the print covers (about one noise's width at 40 %).
  const printRows =
    (density: number) =>
    (x: number, y: number): Rgb | null => {
      const fromBottom = H / MM - y;
      const inRow = (fromBottom > 0.8 && fromBottom < 1.5) || (fromBottom > 1.7 && fromBottom < 2.4);
      const stroke = (x * 4) % 1 < density && Math.floor(x / 6) % 4 !== 3;
      return inRow && x > 8 && x < 55 && stroke ? [220, 220, 215] : null;
    };

  it("reads past rows of print in the border, whose letters cover a quarter of each stretch", () => {
    const flat = flatBlackCard({ body: [40, 40, 43], noise: 6, extra: printRows(0.25) });
    const measured = medianFrame(flat, "bottom", 1, 0.35, 0.4, 0);
    if (!measured) throw new Error("no frame read on the bottom side");
    expect(Math.abs(measured.width / MM - BORDERS.bottom)).toBeLessThan(0.06);
  });

  it("reads no frame, rather than the print, where letters cover 40 % of a stretch under noise", () => {
    // The stretch wholly within words steps at the print, before the line the others find.
    const flat = flatBlackCard({ body: [40, 40, 43], noise: 6, extra: printRows(0.4) });
    expect(medianFrame(flat, "bottom", 1, 0.35, 0.4, 0)).toBeNull();
  });

  it("takes the line through four stretches when the fifth found the art behind a hidden stretch of frame", () => {
    // Over 9 mm of the left side (one stretch's worth) the frame's body is printed in the border's
    // own black: that stretch finds the art 5–10 mm further in.
    const hidden = (x: number, y: number): Rgb | null =>
      y > 40 && y < 49 && x > BORDERS.left && x < BORDERS.left + 10 ? BLACK : null;
    const flat = flatBlackCard({ body: [40, 40, 43], noise: 6, extra: hidden });
    const measured = medianFrame(flat, "left", 1, 0.35, 0.4, 0);
    if (!measured) throw new Error("no frame read on the left side");
    expect(Math.abs(measured.width / MM - BORDERS.left)).toBeLessThan(0.06);
    expect(measured.agreement).toBeCloseTo(0.8, 5);
    // Hidden over two stretches' worth, it is not read: fewer than four stretches agree.
    const longer = (x: number, y: number): Rgb | null =>
      y > 31 && y < 49 && x > BORDERS.left && x < BORDERS.left + 10 ? BLACK : null;
    expect(
      medianFrame(flatBlackCard({ body: [40, 40, 43], noise: 6, extra: longer }), "left", 1, 0.35, 0.4, 0),
    ).toBeNull();
  });

  it("finds no frame where a stretch's step lies before the others' line", () => {
    // A smudge 1.2 mm in from the cut over one stretch of the right side, across 1 mm: that
    // stretch steps there, before the frame the others find, so which line is the frame is not told.
    const smudge = (x: number, y: number): Rgb | null =>
      y > 40 && y < 49 && W / MM - x > 1.2 && W / MM - x < 2.2 ? [70, 70, 72] : null;
    expect(
      medianFrame(flatBlackCard({ body: [40, 40, 43], noise: 6, extra: smudge }), "right", 1, 0.35, 0.4, 0),
    ).toBeNull();
  });
});

describe("measureFrame: a card its scan lines cannot read is read from median profiles", () => {
  it("measures a black card with a frame 12 levels off its border, which its scan lines cannot tell, at both scales", () => {
    const flat = flatBlackCard({ body: [38, 38, 41], noise: 10 });
    const { full, half } = measureFrameTwice(flat);
    for (const result of [full, half]) {
      if (!result.ok) throw new Error(result.reason);
      const widths = widthsMm(result.sides);
      for (const side of SIDES) expect(Math.abs(widths[side] - BORDERS[side])).toBeLessThan(0.08);
    }
  });

  it("refuses a side whose frame rises faintly out of the border into a brighter line behind it", () => {
    // The top's body lies 5 levels over the border's black from 3.125 mm in, and a light line
    // runs 0.75 mm further in; the other sides' frames are 12 levels off, too faint for the scan
    // lines under this noise. Taking the light line for the top's frame would read the top border
    // 0.75 mm too deep: 5 points of centering. The faint rise stands out of some stretches'
    // median profiles and not others, so no one line runs along the top, and the card is refused.
    const bevel =
      (rise: Rgb) =>
      (x: number, y: number): Rgb | null => {
        if (y < BORDERS.top || x < BORDERS.left || W / MM - x < BORDERS.right) return null;
        const into = y - BORDERS.top;
        if (into < 0.75) return rise;
        if (into < 1.125) return [110, 105, 95];
        return null;
      };
    const result = measureFrame(flatBlackCard({ body: [38, 38, 41], noise: 10, extra: bevel([31, 31, 34]) }));
    expect(result).toMatchObject({ ok: false });
    // Without the faint rise (the body the border's black up to the light line), the light line
    // is the top's frame, read 0.75 mm deeper.
    const read = measureFrame(flatBlackCard({ body: [38, 38, 41], noise: 10, extra: bevel(BLACK) }));
    if (!read.ok) throw new Error(read.reason);
    expect(Math.abs(widthsMm(read.sides).top - (BORDERS.top + 0.75))).toBeLessThan(0.06);
  });
});

describe("the engine on drawn photos of black cards with near-black frames", { timeout: 30_000 }, () => {
  // A black-bordered card whose body is `delta` levels lighter than its border (a modern layout:
  // an art window and a pale text box inside it), on white paper, under grey sensor noise.
  const blackCard = (delta: number, noise: number, seed: number): CardScene =>
    sceneWith({
      borderColor: [24, 24, 27],
      artColor: [90, 70, 60],
      background: [205, 205, 200],
      texture: "plain",
      noise,
      seed,
      layout: {
        panel: [24 + delta, 22 + delta, 21 + delta],
        rim: [150, 140, 120],
        text: [220, 210, 180],
        inset: 3.5,
        top: 6,
        bottom: 48,
      },
    });

  // Stop 114's engine refused each: a line leaning 0.68–0.69 mm (the scan lines' steps scattered
  // over the border's noise; 12 and 16 levels under noise 6 and 9), print before the frame and
  // print 7.9 mm deep with no frame line behind it (16 levels under noise 3), a broken line (22).
  it.each([
    [12, 6, 1],
    [16, 3, 1],
    [16, 3, 2],
    [16, 9, 2],
    [22, 6, 3],
  ])("grades one %i levels off its border under noise %i (seed %i) within half a point", (delta, noise, seed) => {
    const { offBy } = measuredFront(blackCard(delta, noise, seed), 88);
    expect(offBy.leftRight).toBeLessThan(0.5);
    expect(offBy.topBottom).toBeLessThan(0.5);
  });

  it("leaves the centering out where the body lies 8 levels off the border: no step stands out", () => {
    const result = analyseFace("front", encodeJpeg(drawCardScene(blackCard(8, 6, 1)), 88));
    if (!result.ok) throw new Error(result.rejection.message);
    expect(result.face.centering.ok).toBe(false);
  });
});
