/** An 8-bit RGBA raster, row-major. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** An 8-bit single-channel raster (luma), row-major. */
export interface GrayImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** Rec. 601 luma, the weights JPEG itself uses. */
export function toGray(image: RgbaImage): GrayImage {
  const { width, height, data } = image;
  const out = new Uint8Array(width * height);
  for (let i = 0, p = 0; i < out.length; i++, p += 4) {
    out[i] = (77 * (data[p] ?? 0) + 150 * (data[p + 1] ?? 0) + 29 * (data[p + 2] ?? 0)) >> 8;
  }
  return { width, height, data: out };
}

/** Box-filter (area average) downscale so the longer side is at most `maxSide`. */
export function downscaleToFit(image: RgbaImage, maxSide: number): RgbaImage {
  const scale = Math.max(image.width, image.height) / maxSide;
  if (scale <= 1) return image;
  const width = Math.max(1, Math.round(image.width / scale));
  const height = Math.max(1, Math.round(image.height / scale));
  const out = new Uint8Array(width * height * 4);
  const src = image.data;
  // Each output pixel is the mean of a box of source pixels; the boxes' columns are the same on
  // every row, so they are worked out once, and each output row sums its source rows into `sums`.
  const columns = new Int32Array(width + 1);
  for (let x = 0; x <= width; x++) columns[x] = Math.floor((x * image.width) / width);
  const sums = new Float64Array(width * 4);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * image.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * image.height) / height));
    sums.fill(0);
    for (let sy = y0; sy < y1; sy++) {
      const row = sy * image.width * 4;
      for (let x = 0; x < width; x++) {
        const x0 = columns[x] ?? 0;
        const x1 = Math.max(x0 + 1, columns[x + 1] ?? 0);
        let r = 0;
        let g = 0;
        let b = 0;
        let a = 0;
        for (let p = row + x0 * 4, end = row + x1 * 4; p < end; p += 4) {
          r += src[p] ?? 0;
          g += src[p + 1] ?? 0;
          b += src[p + 2] ?? 0;
          a += src[p + 3] ?? 0;
        }
        const o = x * 4;
        sums[o] = (sums[o] ?? 0) + r;
        sums[o + 1] = (sums[o + 1] ?? 0) + g;
        sums[o + 2] = (sums[o + 2] ?? 0) + b;
        sums[o + 3] = (sums[o + 3] ?? 0) + a;
      }
    }
    for (let x = 0; x < width; x++) {
      const x0 = columns[x] ?? 0;
      const n = (y1 - y0) * (Math.max(x0 + 1, columns[x + 1] ?? 0) - x0);
      const o = x * 4;
      const q = (y * width + x) * 4;
      out[q] = (sums[o] ?? 0) / n;
      out[q + 1] = (sums[o + 1] ?? 0) / n;
      out[q + 2] = (sums[o + 2] ?? 0) / n;
      out[q + 3] = (sums[o + 3] ?? 0) / n;
    }
  }
  return { width, height, data: out };
}

/** Applies an EXIF orientation (1–8) so the pixels stand the way the camera meant them to. */
export function applyOrientation(image: RgbaImage, orientation: number): RgbaImage {
  if (orientation < 2 || orientation > 8) return image;
  const { width: w, height: h, data } = image;
  const swap = orientation >= 5;
  const outW = swap ? h : w;
  const outH = swap ? w : h;
  const out = new Uint8Array(data.length);
  const view = new Uint32Array(data.buffer, data.byteOffset, w * h);
  const outView = new Uint32Array(out.buffer);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let dx: number;
      let dy: number;
      switch (orientation) {
        case 2: // mirrored horizontally
          dx = w - 1 - x;
          dy = y;
          break;
        case 3: // rotated 180°
          dx = w - 1 - x;
          dy = h - 1 - y;
          break;
        case 4: // mirrored vertically
          dx = x;
          dy = h - 1 - y;
          break;
        case 5: // transposed
          dx = y;
          dy = x;
          break;
        case 6: // needs 90° clockwise
          dx = h - 1 - y;
          dy = x;
          break;
        case 7: // transversed
          dx = h - 1 - y;
          dy = w - 1 - x;
          break;
        default: // 8: needs 90° counter-clockwise
          dx = y;
          dy = w - 1 - x;
      }
      outView[dy * outW + dx] = view[y * w + x] ?? 0;
    }
  }
  return { width: outW, height: outH, data: out };
}
