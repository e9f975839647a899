// A black border on white paper with a hard shadow along one cut, darkest against the card and
// lightening outward (a lamp close by): the cut is the step out of the black, not the middle of
// the shadow's ramp, where both colour readings put it (cut-ramp.ts, refine-outline.ts). A real
// photo of a modern Magic card so lit read its bottom cut 0.9 mm out in the shadow, and was
// refused for a frame line leaning 0.67 mm.
// - On a strip: the cut found on the step beside the black; none beside a flat grey band (a
//   sleeve's margin, a printed band), a band a third of a millimetre wide (the card's edge seen at
//   a slant), a border that is not black (dark grey, or navy: of an ink with a hue), or a black
//   border's cut blurred into the paper, whose rise does not level off past its foot.
// - Through the whole engine: a drawn card with such a shadow under its bottom cut is measured
//   on its cut.
import { describe, expect, it } from "vitest";
import { analyseFace } from "../../src/grading/engine/analyse-face";
import { cutBeforeShadowRamp } from "../../src/grading/engine/cut-ramp";
import { rgbSampler } from "../../src/grading/engine/edges";
import type { RgbaImage } from "../../src/grading/engine/image";
import { encodeJpeg } from "../helpers/card-images";

const PAPER = 200;
const BLACK = 24;

/** Luma of a shadow `width` px wide, `from` against the card to `to` at its outer edge, `d` px out. */
const rampAt = (d: number, width: number, from: number, to: number) =>
  d < width ? from + ((to - from) * d) / width : PAPER;

/** 0 at 0 to 1 at 1, flat at both ends: the lightness across a blurred edge. */
const smoothstep = (x: number) => x * x * (3 - 2 * x);

/**
 * A 300 × 120 px strip across a card's bottom side at 12 px per mm: the border (`border`) above
 * y = 60, and below it `outside(d)` at d px out (the paper unless told).
 */
function strip(border: number | readonly number[], outside: (d: number) => number): RgbaImage {
  const W = 300;
  const H = 120;
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const value = y < 60 ? border : outside(y - 60 + 0.5);
      const rgb = typeof value === "number" ? [value, value, value] : value;
      const i = (y * W + x) * 4;
      data.set([...rgb.map((v) => Math.round(v)), 255], i);
    }
  }
  return { width: W, height: H, data };
}

/** The strip's bottom side as found 20 px out (the shadow's outer edge), its normal inward (up). */
const SIDE = { p: { x: 290, y: 80 }, q: { x: 10, y: 80 }, nx: 0, ny: -1 };

/** Where the trace's line crosses x = 150. */
const crossingAt = (line: { a: number; b: number; c: number }) => (line.c - line.a * 150) / line.b;

describe("cutBeforeShadowRamp", () => {
  it("finds the cut on the step out of the black, before a shadow lightening outward", () => {
    // 2 mm of shadow, 55 against the card to 115 at its edge, then the paper.
    const image = strip(BLACK, (d) => rampAt(d, 24, 55, 115));
    const trace = cutBeforeShadowRamp(rgbSampler(image), SIDE, 12);
    if (!trace) throw new Error("no cut found");
    expect(Math.abs(crossingAt(trace.line) - 60)).toBeLessThan(0.6);
  });

  it.each([
    ["a flat grey band 2 mm wide (a sleeve's margin, a printed band)", BLACK, (d: number) => rampAt(d, 24, 90, 90)],
    [
      "a ramp a third of a millimetre wide (the card's edge seen at a slant)",
      BLACK,
      (d: number) => rampAt(d, 4, 55, 115),
    ],
    ["a dark grey border, not black", 70, (d: number) => rampAt(d, 24, 100, 150)],
    // A real photo of a Pokémon back, recompressed: the cut put on a band's outer edge at one end
    // and inside the navy at the other, the frame then found leaning 0.64 mm (refused). Its band
    // is told from the navy by hue (cut-bands.ts).
    ["a navy border, dark but of an ink with a hue", [3, 6, 48], (d: number) => rampAt(d, 24, 55, 115)],
    // A webcam photo of a Magic card on light wood, shrunk or with a warm cast: its bottom cut,
    // blurred over 1.5 mm with no shadow beside it, one rise steepest at its middle, was read as
    // a step at its foot and a shadow beyond, the cut put 0.4 mm inside the card.
    [
      "a black border's cut blurred into the paper, with no shadow",
      BLACK,
      (d: number) => BLACK + (PAPER - BLACK) * smoothstep(Math.min(1, d / 18)),
    ],
  ] as const)("finds nothing beside %s", (_, border, outside) => {
    expect(cutBeforeShadowRamp(rgbSampler(strip(border, outside)), SIDE, 12)).toBeNull();
  });
});

/**
 * A 1000 × 1400 px photo of a 63 × 88 mm card at 12 px per mm on white paper, square to it: a
 * black border (left 2.5, right 3, top 2.5, bottom 3 mm) round light art, and a hard shadow 2 mm
 * deep under its bottom cut (55 against the card to 115, then the paper).
 */
function shadowedCard(): RgbaImage {
  const W = 1000;
  const H = 1400;
  const px = 12;
  const x0 = 122;
  const y0 = 160;
  const width = 63 * px;
  const height = 88 * px;
  const border = { left: 2.5 * px, right: 3 * px, top: 2.5 * px, bottom: 3 * px };
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const u = x + 0.5 - x0;
      const v = y + 0.5 - y0;
      let rgb: number[] = [PAPER, PAPER - 2, PAPER - 6];
      if (u >= 0 && v >= 0 && u < width && v < height) {
        const inFrame = u >= border.left && u < width - border.right && v >= border.top && v < height - border.bottom;
        rgb = inFrame ? [170 + 40 * Math.sin(u / 23), 140 + 30 * Math.cos(v / 31), 100] : [BLACK, BLACK, BLACK + 2];
      } else if (u >= -px && u < width + px && v >= height) {
        const level = rampAt(v - height, 2 * px, 55, 115);
        rgb = [level, level - 2, level - 5];
      }
      const i = (y * W + x) * 4;
      for (let ch = 0; ch < 3; ch++) data[i + ch] = Math.max(0, Math.min(255, Math.round(rgb[ch] ?? 0)));
      data[i + 3] = 255;
    }
  }
  return { width: W, height: H, data };
}

describe("a black-bordered card with a hard shadow under its bottom cut, through the engine", () => {
  it("is measured on its cut, not in the shadow", () => {
    const result = analyseFace("front", encodeJpeg(shadowedCard(), 90));
    if (!result.ok) throw new Error(result.rejection.message);
    if (!result.face.centering.ok) throw new Error(result.face.centering.reason);
    // Left 2.5 against right 3 mm, top 2.5 against bottom 3: 45.45 on both axes.
    expect(Math.abs(result.face.centering.centering.left_right - 45.45)).toBeLessThan(0.3);
    expect(Math.abs(result.face.centering.centering.top_bottom - 45.45)).toBeLessThan(0.3);
  });
});
