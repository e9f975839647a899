import { describe, expect, it } from "vitest";
import { DecodeError, decodeImage, detectFormat, exifOrientation } from "../../src/grading/engine/decode";
import type { RgbaImage } from "../../src/grading/engine/image";
import { encodePng } from "../../src/grading/engine/png";
import { encodeJpeg, withExifOrientation } from "../helpers/card-images";
import { WEBP_LOSSLESS_4X3 } from "../helpers/fixtures";

/** 4×3 test pattern: the top-left pixel red, the rest blue, so orientation is visible. */
function marker(width = 64, height = 48): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const red = x < width / 4 && y < height / 3;
      data.set(red ? [220, 20, 20, 255] : [20, 20, 200, 255], o);
    }
  }
  return { width, height, data };
}

const pixel = (image: RgbaImage, x: number, y: number) =>
  Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 3));
const isRed = (rgb: number[]) => (rgb[0] ?? 0) > 150 && (rgb[2] ?? 255) < 100;

describe("decodeImage", () => {
  it("decodes a JPEG at full size when it fits", () => {
    const decoded = decodeImage(encodeJpeg(marker(), 95), 1000);
    expect(decoded.format).toBe("jpeg");
    expect([decoded.image.width, decoded.image.height]).toEqual([64, 48]);
    expect(isRed(pixel(decoded.image, 2, 2))).toBe(true);
    expect(isRed(pixel(decoded.image, 60, 40))).toBe(false);
  });

  it("decodes a large JPEG straight to a smaller size with DCT scaling", () => {
    const decoded = decodeImage(encodeJpeg(marker(1600, 1200), 90), 500);
    expect(decoded.sourceWidth).toBe(1600);
    expect(Math.max(decoded.image.width, decoded.image.height)).toBeLessThanOrEqual(500);
    expect(decoded.image.width).toBeGreaterThanOrEqual(400);
    expect(isRed(pixel(decoded.image, 10, 10))).toBe(true);
  });

  it.each([
    [1, [0, 0], [64, 48]],
    [3, [63, 47], [64, 48]],
    [6, [47, 0], [48, 64]],
    [8, [0, 63], [48, 64]],
    [2, [63, 0], [64, 48]],
  ])("honours EXIF orientation %i", (orientation, [rx, ry], size) => {
    const jpeg = withExifOrientation(encodeJpeg(marker(), 95), orientation);
    expect(exifOrientation(jpeg)).toBe(orientation);
    const decoded = decodeImage(jpeg, 1000);
    expect([decoded.image.width, decoded.image.height]).toEqual(size);
    expect(isRed(pixel(decoded.image, rx ?? 0, ry ?? 0))).toBe(true);
  });

  it("decodes PNG and shrinks it to maxSide", async () => {
    const decoded = decodeImage(await encodePng(marker(400, 300)), 200);
    expect(decoded.format).toBe("png");
    expect([decoded.image.width, decoded.image.height]).toEqual([200, 150]);
    expect(isRed(pixel(decoded.image, 5, 5))).toBe(true);
  });

  it("decodes WebP", () => {
    const decoded = decodeImage(WEBP_LOSSLESS_4X3, 100);
    expect(decoded.format).toBe("webp");
    expect([decoded.image.width, decoded.image.height]).toEqual([4, 3]);
  });

  it("refuses bytes that are not an image, and truncated images, with DecodeError", async () => {
    expect(detectFormat(new TextEncoder().encode("hello world, not an image"))).toBeNull();
    expect(() => decodeImage(new TextEncoder().encode("hello"), 100)).toThrow(DecodeError);
    const jpeg = encodeJpeg(marker(), 90);
    expect(() => decodeImage(jpeg.subarray(0, 40), 100)).toThrow();
    const png = await encodePng(marker());
    expect(() => decodeImage(png.subarray(0, 60), 100)).toThrow(DecodeError);
  });

  it("refuses a PNG over the unscaled pixel cap before decoding it", async () => {
    const png = await encodePng(marker(8, 8));
    const huge = png.slice();
    new DataView(huge.buffer).setUint32(16, 10_000);
    new DataView(huge.buffer).setUint32(20, 10_000);
    expect(() => decodeImage(huge, 100)).toThrow(/limited to 12 MP/);
  });
});
