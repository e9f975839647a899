import { describe, expect, it } from "vitest";
import {
  checkDecodeBudget,
  DecodeBudgetError,
  DecodeError,
  decodeImage,
  decodeRegion,
  detectFormat,
  estimateDecodeBytes,
  exifOrientation,
  lensFocalPx,
  peakCodecMemoryBytes,
  readExif,
  readImageHeader,
  regionDecodeScale,
  resetCodecMemoryPeak,
} from "../../src/grading/engine/decode";
import { jpegDecodeBytes, jpegDecodeScale } from "../../src/grading/engine/decode-budget";
import type { RgbaImage } from "../../src/grading/engine/image";
import { encodePng } from "../../src/grading/engine/png";
import { encodeJpeg, webpWithExif, withExif, withPngExif } from "../helpers/card-images";
import {
  jpegClaiming,
  jpegWithScans,
  pngClaiming,
  webpExtendedClaiming,
  webpLosslessClaiming,
  webpLossyClaiming,
} from "../helpers/crafted-headers";
import { JPEG_CMYK_16X8, WEBP_LOSSLESS_4X3 } from "../helpers/fixtures";

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
    const jpeg = withExif(encodeJpeg(marker(), 95), { orientation });
    expect(exifOrientation(jpeg)).toBe(orientation);
    const decoded = decodeImage(jpeg, 1000);
    expect([decoded.image.width, decoded.image.height]).toEqual(size);
    expect(isRed(pixel(decoded.image, rx ?? 0, ry ?? 0))).toBe(true);
  });

  it("reads the lens from EXIF: the 35 mm-equivalent focal length in pixels of the decoded image", () => {
    const jpeg = withExif(encodeJpeg(marker(640, 480), 90), {
      orientation: 6,
      focal35mm: 26,
      pixelWidth: 640,
      pixelHeight: 480,
    });
    expect(readExif(jpeg)).toEqual({ orientation: 6, focal35mm: 26, pixelWidth: 640, pixelHeight: 480 });
    const decoded = decodeImage(jpeg, 320);
    // Turned upright (480 × 640 → 240 × 320 at maxSide 320): f = 26 mm × diagonal / 43.27 mm.
    expect([decoded.image.width, decoded.image.height]).toEqual([240, 320]);
    expect(decoded.focalPx).toBeCloseTo((26 * Math.hypot(240, 320)) / Math.hypot(36, 24), 6);
    // Without the recorded size the photo is taken as the camera's whole frame.
    expect(decodeImage(withExif(encodeJpeg(marker(640, 480), 90), { focal35mm: 13 }), 1000).focalPx).toBeCloseTo(
      (13 * 800) / Math.hypot(36, 24),
      6,
    );
  });

  it("claims no lens for a cropped photo, an implausible focal length, no EXIF, or a PNG", async () => {
    const facts = (focal35mm: number, pixelWidth?: number, pixelHeight?: number) => ({
      orientation: 1,
      focal35mm,
      pixelWidth: pixelWidth ?? null,
      pixelHeight: pixelHeight ?? null,
    });
    // A 4032 × 3024 capture cropped to 3000 × 3000: its centre is not the lens's.
    expect(lensFocalPx(facts(24, 4032, 3024), 3000, 3000, 1600, 1600)).toBeNull();
    // Downscaled, not cropped: the proportions match (rotation aside), so the lens holds.
    expect(lensFocalPx(facts(24, 4032, 3024), 2016, 1512, 1600, 1200)).toBeCloseTo((24 * 2000) / Math.hypot(36, 24), 6);
    expect(lensFocalPx(facts(24, 3024, 4032), 4032, 3024, 1600, 1200)).not.toBeNull();
    // A camera's whole frame: a phone's 4:3 and a camera's 3:2.
    expect(lensFocalPx(facts(26, 4032, 3024), 4032, 3024, 1600, 1200)).toBeCloseTo((26 * 2000) / Math.hypot(36, 24), 6);
    expect(lensFocalPx(facts(35, 6000, 4000), 6000, 4000, 1500, 1000)).toBeCloseTo(
      (35 * Math.hypot(1500, 1000)) / Math.hypot(36, 24),
      6,
    );
    // A 16:9 photo cut from a phone's 4:3 frame (a Samsung Note9's, EXIF as the phone wrote it:
    // 26 mm, as in its 4:3 photos) and a square one: which frame the 26 mm refers to is not known.
    expect(lensFocalPx(facts(26, 4032, 2268), 4032, 2268, 1600, 900)).toBeNull();
    expect(lensFocalPx(facts(26, 3024, 3024), 3024, 3024, 1600, 1600)).toBeNull();
    // A phone that wrote 1 mm (seen in a real photo's EXIF) says nothing about its lens.
    expect(lensFocalPx(facts(1), 3264, 1836, 1600, 900)).toBeNull();
    expect(lensFocalPx(facts(600), 3264, 1836, 1600, 900)).toBeNull();
    expect(decodeImage(encodeJpeg(marker(), 90), 100).focalPx).toBeNull();
    expect(decodeImage(await encodePng(marker()), 100).focalPx).toBeNull();
  });

  it("honours EXIF orientation and reads the lens in a PNG's eXIf chunk and a WebP's EXIF chunk", async () => {
    const png = withPngExif(await encodePng(marker()), { orientation: 6, focal35mm: 26 });
    expect(readExif(png)).toMatchObject({ orientation: 6, focal35mm: 26 });
    const decodedPng = decodeImage(png, 1000);
    expect([decodedPng.image.width, decodedPng.image.height]).toEqual([48, 64]);
    expect(isRed(pixel(decodedPng.image, 47, 0))).toBe(true);
    expect(decodedPng.focalPx).toBeCloseTo((26 * 80) / Math.hypot(36, 24), 6);
    const webp = webpWithExif(WEBP_LOSSLESS_4X3, 4, 3, { orientation: 8 });
    expect(readImageHeader(webp)).toMatchObject({ format: "webp", width: 4, height: 3 });
    expect(readExif(webp)).toMatchObject({ orientation: 8, focal35mm: null });
    const decodedWebp = decodeImage(webp, 100);
    expect([decodedWebp.image.width, decodedWebp.image.height]).toEqual([3, 4]);
    expect(decodedWebp.orientation).toBe(8);
  });

  it("reads a truncated or malformed EXIF segment as no EXIF, without throwing", () => {
    const jpeg = withExif(encodeJpeg(marker(), 90), { orientation: 3, focal35mm: 26 });
    // The segment's TIFF byte order broken: nothing is read from it.
    const broken = jpeg.slice();
    broken.set([0x12, 0x34], 2 + 4 + 6);
    expect(readExif(broken)).toEqual({ orientation: 1, focal35mm: null, pixelWidth: null, pixelHeight: null });
    // The Exif IFD pointer aimed past the segment's end: the orientation stays, the lens is absent.
    const astray = jpeg.slice();
    const view = new DataView(astray.buffer);
    const ifd0 = 2 + 4 + 6 + 8;
    for (let i = 0; i < view.getUint16(ifd0); i++) {
      if (view.getUint16(ifd0 + 2 + i * 12) === 0x8769) view.setUint32(ifd0 + 2 + i * 12 + 8, 60_000);
    }
    expect(readExif(astray)).toEqual({ orientation: 3, focal35mm: null, pixelWidth: null, pixelHeight: null });
    expect(decodeImage(astray, 100).focalPx).toBeNull();
  });

  it("decodes a JPEG one DCT scale larger where the largest that fits falls short, shrunk by area", () => {
    // n/8 scales only: a 48 MP phone photo fits 1600 at 1/8 (1008 px); it is decoded at 2/8 and
    // shrunk to 1600.
    expect(jpegDecodeScale(8064, 6048, 1600)).toBe(2);
    // 1512 and 1140 of 1600 are kept (0.71 of it), as is 1/8 of a 200 MP photo (2040 px, then shrunk).
    expect(jpegDecodeScale(4032, 3024, 1600)).toBe(3);
    expect(jpegDecodeScale(4560, 2052, 1600)).toBe(2);
    expect(jpegDecodeScale(16320, 12240, 1600)).toBe(1);
    expect(jpegDecodeScale(640, 480, 1600)).toBe(8);
    // 2000 × 900 at 400: 1/8 is 250 px, under 0.7 of 400; 2/8 (500) is shrunk to 400.
    const decoded = decodeImage(encodeJpeg(marker(2000, 900), 92), 400);
    expect([decoded.image.width, decoded.image.height]).toEqual([400, 180]);
    expect([decoded.sourceWidth, decoded.sourceHeight]).toEqual([2000, 900]);
    // The red quarter ends at 500 source px, 100 decoded.
    expect(isRed(pixel(decoded.image, 96, 30))).toBe(true);
    expect(isRed(pixel(decoded.image, 104, 30))).toBe(false);
    // The budget is that of the larger scale's decode.
    const header = readImageHeader(jpegClaiming(8064, 6048));
    expect(estimateDecodeBytes(header, 9_000_000, 1600)).toBe(jpegDecodeBytes(header, 9_000_000, 2, 2016 * 1512 * 4));
  });

  it("shrinks a PNG by area, keeping an edge between pixels where the source has it", async () => {
    // A red column 505 source pixels wide on blue, 2016 px shrunk to 1600 (by 1.26): decoded pixel
    // 400 covers source 504–505.26, 79 % red. Whole-pixel boxes read it as source pixel 504 alone.
    const width = 2016;
    const height = 8;
    const data = new Uint8Array(width * height * 4);
    for (let i = 0; i < width * height; i++) data.set(i % width < 505 ? [220, 20, 20, 255] : [20, 20, 200, 255], i * 4);
    const decoded = decodeImage(await encodePng({ width, height, data }), 1600);
    expect([decoded.image.width, decoded.image.height]).toEqual([1600, 6]);
    const red = pixel(decoded.image, 400, 3)[0] ?? 0;
    expect(Math.abs(red - (220 * (1 / 1.26) + 20 * (0.26 / 1.26)))).toBeLessThanOrEqual(1);
    expect(pixel(decoded.image, 399, 3)).toEqual([220, 20, 20]);
    expect(pixel(decoded.image, 401, 3)).toEqual([20, 20, 200]);
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

  it("decodes a four-ink (CMYK) JPEG to the colours it prints, inverted as Adobe's marker says or not", () => {
    // Before, libjpeg-turbo was asked for RGBA, which it cannot make from four inks: "corrupt JPEG data".
    const colourAt = (image: RgbaImage, x: number, y: number) =>
      Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4));
    const { image } = decodeImage(JPEG_CMYK_16X8, 1600);
    expect([image.width, image.height]).toEqual([16, 8]);
    for (const [x, y, rgb] of [
      [2, 2, [220, 30, 30]],
      [13, 5, [30, 30, 200]],
    ] as const) {
      const [r = 0, g = 0, b = 0, a] = colourAt(image, x, y);
      expect(
        Math.max(Math.abs(r - rgb[0]), Math.abs(g - rgb[1]), Math.abs(b - rgb[2])),
        `${x}, ${y}`,
      ).toBeLessThanOrEqual(3);
      expect(a).toBe(255);
    }
    // Without the marker (its APP14 segment cut out) the same samples are read as ink, not as
    // light: each channel the light the stored samples' complements let through.
    const segment = 2 + ((JPEG_CMYK_16X8[4] ?? 0) << 8) + (JPEG_CMYK_16X8[5] ?? 0);
    const unmarked = new Uint8Array([...JPEG_CMYK_16X8.subarray(0, 2), ...JPEG_CMYK_16X8.subarray(2 + segment)]);
    const [r = 0, g = 0, b = 0] = colourAt(decodeImage(unmarked, 1600).image, 2, 2);
    // Stored inverted, red's inks are (220, 30, 30, 255): read as ink, (35, 225, 225) × 0 of black.
    expect([r, g, b]).toEqual([0, 0, 0]);
  });

  it("names the format of a HEIC, AVIF, GIF, BMP, TIFF or JPEG XL image, a PDF, an SVG or a web page it refuses, and refuses an animated WebP as one", () => {
    const bytes = (...parts: (string | number[])[]) =>
      new Uint8Array(
        parts.flatMap((part) => (typeof part === "string" ? [...part].map((c) => c.charCodeAt(0)) : part)),
      );
    for (const [image, name] of [
      [
        bytes([0, 0, 0, 24], "ftypheic", [0, 0, 0, 0], "mif1heic"),
        "a HEIC (HEIF) photo (iPhones save photos so by default)",
      ],
      [bytes([0, 0, 0, 24], "ftypmif1", [0, 0, 0, 0], "mif1heic"), "a HEIC (HEIF) photo"],
      [bytes([0, 0, 0, 28], "ftypavif", [0, 0, 0, 0], "avifmif1miaf"), "an AVIF image"],
      [bytes("GIF89a", [16, 0, 8, 0, 0, 0, 0]), "a GIF image"],
      [bytes("BM", [0, 0, 0, 0, 0, 0, 0, 0, 54, 0, 0, 0]), "a BMP image"],
      [bytes("II*", [0, 8, 0, 0, 0]), "a TIFF image"],
      [bytes("MM", [0, 42, 0, 0, 0, 8]), "a TIFF image"],
    ] as const) {
      expect(() => readImageHeader(image)).toThrow(`${name}`);
      expect(() => readImageHeader(image)).toThrow("not a JPEG, PNG or WebP image: send the photo as JPEG");
    }
    // What an image URL may answer instead of an image, or a scan saved as a document.
    for (const [image, name] of [
      [bytes("\n  <!DOCTYPE html><html><body>Not found</body></html>"), "a web page (HTML)"],
      [bytes('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'), "an SVG drawing"],
      [bytes("%PDF-1.7\n"), "a PDF document"],
      [bytes([0xff, 0x0a, 0, 0, 0, 0]), "a JPEG XL image"],
      [bytes([0, 0, 0, 12], "JXL \r\n", [0x87, 10]), "a JPEG XL image"],
    ] as const) {
      expect(() => readImageHeader(image)).toThrow(`${name}, not a JPEG, PNG or WebP image: send the photo as JPEG`);
    }
    // Bytes of no known format are refused as before, without a name.
    expect(() => readImageHeader(bytes("just some text"))).toThrow(/^not a JPEG, PNG or WebP image$/);
    // An extended WebP whose animation flag is set: the still decoder reads no frame of it (it was
    // refused as "corrupt WebP data").
    const still = webpExtendedClaiming(64, 48, "VP8 ");
    const animated = still.slice();
    animated[20] = 0x02;
    expect(() => readImageHeader(animated)).toThrow("an animated WebP: send a still photo");
    expect(readImageHeader(still)).toMatchObject({ format: "webp", width: 64, height: 48 });
  });

  it("refuses bytes that are not an image, and truncated images, with DecodeError", async () => {
    expect(detectFormat(new TextEncoder().encode("hello world, not an image"))).toBeNull();
    expect(() => decodeImage(new TextEncoder().encode("hello"), 100)).toThrow(DecodeError);
    const jpeg = encodeJpeg(marker(), 90);
    expect(() => decodeImage(jpeg.subarray(0, 40), 100)).toThrow();
    const png = await encodePng(marker());
    expect(() => decodeImage(png.subarray(0, 60), 100)).toThrow(DecodeError);
  });

  it("refuses a real PNG whose IHDR is rewritten to 10000 × 10000 before decoding it", async () => {
    const png = await encodePng(marker(8, 8));
    const huge = png.slice();
    new DataView(huge.buffer).setUint32(16, 10_000);
    new DataView(huge.buffer).setUint32(20, 10_000);
    expect(() => decodeImage(huge, 100)).toThrow(/PNG is 10000 × 10000 pixels \(100 MP\); the limit is 64 MP/);
  });
});

/** `width` × `height` of blue with a red square of `side` px whose top-left corner is at (x, y). */
function redSquare(width: number, height: number, x: number, y: number, side: number): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let row = 0; row < height; row++) {
    for (let col = 0; col < width; col++) {
      const red = col >= x && col < x + side && row >= y && row < y + side;
      data.set(red ? [220, 20, 20, 255] : [20, 20, 200, 255], (row * width + col) * 4);
    }
  }
  return { width, height, data };
}

/** The red pixels' centroid and their extent across. */
function redBlob(image: RgbaImage): { x: number; y: number; width: number } {
  let sx = 0;
  let sy = 0;
  let n = 0;
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (!isRed(pixel(image, x, y))) continue;
      sx += x + 0.5;
      sy += y + 0.5;
      n++;
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x + 1);
    }
  }
  return { x: sx / n, y: sy / n, width: maxX - minX };
}

describe("decodeRegion (a region of the working image read again at a larger scale)", () => {
  const square = encodeJpeg(redSquare(1600, 1200, 1000, 300, 100), 92);

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    "cuts the same region out of the stored photo under EXIF orientation %i",
    (orientation) => {
      const jpeg = withExif(square, { orientation });
      const decoded = decodeImage(jpeg, 400);
      expect(Math.max(decoded.image.width, decoded.image.height)).toBe(400);
      const seen = redBlob(decoded.image);
      const region = { x0: seen.x - 30, y0: seen.y - 30, x1: seen.x + 30, y1: seen.y + 30 };
      const detail = decodeRegion(jpeg, decoded, region, 4, 1.5);
      if (!detail) throw new Error("no region read");
      // Four times the working image's pixels (the stored photo's own), about 240 px square.
      expect(detail.scaleX).toBeCloseTo(4, 6);
      expect(detail.scaleY).toBeCloseTo(4, 6);
      expect(Math.abs(detail.image.width - 240)).toBeLessThanOrEqual(2);
      expect(Math.abs(detail.image.height - 240)).toBeLessThanOrEqual(2);
      const found = redBlob(detail.image);
      // The square at the stored photo's resolution, where the working image has it.
      expect(Math.abs(found.width - 100)).toBeLessThanOrEqual(3);
      expect(found.x / detail.scaleX + detail.originX).toBeCloseTo(seen.x, 0);
      expect(found.y / detail.scaleY + detail.originY).toBeCloseTo(seen.y, 0);
    },
  );

  it("reads a PNG at its own size, and nothing when the photo holds too few more pixels", async () => {
    const png = await encodePng(redSquare(800, 600, 500, 150, 50));
    const decoded = decodeImage(png, 400);
    const detail = decodeRegion(png, decoded, { x0: 240, y0: 60, x1: 280, y1: 100 }, 4, 1.5);
    expect(detail?.scaleX).toBe(2);
    expect(detail && redBlob(detail.image)).toMatchObject({ x: 45, y: 55, width: 50 });
    expect(decodeRegion(png, decodeImage(png, 600), { x0: 0, y0: 0, x1: 100, y1: 100 }, 4, 1.5)).toBeNull();
    expect(decodeRegion(square, decodeImage(square, 1200), { x0: 0, y0: 0, x1: 100, y1: 100 }, 4, 1.5)).toBeNull();
  });

  it("keeps a JPEG's region read within the memory budget by a smaller DCT scale", () => {
    const region = { x0: 0, y0: 0, x1: 200, y1: 280 };
    // 12 MP baseline: the whole photo at full size (48 MB in the codec's memory) fits.
    expect(regionDecodeScale(checkDecodeBudget(jpegClaiming(4000, 3000), 1600), 4_000_000, 1500, region, 4)).toBe(8);
    // 48 MP: 8/8 would need 192 MB; 4/8 (48 MB) is the largest that fits 64 MB.
    expect(regionDecodeScale(checkDecodeBudget(jpegClaiming(8000, 6000), 1600), 9_000_000, 1600, region, 8)).toBe(4);
    // A progressive 12 MP photo keeps every coefficient (36 MB at 4:2:0): 5/8 beside them.
    const progressive = checkDecodeBudget(jpegClaiming(4000, 3000, { progressive: true, subsampled: true }), 1600);
    expect(regionDecodeScale(progressive, 4_000_000, 1500, region, 4)).toBe(5);
    // Never more than the scale asked for.
    expect(regionDecodeScale(checkDecodeBudget(jpegClaiming(4000, 3000), 1600), 4_000_000, 1500, region, 1.6)).toBe(5);
  });
});

describe("decode budget (checked from the header before any allocation)", () => {
  it("refuses a JPEG whose frame header claims 65000 × 65000 pixels, naming the pixel limit", () => {
    const bomb = jpegClaiming(65000, 65000);
    expect(readImageHeader(bomb)).toMatchObject({ format: "jpeg", width: 65000, height: 65000, bitDepth: 8 });
    resetCodecMemoryPeak();
    expect(() => decodeImage(bomb, 1600)).toThrow(DecodeBudgetError);
    expect(() => decodeImage(bomb, 1600)).toThrow("the JPEG is 65000 × 65000 pixels (4225 MP); the limit is 64 MP");
    // No codec ran: no WebAssembly memory was touched.
    expect(peakCodecMemoryBytes()).toBe(0);
  });

  it("lets a 48 MP baseline JPEG through (DCT scaling) but refuses it progressive (whole coefficient buffer)", () => {
    expect(checkDecodeBudget(jpegClaiming(8000, 6000), 1600)).toMatchObject({ progressive: false, scans: 1 });
    expect(() => checkDecodeBudget(jpegClaiming(8000, 6000, { progressive: true }), 1600)).toThrow(
      /progressive JPEG of 8000 × 6000 pixels needs about \d+ MB; the limit is 64 MB per image/,
    );
    // A 12 MP progressive photo passes with 4:2:0 sampling (1.5 components' coefficients), not with 4:4:4.
    const subsampled = checkDecodeBudget(jpegClaiming(4000, 3000, { progressive: true, subsampled: true }), 1600);
    expect(subsampled.sampling).toEqual([
      { h: 2, v: 2 },
      { h: 1, v: 1 },
      { h: 1, v: 1 },
    ]);
    expect(() => checkDecodeBudget(jpegClaiming(4000, 3000, { progressive: true }), 1600)).toThrow(/needs about 82 MB/);
  });

  it("lets a 50 MP sensor's full photo through (8192 × 6144, 50.3 MP) and refuses one over 64 MP", () => {
    expect(checkDecodeBudget(jpegClaiming(8192, 6144, { subsampled: true }), 1600)).toMatchObject({
      width: 8192,
      height: 6144,
    });
    expect(checkDecodeBudget(jpegClaiming(9216, 6912), 1600).width).toBe(9216);
    expect(() => checkDecodeBudget(jpegClaiming(9248, 6936), 1600)).toThrow(
      "the JPEG is 9248 × 6936 pixels (64.1 MP); the limit is 64 MP",
    );
  });

  it("counts progressive JPEG scans and refuses more than 100", () => {
    expect(readImageHeader(jpegWithScans(100)).scans).toBe(100);
    expect(checkDecodeBudget(jpegWithScans(100), 1600)).toMatchObject({ progressive: true, scans: 100 });
    expect(() => checkDecodeBudget(jpegWithScans(101), 1600)).toThrow("the JPEG has 101 scans; the limit is 100");
  });

  it("refuses a JPEG with 12-bit samples clearly", () => {
    const jpeg = jpegClaiming(100, 100).slice();
    const sof = jpeg.findIndex((byte, i) => byte === 0xff && jpeg[i + 1] === 0xc0);
    jpeg[sof + 4] = 12;
    expect(() => checkDecodeBudget(jpeg, 1600)).toThrow("the JPEG has 12-bit samples; only 8-bit JPEG is decoded");
  });

  it("sizes PNG by bit depth and colour type: 5 MP passes at 8 bits, is refused at 16 bits", () => {
    expect(readImageHeader(pngClaiming(2500, 2000, { bitDepth: 16, interlaced: true }))).toMatchObject({
      format: "png",
      bitDepth: 16,
      channels: 4,
      progressive: true,
    });
    expect(checkDecodeBudget(pngClaiming(2500, 2000, { bitDepth: 8 }), 1600).width).toBe(2500);
    expect(() => checkDecodeBudget(pngClaiming(2500, 2000, { bitDepth: 16 }), 1600)).toThrow(
      /16-bit PNG of 2500 × 2000 pixels needs about 96 MB; the limit is 64 MB per image/,
    );
    expect(() => checkDecodeBudget(pngClaiming(4000, 3000, { bitDepth: 8 }), 1600)).toThrow(/limit is 64 MB/);
    expect(() => decodeImage(pngClaiming(100_000, 100_000), 1600)).toThrow(/the limit is 64 MP/);
  });

  it("refuses a malformed PNG header (bad bit depth for the colour type table) as malformed", () => {
    expect(() => readImageHeader(pngClaiming(10, 10, { bitDepth: 3 }))).toThrow("malformed PNG header");
  });

  it("reads WebP sizes from VP8, VP8L and VP8X and budgets lossless above lossy", () => {
    expect(readImageHeader(webpLossyClaiming(16383, 16383))).toMatchObject({ width: 16383, lossless: false });
    expect(() => checkDecodeBudget(webpLossyClaiming(16383, 16383), 1600)).toThrow(/16383 × 16383 .*limit is 64 MP/);
    expect(readImageHeader(webpLosslessClaiming(4000, 3000))).toMatchObject({ width: 4000, height: 3000 });
    expect(() => checkDecodeBudget(webpLosslessClaiming(4000, 3000), 1600)).toThrow(/WEBP of 4000 × 3000 .*64 MB/);
    // The same canvas in an extended file: lossy data fits the budget, lossless data does not.
    expect(checkDecodeBudget(webpExtendedClaiming(3000, 2000, "VP8 "), 1600)).toMatchObject({
      width: 3000,
      height: 2000,
      lossless: false,
    });
    expect(() => checkDecodeBudget(webpExtendedClaiming(3000, 2000, "VP8L"), 1600)).toThrow(/limit is 64 MB/);
    expect(readImageHeader(WEBP_LOSSLESS_4X3)).toMatchObject({ width: 4, height: 3, lossless: true });
  });
});
