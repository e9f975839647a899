// The photos `npm run measure -- --stability` reads again, made in the engine's Worker from the
// photo's pixels as decoded (scripts/lib/photo-variants.ts says what each one is).
import { decodeImage } from "../../src/grading/engine/decode";
import { fitByArea, type RgbaImage } from "../../src/grading/engine/image";
import { DecodeBudgetError, readExif } from "../../src/grading/engine/image-header";
import { encodePng } from "../../src/grading/engine/png";
import { encodeJpeg, withExif, withPngExif } from "../../test/helpers/card-images";
import {
  CAST_GAIN,
  HALF_SHARE,
  RECOMPRESSED_QUALITY,
  SMALLER_SHARE,
  VARIANT_MAX_SIDE,
  type Variant,
} from "../lib/photo-variants";

/** Longer sides (px) the photo is decoded at for its variants, the first the decoder's budget allows. */
const DECODE_SIDES = [VARIANT_MAX_SIDE, (2 * VARIANT_MAX_SIDE) / 3, VARIANT_MAX_SIDE / 3];

function decodedPixels(bytes: Uint8Array): RgbaImage {
  for (const side of DECODE_SIDES.slice(0, -1)) {
    try {
      return decodeImage(bytes, side).image;
    } catch (error) {
      // Over the decoder's budget at that size: a JPEG decodes at two thirds (or a third) of it more cheaply.
      if (!(error instanceof DecodeBudgetError)) throw error;
    }
  }
  return decodeImage(bytes, DECODE_SIDES.at(-1) ?? VARIANT_MAX_SIDE).image;
}

/** `image` with each pixel taken from `source(x, y)` of the original, `width` × `height`. */
function remapped(
  image: RgbaImage,
  width: number,
  height: number,
  source: (x: number, y: number) => [number, number],
): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [sx, sy] = source(x, y);
      const from = (sy * image.width + sx) * 4;
      const to = (y * width + x) * 4;
      data[to] = image.data[from] ?? 0;
      data[to + 1] = image.data[from + 1] ?? 0;
      data[to + 2] = image.data[from + 2] ?? 0;
      data[to + 3] = 255;
    }
  }
  return { width, height, data };
}

/** `image` with its red levels scaled by `red` and its blue by `blue`, clipped at 255. */
function cast(image: RgbaImage, red: number, blue: number): RgbaImage {
  const data = image.data.slice();
  for (let i = 0; i < data.length; i += 4) {
    data[i] = Math.min(255, Math.round((data[i] ?? 0) * red));
    data[i + 2] = Math.min(255, Math.round((data[i + 2] ?? 0) * blue));
  }
  return { width: image.width, height: image.height, data };
}

/**
 * The photo `bytes` made again as `variant`: a PNG, or a JPEG for `recompressed`, naming the lens
 * the original's EXIF names (its 35 mm-equivalent focal length; the pixels are already turned as
 * its orientation says, and none of the variants crops the frame the focal length refers to).
 */
export async function photoVariant(bytes: Uint8Array, variant: Variant): Promise<Uint8Array> {
  const image = decodedPixels(bytes);
  const { focal35mm } = readExif(bytes);
  const png = async (pixels: RgbaImage) => {
    const stored = await encodePng(pixels);
    return focal35mm === null ? stored : withPngExif(stored, { focal35mm });
  };
  const { width, height } = image;
  switch (variant) {
    case "copy":
      return png(image);
    case "mirrored":
      return png(remapped(image, width, height, (x, y) => [width - 1 - x, y]));
    case "turned":
      return png(remapped(image, width, height, (x, y) => [width - 1 - x, height - 1 - y]));
    case "smaller":
      return png(fitByArea(image, Math.round(SMALLER_SHARE * Math.max(width, height))));
    case "half":
      return png(fitByArea(image, Math.round(HALF_SHARE * Math.max(width, height))));
    case "recompressed":
      return focal35mm === null
        ? encodeJpeg(image, RECOMPRESSED_QUALITY)
        : withExif(encodeJpeg(image, RECOMPRESSED_QUALITY), { focal35mm });
    case "warm":
      return png(cast(image, 1 + CAST_GAIN, 1 - CAST_GAIN));
    case "cool":
      return png(cast(image, 1 - CAST_GAIN, 1 + CAST_GAIN));
  }
}
