// The photos `npm run measure -- --stability` reads again (scripts/lib/photo-variants.ts): each is
// the photo made again as named, and a variant's answer read back to the original's sides agrees
// with the original's on a drawn card the engine measures steadily, standing upright or lying
// sideways.
import { describe, expect, it } from "vitest";
import { photoVariant } from "../../scripts/bench/photo-variant";
import {
  asOriginal,
  CAST_GAIN,
  HALF_SHARE,
  SMALLER_SHARE,
  VARIANTS,
  type Variant,
} from "../../scripts/lib/photo-variants";
import { decodeImage } from "../../src/grading/engine/decode";
import type { RgbaImage } from "../../src/grading/engine/image";
import { readExif } from "../../src/grading/engine/image-header";
import { withExif } from "../helpers/card-images";
import { faceOutcome } from "../helpers/face-outcome";
import { photo, sceneWith } from "../helpers/submissions";

const decoded = (bytes: Uint8Array): RgbaImage => decodeImage(bytes, 4000).image;
const pixel = (image: RgbaImage, x: number, y: number) =>
  Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3));

describe("a photo made again", { timeout: 120_000 }, () => {
  const upright = photo(sceneWith({}));

  it("mirrored or turned half round, holds the copy's pixels mirrored or turned", async () => {
    const copy = decoded(await photoVariant(upright, "copy"));
    const mirrored = decoded(await photoVariant(upright, "mirrored"));
    const turned = decoded(await photoVariant(upright, "turned"));
    expect([mirrored.width, mirrored.height]).toEqual([copy.width, copy.height]);
    const { width: w, height: h } = copy;
    for (const [x, y] of [
      [0, 0],
      [17, 402],
      [w - 1, 5],
      [333, h - 1],
    ] as const) {
      expect(pixel(mirrored, w - 1 - x, y)).toEqual(pixel(copy, x, y));
      expect(pixel(turned, w - 1 - x, h - 1 - y)).toEqual(pixel(copy, x, y));
    }
  });

  it("smaller or half, is scaled by SMALLER_SHARE or HALF_SHARE; recompressed, is a JPEG of the same size", async () => {
    const copy = decoded(await photoVariant(upright, "copy"));
    const smaller = decoded(await photoVariant(upright, "smaller"));
    expect(smaller.width).toBe(Math.round(SMALLER_SHARE * copy.width));
    const half = decoded(await photoVariant(upright, "half"));
    expect([half.width, half.height]).toEqual([
      Math.round(HALF_SHARE * copy.width),
      Math.round(HALF_SHARE * copy.height),
    ]);
    const recompressed = await photoVariant(upright, "recompressed");
    expect([recompressed[0], recompressed[1]]).toEqual([0xff, 0xd8]);
    expect(decoded(recompressed).width).toBe(copy.width);
  });

  it("warm or cool, holds the copy's pixels with their red and blue levels scaled one way or the other", async () => {
    const copy = decoded(await photoVariant(upright, "copy"));
    const warm = decoded(await photoVariant(upright, "warm"));
    const cool = decoded(await photoVariant(upright, "cool"));
    expect([warm.width, warm.height, cool.width, cool.height]).toEqual([
      copy.width,
      copy.height,
      copy.width,
      copy.height,
    ]);
    const scaled = (level: number, gain: number) => Math.min(255, Math.round(level * gain));
    for (const [x, y] of [
      [0, 0],
      [copy.width >> 1, copy.height >> 1],
      [copy.width - 1, copy.height - 1],
    ] as const) {
      const [r = 0, g = 0, b = 0] = pixel(copy, x, y);
      expect(pixel(warm, x, y)).toEqual([scaled(r, 1 + CAST_GAIN), g, scaled(b, 1 - CAST_GAIN)]);
      expect(pixel(cool, x, y)).toEqual([scaled(r, 1 - CAST_GAIN), g, scaled(b, 1 + CAST_GAIN)]);
    }
  });

  it("names the lens the photo's EXIF names, and none where it names none", async () => {
    const named = withExif(upright, { focal35mm: 52 });
    for (const variant of VARIANTS) {
      expect(readExif(await photoVariant(named, variant)).focal35mm, variant).toBe(52);
      expect(readExif(await photoVariant(upright, variant)).focal35mm, variant).toBeNull();
    }
  });

  it("is refused when the photo cannot be decoded", async () => {
    await expect(photoVariant(new Uint8Array([1, 2, 3]), "mirrored")).rejects.toThrow();
  });

  it.each([
    ["standing upright", sceneWith({ rotation: 1.5 })],
    [
      "lying sideways, its top toward the left edge",
      sceneWith({ canvasWidth: 1000, canvasHeight: 750, cardWidth: 420, rotation: -88.5 }),
    ],
  ])("reads back to the original's answer, the card %s", async (_, scene) => {
    const own = faceOutcome(photo(scene));
    if (!own.graded) throw new Error(`expected a centering, got: ${own.message}`);
    expect(own.orientation).toBe(scene.rotation === 1.5 ? "portrait" : "landscape");
    // Off centre on both axes, so that a side read the wrong way round would show.
    expect(Math.abs(own.leftRight - 50)).toBeGreaterThan(3);
    for (const variant of VARIANTS) {
      const again = faceOutcome(await photoVariant(photo(scene), variant));
      if (!again.graded) throw new Error(`${variant}: expected a centering, got: ${again.message}`);
      const back = asOriginal(variant, again.orientation, again.leftRight, again.topBottom);
      expect(Math.abs(back.leftRight - own.leftRight), variant).toBeLessThan(0.5);
      expect(Math.abs(back.topBottom - own.topBottom), variant).toBeLessThan(0.5);
    }
  });

  it("read back: turned swaps both axes; mirrored, the axis across the card as the photo shows it", () => {
    const answers: Record<Variant, [number, number]> = {
      copy: [40, 45],
      mirrored: [60, 45],
      turned: [60, 55],
      smaller: [40, 45],
      half: [40, 45],
      recompressed: [40, 45],
      warm: [40, 45],
      cool: [40, 45],
    };
    for (const variant of VARIANTS) {
      expect(asOriginal(variant, "portrait", 40, 45)).toEqual({
        leftRight: answers[variant][0],
        topBottom: answers[variant][1],
      });
    }
    expect(asOriginal("mirrored", "landscape", 40, 45)).toEqual({ leftRight: 40, topBottom: 55 });
    expect(asOriginal("turned", "landscape", 40, 45)).toEqual({ leftRight: 60, topBottom: 55 });
  });
});
