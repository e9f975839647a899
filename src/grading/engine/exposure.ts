// An underexposed photo read as if exposed: its levels scaled up before anything in it is measured.
//
// The engine's steps read the card by differences of level (a frame's step out of the border, a
// collector bar's print, a band beside the cut), and a photo taken in dim light shows every such
// difference smaller by the light it lacks. Read as it is, the same card can be measured on other
// lines, every check passed: the 90 local real photos graded, each made 0.6 times as bright (a dim
// room), gave 55 grades, 5 of them 3.1–20.4 points from the photo's own (a Magic card's collector
// bar not told at 0.6 of its contrast, so its 6.3 mm bottom border read as a border: 28.6 top to
// bottom for 49.0; four Pokémon cards' bottom frames read up to 0.9 mm deeper).
//
// A photo is underexposed when its brightest 0.1 % of pixels, each read by its brightest channel,
// lie under UNDEREXPOSED_LEVEL: nothing in it, no white paper, silver, light or saturated ink,
// reaches the upper levels (read by luma, a drawn card with orange art on grey was underexposed,
// and its orange clipped when scaled). None of the 312 local real photos is (a dim photo of a card
// on dark cloth: its brightest 0.1 % at luma 176, its brightest 1 % at 122). An underexposed photo
// is read twice (analyse-face.ts, agreeInLight): lit, its levels scaled by exposureGain, and as
// taken; the lit reading stands, but where both measure a centering they must agree within a point. Lit alone, the 90 darkened photos gave 71 grades, none
// more than 0.8 points off, but one committed photo darkened so (pcg-pokedex) moved 2.9 points
// lit where it had held as taken. With both readings, and each pixel's level its brightest
// channel's (2 of the 90 darkened photos then reach 160 and are read as taken): 60 graded, none
// more than 0.8 points off.
import type { RgbaImage } from "./image";

/** The brightest 0.1 % of an exposed photo's pixels reach at least this level in their brightest channel. */
export const UNDEREXPOSED_LEVEL = 160;

/** An underexposed photo is scaled so its brightest 1 % reach this level... */
const EXPOSED_LEVEL = 230;

/** ...its brightest 0.1 % at most this (nothing of the card is clipped to white)... */
const BRIGHTEST_LEVEL = 250;

/** ...and by at most this much: a photo darker still is refused as too dark, or its noise grows past reading. */
const MAX_GAIN = 2.5;

/**
 * The gain an underexposed `image` is read at (1 when it is exposed): its brightest 1 % of pixels
 * (each by its brightest channel) brought to EXPOSED_LEVEL, within BRIGHTEST_LEVEL for its brightest
 * 0.1 % and MAX_GAIN.
 */
export function exposureGain(image: RgbaImage): number {
  const histogram = new Uint32Array(256);
  const { data } = image;
  for (let p = 0; p < data.length; p += 4) {
    // A pixel's level is its brightest channel's: a saturated orange lies at 220 in red and at
    // luma 134, and scaled by its luma it would clip.
    const level = Math.max(data[p] ?? 0, data[p + 1] ?? 0, data[p + 2] ?? 0);
    histogram[level] = (histogram[level] ?? 0) + 1;
  }
  const pixels = data.length / 4;
  const levelAbove = (share: number) => {
    let seen = 0;
    for (let level = 255; level > 0; level--) {
      seen += histogram[level] ?? 0;
      if (seen >= share * pixels) return level;
    }
    return 0;
  };
  const brightest = levelAbove(0.001);
  const bright = levelAbove(0.01);
  if (brightest >= UNDEREXPOSED_LEVEL || bright === 0) return 1;
  return Math.max(1, Math.min(MAX_GAIN, EXPOSED_LEVEL / bright, BRIGHTEST_LEVEL / brightest));
}

/** Scales `image`'s colour levels by `gain` in place (clipped at 255; alpha kept), and returns it. */
export function applyGain(image: RgbaImage, gain: number): RgbaImage {
  if (gain === 1) return image;
  const { data } = image;
  for (let p = 0; p < data.length; p += 4) {
    data[p] = Math.min(255, Math.round((data[p] ?? 0) * gain));
    data[p + 1] = Math.min(255, Math.round((data[p + 1] ?? 0) * gain));
    data[p + 2] = Math.min(255, Math.round((data[p + 2] ?? 0) * gain));
  }
  return image;
}
