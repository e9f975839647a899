import { describe, expect, it } from "vitest";
import { sameCard } from "../../src/grading/engine/analyse-face";
import { decodeImage } from "../../src/grading/engine/decode";
import type { Quad } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import { applyBalance, CAST_MIN, type ChannelGains, colourCast } from "../../src/grading/engine/white-balance";
import { encodeJpeg } from "../helpers/card-images";
import { faceOutcome } from "../helpers/face-outcome";
import { REAL_PHOTOS, type RealPhoto, realPhotoBytes } from "../helpers/real-photos";

/** A grey ramp (every level from 30 to 229, each row one level) under a light of colour `light`. */
function greyRampUnder(light: ChannelGains): RgbaImage {
  const width = 20;
  const height = 200;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const level = 30 + y;
    for (let x = 0; x < width; x++) {
      data.set([...light.map((gain) => Math.min(255, Math.round(level * gain))), 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

const WARM: ChannelGains = [1.15, 1, 0.85];
const COOL: ChannelGains = [0.85, 1, 1.15];

/** The real photo as taken under a light of colour `light` (each channel scaled), stored as JPEG 92. */
function underLight(photo: RealPhoto, light: ChannelGains): Uint8Array {
  const { image } = decodeImage(realPhotoBytes(photo), 4096);
  const data = image.data.slice();
  for (let p = 0; p < data.length; p += 4) {
    for (let c = 0; c < 3; c++) data[p + c] = Math.min(255, Math.round((data[p + c] ?? 0) * (light[c] ?? 1)));
  }
  return encodeJpeg({ width: image.width, height: image.height, data }, 92);
}

describe("colourCast", () => {
  it("finds no cast under white light", () => {
    expect(colourCast(greyRampUnder([1, 1, 1]))).toBeNull();
  });

  it("finds none within CAST_MIN of white", () => {
    const faint = 1 + CAST_MIN / 2;
    expect(colourCast(greyRampUnder([faint, 1, 1 / faint]))).toBeNull();
  });

  it.each([
    ["warm", WARM],
    ["cool", COOL],
  ] as const)("gives the gains that undo a %s light, its clipped pixels left out", (_name, light) => {
    const gains = colourCast(greyRampUnder(light));
    if (!gains) throw new Error("no cast found");
    expect(gains[0]).toBeCloseTo(1 / light[0], 2);
    expect(gains[1]).toBe(1);
    expect(gains[2]).toBeCloseTo(1 / light[2], 2);
  });

  it("leaves a light further off white than the gains reach as it is", () => {
    expect(colourCast(greyRampUnder([1, 1, 0.5]))).toBeNull();
  });

  it("gives up on a photo with too few pixels to read (all clipped or black)", () => {
    const image = greyRampUnder([1, 1, 1]);
    image.data.fill(255);
    expect(colourCast(image)).toBeNull();
  });
});

describe("applyBalance", () => {
  it("brings a warm grey back to grey, in place, clipped at 255, alpha kept", () => {
    const image = greyRampUnder(WARM);
    const gains = colourCast(image);
    expect(applyBalance(image, gains)).toBe(image);
    // Levels up to 221 kept their red under the warm light (221 × 1.15 < 255): they are grey again.
    // Above it the red was clipped, and it stays within 255.
    for (let y = 0; y < image.height; y++) {
      const [r, g, b, a] = image.data.subarray(y * 20 * 4, y * 20 * 4 + 4);
      if (30 + y <= 221) {
        expect(Math.abs((r ?? 0) - (g ?? 0))).toBeLessThanOrEqual(1);
        expect(Math.abs((b ?? 0) - (g ?? 0))).toBeLessThanOrEqual(1);
      }
      expect(r).toBeLessThanOrEqual(255);
      expect(a).toBe(255);
    }
  });

  it("leaves the image as it is without gains", () => {
    const image = greyRampUnder(WARM);
    const before = image.data.slice();
    applyBalance(image, null);
    expect(image.data).toEqual(before);
  });
});

describe("a real photo under coloured light, through the engine", () => {
  // Each is refused as taken under the light, before its card is measured (stop 108's code: the
  // navy back's bottom cut bows through its shadow; the other two show two edges along their
  // bottom cut), and graded balanced within 0.3 points of the photo's own reading.
  it.each([
    ["backNavyBand", "warm", WARM],
    ["haunter", "warm", WARM],
    ["shinx", "cool", COOL],
  ] as const)("grades %s under a %s light as under its own", (key, _name, light) => {
    const own = faceOutcome(realPhotoBytes(REAL_PHOTOS[key]), "front");
    const cast = faceOutcome(underLight(REAL_PHOTOS[key], light), "front");
    if (!own.graded) throw new Error(own.message);
    if (!cast.graded) throw new Error(cast.message);
    expect(Math.abs(cast.leftRight - own.leftRight)).toBeLessThanOrEqual(0.3);
    expect(Math.abs(cast.topBottom - own.topBottom)).toBeLessThanOrEqual(0.3);
  });

  it("does not read again a card measured whose frame was refused", () => {
    // Under a cool light the yellow border's bottom cut is read two ways 0.11 mm apart, a point
    // apart: a refusal of the card measured, which a second reading would only draw on again.
    const cast = faceOutcome(underLight(REAL_PHOTOS.fullHeal, COOL), "front");
    expect(cast.graded).toBe(false);
    if (!cast.graded) expect(cast.message).toMatch(/bottom edge, read two ways/);
  });
});

describe("sameCard (the card read balanced against the outline found as taken)", () => {
  const card: Quad = [
    { x: 100, y: 100 },
    { x: 730, y: 100 },
    { x: 730, y: 980 },
    { x: 100, y: 980 },
  ];
  const scaled = (quad: Quad, share: number): Quad => {
    const cx = 415;
    const cy = 540;
    return quad.map((p) => ({ x: cx + (p.x - cx) * share, y: cy + (p.y - cy) * share })) as Quad;
  };

  it("is the card found, read within a few pixels of it", () => {
    expect(sameCard(card.map((p) => ({ x: p.x + 3, y: p.y - 2 })) as Quad, card)).toBe(true);
  });

  it("is the card found with one of its sides swung onto another line as taken", () => {
    // The outline found as taken had its bottom right corner 40 px (0.063 of its shorter side) out.
    const found = card.map((p, k) => (k === 2 ? { x: p.x + 40, y: p.y } : p)) as Quad;
    expect(sameCard(card, found)).toBe(true);
  });

  it("is not a card read inside the outline found (a holder's or a sleeve's round it)", () => {
    // A card in a sleeve 66 × 91 mm: the card's outline is 0.92 of the sleeve's area.
    expect(sameCard(scaled(card, Math.sqrt(0.92)), card)).toBe(false);
  });

  it("is not an outline whose corner lies more than 5 mm from the one found", () => {
    const found = card.map((p, k) => (k === 0 ? { x: p.x - 60, y: p.y - 60 } : p)) as Quad;
    expect(sameCard(card, found)).toBe(false);
  });
});
