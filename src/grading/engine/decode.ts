// Decoding JPEG, PNG and WebP inside the Worker with WebAssembly codecs (@cwasm packages).
//
// Memory: a Worker has 128 MB. A 12 MP JPEG is never fully decoded: libjpeg-turbo's DCT scaling
// (tjDecompress2 with a smaller target) decodes it straight to at most `maxSide` pixels. PNG and
// WebP have no scaled decode, so their pixel count is capped before decoding. Each decode gets a
// fresh WebAssembly instance: WASM memory never shrinks, so a reused instance would keep its
// largest allocation (and an instance that failed mid-decode may be left inconsistent).
import jpegTurbo from "@cwasm/jpeg-turbo/jpeg-turbo.wasm";
import lodepng from "@cwasm/lodepng/lodepng.wasm";
import webp from "@cwasm/webp/webp.wasm";
import { applyOrientation, downscaleToFit, type RgbaImage } from "./image";

export type ImageFormat = "jpeg" | "png" | "webp";

/** Full-resolution pixels a PNG or WebP may have (48 MB of RGBA). */
export const MAX_UNSCALED_PIXELS = 12_000_000;

export class DecodeError extends Error {
  override name = "DecodeError";
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
  const format = detectFormat(bytes);
  if (!format) throw new DecodeError("not a JPEG, PNG or WebP image");
  if (format === "jpeg") return decodeJpeg(bytes, maxSide);
  const size = format === "png" ? pngSize(bytes) : webpSize(bytes);
  if (!size) throw new DecodeError(`malformed ${format.toUpperCase()} header`);
  if (size.width * size.height > MAX_UNSCALED_PIXELS) {
    throw new DecodeError(
      `${format.toUpperCase()} images are limited to ${MAX_UNSCALED_PIXELS / 1e6} MP; use JPEG for larger photos`,
    );
  }
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

function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Canvas size from the first WebP chunk: VP8X (extended), VP8L (lossless) or VP8 (lossy). */
function webpSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 30) return null;
  const chunk = String.fromCharCode(...bytes.subarray(12, 16));
  const b = (i: number) => bytes[i] ?? 0;
  if (chunk === "VP8X") {
    return { width: 1 + (b(24) | (b(25) << 8) | (b(26) << 16)), height: 1 + (b(27) | (b(28) << 8) | (b(29) << 16)) };
  }
  if (chunk === "VP8L") {
    const bits = b(21) | (b(22) << 8) | (b(23) << 16) | (b(24) << 24);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (chunk === "VP8 ") {
    return { width: (b(26) | (b(27) << 8)) & 0x3fff, height: (b(28) | (b(29) << 8)) & 0x3fff };
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
