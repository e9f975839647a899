// Real photographs for the test photo generator: card art and table textures, openly licensed
// (test/fixtures/photos/SOURCES.md). Imported inline (base64) because tests run in workerd, which
// has no file system, and decoded with jpeg-js.
import { decode } from "jpeg-js";
import type { RgbaImage } from "../../src/grading/engine/image";
import astronaut from "../fixtures/photos/art-astronaut.jpg?inline";
import chelsea from "../fixtures/photos/art-chelsea.jpg?inline";
import coffee from "../fixtures/photos/art-coffee.jpg?inline";
import rocket from "../fixtures/photos/art-rocket.jpg?inline";
import brick from "../fixtures/photos/table-brick.jpg?inline";
import grass from "../fixtures/photos/table-grass.jpg?inline";
import gravel from "../fixtures/photos/table-gravel.jpg?inline";

export const ART_PHOTOS = { astronaut, chelsea, coffee, rocket } as const;
export const TABLE_PHOTOS = { brick, grass, gravel } as const;
export type ArtPhoto = keyof typeof ART_PHOTOS;
export type TablePhoto = keyof typeof TABLE_PHOTOS;

const cache = new Map<string, RgbaImage>();

/** The bytes of a base64 `data:` URL (an `?inline` import). */
export function dataUrlBytes(dataUrl: string): Uint8Array {
  const base64 = dataUrl.slice(dataUrl.indexOf(",") + 1);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function decodeDataUrl(dataUrl: string): RgbaImage {
  const decoded = decode(dataUrlBytes(dataUrl), { useTArray: true, formatAsRGBA: true });
  return { width: decoded.width, height: decoded.height, data: new Uint8Array(decoded.data) };
}

/** A card-art photograph, decoded (cached). */
export function artPhoto(name: ArtPhoto): RgbaImage {
  const key = `art:${name}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const image = decodeDataUrl(ART_PHOTOS[name]);
  cache.set(key, image);
  return image;
}

/**
 * A table texture, decoded and levelled so its mean is 128 on every channel: the generator reads it
 * as a brightness pattern (k = value / 128) that tints the scene's table colour.
 */
export function tablePhoto(name: TablePhoto): RgbaImage {
  const key = `table:${name}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const image = decodeDataUrl(TABLE_PHOTOS[name]);
  let sum = 0;
  for (let p = 0; p < image.data.length; p += 4) sum += image.data[p + 1] ?? 0;
  const gain = 128 / Math.max(1, sum / (image.data.length / 4));
  for (let p = 0; p < image.data.length; p++) {
    if (p % 4 !== 3) image.data[p] = Math.min(255, (image.data[p] ?? 0) * gain);
  }
  cache.set(key, image);
  return image;
}
