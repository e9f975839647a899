// Decoding JPEG, PNG and WebP inside the Worker with WebAssembly codecs (@cwasm packages).
//
// Memory: a Worker has 128 MB. A 12 MP JPEG is decoded for the working image at a fraction of its
// size: libjpeg-turbo's DCT scaling (tjDecompress2 with a smaller target) decodes it straight to
// at most `maxSide` pixels, or, where the scales (n/8) fall far short of it (a 48 MP photo fits only
// at 1/8), one scale larger and then shrunk to `maxSide` by area (decode-budget.ts,
// jpegDecodeScale). A small card's region is read again at a larger scale (decodeRegion), within
// the memory its caller allows, and only the region is kept. PNG and WebP have no scaled decode:
// they are decoded whole and shrunk by area (image.ts, downscaleByArea: whole-pixel boxes would
// shift lines by up to a third of a pixel, differently along the image). Before any codec is
// instantiated, the file's header (JPEG SOF and
// scan count, PNG IHDR, WebP VP8/VP8L/VP8X) is read and the decode's memory is estimated from it
// (image-header.ts, decode-budget.ts); anything over DECODE_LIMITS is refused with a DecodeBudgetError naming the
// limit. Each decode gets a fresh WebAssembly
// instance: WASM memory never shrinks, so a reused instance would keep its largest allocation (and
// an instance that failed mid-decode may be left inconsistent).
import jpegTurbo from "@cwasm/jpeg-turbo/jpeg-turbo.wasm";
import lodepng from "@cwasm/lodepng/lodepng.wasm";
import webp from "@cwasm/webp/webp.wasm";
import { checkDecodeBudget, jpegDecodeBytes, jpegDecodeScale } from "./decode-budget";
import { applyOrientation, fitByArea, type RgbaImage } from "./image";
import {
  DECODE_LIMITS,
  DecodeError,
  type ExifFacts,
  type ImageFormat,
  type ImageHeader,
  jpegAppSegment,
  readExif,
} from "./image-header";

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
export const FULL_FRAME_DIAGONAL_MM = Math.hypot(36, 24);
/** 35 mm-equivalent focal lengths believed (mm): a phone's ultra-wide (13) to a long telephoto. */
const FOCAL_35MM_RANGE = { min: 12, max: 300 } as const;
/** The recorded pixel size must have the stored image's proportions within this (not cropped). */
const UNCROPPED_TOLERANCE = 0.01;
/**
 * Proportions (long / short) of a camera's whole frame: a phone's sensor (4:3) and a camera's
 * (3:2). A photo of other proportions (16:9, 1:1) was cut from such a frame by the camera.
 */
const WHOLE_FRAMES = [4 / 3, 3 / 2] as const;

/**
 * The focal length in pixels of an image `width` × `height` (any scale of the stored one): the
 * 35 mm-equivalent focal length is defined on the frame's diagonal, so f = f35 × diagonal / 43.27.
 * Only for the camera's whole frame: when EXIF records a pixel size of other proportions than the
 * stored image's (`sourceWidth` × `sourceHeight`), the photo was cropped and its centre is not
 * the lens's, so nothing is claimed. Nor when the photo has other proportions than a whole frame's
 * (WHOLE_FRAMES): which frame its 35 mm-equivalent refers to is not known. EXIF defines it on the
 * photo itself, but Samsung phones write their 4:3 frame's in a 16:9 photo cut from it (a Note9's
 * 16:9 photos: 26 mm, as in its 4:3 ones; its 4.3 mm lens over 1.4 µm pixels is 3071 px, the 4:3
 * frame's diagonal reads 3028 px and the photo's own 2780), and the two readings differ by 9 %.
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
  const proportions = Math.max(sourceWidth, sourceHeight) / Math.min(sourceWidth, sourceHeight);
  if (!WHOLE_FRAMES.some((frame) => Math.abs(proportions / frame - 1) <= UNCROPPED_TOLERANCE)) return null;
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
const TJPF_CMYK = 11;
/** TurboJPEG's colour spaces of a JPEG (tjDecompressHeader3): CMYK and YCCK decode to CMYK only. */
const TJCS_CMYK = 3;
const TJCS_YCCK = 4;

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
  const scaled = fitByArea(full, maxSide);
  return {
    image: applyOrientation(scaled, exif.orientation),
    format,
    sourceWidth: full.width,
    sourceHeight: full.height,
    orientation: exif.orientation,
    focalPx: lensFocalPx(exif, full.width, full.height, scaled.width, scaled.height),
  };
}

/**
 * The JPEG decoded at libjpeg-turbo's DCT scale `pick(width, height)` / 8 (tjDecompress2), left in
 * the codec's memory: `read` copies out what the caller keeps before the instance is dropped.
 */
function decodeJpegScaled<T>(
  bytes: Uint8Array,
  pick: (width: number, height: number) => number,
  read: (pixels: Uint8Array, width: number, height: number, sourceWidth: number, sourceHeight: number) => T,
): T {
  const codec = instantiate<JpegExports>(jpegTurbo, jpegImports);
  const input = copyIn(codec, bytes);
  const handle = codec.tjInitDecompress();
  if (handle === 0) throw new DecodeError("could not start the JPEG decoder");
  const header = codec.malloc(16);
  if (codec.tjDecompressHeader3(handle, input, bytes.byteLength, header, header + 4, header + 8, header + 12) !== 0) {
    throw new DecodeError("malformed JPEG header");
  }
  const [width = 0, height = 0, , colourSpace = 0] = new Uint32Array(codec.memory.buffer, header, 4);
  if (width === 0 || height === 0) throw new DecodeError("JPEG without pixels");
  // A four-ink JPEG (a scan saved for print) decodes to its inks, turned into light below.
  const inks = colourSpace === TJCS_CMYK || colourSpace === TJCS_YCCK;
  const num = pick(width, height);
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
    inks ? TJPF_CMYK : TJPF_RGBA,
    0,
  );
  if (status !== 0) throw new DecodeError("corrupt JPEG data");
  notePeak(codec);
  const pixels = new Uint8Array(codec.memory.buffer, output, outWidth * outHeight * 4);
  if (inks) inksToLight(pixels, adobeInverted(bytes));
  return read(pixels, outWidth, outHeight, width, height);
}

/**
 * Whether the JPEG carries Adobe's APP14 marker, whose CMYK and YCCK samples are stored inverted
 * (0 is full ink), as Photoshop and most tools write them; without it, 0 is no ink.
 */
function adobeInverted(bytes: Uint8Array): boolean {
  return jpegAppSegment(bytes, 0xee, "Adobe") !== null;
}

/**
 * Four inks per pixel (C, M, Y, K, stored inverted when `inverted`) turned in place into light
 * (R, G, B and an opaque alpha): each channel the light its ink and the black leave, as browsers
 * show such a file without a colour profile.
 */
function inksToLight(pixels: Uint8Array, inverted: boolean): void {
  // The light each ink lets through: its inverted sample as stored, or 255 less the ink.
  const through = (sample: number) => (inverted ? sample : 255 - sample);
  for (let o = 0; o < pixels.length; o += 4) {
    const black = through(pixels[o + 3] ?? 0);
    for (let ch = 0; ch < 3; ch++) pixels[o + ch] = Math.round((through(pixels[o + ch] ?? 0) * black) / 255);
    pixels[o + 3] = 255;
  }
}

function decodeJpeg(bytes: Uint8Array, maxSide: number): DecodedImage {
  const { data, outWidth, outHeight, width, height } = decodeJpegScaled(
    bytes,
    (w, h) => jpegDecodeScale(w, h, maxSide),
    (pixels, outWidth, outHeight, width, height) => ({ data: pixels.slice(), outWidth, outHeight, width, height }),
  );
  const exif = readExif(bytes);
  const scaled = fitByArea({ width: outWidth, height: outHeight, data }, maxSide);
  return {
    image: applyOrientation(scaled, exif.orientation),
    format: "jpeg",
    sourceWidth: width,
    sourceHeight: height,
    orientation: exif.orientation,
    focalPx: lensFocalPx(exif, width, height, scaled.width, scaled.height),
  };
}

/** A region of the working image read again from the stored photo at a larger scale (decodeRegion). */
export interface DetailImage {
  /** The region, upright. */
  image: RgbaImage;
  /** Its pixels per pixel of the working image, across and down. */
  scaleX: number;
  scaleY: number;
  /** Its top-left corner, in the working image's pixels. */
  originX: number;
  originY: number;
}

/** A region in the working image's (upright) pixels. */
export interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/**
 * `region` of `decoded`'s working image, read again from the stored photo at about `scale` times
 * the working image's resolution, or at the most the photo holds: a JPEG at the smallest DCT scale
 * n/8 that reaches it (the whole photo decodes in the codec's memory, within `maxBytes`, and only
 * the region is copied out), a PNG or WebP at its own size (they have no scaled decode; the first
 * decode held the whole photo already). Null when that is not at least `minGain` times the working
 * image's resolution.
 */
export function decodeRegion(
  bytes: Uint8Array,
  decoded: DecodedImage,
  region: Region,
  scale: number,
  minGain: number,
  maxBytes: number = DECODE_LIMITS.maxMemoryBytes,
): DetailImage | null {
  const header = checkDecodeBudget(bytes, Math.max(decoded.image.width, decoded.image.height));
  const workingLong = Math.max(decoded.image.width, decoded.image.height);
  const sourceLong = Math.max(decoded.sourceWidth, decoded.sourceHeight);
  if (header.format !== "jpeg") {
    if (sourceLong < minGain * workingLong) return null;
    const full = header.format === "png" ? decodePng(bytes) : decodeWebp(bytes);
    return cropUpright(full.data, full.width, full.height, decoded, region);
  }
  const num = regionDecodeScale(header, bytes.byteLength, workingLong, region, scale, maxBytes);
  if ((sourceLong * num) / 8 < minGain * workingLong) return null;
  return decodeJpegScaled(
    bytes,
    () => num,
    (pixels, width, height) => cropUpright(pixels, width, height, decoded, region),
  );
}

/**
 * The DCT scale n (of n/8) for reading `region` (working-image pixels; the working image's longer
 * side `workingLong`) of the JPEG `header` describes at `scale` times the working resolution: the
 * smallest n that reaches it, then smaller while the decode (the whole photo in the codec's memory,
 * the region copied out and turned upright) would pass `maxBytes`.
 */
export function regionDecodeScale(
  header: ImageHeader,
  inputBytes: number,
  workingLong: number,
  region: Region,
  scale: number,
  maxBytes: number = DECODE_LIMITS.maxMemoryBytes,
): number {
  const sourceLong = Math.max(header.width, header.height);
  const regionBytes = (n: number) => {
    const gain = (sourceLong * n) / 8 / workingLong;
    return Math.ceil(((region.x1 - region.x0) * gain + 2) * ((region.y1 - region.y0) * gain + 2)) * 4 * 2;
  };
  let num = 1;
  while (num < 8 && (sourceLong * num) / 8 < scale * workingLong) num++;
  while (num > 1 && jpegDecodeBytes(header, inputBytes, num, regionBytes(num)) > maxBytes) num--;
  return num;
}

/**
 * The region (working image pixels, upright) cut out of a stored-orientation image of
 * `width` × `height` that shows the whole photo at some scale, and turned upright (EXIF orientation).
 */
function cropUpright(
  pixels: Uint8Array,
  width: number,
  height: number,
  decoded: DecodedImage,
  region: Region,
): DetailImage {
  const orientation = decoded.orientation;
  const swap = orientation >= 5 && orientation <= 8;
  const uprightWidth = swap ? height : width;
  const uprightHeight = swap ? width : height;
  const scaleX = uprightWidth / decoded.image.width;
  const scaleY = uprightHeight / decoded.image.height;
  // The region in upright pixels of this scale, whole pixels, inside the photo.
  const ux0 = Math.max(0, Math.floor(region.x0 * scaleX));
  const uy0 = Math.max(0, Math.floor(region.y0 * scaleY));
  const ux1 = Math.min(uprightWidth, Math.ceil(region.x1 * scaleX));
  const uy1 = Math.min(uprightHeight, Math.ceil(region.y1 * scaleY));
  // The same rectangle in stored pixels (applyOrientation's mappings, inverted): orientations 5–8
  // swap the axes, 2, 3, 7 and 8 mirror the stored x, 3, 4, 6 and 7 the stored y.
  type Span = [number, number];
  const [ax, ay]: [Span, Span] = swap
    ? [
        [uy0, uy1],
        [ux0, ux1],
      ]
    : [
        [ux0, ux1],
        [uy0, uy1],
      ];
  const sx: Span = [2, 3, 7, 8].includes(orientation) ? [width - ax[1], width - ax[0]] : ax;
  const sy: Span = [3, 4, 6, 7].includes(orientation) ? [height - ay[1], height - ay[0]] : ay;
  const cropWidth = sx[1] - sx[0];
  const cropHeight = sy[1] - sy[0];
  const data = new Uint8Array(cropWidth * cropHeight * 4);
  for (let y = 0; y < cropHeight; y++) {
    const from = ((sy[0] + y) * width + sx[0]) * 4;
    data.set(pixels.subarray(from, from + cropWidth * 4), y * cropWidth * 4);
  }
  return {
    image: applyOrientation({ width: cropWidth, height: cropHeight, data }, orientation),
    scaleX,
    scaleY,
    originX: ux0 / scaleX,
    originY: uy0 / scaleY,
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
