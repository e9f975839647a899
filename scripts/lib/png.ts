// A minimal PNG encoder (8-bit RGB, no interlace) for the demo images the seed script draws.
import { deflateSync } from "node:zlib";

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

export interface RgbImage {
  width: number;
  height: number;
  /** width * height * 3 bytes, row-major RGB. */
  pixels: Uint8Array;
}

export function createImage(width: number, height: number, rgb: readonly [number, number, number]): RgbImage {
  const pixels = new Uint8Array(width * height * 3);
  for (let i = 0; i < width * height; i++) pixels.set(rgb, i * 3);
  return { width, height, pixels };
}

export function fillRect(
  image: RgbImage,
  x0: number,
  y0: number,
  w: number,
  h: number,
  rgb: readonly [number, number, number],
): void {
  const x1 = Math.min(image.width, Math.round(x0 + w));
  const y1 = Math.min(image.height, Math.round(y0 + h));
  for (let y = Math.max(0, Math.round(y0)); y < y1; y++) {
    for (let x = Math.max(0, Math.round(x0)); x < x1; x++) image.pixels.set(rgb, (y * image.width + x) * 3);
  }
}

export function strokeRect(
  image: RgbImage,
  x: number,
  y: number,
  w: number,
  h: number,
  thickness: number,
  rgb: readonly [number, number, number],
): void {
  fillRect(image, x, y, w, thickness, rgb);
  fillRect(image, x, y + h - thickness, w, thickness, rgb);
  fillRect(image, x, y, thickness, h, rgb);
  fillRect(image, x + w - thickness, y, thickness, h, rgb);
}

export function encodePng(image: RgbImage): Uint8Array {
  const { width, height, pixels } = image;
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 3 + 1)] = 0; // filter: none
    raw.set(pixels.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB
  const signature = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);
  const parts = [signature, chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", new Uint8Array())];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
