import { describe, expect, it } from "vitest";
import { agreeInLight, analyseFace } from "../../src/grading/engine/analyse-face";
import { decodeImage } from "../../src/grading/engine/decode";
import { applyGain, exposureGain, UNDEREXPOSED_LEVEL } from "../../src/grading/engine/exposure";
import type { RgbaImage } from "../../src/grading/engine/image";
import { encodeJpeg } from "../helpers/card-images";
import { faceOutcome } from "../helpers/face-outcome";
import { REAL_PHOTOS, type RealPhoto, realPhotoBytes } from "../helpers/real-photos";

/** A grey image `level`, with `share` of its pixels (the first ones) at `brightLevel`. */
function grey(level: number, share: number, brightLevel: number): RgbaImage {
  const width = 100;
  const height = 100;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const v = i < share * width * height ? brightLevel : level;
    data.set([v, v, v, 255], i * 4);
  }
  return { width, height, data };
}

/** The real photo as its camera would have taken it with `light` of the light: each level scaled, stored as JPEG 90. */
function inDimLight(photo: RealPhoto, light: number): Uint8Array {
  const { image } = decodeImage(realPhotoBytes(photo), 4096);
  const data = image.data.slice();
  for (let p = 0; p < data.length; p += 4) {
    for (let c = 0; c < 3; c++) data[p + c] = Math.round((data[p + c] ?? 0) * light);
  }
  return encodeJpeg({ width: image.width, height: image.height, data }, 90);
}

describe("exposureGain", () => {
  it("leaves a photo whose brightest 0.1 % reach UNDEREXPOSED_LEVEL as it is", () => {
    expect(exposureGain(grey(60, 0.002, UNDEREXPOSED_LEVEL))).toBe(1);
    expect(exposureGain(grey(200, 0, 0))).toBe(1);
  });

  it("brings an underexposed photo's brightest 1 % to 230, its brightest 0.1 % to at most 250, by at most 2.5", () => {
    expect(exposureGain(grey(60, 0.02, 120))).toBeCloseTo(230 / 120, 6);
    // The brightest 0.1 % at 155 and the brightest 1 % at 60: 250 / 155, not 230 / 60.
    expect(exposureGain(grey(60, 0.005, 155))).toBeCloseTo(250 / 155, 6);
    expect(exposureGain(grey(20, 0.02, 50))).toBe(2.5);
    // Black: nothing to scale.
    expect(exposureGain(grey(0, 0, 0))).toBe(1);
  });

  it("scales the colour levels in place, clipped at 255, alpha kept", () => {
    const image: RgbaImage = { width: 2, height: 1, data: new Uint8Array([100, 50, 10, 128, 200, 150, 0, 255]) };
    expect(applyGain(image, 1.5)).toBe(image);
    expect(Array.from(image.data)).toEqual([150, 75, 15, 128, 255, 225, 0, 255]);
  });
});

describe("a real photo taken in dim light", () => {
  it.each([
    ["ritesOfFlourishing", 0.6],
    ["grookey", 0.5],
  ] as const)("is read as if exposed, graded as in full light: %s at %f of the light", (key, light) => {
    const photo = REAL_PHOTOS[key];
    const own = faceOutcome(realPhotoBytes(photo), "front");
    const dim = inDimLight(photo, light);
    const analysed = analyseFace("front", dim);
    if (!analysed.ok || !own.graded) throw new Error("not graded");
    expect(analysed.face.exposureGain).toBeGreaterThan(1.5);
    const outcome = faceOutcome(dim, "front");
    if (!outcome.graded) throw new Error(outcome.message);
    expect(Math.abs(outcome.leftRight - own.leftRight)).toBeLessThanOrEqual(0.3);
    expect(Math.abs(outcome.topBottom - own.topBottom)).toBeLessThanOrEqual(0.3);
  });

  it("is graded as in full light where its reading as taken bows a cut its frame does not follow", () => {
    // A navy Pokémon back, 46.0 / 51.1 in full light. At 0.6 of the light it reads 46.1 / 51.1
    // lit; as taken its bottom cut was traced as a curve through its shadow, 45.9 / 45.2, and
    // the two readings were refused as 5.9 points apart. The straight frame beside that curve
    // now refuses the reading as taken (frame.ts, MIN_FRAME_BOW_FOLLOW), and the lit one stands.
    const own = faceOutcome(realPhotoBytes(REAL_PHOTOS.backNavyBand), "front");
    const outcome = faceOutcome(inDimLight(REAL_PHOTOS.backNavyBand, 0.6), "front");
    if (!own.graded) throw new Error(own.message);
    if (!outcome.graded) throw new Error(outcome.message);
    expect(Math.abs(outcome.leftRight - own.leftRight)).toBeLessThanOrEqual(0.3);
    expect(Math.abs(outcome.topBottom - own.topBottom)).toBeLessThanOrEqual(0.3);
  });
});

describe("agreeInLight (an underexposed photo read lit and as taken)", () => {
  const analysed = (key: "ritesOfFlourishing" | "gracefulReprieve" | "mysticalTeachings") =>
    analyseFace("front", realPhotoBytes(REAL_PHOTOS[key]));

  it("keeps the lit reading where the reading as taken agrees with it, or measures no centering", () => {
    const lit = analysed("ritesOfFlourishing");
    expect(lit.ok && lit.face.centering.ok).toBe(true);
    expect(agreeInLight("front", 1.8, lit, analysed("ritesOfFlourishing"))).toBe(lit);
    const unmeasured = analysed("mysticalTeachings");
    expect(unmeasured.ok && unmeasured.face.centering.ok).toBe(false);
    expect(agreeInLight("front", 1.8, lit, unmeasured)).toBe(lit);
  });

  it("refuses two readings whose centerings lie more than a point apart, naming both", () => {
    // Two photos' readings stand in for one photo's: 50.6 / 48.8 and 52.6 / 43.5.
    const result = agreeInLight("front", 1.8, analysed("ritesOfFlourishing"), analysed("gracefulReprieve"));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejection.message).toMatch(
      /^The front photo is underexposed \(its brightest pixels under 160 of 255\): read with its levels raised 1\.80 times and as it was taken, the card's centering lies 5\.\d points apart \(left to right 50\.\d and 52\.\d, top to bottom 48\.\d and 43\.\d\)/,
    );
  });
});
