// Image files whose headers claim what the test needs (huge sizes, 16-bit samples, many scans):
// a few hundred bytes each, so decode budgets can be tested without the pixels they describe.
import { encodeJpeg } from "./card-images";

/** Offset of the first frame header (SOF0–SOF15 but DHT/JPG/DAC) in a JPEG. */
function sofOffset(jpeg: Uint8Array): number {
  let offset = 2;
  while (offset + 4 <= jpeg.length) {
    const marker = jpeg[offset + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return offset;
    offset += 2 + (((jpeg[offset + 2] ?? 0) << 8) | (jpeg[offset + 3] ?? 0));
  }
  throw new Error("no SOF marker");
}

/**
 * A real 16 × 16 JPEG whose frame header is rewritten to `width` × `height` (SOF2 if progressive;
 * luma sampled 2 × 2 as phone cameras write, 4:2:0, if `subsampled`).
 */
export function jpegClaiming(
  width: number,
  height: number,
  options: { progressive?: boolean; subsampled?: boolean } = {},
): Uint8Array {
  const data = new Uint8Array(16 * 16 * 4).fill(128);
  const jpeg = encodeJpeg({ width: 16, height: 16, data }, 80).slice();
  const sof = sofOffset(jpeg);
  if (options.progressive) jpeg[sof + 1] = 0xc2;
  if (options.subsampled) jpeg[sof + 11] = 0x22;
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  view.setUint16(sof + 5, height);
  view.setUint16(sof + 7, width);
  return jpeg;
}

/** A progressive JPEG's markers with `scans` SOS segments, each followed by a few bytes of data. */
export function jpegWithScans(scans: number, width = 640, height = 480): Uint8Array {
  const bytes: number[] = [0xff, 0xd8];
  // SOF2: precision 8, height, width, 3 components (Y 2×2, Cb 1×1, Cr 1×1).
  bytes.push(0xff, 0xc2, 0, 17, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3);
  bytes.push(1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1);
  for (let i = 0; i < scans; i++) {
    // SOS for one component, then entropy-coded bytes including a stuffed 0xFF00 and a restart marker.
    bytes.push(0xff, 0xda, 0, 8, 1, 1, 0, 0, 63, 0);
    bytes.push(0x12, 0xff, 0x00, 0x34, 0xff, 0xd0, 0x56);
  }
  bytes.push(0xff, 0xd9);
  return new Uint8Array(bytes);
}

/** A PNG signature and IHDR (no image data) claiming the given size, depth, colour type and interlace. */
export function pngClaiming(
  width: number,
  height: number,
  options: { bitDepth?: number; colourType?: number; interlaced?: boolean } = {},
): Uint8Array {
  const bytes = new Uint8Array(33);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(bytes.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  bytes[24] = options.bitDepth ?? 8;
  bytes[25] = options.colourType ?? 6;
  bytes[28] = options.interlaced ? 1 : 0;
  return bytes;
}

const ascii = (text: string) => Array.from(text, (ch) => ch.charCodeAt(0));
const le32 = (value: number) => [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, (value >>> 24) & 0xff];
const le24 = (value: number) => [value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff];

function riff(chunks: number[]): Uint8Array {
  return new Uint8Array([...ascii("RIFF"), ...le32(4 + chunks.length), ...ascii("WEBP"), ...chunks]);
}

/** A lossy WebP (VP8 key frame header) claiming `width` × `height`. */
export function webpLossyClaiming(width: number, height: number): Uint8Array {
  const payload = [0x10, 0x02, 0x00, 0x9d, 0x01, 0x2a, width & 0xff, width >> 8, height & 0xff, height >> 8, 0, 0];
  return riff([...ascii("VP8 "), ...le32(payload.length), ...payload]);
}

/** A lossless WebP (VP8L header) claiming `width` × `height`. */
export function webpLosslessClaiming(width: number, height: number): Uint8Array {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  const payload = [0x2f, ...le32(bits), 0, 0, 0, 0, 0, 0, 0];
  return riff([...ascii("VP8L"), ...le32(payload.length), ...payload]);
}

/** An extended WebP (VP8X canvas) claiming `width` × `height`, its data in a VP8 or VP8L chunk. */
export function webpExtendedClaiming(width: number, height: number, data: "VP8 " | "VP8L"): Uint8Array {
  const vp8x = [...ascii("VP8X"), ...le32(10), 0, 0, 0, 0, ...le24(width - 1), ...le24(height - 1)];
  const inner = data === "VP8L" ? webpLosslessClaiming(width, height) : webpLossyClaiming(width, height);
  return riff([...vp8x, ...inner.subarray(12)]);
}
