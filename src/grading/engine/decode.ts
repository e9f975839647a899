// Decoding JPEG, PNG and WebP inside the Worker with WebAssembly codecs (@cwasm packages).
//
// Memory: a Worker has 128 MB. A 12 MP JPEG is never fully decoded: libjpeg-turbo's DCT scaling
// (tjDecompress2 with a smaller target) decodes it straight to at most `maxSide` pixels. PNG and
// WebP have no scaled decode. Before any codec is instantiated, the file's header (JPEG SOF and
// scan count, PNG IHDR, WebP VP8/VP8L/VP8X) is read and the decode's memory is estimated from it
// (image-header.ts, decode-budget.ts); anything over DECODE_LIMITS is refused with a DecodeBudgetError naming the
// limit. Each decode gets a fresh WebAssembly
// instance: WASM memory never shrinks, so a reused instance would keep its largest allocation (and
// an instance that failed mid-decode may be left inconsistent).
import jpegTurbo from "@cwasm/jpeg-turbo/jpeg-turbo.wasm";
import lodepng from "@cwasm/lodepng/lodepng.wasm";
import webp from "@cwasm/webp/webp.wasm";
import { checkDecodeBudget } from "./decode-budget";
import { applyOrientation, downscaleToFit, type RgbaImage } from "./image";
import { DecodeError, type ExifFacts, type ImageFormat, readExif } from "./image-header";

export { checkDecodeBudget, estimateDecodeBytes } from "./decode-budget";
export {
  DECODE_LIMITS,
  DecodeBudgetError,
  DecodeError,
  detectFormat,
  type ExifFacts,
  exifOrientation,
  type ImageFormat,
  type ImageHeader,
  readExif,
  readImageHeader,
} from "./image-header";

export interface DecodedImage {
  image: RgbaImage;
  format: ImageFormat;
  /** Size of the image as stored, before scaling and orientation. */
  sourceWidth: number;
  sourceHeight: number;
  /** EXIF orientation applied (1 = none). */
  orientation: number;
  /**
   * The lens's focal length in pixels of `image`, from the EXIF 35 mm-equivalent focal length
   * (lensFocalPx); null without one, or when the photo is not the camera's whole frame.
   */
  focalPx: number | null;
}

/** The diagonal of the 36 × 24 mm frame the 35 mm-equivalent focal length refers to. */
const FULL_FRAME_DIAGONAL_MM = Math.hypot(36, 24);
/** 35 mm-equivalent focal lengths believed (mm): a phone's ultra-wide (13) to a long telephoto. */
const FOCAL_35MM_RANGE = { min: 12, max: 300 } as const;
/** The recorded pixel size must have the stored image's proportions within this (not cropped). */
const UNCROPPED_TOLERANCE = 0.01;

/**
 * The focal length in pixels of an image `width` × `height` (any scale of the stored one): the
 * 35 mm-equivalent focal length is defined on the frame's diagonal, so f = f35 × diagonal / 43.27.
 * Only for the camera's whole frame: when EXIF records a pixel size of other proportions than the
 * stored image's (`sourceWidth` × `sourceHeight`), the photo was cropped and its centre is not
 * the lens's, so nothing is claimed.
 */
export function lensFocalPx(
  exif: ExifFacts,
  sourceWidth: number,
  sourceHeight: number,
  width: number,
  height: number,
): number | null {
  const f35 = exif.focal35mm;
  if (f35 === null || f35 < FOCAL_35MM_RANGE.min || f35 > FOCAL_35MM_RANGE.max) return null;
  if (exif.pixelWidth !== null && exif.pixelHeight !== null) {
    const recorded = Math.max(exif.pixelWidth, exif.pixelHeight) / Math.min(exif.pixelWidth, exif.pixelHeight);
    const stored = Math.max(sourceWidth, sourceHeight) / Math.min(sourceWidth, sourceHeight);
    if (Math.abs(recorded / stored - 1) > UNCROPPED_TOLERANCE) return null;
  }
  return (f35 * Math.hypot(width, height)) / FULL_FRAME_DIAGONAL_MM;
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

/** Decodes `bytes` to RGBA with its longer side at most `maxSide`, upright per EXIF (any of the three formats). */
export function decodeImage(bytes: Uint8Array, maxSide: number): DecodedImage {
  const header = checkDecodeBudget(bytes, maxSide);
  const format = header.format;
  if (format === "jpeg") return decodeJpeg(bytes, maxSide);
  const full = format === "png" ? decodePng(bytes) : decodeWebp(bytes);
  const exif = readExif(bytes);
  const scaled = downscaleToFit(full, maxSide);
  return {
    image: applyOrientation(scaled, exif.orientation),
    format,
    sourceWidth: full.width,
    sourceHeight: full.height,
    orientation: exif.orientation,
    focalPx: lensFocalPx(exif, full.width, full.height, scaled.width, scaled.height),
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
  const exif = readExif(bytes);
  const scaled = downscaleToFit({ width: outWidth, height: outHeight, data }, maxSide);
  return {
    image: applyOrientation(scaled, exif.orientation),
    format: "jpeg",
    sourceWidth: width,
    sourceHeight: height,
    orientation: exif.orientation,
    focalPx: lensFocalPx(exif, width, height, scaled.width, scaled.height),
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
