// 64-bit perceptual hash (pHash): the image shrunk to 32 × 32 grey, its 2-D DCT, and one bit per
// low-frequency coefficient (the top-left 8 × 8 block without the DC term) above their median.
// Robust to scale, JPEG compression and lighting; used to tell duplicate faces apart and to find
// the nearest catalog reference image.
import { downscaleToFit, type RgbaImage, toGray } from "./image";

const SIZE = 32;
const LOW = 8;

export function perceptualHash(image: RgbaImage): string {
  const small = toGray(resizeExact(image, SIZE, SIZE));
  const dct: number[] = [];
  for (let u = 0; u < LOW; u++) {
    for (let v = 0; v < LOW; v++) {
      let sum = 0;
      for (let y = 0; y < SIZE; y++) {
        const cy = Math.cos(((2 * y + 1) * u * Math.PI) / (2 * SIZE));
        for (let x = 0; x < SIZE; x++) {
          sum += (small.data[y * SIZE + x] ?? 0) * cy * Math.cos(((2 * x + 1) * v * Math.PI) / (2 * SIZE));
        }
      }
      dct.push(sum);
    }
  }
  const ac = dct.slice(1);
  const sorted = [...ac].sort((a, b) => a - b);
  const median = ((sorted[31] ?? 0) + (sorted[32] ?? 0)) / 2;
  let hex = "";
  for (let nibble = 0; nibble < 16; nibble++) {
    let value = 0;
    for (let bit = 0; bit < 4; bit++) {
      const coefficient = dct[nibble * 4 + bit] ?? 0;
      // The DC term (index 0) carries brightness only; it is always written as 0.
      value = (value << 1) | (nibble * 4 + bit > 0 && coefficient > median ? 1 : 0);
    }
    hex += value.toString(16);
  }
  return hex;
}

export function hammingDistance(a: string, b: string): number {
  let distance = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    let x = Number.parseInt(a[i] ?? "0", 16) ^ Number.parseInt(b[i] ?? "0", 16);
    while (x) {
      distance += x & 1;
      x >>= 1;
    }
  }
  return distance + Math.abs(a.length - b.length) * 4;
}

function resizeExact(image: RgbaImage, width: number, height: number): RgbaImage {
  // Area-average to the larger of the two sizes, then sample the exact grid.
  const fitted = downscaleToFit(image, Math.max(width, height) * 2);
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = Math.min(fitted.width - 1, Math.floor(((x + 0.5) * fitted.width) / width));
      const sy = Math.min(fitted.height - 1, Math.floor(((y + 0.5) * fitted.height) / height));
      out.set(
        fitted.data.subarray((sy * fitted.width + sx) * 4, (sy * fitted.width + sx) * 4 + 4),
        (y * width + x) * 4,
      );
    }
  }
  return { width, height, data: out };
}
