// A photo under coloured light read again as if under white light: its channels scaled so that
// the scene's colour averages to grey.
//
// The engine tells the card's border from the table, a band beside the cut from the border, and
// one ink from another by colour. A lamp's warm light or the cold light of a shaded window scales
// every pixel's red and blue against its green, and moves those tells: the same card photographed
// under a cast is refused for reasons its photo under white light does not have (two edges, a
// dark band, a frame read apart at two scales). An estimate of the light's colour whose channels
// scale with the light (colourCast, below) makes a photo and its copy under any cast read the same
// once balanced.
//
// The estimate is the shades-of-grey one (Finlayson and Trezzi, 2004): each channel's Minkowski
// mean with exponent CAST_NORM over the photo's pixels, the clipped and the near-black left out.
// Exponent 1 is the grey-world estimate, which a table of one colour (a green mat) pulls toward
// its own colour; infinity is the white-patch one, which one specular highlight decides; 6 weighs
// the bright pixels most without resting on a few.
//
// A table of a strong colour still reads as a cast. So the balanced reading is a second one
// (analyse-face.ts): a photo whose reading as taken is refused, and whose light reads CAST_MIN or
// more off white, is read again balanced, and that reading stands only when it measures a
// centering.
import type { RgbaImage } from "./image";

/** The Minkowski exponent of the light's estimate (shades of grey). */
const CAST_NORM = 6;
/** A channel at or above this level in any pixel leaves the pixel out: its colour was clipped. */
const CLIPPED_LEVEL = 250;
/** A pixel whose brightest channel is under this level is left out: its colour is noise. */
const DARK_LEVEL = 24;
/** A light whose red or blue gain lies this far or more from its green's is a cast. */
export const CAST_MIN = 0.06;
/** Gains are kept within these: a scene lit further off white is read as it is. */
const GAIN_RANGE = { min: 0.7, max: 1.45 } as const;
/** Every this many pixels in each direction is read for the estimate. */
const STRIDE = 2;

/** Per-channel gains (red, green, blue), green 1. */
export type ChannelGains = readonly [number, number, number];

/**
 * The gains that bring `image`'s light to white (green kept), or null when its light lies within
 * CAST_MIN of white on red and blue, or too few pixels are read to tell.
 */
export function colourCast(image: RgbaImage): ChannelGains | null {
  const { width, height, data } = image;
  const sums = [0, 0, 0];
  let count = 0;
  for (let y = 0; y < height; y += STRIDE) {
    for (let x = 0; x < width; x += STRIDE) {
      const p = (y * width + x) * 4;
      const r = data[p] ?? 0;
      const g = data[p + 1] ?? 0;
      const b = data[p + 2] ?? 0;
      const top = Math.max(r, g, b);
      if (top >= CLIPPED_LEVEL || top < DARK_LEVEL) continue;
      sums[0] = (sums[0] ?? 0) + (r / 255) ** CAST_NORM;
      sums[1] = (sums[1] ?? 0) + (g / 255) ** CAST_NORM;
      sums[2] = (sums[2] ?? 0) + (b / 255) ** CAST_NORM;
      count++;
    }
  }
  if (count < 100) return null;
  const [r, g, b] = sums.map((sum) => (sum / count) ** (1 / CAST_NORM)) as [number, number, number];
  if (!(r > 0 && g > 0 && b > 0)) return null;
  const gains: ChannelGains = [g / r, 1, g / b];
  if (Math.abs(gains[0] - 1) < CAST_MIN && Math.abs(gains[2] - 1) < CAST_MIN) return null;
  const within = (gain: number) => gain >= GAIN_RANGE.min && gain <= GAIN_RANGE.max;
  return within(gains[0]) && within(gains[2]) ? gains : null;
}

/** Scales `image`'s channels by `gains` in place (clipped at 255; alpha kept), and returns it. */
export function applyBalance(image: RgbaImage, gains: ChannelGains | null): RgbaImage {
  if (!gains) return image;
  const [gr, gg, gb] = gains;
  const { data } = image;
  for (let p = 0; p < data.length; p += 4) {
    data[p] = Math.min(255, Math.round((data[p] ?? 0) * gr));
    data[p + 1] = Math.min(255, Math.round((data[p + 1] ?? 0) * gg));
    data[p + 2] = Math.min(255, Math.round((data[p + 2] ?? 0) * gb));
  }
  return image;
}
