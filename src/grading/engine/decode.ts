// Decoding JPEG, PNG and WebP inside the Worker with WebAssembly codecs (@cwasm packages).
//
// Memory: a Worker has 128 MB. A 12 MP JPEG is never fully decoded: libjpeg-turbo's DCT scaling
// (tjDecompress2 with a smaller target) decodes it straight to at most `maxSide` pixels. PNG and
// WebP have no scaled decode. Before any codec is instantiated, the file's header (JPEG SOF and
// scan count, PNG IHDR, WebP VP8/VP8L/VP8X) is read and the decode's memory is estimated from it;
// anything over DECODE_LIMITS is refused with a DecodeBudgetError naming the limit (a few hundred
// bytes of header can otherwise claim gigabytes of pixels). Each decode gets a fresh WebAssembly
// instance: WASM memory never shrinks, so a reused instance would keep its largest allocation (and
// an instance that failed mid-decode may be left inconsistent).
import jpegTurbo from "@cwasm/jpeg-turbo/jpeg-turbo.wasm";
import lodepng from "@cwasm/lodepng/lodepng.wasm";
import webp from "@cwasm/webp/webp.wasm";
import { applyOrientation, downscaleToFit, type RgbaImage } from "./image";

export type ImageFormat = "jpeg" | "png" | "webp";

/**
 * What one decode may cost, checked from the header before anything is allocated. Two images are
 * decoded one after the other inside a 128 MB isolate that also holds the request, so one decode
 * gets at most 64 MiB (codec memory plus the copy handed back). 50 MP bounds the work of a DCT-scaled
 * JPEG (the largest phone sensors); 100 scans bounds a progressive JPEG's passes over its
 * coefficients (common encoders write 10 or fewer; libjpeg-turbo's own TJFLAG_LIMITSCANS uses 500).
 */
export const DECODE_LIMITS = {
  maxPixels: 50_000_000,
  maxMemoryBytes: 64 * 1024 * 1024,
  maxJpegScans: 100,
} as const;

export class DecodeError extends Error {
  override name = "DecodeError";
}

/** The image is well formed but over a decode budget; the message names the limit. */
export class DecodeBudgetError extends DecodeError {
  override name = "DecodeBudgetError";
}

/** What the header says, before any pixel is decoded. */
export interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
  /** Bits per sample (JPEG precision, PNG bit depth; 8 for WebP). */
  bitDepth: number;
  /** Samples per pixel as stored (1 grey/palette, 2 grey+alpha, 3 colour, 4 colour+alpha or CMYK). */
  channels: number;
  /** JPEG: progressive (SOF2/6/10/14). PNG: Adam7 interlaced. */
  progressive: boolean;
  /** JPEG: scans (SOS markers) in the file; 1 for other formats. */
  scans: number;
  /** JPEG: each component's sampling factors. */
  sampling: { h: number; v: number }[];
  /** WebP: lossless (VP8L) data, whose decoder keeps a full ARGB frame besides the output. */
  lossless: boolean;
  /** WebP: an alpha plane beside lossy data. */
  alpha: boolean;
}

export interface DecodedImage {
  image: RgbaImage;
  format: ImageFormat;
  /** Size of the image as stored, before scaling and orientation. */
  sourceWidth: number;
  sourceHeight: number;
  /** EXIF orientation applied (1 = none). */
  orientation: number;
}

interface CodecExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
}

interface JpegExports extends CodecExports {
  tjInitDecompress(): number;
  tjDestroy(handle: number): number;
  tjDecompressHeader3(handle: number, src: number, size: number, w: number, h: number, sub: number, cs: number): number;
  tjDecompress2(
    handle: number,
    src: number,
    size: number,
    dst: number,
    w: number,
    pitch: number,
    h: number,
    pf: number,
    flags: number,
  ): number;
}

interface WebpExports extends CodecExports {
  WebPDecodeRGBA(src: number, size: number, w: number, h: number): number;
}

interface PngExports extends CodecExports {
  _initialize(): void;
  lodepng_decode32(out: number, w: number, h: number, src: number, size: number): number;
}

const TJPF_RGBA = 7;

// The codecs were built with WASI for malloc/free only; file and process calls never happen on the
// paths used here, and libjpeg's longjmp error exit becomes a JS exception that aborts the decode.
const wasiImports = {
  proc_exit: () => {
    throw new DecodeError("codec exited");
  },
  environ_sizes_get: () => 0,
  environ_get: () => 0,
  fd_close: () => 0,
  fd_seek: () => 0,
  fd_write: () => 0,
};
const jpegImports = {
  env: {
    setjmp: () => 0,
    longjmp: () => {
      throw new DecodeError("corrupt JPEG data");
    },
  },
  wasi_snapshot_preview1: wasiImports,
};

let peakMemoryBytes = 0;

function instantiate<T extends CodecExports>(module: WebAssembly.Module, imports: WebAssembly.Imports): T {
  return new WebAssembly.Instance(module, imports).exports as unknown as T;
}

/** Records the codec's linear memory size after a decode (for the benchmark). */
function notePeak(codec: CodecExports): void {
  peakMemoryBytes = Math.max(peakMemoryBytes, codec.memory.buffer.byteLength);
}

/** The largest WebAssembly memory any decode used since the last reset. */
export function peakCodecMemoryBytes(): number {
  return peakMemoryBytes;
}

export function resetCodecMemoryPeak(): void {
  peakMemoryBytes = 0;
}

function copyIn(codec: CodecExports, bytes: Uint8Array): number {
  const pointer = codec.malloc(bytes.byteLength);
  if (pointer === 0) throw new DecodeError("out of memory");
  new Uint8Array(codec.memory.buffer, pointer, bytes.byteLength).set(bytes);
  return pointer;
}

export function detectFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

/** Decodes `bytes` to RGBA with its longer side at most `maxSide`, upright per EXIF. */
export function decodeImage(bytes: Uint8Array, maxSide: number): DecodedImage {
  const header = checkDecodeBudget(bytes, maxSide);
  const format = header.format;
  if (format === "jpeg") return decodeJpeg(bytes, maxSide);
  const full = format === "png" ? decodePng(bytes) : decodeWebp(bytes);
  return {
    image: downscaleToFit(full, maxSide),
    format,
    sourceWidth: full.width,
    sourceHeight: full.height,
    orientation: 1,
  };
}

function decodeJpeg(bytes: Uint8Array, maxSide: number): DecodedImage {
  const codec = instantiate<JpegExports>(jpegTurbo, jpegImports);
  const input = copyIn(codec, bytes);
  const handle = codec.tjInitDecompress();
  if (handle === 0) throw new DecodeError("could not start the JPEG decoder");
  const header = codec.malloc(16);
  if (codec.tjDecompressHeader3(handle, input, bytes.byteLength, header, header + 4, header + 8, header + 12) !== 0) {
    throw new DecodeError("malformed JPEG header");
  }
  const [width = 0, height = 0] = new Uint32Array(codec.memory.buffer, header, 2);
  if (width === 0 || height === 0) throw new DecodeError("JPEG without pixels");
  // libjpeg-turbo's DCT scaling factors are n/8; take the largest that fits maxSide.
  let num = 8;
  while (num > 1 && Math.ceil((Math.max(width, height) * num) / 8) > maxSide) num--;
  const outWidth = Math.ceil((width * num) / 8);
  const outHeight = Math.ceil((height * num) / 8);
  const output = codec.malloc(outWidth * outHeight * 4);
  if (output === 0) throw new DecodeError("out of memory");
  const status = codec.tjDecompress2(
    handle,
    input,
    bytes.byteLength,
    output,
    outWidth,
    outWidth * 4,
    outHeight,
    TJPF_RGBA,
    0,
  );
  if (status !== 0) throw new DecodeError("corrupt JPEG data");
  const data = new Uint8Array(codec.memory.buffer, output, outWidth * outHeight * 4).slice();
  notePeak(codec);
  const orientation = exifOrientation(bytes);
  const scaled = downscaleToFit({ width: outWidth, height: outHeight, data }, maxSide);
  return {
    image: applyOrientation(scaled, orientation),
    format: "jpeg",
    sourceWidth: width,
    sourceHeight: height,
    orientation,
  };
}

function decodePng(bytes: Uint8Array): RgbaImage {
  const codec = instantiate<PngExports>(lodepng, {});
  codec._initialize();
  const input = copyIn(codec, bytes);
  const meta = codec.malloc(12);
  if (codec.lodepng_decode32(meta, meta + 4, meta + 8, input, bytes.byteLength) !== 0) {
    throw new DecodeError("corrupt PNG data");
  }
  const [pointer = 0, width = 0, height = 0] = new Uint32Array(codec.memory.buffer, meta, 3);
  notePeak(codec);
  return { width, height, data: new Uint8Array(codec.memory.buffer, pointer, width * height * 4).slice() };
}

function decodeWebp(bytes: Uint8Array): RgbaImage {
  const codec = instantiate<WebpExports>(webp, { wasi_snapshot_preview1: wasiImports });
  const input = copyIn(codec, bytes);
  const meta = codec.malloc(8);
  const pointer = codec.WebPDecodeRGBA(input, bytes.byteLength, meta, meta + 4);
  if (pointer === 0) throw new DecodeError("corrupt WebP data");
  const [width = 0, height = 0] = new Uint32Array(codec.memory.buffer, meta, 2);
  notePeak(codec);
  return { width, height, data: new Uint8Array(codec.memory.buffer, pointer, width * height * 4).slice() };
}

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
    let num = 8;
    while (num > 1 && Math.ceil((Math.max(width, height) * num) / 8) > maxSide) num--;
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
    return inputBytes + coefficients + rows + output * 2;
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

/** The header of a JPEG, PNG or WebP; DecodeError when it is not one or its header is malformed. */
export function readImageHeader(bytes: Uint8Array): ImageHeader {
  const format = detectFormat(bytes);
  if (!format) throw new DecodeError("not a JPEG, PNG or WebP image");
  const header = format === "jpeg" ? jpegHeader(bytes) : format === "png" ? pngHeader(bytes) : webpHeader(bytes);
  if (!header) throw new DecodeError(`malformed ${format.toUpperCase()} header`);
  if (header.width === 0 || header.height === 0) throw new DecodeError(`${format.toUpperCase()} without pixels`);
  return header;
}

const plainHeader = { progressive: false, scans: 1, sampling: [], lossless: false, alpha: false };

/**
 * The frame header (SOFn) and the number of scans (SOS markers). Markers are walked by their
 * lengths; inside entropy-coded data a marker is 0xFF followed by anything but 0x00 (a stuffed
 * byte) or a restart marker (0xD0–0xD7).
 */
function jpegHeader(bytes: Uint8Array): ImageHeader | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let frame: ImageHeader | null = null;
  let scans = 0;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    if (marker === 0xd9) break; // end of image
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    const length = view.getUint16(offset + 2);
    if (length < 2) return null;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (frame || offset + 10 > bytes.length) return null;
      const count = bytes[offset + 9] ?? 0;
      if (count === 0 || offset + 10 + count * 3 > bytes.length) return null;
      const sampling: { h: number; v: number }[] = [];
      for (let i = 0; i < count; i++) {
        const factors = bytes[offset + 11 + i * 3] ?? 0;
        sampling.push({ h: Math.max(1, factors >> 4), v: Math.max(1, factors & 0x0f) });
      }
      frame = {
        format: "jpeg",
        bitDepth: bytes[offset + 4] ?? 0,
        height: view.getUint16(offset + 5),
        width: view.getUint16(offset + 7),
        channels: count,
        progressive: marker === 0xc2 || marker === 0xc6 || marker === 0xca || marker === 0xce,
        scans: 0,
        sampling,
        lossless: false,
        alpha: false,
      };
      if (frame.bitDepth !== 8) {
        throw new DecodeBudgetError(`the JPEG has ${frame.bitDepth}-bit samples; only 8-bit JPEG is decoded`);
      }
    }
    offset += 2 + length;
    if (marker !== 0xda) continue;
    scans++;
    if (scans > DECODE_LIMITS.maxJpegScans) break; // over the limit already: no need to count on
    // Skip the entropy-coded data up to the next real marker.
    // (indexOf is native: a 12 MB scan is skipped in milliseconds, not a byte-by-byte JS loop.)
    while (offset + 1 < bytes.length) {
      const at = bytes.indexOf(0xff, offset);
      if (at === -1 || at + 1 >= bytes.length) {
        offset = bytes.length;
        break;
      }
      const next = bytes[at + 1] ?? 0;
      offset = at;
      if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) break;
      offset += next === 0xff ? 1 : 2;
    }
  }
  if (!frame) return null;
  return { ...frame, scans };
}

/** IHDR: width, height, bit depth, colour type, interlace method. */
function pngHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 33) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") return null;
  const bitDepth = bytes[24] ?? 0;
  const colourType = bytes[25] ?? 0;
  const channelsByType: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
  const channels = channelsByType[colourType];
  if (channels === undefined || ![1, 2, 4, 8, 16].includes(bitDepth)) return null;
  return {
    ...plainHeader,
    format: "png",
    width: view.getUint32(16),
    height: view.getUint32(20),
    bitDepth,
    channels,
    progressive: bytes[28] === 1,
  };
}

/** Canvas size from the first WebP chunk: VP8X (extended), VP8L (lossless) or VP8 (lossy). */
function webpHeader(bytes: Uint8Array): ImageHeader | null {
  if (bytes.length < 30) return null;
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  const b = (i: number) => bytes[i] ?? 0;
  const webp = { ...plainHeader, format: "webp" as const, bitDepth: 8, channels: 4 };
  if (chunk === "VP8X") {
    // The canvas; the image data follows in a VP8 or VP8L chunk after optional ones (ICCP, ALPH,
    // ANIM…). Lossless unless a VP8 chunk is found: the costlier decoder is assumed when unsure.
    let lossless = true;
    for (let at = 30; at + 8 <= bytes.length; ) {
      const name = String.fromCharCode(...bytes.subarray(at, at + 4));
      if (name === "VP8 ") lossless = false;
      if (name === "VP8 " || name === "VP8L") break;
      const size = (b(at + 4) | (b(at + 5) << 8) | (b(at + 6) << 16) | (b(at + 7) << 24)) >>> 0;
      at += 8 + size + (size % 2);
    }
    return {
      ...webp,
      width: 1 + (b(24) | (b(25) << 8) | (b(26) << 16)),
      height: 1 + (b(27) | (b(28) << 8) | (b(29) << 16)),
      lossless,
      alpha: (b(20) & 0x10) !== 0,
    };
  }
  if (chunk === "VP8L") {
    if (b(20) !== 0x2f) return null;
    const bits = b(21) | (b(22) << 8) | (b(23) << 16) | (b(24) << 24);
    return { ...webp, width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff), lossless: true };
  }
  if (chunk === "VP8 ") {
    // A key frame's start code 9D 01 2A, then 14-bit width and height.
    if (b(23) !== 0x9d || b(24) !== 0x01 || b(25) !== 0x2a) return null;
    return { ...webp, width: (b(26) | (b(27) << 8)) & 0x3fff, height: (b(28) | (b(29) << 8)) & 0x3fff, channels: 3 };
  }
  return null;
}

/** The EXIF orientation tag (0x0112) of a JPEG's APP1 segment, or 1. */
export function exifOrientation(bytes: Uint8Array): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (view.getUint8(offset) !== 0xff) return 1;
    const marker = view.getUint8(offset + 1);
    if (marker === 0xda || marker === 0xd9) return 1; // start of scan / end: no EXIF before the pixels
    const length = view.getUint16(offset + 2);
    if (marker === 0xe1 && offset + 10 <= bytes.length && view.getUint32(offset + 4) === 0x45786966) {
      return readOrientation(view, offset + 10, Math.min(bytes.length, offset + 2 + length)) ?? 1;
    }
    offset += 2 + length;
  }
  return 1;
}

function readOrientation(view: DataView, tiff: number, end: number): number | null {
  if (tiff + 8 > end) return null;
  const order = view.getUint16(tiff);
  const little = order === 0x4949;
  if (!little && order !== 0x4d4d) return null;
  const ifd = tiff + view.getUint32(tiff + 4, little);
  if (ifd + 2 > end) return null;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) return null;
    if (view.getUint16(entry, little) === 0x0112) {
      const value = view.getUint16(entry + 8, little);
      return value >= 1 && value <= 8 ? value : null;
    }
  }
  return null;
}
