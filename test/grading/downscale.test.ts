import { describe, expect, it } from "vitest";
import { downscaleByArea, downscaleToFit, fitByArea, type RgbaImage } from "../../src/grading/engine/image";
import { seededRandom } from "../helpers/seeded-random";

/** The box filter written plainly: each output byte is the floor of its box's mean, per channel. */
function plainBoxFilter(image: RgbaImage, maxSide: number): RgbaImage {
  const scale = Math.max(image.width, image.height) / maxSide;
  const width = Math.max(1, Math.round(image.width / scale));
  const height = Math.max(1, Math.round(image.height / scale));
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * image.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * image.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * image.width) / width));
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let sy = y0; sy < y1; sy++) {
          for (let sx = x0; sx < x1; sx++) sum += image.data[(sy * image.width + sx) * 4 + c] ?? 0;
        }
        out[(y * width + x) * 4 + c] = Math.floor(sum / ((y1 - y0) * (x1 - x0)));
      }
    }
  }
  return { width, height, data: out };
}

function noise(width: number, height: number, seed: number, opaque = false): RgbaImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i++) data[i] = opaque && i % 4 === 3 ? 255 : Math.floor(random() * 256);
  return { width, height, data };
}

describe("downscaleToFit", () => {
  it.each([
    [326, 245, 320, "a 2 % shrink, boxes of one and two pixels"],
    [400, 300, 200, "exactly half"],
    [411, 287, 133, "about a third, boxes of three and four pixels"],
    [1200, 90, 70, "a shrink of 17 times, past the two-lanes-a-word limit"],
    [37, 91, 10, "a small odd size"],
  ])("matches the plain box filter byte for byte: %i × %i to %i (%s)", (width, height, maxSide) => {
    for (const opaque of [false, true]) {
      const image = noise(width, height, width * height, opaque);
      const fitted = downscaleToFit(image, maxSide);
      expect(Math.max(fitted.width, fitted.height)).toBeLessThanOrEqual(maxSide);
      expect(fitted).toEqual(plainBoxFilter(image, maxSide));
    }
  });

  it("reads an image whose bytes do not start on a word boundary", () => {
    const image = noise(101, 77, 5);
    const shifted = new Uint8Array(image.data.length + 1);
    shifted.set(image.data, 1);
    const fitted = downscaleToFit({ ...image, data: shifted.subarray(1) }, 50);
    expect(fitted).toEqual(plainBoxFilter(image, 50));
  });

  it("returns an image that already fits as it is", () => {
    const image = noise(20, 10, 1);
    expect(downscaleToFit(image, 20)).toBe(image);
  });
});

/** A grey image `width` × `height` with a step from 200 to 40 at `at` source pixels from the left (a soft one, over 3 px). */
function stepImage(width: number, height: number, at: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = Math.min(1, Math.max(0, (x + 0.5 - at) / 3 + 0.5));
      const level = Math.round(200 - 160 * t);
      data.set([level, level, level, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** Where row 0 of `image` crosses 120 (the step's middle), in pixels from its left edge. */
function crossing(image: RgbaImage): number {
  for (let x = 0; x + 1 < image.width; x++) {
    const a = image.data[x * 4] ?? 0;
    const b = image.data[(x + 1) * 4] ?? 0;
    if (a >= 120 && b < 120) return x + 0.5 + (a - 120) / (a - b);
  }
  return Number.NaN;
}

/** The area filter written plainly: each output byte the rounded mean of the source area under it, per channel. */
function plainAreaFilter(image: RgbaImage, width: number, height: number): RgbaImage {
  const rx = image.width / width;
  const ry = image.height / height;
  const cover = (a: number, b: number, s: number) => Math.max(0, Math.min(b, s + 1) - Math.max(a, s));
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let sy = Math.floor(y * ry); sy < Math.ceil((y + 1) * ry); sy++) {
          for (let sx = Math.floor(x * rx); sx < Math.ceil((x + 1) * rx); sx++) {
            sum +=
              cover(x * rx, (x + 1) * rx, sx) *
              cover(y * ry, (y + 1) * ry, sy) *
              (image.data[(sy * image.width + sx) * 4 + c] ?? 0);
          }
        }
        out[(y * width + x) * 4 + c] = Math.round(sum / (rx * ry));
      }
    }
  }
  return { width, height, data: out };
}

describe("downscaleByArea", () => {
  it.each([
    [326, 245, 320, 240],
    [504, 704, 378, 528],
    [411, 287, 133, 93],
    [37, 91, 10, 25],
  ])("is the plain area filter within a level: %i × %i to %i × %i", (width, height, toWidth, toHeight) => {
    const image = noise(width, height, width + height);
    const byArea = downscaleByArea(image, toWidth, toHeight);
    const plain = plainAreaFilter(image, toWidth, toHeight);
    let worst = 0;
    for (let i = 0; i < plain.data.length; i++)
      worst = Math.max(worst, Math.abs((byArea.data[i] ?? 0) - (plain.data[i] ?? 0)));
    expect(worst).toBeLessThanOrEqual(1);
  });

  it("fits the longer side to maxSide (fitByArea), and returns an image that fits as it is", () => {
    const image = noise(2016, 40, 3);
    const fitted = fitByArea(image, 1600);
    expect([fitted.width, fitted.height]).toEqual([1600, 32]);
    expect(fitted).toEqual(downscaleByArea(image, 1600, 32));
    const small = noise(20, 10, 1);
    expect(fitByArea(small, 20)).toBe(small);
  });

  it("keeps the copy where the source lies at three quarters, where whole-pixel boxes shift it", () => {
    for (const at of [20, 20.4, 20.8, 21, 37.7]) {
      const image = stepImage(504, 8, at);
      // Within a tenth of a source pixel (a linear crossing read between coarser samples).
      const byArea = downscaleByArea(image, 378, 6);
      expect(Math.abs(crossing(byArea) / 0.75 - crossing(image))).toBeLessThan(0.1);
      // The boxes of one, one and two pixels put the step 0.17–0.5 source pixels deeper.
      const byBoxes = downscaleToFit(image, 378);
      expect(crossing(byBoxes) / 0.75 - crossing(image)).toBeGreaterThan(0.15);
    }
  });

  it("is the box filter's mean where the ratio is whole", () => {
    const image = noise(40, 30, 7, true);
    const half = downscaleByArea(image, 20, 15);
    const boxes = downscaleToFit(image, 20);
    for (let i = 0; i < half.data.length; i++)
      expect(Math.abs((half.data[i] ?? 0) - (boxes.data[i] ?? 0))).toBeLessThanOrEqual(1);
  });
});
