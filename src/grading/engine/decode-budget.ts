// What a decode may cost, from the image's header alone (image-header.ts), checked before any codec
// is instantiated: decode.ts refuses an image over DECODE_LIMITS with a DecodeBudgetError naming
// the limit, since a few hundred bytes of header can otherwise claim gigabytes of pixels.
import { DECODE_LIMITS, DecodeBudgetError, type ImageHeader, readImageHeader } from "./image-header";

/**
 * Reads the header and refuses (DecodeBudgetError) an image whose decode would pass DECODE_LIMITS,
 * or (DecodeError) one whose header is malformed. Costs one pass over a JPEG's markers, no allocation.
 */
export function checkDecodeBudget(bytes: Uint8Array, maxSide: number): ImageHeader {
  const header = readImageHeader(bytes);
  const { width, height } = header;
  const name = header.format.toUpperCase();
  const pixels = width * height;
  if (pixels > DECODE_LIMITS.maxPixels) {
    throw new DecodeBudgetError(
      `the ${name} is ${width} × ${height} pixels (${megapixels(pixels)} MP); the limit is ${megapixels(DECODE_LIMITS.maxPixels)} MP`,
    );
  }
  if (header.format === "jpeg" && header.scans > DECODE_LIMITS.maxJpegScans) {
    throw new DecodeBudgetError(`the JPEG has ${header.scans} scans; the limit is ${DECODE_LIMITS.maxJpegScans}`);
  }
  const memory = estimateDecodeBytes(header, bytes.byteLength, maxSide);
  if (memory > DECODE_LIMITS.maxMemoryBytes) {
    const kind = [
      header.bitDepth > 8 ? `${header.bitDepth}-bit` : "",
      header.progressive ? (header.format === "jpeg" ? "progressive" : "interlaced") : "",
    ]
      .filter(Boolean)
      .join(" ");
    throw new DecodeBudgetError(
      `decoding this ${kind ? `${kind} ` : ""}${name} of ${width} × ${height} pixels needs about ${mebibytes(memory)} MB; the limit is ${mebibytes(DECODE_LIMITS.maxMemoryBytes)} MB per image (send a smaller or baseline JPEG)`,
    );
  }
  return header;
}

const megapixels = (pixels: number) => Math.round(pixels / 1e5) / 10;
const mebibytes = (bytes: number) => Math.ceil(bytes / (1024 * 1024));

/**
 * Peak memory of decoding `header`'s image to at most `maxSide`, from how each codec allocates:
 * the input copy, the codec's working buffers, the RGBA output and its copy out of WebAssembly.
 */
export function estimateDecodeBytes(header: ImageHeader, inputBytes: number, maxSide: number): number {
  const { width, height } = header;
  const pixels = width * height;
  if (header.format === "jpeg") {
    const num = jpegDecodeScale(width, height, maxSide);
    const output = Math.ceil((width * num) / 8) * Math.ceil((height * num) / 8) * 4;
    return jpegDecodeBytes(header, inputBytes, num, output);
  }
  if (header.format === "png") {
    // lodepng: the concatenated IDAT and the input; the inflated scanlines and the unfiltered image
    // at the stored depth; then, when that is not 8-bit RGBA, the converted RGBA beside it.
    const stored = Math.ceil((width * header.channels * header.bitDepth) / 8) * height + height;
    const rgba = pixels * 4;
    const converted = header.bitDepth === 8 && header.channels === 4 ? 0 : rgba;
    return inputBytes * 2 + Math.max(stored * 2, stored + converted) + rgba;
  }
  // libwebp: the RGBA output; lossless data also decodes into a full ARGB frame first, and a
  // lossy image's alpha plane is one byte per pixel.
  const working = header.lossless ? pixels * 4 : header.alpha ? pixels : 0;
  return inputBytes + working + pixels * 4 * 2;
}

/**
 * A DCT scale whose decode is shorter than this share of `maxSide` is raised one step, and the
 * decode shrunk to `maxSide` by area (decode.ts). libjpeg-turbo scales by n/8 only, so the largest
 * scale within `maxSide` can fall far short of it: a 48 MP phone photo (8064 px) fits only at 1/8,
 * 1008 px, where the 12 MP photo of the same card is read at 1512 (3/8). Of 44 real 12 MP photos
 * copied at 48 MP, 13 were graded at 1008 px against 17 at 1512, one of them 2.7 points off a hand
 * reading; at 1600 (2/8 shrunk), 15, each within 0.6 of the photo as taken. The engine's thresholds were set on working
 * images of 1134–1600 px, and 4560 × 2052 photos, read at 2/8 (1140 px, 0.71 of 1600), stay there:
 * read at 1600 instead, 9 of 35 such real photos fewer are graded.
 */
export const MIN_JPEG_FILL = 0.7;

/**
 * The DCT scale n (of n/8) a JPEG `width` × `height` is decoded at for a working image of at most
 * `maxSide`: the largest that fits, or one step larger when that leaves the longer side under
 * MIN_JPEG_FILL of `maxSide` (decode.ts then shrinks the decode by area).
 */
export function jpegDecodeScale(width: number, height: number, maxSide: number): number {
  const long = Math.max(width, height);
  let num = 8;
  while (num > 1 && Math.ceil((long * num) / 8) > maxSide) num--;
  return num < 8 && Math.ceil((long * num) / 8) < MIN_JPEG_FILL * maxSide ? num + 1 : num;
}

/**
 * Peak memory of decoding a JPEG at the DCT scale `num` / 8: the input copy, libjpeg's working
 * buffers, the RGBA output in the codec's memory, and `copied` bytes of it copied out.
 */
export function jpegDecodeBytes(header: ImageHeader, inputBytes: number, num: number, copied: number): number {
  const { width, height } = header;
  const output = Math.ceil((width * num) / 8) * Math.ceil((height * num) / 8) * 4;
  // More than one scan (progressive, or non-interleaved baseline) makes libjpeg keep every DCT
  // coefficient of the image (64 × 2 bytes per 8 × 8 block per component) until the last scan.
  let coefficients = 0;
  if (header.scans > 1 || header.progressive) {
    const hMax = Math.max(1, ...header.sampling.map((s) => s.h));
    const vMax = Math.max(1, ...header.sampling.map((s) => s.v));
    for (const { h, v } of header.sampling) {
      const blocksWide = Math.ceil(Math.ceil((width * h) / hMax) / 8);
      const blocksHigh = Math.ceil(Math.ceil((height * v) / vMax) / 8);
      coefficients += blocksWide * blocksHigh * 128;
    }
  }
  // Row buffers: one MCU row of every component, scaled.
  const rows = width * header.channels * 16 * 2;
  return inputBytes + coefficients + rows + output + copied;
}
