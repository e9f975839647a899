// An end of the outline beyond the card (outline-ends.ts): a card standing on a stand's lip of its
// border's colours, outlined to the lip's far edge, is told by its corners; cards lying on a table,
// whatever their corners, are not.
import { describe, expect, it } from "vitest";
import type { CardFormat } from "../../src/grading/engine/evidence";
import { STANDARD_FORMAT, TOPPS_FORMAT } from "../../src/grading/engine/formats";
import type { Quad } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import { cutCorners, outlineEndBeyondCard } from "../../src/grading/engine/outline-ends";
import { encodeJpeg } from "../helpers/card-images";
import { faceOutcome } from "../helpers/face-outcome";

type Rgb = readonly [number, number, number];

const PX_PER_MM = 10;
const MARGIN_MM = 12;
// The colours of the real photo this guards (sert-turtwig0.png): a silver border, a green body,
// a light stand behind the card, a grey lip below it and the shelf's dark reflection below that.
const BACKGROUND: Rgb = [225, 224, 228];
const BORDER: Rgb = [167, 164, 171];
const BODY: Rgb = [90, 160, 60];
const LIP: Rgb = [192, 187, 184];
const SHELF: Rgb = [60, 58, 62];

interface Drawn {
  /** The card's corner radius at its top and at its bottom (mm; 0 is square). */
  topRadius: number;
  bottomRadius: number;
  /** A lip this deep below the card's bottom cut, 10 mm wider than the card each side (mm). */
  lipMm?: number;
  /** The ground round the card and its border's colour (BACKGROUND and BORDER unless named). */
  ground?: Rgb;
  border?: Rgb;
}

/**
 * A 63 × 88 mm card with a 2.5 mm border, upright on a light ground, with its own outline (`card`)
 * and, where a lip is drawn below it (the shelf's dark below that to the photo's foot), the outline
 * closed on the lip's far edge (`toLip`).
 */
function drawCard({ topRadius, bottomRadius, lipMm = 0, ground = BACKGROUND, border = BORDER }: Drawn): {
  image: RgbaImage;
  card: Quad;
  toLip: Quad;
} {
  const width = (63 + 2 * MARGIN_MM) * PX_PER_MM;
  const height = (88 + 2 * MARGIN_MM) * PX_PER_MM;
  const data = new Uint8Array(width * height * 4);
  const x0 = MARGIN_MM;
  const x1 = MARGIN_MM + 63;
  const y0 = MARGIN_MM;
  const y1 = MARGIN_MM + 88;
  const inCard = (x: number, y: number) => {
    if (x < x0 || x > x1 || y < y0 || y > y1) return false;
    const r = y < (y0 + y1) / 2 ? topRadius : bottomRadius;
    const cx = Math.min(Math.max(x, x0 + r), x1 - r);
    const cy = Math.min(Math.max(y, y0 + r), y1 - r);
    return Math.hypot(x - cx, y - cy) <= r;
  };
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      // Four samples a pixel, so the cut is anti-aliased as a photo's is.
      const sum = [0, 0, 0];
      for (const [dx, dy] of [
        [0.25, 0.25],
        [0.75, 0.25],
        [0.25, 0.75],
        [0.75, 0.75],
      ] as const) {
        const x = (px + dx) / PX_PER_MM;
        const y = (py + dy) / PX_PER_MM;
        let colour = ground;
        if (lipMm > 0 && y > y1 && y <= y1 + lipMm && x > x0 - 10 && x < x1 + 10) colour = LIP;
        else if (lipMm > 0 && y > y1 + lipMm) colour = SHELF;
        if (inCard(x, y)) {
          const inBody = x > x0 + 2.5 && x < x1 - 2.5 && y > y0 + 2.5 && y < y1 - 2.5;
          colour = inBody ? BODY : border;
        }
        for (let ch = 0; ch < 3; ch++) sum[ch] = (sum[ch] ?? 0) + (colour[ch] ?? 0) / 4;
      }
      const o = (py * width + px) * 4;
      data[o] = sum[0] ?? 0;
      data[o + 1] = sum[1] ?? 0;
      data[o + 2] = sum[2] ?? 0;
      data[o + 3] = 255;
    }
  }
  const p = (x: number, y: number) => ({ x: x * PX_PER_MM, y: y * PX_PER_MM });
  return {
    image: { width, height, data },
    card: [p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1)],
    toLip: [p(x0, y0), p(x1, y0), p(x1, y1 + lipMm), p(x0, y1 + lipMm)],
  };
}

const endOf = (image: RgbaImage, quad: Quad, format: CardFormat) => outlineEndBeyondCard(image, quad, format);

describe("outlineEndBeyondCard", () => {
  it("finds the bottom of an outline closed on a stand's lip below a card with rounded corners", () => {
    // 88 + 1.3 mm on 63: 1.417 tall, within 1 % of the 1952 Topps format, as the engine reads it.
    const { image, toLip, card } = drawCard({ topRadius: 3, bottomRadius: 3, lipMm: 1.3 });
    expect(endOf(image, toLip, TOPPS_FORMAT)).toBe("bottom");
    // Outlined on its own cut, the same card is a card.
    expect(endOf(image, card, STANDARD_FORMAT)).toBeNull();
  });

  it("finds no end beyond a card lying on a plain table, rounded, square, or rounded at one end only", () => {
    for (const [topRadius, bottomRadius] of [
      [3, 3],
      [0, 0],
      // A card whose top corners read square and bottom ones rounded (as a real Yu-Gi-Oh! card
      // photographed on a table does): its sides run on to every corner, so no end is beyond it.
      [0, 3],
      [3, 0],
    ] as const) {
      const { image, card } = drawCard({ topRadius, bottomRadius });
      expect(endOf(image, card, STANDARD_FORMAT), `${topRadius} / ${bottomRadius}`).toBeNull();
    }
  });

  it("cannot tell a lip under a square-cornered card: it asks the other end for a cut's rounded corners", () => {
    const { image, toLip } = drawCard({ topRadius: 0, bottomRadius: 0, lipMm: 1.3 });
    expect(endOf(image, toLip, TOPPS_FORMAT)).toBeNull();
  });

  it("refuses the photo of a card on a stand's lip, naming the end, where it was graded as a Topps card", () => {
    // Without the rule the outline closes on the lip's far edge and the card is graded 50.0 / 65.9
    // as a 1952 Topps card, the lip its 1.38 mm bottom border and the cut its frame, where its
    // borders are 2.5 mm all round (50 / 50).
    const { image } = drawCard({ topRadius: 3, bottomRadius: 3, lipMm: 1.3 });
    const outcome = faceOutcome(encodeJpeg(image, 92), "front");
    expect(outcome.graded ? "graded" : outcome.message).toMatch(/outline's bottom edge is not the card's/);
  });
});

describe("cutCorners", () => {
  it("reads a card's cut rounded 3 mm at all four corners, and a sleeve's square or 1 mm corners as square", () => {
    const rounded = drawCard({ topRadius: 3, bottomRadius: 3 });
    expect(cutCorners(rounded.image, rounded.card, STANDARD_FORMAT)).toEqual({ rounded: 4, square: 0 });
    for (const radius of [0, 1]) {
      const { image, card } = drawCard({ topRadius: radius, bottomRadius: radius });
      expect(cutCorners(image, card, STANDARD_FORMAT), `${radius} mm`).toEqual({ rounded: 0, square: 4 });
    }
    // Rounded at one end only: two of each.
    const { image, card } = drawCard({ topRadius: 0, bottomRadius: 3 });
    expect(cutCorners(image, card, STANDARD_FORMAT)).toEqual({ rounded: 2, square: 2 });
  });

  it("reads the corners by the cut's colour where the table is as bright as the border", () => {
    // A blue border on a green table of its brightness (luma 70 and 71): no step in brightness.
    const colours = { ground: [40, 90, 50], border: [20, 79, 157] } as const;
    const rounded = drawCard({ topRadius: 3, bottomRadius: 3, ...colours });
    expect(cutCorners(rounded.image, rounded.card, STANDARD_FORMAT)).toEqual({ rounded: 4, square: 0 });
    const square = drawCard({ topRadius: 1, bottomRadius: 1, ...colours });
    expect(cutCorners(square.image, square.card, STANDARD_FORMAT)).toEqual({ rounded: 0, square: 4 });
  });
});
