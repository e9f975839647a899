// Reading an image's header before any pixel is decoded: its format, size, bit depth, channels,
// JPEG scans and sampling, PNG interlace, WebP kind, and EXIF facts (orientation, lens);
// decode-budget.ts turns them into the decode's memory; and the limits a decode must stay within.
// No allocation, one pass over a JPEG's markers.
export type ImageFormat = "jpeg" | "png" | "webp";

export class DecodeError extends Error {
  override name = "DecodeError";
}

/**
 * What one decode may cost, checked from the header before anything is allocated. Two images are
 * decoded one after the other inside a 128 MB isolate that also holds the request, so one decode
 * gets at most 64 MiB (codec memory plus the copy handed back). 64 MP bounds the work of a DCT-scaled
 * JPEG: a phone's 50 MP sensor writes up to 8192 × 6144 pixels (50.3 MP), which the 50 MP limit
 * before stop 107 refused; 100 scans bounds a progressive JPEG's passes over its
 * coefficients (common encoders write 10 or fewer; libjpeg-turbo's own TJFLAG_LIMITSCANS uses 500).
 */
export const DECODE_LIMITS = {
  maxPixels: 64_000_000,
  maxMemoryBytes: 64 * 1024 * 1024,
  maxJpegScans: 100,
} as const;

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

export function detectFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return "png";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

/**
 * The name of a format that is not decoded here, told by its signature, or null: phones save HEIC
 * (iPhones by default) or AVIF, scans and screenshots come as GIF, BMP, TIFF, JPEG XL or PDF, and
 * an image URL may answer a web page or an SVG drawing.
 */
function otherImageFormat(bytes: Uint8Array): string | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  // Text, after any byte-order mark and white space: its first 256 characters, lower-cased.
  const text = ascii(0, 256)
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, "")
    .trimStart()
    .toLowerCase();
  if (text.startsWith("%pdf-")) return "a PDF document";
  if (text.startsWith("<!doctype html") || text.startsWith("<html")) return "a web page (HTML)";
  if (text.startsWith("<svg") || (text.startsWith("<?xml") && text.includes("<svg"))) return "an SVG drawing";
  if ((bytes[0] === 0xff && bytes[1] === 0x0a) || ascii(4, 12) === "JXL \r\n\x87\n") return "a JPEG XL image";
  if (bytes.length >= 12 && ascii(4, 8) === "ftyp") {
    const brand = ascii(8, 12);
    if (brand === "avif" || brand === "avis") return "an AVIF image";
    if (["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "msf1"].includes(brand))
      return "a HEIC (HEIF) photo (iPhones save photos so by default)";
  }
  if (ascii(0, 4) === "GIF8") return "a GIF image";
  if (ascii(0, 2) === "BM") return "a BMP image";
  if (ascii(0, 4) === "II*\0" || ascii(0, 4) === "MM\0*") return "a TIFF image";
  return null;
}

/** The header of a JPEG, PNG or WebP; DecodeError when it is not one or its header is malformed. */
export function readImageHeader(bytes: Uint8Array): ImageHeader {
  const format = detectFormat(bytes);
  if (!format) {
    const other = otherImageFormat(bytes);
    throw new DecodeError(
      other ? `${other}, not a JPEG, PNG or WebP image: send the photo as JPEG` : "not a JPEG, PNG or WebP image",
    );
  }
  // An animated WebP (VP8X with its animation flag): libwebp's still decoder reads no frame of it.
  if (format === "webp" && String.fromCharCode(...bytes.subarray(12, 16)) === "VP8X" && ((bytes[20] ?? 0) & 0x02) !== 0)
    throw new DecodeError("an animated WebP: send a still photo");
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

/** What a JPEG's EXIF (APP1) says about the photo's orientation and the camera that took it. */
export interface ExifFacts {
  /** Orientation tag (0x0112), 1–8; 1 when absent. */
  orientation: number;
  /** FocalLengthIn35mmFilm (0xA405), in mm; null when absent or 0 (unknown). */
  focal35mm: number | null;
  /** PixelXDimension / PixelYDimension (0xA002 / 0xA003): the image the camera wrote; null when absent. */
  pixelWidth: number | null;
  pixelHeight: number | null;
}

const NO_EXIF: ExifFacts = { orientation: 1, focal35mm: null, pixelWidth: null, pixelHeight: null };

/** The EXIF orientation tag (0x0112) of an image, or 1. */
export function exifOrientation(bytes: Uint8Array): number {
  return readExif(bytes).orientation;
}

/**
 * The EXIF facts of an image: IFD0's orientation and, through its Exif IFD pointer (0x8769), the
 * 35 mm-equivalent focal length and the pixel size the camera recorded. A JPEG carries them in its
 * first APP1 "Exif" segment before the scan, a PNG in an eXIf chunk, a WebP in an EXIF chunk.
 * Every offset is bounds-checked against its segment or chunk; anything malformed reads as absent.
 */
export function readExif(bytes: Uint8Array): ExifFacts {
  const format = detectFormat(bytes);
  if (format === "png") return pngExif(bytes);
  if (format === "webp") return webpExif(bytes);
  return format === "jpeg" ? jpegExif(bytes) : NO_EXIF;
}

/** PNG chunks (big-endian length, type, data, CRC) up to IEND: the eXIf chunk's TIFF data. */
function pngExif(bytes: Uint8Array): ExifFacts {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === "IEND") break;
    if (type === "eXIf") return readTiff(view, at + 8, Math.min(bytes.length, at + 8 + length));
    at += 12 + length;
  }
  return NO_EXIF;
}

/** WebP chunks (FourCC, little-endian size, data padded to even) after the RIFF header: the EXIF chunk. */
function webpExif(bytes: Uint8Array): ExifFacts {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 12; at + 8 <= bytes.length; ) {
    const name = String.fromCharCode(...bytes.subarray(at, at + 4));
    const size = view.getUint32(at + 4, true);
    if (name === "EXIF") {
      const end = Math.min(bytes.length, at + 8 + size);
      // Some writers keep the JPEG segment's "Exif\0\0" before the TIFF header.
      const tiff = at + 14 <= end && view.getUint32(at + 8) === 0x45786966 ? at + 14 : at + 8;
      return readTiff(view, tiff, end);
    }
    at += 8 + size + (size % 2);
  }
  return NO_EXIF;
}

/** A JPEG's first APP1 "Exif" segment before the scan. */
function jpegExif(bytes: Uint8Array): ExifFacts {
  const segment = jpegAppSegment(bytes, 0xe1, "Exif");
  if (!segment || segment.start + 6 > bytes.length) return NO_EXIF;
  // "Exif" and two zero bytes, then the TIFF structure.
  return readTiff(new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), segment.start + 6, segment.end);
}

/**
 * A JPEG's first APP`n` segment (`marker`, 0xe0–0xef) before the scan whose data begins with
 * `tag`: where its data starts and ends in `bytes`; null when there is none.
 */
export function jpegAppSegment(bytes: Uint8Array, marker: number, tag: string): { start: number; end: number } | null {
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const found = bytes[offset + 1] ?? 0;
    if (found === 0xda || found === 0xd9) return null; // start of scan / end: none before the pixels
    const length = ((bytes[offset + 2] ?? 0) << 8) | (bytes[offset + 3] ?? 0);
    const start = offset + 4;
    if (
      found === marker &&
      start + tag.length <= bytes.length &&
      String.fromCharCode(...bytes.subarray(start, start + tag.length)) === tag
    ) {
      return { start, end: Math.min(bytes.length, offset + 2 + length) };
    }
    offset += 2 + length;
  }
  return null;
}

/** A TIFF structure's IFD entries (tag → SHORT or LONG value), the IFD at `ifdOffset` from `tiff`. */
function readIfd(view: DataView, tiff: number, end: number, ifdOffset: number, little: boolean): Map<number, number> {
  const values = new Map<number, number>();
  const ifd = tiff + ifdOffset;
  if (ifd + 2 > end) return values;
  const entries = view.getUint16(ifd, little);
  for (let i = 0; i < entries; i++) {
    const entry = ifd + 2 + i * 12;
    if (entry + 12 > end) break;
    const type = view.getUint16(entry + 2, little);
    const count = view.getUint32(entry + 4, little);
    if (count !== 1) continue;
    // SHORT (3) sits in the value field's first two bytes; LONG (4) fills it.
    if (type === 3) values.set(view.getUint16(entry, little), view.getUint16(entry + 8, little));
    else if (type === 4) values.set(view.getUint16(entry, little), view.getUint32(entry + 8, little));
  }
  return values;
}

function readTiff(view: DataView, tiff: number, end: number): ExifFacts {
  if (tiff + 8 > end) return NO_EXIF;
  const order = view.getUint16(tiff);
  const little = order === 0x4949;
  if (!little && order !== 0x4d4d) return NO_EXIF;
  const ifd0 = readIfd(view, tiff, end, view.getUint32(tiff + 4, little), little);
  const orientationTag = ifd0.get(0x0112);
  const orientation = orientationTag !== undefined && orientationTag >= 1 && orientationTag <= 8 ? orientationTag : 1;
  const exifPointer = ifd0.get(0x8769);
  const exif = exifPointer !== undefined ? readIfd(view, tiff, end, exifPointer, little) : new Map<number, number>();
  const positive = (value: number | undefined) => (value !== undefined && value > 0 ? value : null);
  return {
    orientation,
    focal35mm: positive(exif.get(0xa405)),
    pixelWidth: positive(exif.get(0xa002)),
    pixelHeight: positive(exif.get(0xa003)),
  };
}
