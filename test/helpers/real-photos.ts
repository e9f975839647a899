// Real phone photos of real cards (test/fixtures/real-photos, openly licensed; SOURCES.md names
// each one's source and licence), as the bytes a partner would upload. Imported inline (base64)
// because tests run in workerd, which has no file system.
import grookey from "../fixtures/real-photos/dany-grookey.jpg?inline";
import slowpoke from "../fixtures/real-photos/dpc-slowpoke.jpg?inline";
import mysticalTeachings from "../fixtures/real-photos/magic-lens-mystical-teachings.jpg?inline";
import ritesOfFlourishing from "../fixtures/real-photos/magic-lens-rites-of-flourishing.jpg?inline";
import black from "../fixtures/real-photos/mcd-black.jpg?inline";
import counterspellBgs from "../fixtures/real-photos/mcd-counterspell-bgs.jpg?inline";
import dragonWhelp from "../fixtures/real-photos/mcd-dragon-whelp.jpg?inline";
import instillEnergy from "../fixtures/real-photos/mcd-instill-energy.jpg?inline";
import landsAndFatties from "../fixtures/real-photos/mcd-lands-and-fatties.jpg?inline";
import ruby from "../fixtures/real-photos/mcd-ruby.jpg?inline";
import mtgscanCube from "../fixtures/real-photos/mtgscan-cube.jpg?inline";
import aron from "../fixtures/real-photos/pcg-aron.jpg?inline";
import backNavyBand from "../fixtures/real-photos/pcg-back-navy-band.jpg?inline";
import backSoftShadow from "../fixtures/real-photos/pcg-back-soft-shadow.jpg?inline";
import devolutionSpray from "../fixtures/real-photos/pcg-devolution-spray.jpg?inline";
import fullHeal from "../fixtures/real-photos/pcg-full-heal.jpg?inline";
import haunter from "../fixtures/real-photos/pcg-haunter.jpg?inline";
import pokedex from "../fixtures/real-photos/pcg-pokedex.jpg?inline";
import raticate from "../fixtures/real-photos/pcg-raticate.jpg?inline";
import revive from "../fixtures/real-photos/pcg-revive.jpg?inline";
import shinx from "../fixtures/real-photos/pcg-shinx.jpg?inline";
import specialCharge from "../fixtures/real-photos/pcg-special-charge.jpg?inline";
import gracefulReprieve from "../fixtures/real-photos/smfe-graceful-reprieve.jpg?inline";
import { type FaceOutcome, faceOutcome } from "./face-outcome";
import { dataUrlBytes } from "./photos";

export type RealPhotoKind = "raw card on a table" | "graded-card holder" | "several cards";

/**
 * A centering measured by hand on the photo (test/grading/real-photos.test.ts says how), with the
 * card's corners as checked on crops of it (photo pixels, top-left first).
 */
export interface HandMeasurement {
  leftRight: number;
  topBottom: number;
  corners: readonly { x: number; y: number }[];
}

export interface RealPhoto {
  file: string;
  kind: RealPhotoKind;
  dataUrl: string;
  byHand?: HandMeasurement;
}

export const REAL_PHOTOS = {
  ritesOfFlourishing: {
    file: "magic-lens-rites-of-flourishing.jpg",
    kind: "raw card on a table",
    dataUrl: ritesOfFlourishing,
    // Left 3.20, right 3.11, top 3.09, bottom 3.20 mm (the bottom from four of its six readings:
    // at the other two the artist's credit lies against the frame line, 3.45 and 3.67).
    byHand: {
      leftRight: 50.7,
      topBottom: 49.2,
      corners: [
        { x: 117, y: 136 },
        { x: 817, y: 157 },
        { x: 793, y: 1123 },
        { x: 95, y: 1118 },
      ],
    },
  },
  // A black-bordered Magic card on white paper, turned 30° from lying sideways, its printed top
  // toward the photo's right: read as the partner document's rule reads a card lying sideways (its
  // top toward the frame's left edge), so upside down, and measured by hand in that orientation.
  // Rectified through its corners at 20 px/mm, luma averaged over the middle half of each side;
  // the cut the 50 % crossing between the table's level and the border's, the frame between the
  // border's and the level 0.1–0.4 mm past where the profile leaves it.
  gracefulReprieve: {
    file: "smfe-graceful-reprieve.jpg",
    kind: "raw card on a table",
    dataUrl: gracefulReprieve,
    // Left 3.23, right 2.91, top 2.71, bottom 3.48 mm.
    byHand: {
      leftRight: 52.6,
      topBottom: 43.8,
      corners: [
        { x: 313, y: 865 },
        { x: 34, y: 472 },
        { x: 571, y: 164 },
        { x: 860, y: 490 },
      ],
    },
  },
  // Yellow borders on a white table: each border measured on the photo rectified by the homography
  // through the card's corners (10 px/mm, 4 mm of table beyond every side), its cut and frame the
  // 50 % crossings of the yellow's strength, (r + g) / 2 − b, at seven places in the side's middle
  // 60 %, the side's width their median. A side's length in the photo is no local scale across it
  // here: the cards are keystoned, and a border's depth foreshortens twice as fast as its length.
  aron: {
    file: "pcg-aron.jpg",
    kind: "raw card on a table",
    dataUrl: aron,
    // Left 2.43, right 2.75, top 2.18 (under the lamp's sheen), bottom 2.84 mm.
    byHand: {
      leftRight: 46.9,
      topBottom: 43.5,
      corners: [
        { x: 120, y: 567 },
        { x: 702, y: 497 },
        { x: 844, y: 1301 },
        { x: 185, y: 1382 },
      ],
    },
  },
  pokedex: {
    file: "pcg-pokedex.jpg",
    kind: "raw card on a table",
    dataUrl: pokedex,
    // Left 2.03, right 2.94, top 2.36, bottom 2.53 mm.
    byHand: {
      leftRight: 40.8,
      topBottom: 48.3,
      corners: [
        { x: 98, y: 337 },
        { x: 909, y: 340 },
        { x: 917, y: 1510 },
        { x: 30, y: 1483 },
      ],
    },
  },
  // On a white wall above a black desk's edge, the photo's frame a fifth desk: the colour cue's
  // threshold, set between the two, counts the yellow border as table (find-card.ts,
  // borderRingAllRound). Stored at full size, re-encoded.
  fullHeal: {
    file: "pcg-full-heal.jpg",
    kind: "raw card on a table",
    dataUrl: fullHeal,
    // Left 1.95, right 3.06, top 2.39, bottom 2.53 mm.
    byHand: {
      leftRight: 38.9,
      topBottom: 48.7,
      corners: [
        { x: 345, y: 855 },
        { x: 1626, y: 812 },
        { x: 1694, y: 2617 },
        { x: 299, y: 2637 },
      ],
    },
  },
  devolutionSpray: {
    file: "pcg-devolution-spray.jpg",
    kind: "raw card on a table",
    dataUrl: devolutionSpray,
    // Left 2.50, right 2.45, top 2.26, bottom 2.79 mm (the card lies sideways, its top toward the
    // photo's right: read by the partner document's rule, its top toward the left).
    byHand: {
      leftRight: 50.5,
      topBottom: 44.7,
      corners: [
        { x: 1994, y: 1409 },
        { x: 2266, y: 90 },
        { x: 3999, y: 497 },
        { x: 3755, y: 1749 },
      ],
    },
  },
  // Measured as the other yellow-bordered cards are (real-photos.test.ts), on the photo as stored.
  specialCharge: {
    file: "pcg-special-charge.jpg",
    kind: "raw card on a table",
    dataUrl: specialCharge,
    // Left 2.58, right 2.71, top 2.71, bottom 2.38 mm.
    byHand: {
      leftRight: 48.8,
      topBottom: 53.2,
      corners: [
        { x: 459, y: 1090 },
        { x: 1583, y: 1135 },
        { x: 1661, y: 2677 },
        { x: 358, y: 2657 },
      ],
    },
  },
  // A Pokémon back (navy border) read as a front photo. Along its bottom cut lies a brown-black
  // band 0.4–0.9 mm wide, its contact shadow (no edge of the card faces the lens): the cut is
  // where the navy ends, 50 % of the way from the band's level to the navy's in (r + g) / 2 − b,
  // which the band and the table share; each frame the 50 % crossing in luma from the navy to the
  // lighter blue art, the median of seven profiles a side (those where the art's dark swirl runs
  // against the frame left out).
  backNavyBand: {
    file: "pcg-back-navy-band.jpg",
    kind: "raw card on a table",
    dataUrl: backNavyBand,
    // Left 2.90, right 3.33, top 3.58, bottom 3.38 mm.
    byHand: {
      leftRight: 46.6,
      topBottom: 51.4,
      corners: [
        { x: 492, y: 1439 },
        { x: 1561, y: 1497 },
        { x: 1550, y: 3012 },
        { x: 385, y: 2967 },
      ],
    },
  },
  // Measured as the other yellow-bordered cards are. Along its bottom cut the yellow darkens into
  // a contact shadow's warm core (rgb(54, 34, 21)) over 0.2 mm: the cut is the yellow's 50 %
  // crossing there too. Its left frame line runs 2.65–2.85 mm in along the side (the median is
  // taken); in luma the frames read up to 0.15 mm further in (56.8 / 51.2), in blue alone 56.1 / 50.0.
  haunter: {
    file: "pcg-haunter.jpg",
    kind: "raw card on a table",
    dataUrl: haunter,
    // Left 2.72, right 2.10, top 2.51, bottom 2.45 mm.
    byHand: {
      leftRight: 56.4,
      topBottom: 50.6,
      corners: [
        { x: 628, y: 642 },
        { x: 1701, y: 860 },
        { x: 1396, y: 2357 },
        { x: 255, y: 2116 },
      ],
    },
  },
  // Measured as the other yellow-bordered cards are (each border the mean profile over the side's
  // middle half, on the photo rectified at 20 px/mm). Along its bottom cut lies a contact shadow,
  // dark and warm, 2.4 mm wide at the right end and a few tenths of a millimetre at the left: the
  // cut is the yellow's 50 % crossing there too.
  raticate: {
    file: "pcg-raticate.jpg",
    kind: "raw card on a table",
    dataUrl: raticate,
    // Left 2.40, right 2.50, top 2.24, bottom 2.68 mm.
    byHand: {
      leftRight: 49.0,
      topBottom: 45.6,
      corners: [
        { x: 306, y: 832 },
        { x: 1620, y: 916 },
        { x: 1541, y: 2769 },
        { x: 158, y: 2690 },
      ],
    },
  },
  // A Pokémon back (navy border) read as a front photo, measured as backNavyBand is (each border
  // the mean profile over the side's middle half, on the photo rectified at 20 px/mm). A soft
  // shadow, brown-black, lies along its right and bottom cuts, 1.4 mm wide at their common corner
  // and narrowing to nothing along the right; the bottom border in its shade reads rgb(2, 7, 58),
  // the top's rgb(28, 38, 94).
  backSoftShadow: {
    file: "pcg-back-soft-shadow.jpg",
    kind: "raw card on a table",
    dataUrl: backSoftShadow,
    // Left 3.25, right 2.94, top 3.18, bottom 3.77 mm.
    byHand: {
      leftRight: 52.5,
      topBottom: 45.8,
      corners: [
        { x: 538, y: 767 },
        { x: 1710, y: 1026 },
        { x: 1344, y: 2688 },
        { x: 88, y: 2387 },
      ],
    },
  },
  // A DP-era Shinx, yellow border, upside down and turned 35° on a white table. Inside the border a
  // thin darker rule runs all round before a body of nearly the border's yellow: along the top
  // (the card's foot, upside down) the rule was read as print before stop 101 and the photo
  // refused (frame-side.ts, lineAlong). Measured as the Grookey below, on the photo rectified at
  // 20 px/mm, the frame the 50 % crossing between the border's luma and the rule's. A lamp's sheen
  // pales its left border for 12 mm, all the way in to the frame: read as chips (edges 5) before
  // stop 102 (wear.ts, MIN_VEILED_HUE_SHARE).
  shinx: {
    file: "pcg-shinx.jpg",
    kind: "raw card on a table",
    dataUrl: shinx,
    // Left 2.46, right 2.35, top 2.43, bottom 2.58 mm.
    byHand: {
      leftRight: 51.1,
      topBottom: 48.5,
      corners: [
        { x: 141, y: 1793 },
        { x: 973, y: 1211 },
        { x: 1936, y: 2260 },
        { x: 1096, y: 2970 },
      ],
    },
  },
  // An Evolutions Pokémon trainer card (Revive), yellow border, on a white wall, a dark contact
  // shadow along its bottom cut. The bottom cut's two readings (refine-outline.ts) lie 0.13 mm
  // apart, 1.4 centering points: refused before stop 114, now measured with that cut midway
  // between them (centering.ts, cutBetweenReadings). Measured as the Grookey below, on the photo
  // rectified at 20 px/mm through the corners below (each side's cut read there within 0.04 mm
  // of them), the bottom cut the 50 % crossing between the shadow's core and the border.
  revive: {
    file: "pcg-revive.jpg",
    kind: "raw card on a table",
    dataUrl: revive,
    // Left 2.47, right 2.54, top 2.61, bottom 2.33 mm.
    byHand: {
      leftRight: 49.2,
      topBottom: 52.8,
      corners: [
        { x: 204, y: 709 },
        { x: 847, y: 725 },
        { x: 878, y: 1645 },
        { x: 174, y: 1648 },
      ],
    },
  },
  // A Scarlet & Violet Pokémon card, silver border, turned 28° on dark brown wood (1536 × 2048, no
  // EXIF). Rectified through its corners at 20 px/mm (the cut read there within 0.02 mm of them
  // on every side); each side's luma profile averaged over 1 mm along it at six places, the cut
  // and the frame (the silver's step into the green body) their 50 % crossings; places where the
  // art box's or the body's ledge lies against the frame, and the copyright print in the bottom
  // border's left half, left out.
  grookey: {
    file: "dany-grookey.jpg",
    kind: "raw card on a table",
    dataUrl: grookey,
    // Left 2.42, right 2.69, top 2.54, bottom 2.56 mm.
    byHand: {
      leftRight: 47.4,
      topBottom: 49.8,
      corners: [
        { x: 197, y: 728 },
        { x: 818, y: 412 },
        { x: 1372, y: 1244 },
        { x: 696, y: 1656 },
      ],
    },
  },
  mysticalTeachings: {
    file: "magic-lens-mystical-teachings.jpg",
    kind: "raw card on a table",
    dataUrl: mysticalTeachings,
  },
  dragonWhelp: { file: "mcd-dragon-whelp.jpg", kind: "raw card on a table", dataUrl: dragonWhelp },
  instillEnergy: { file: "mcd-instill-energy.jpg", kind: "raw card on a table", dataUrl: instillEnergy },
  ruby: { file: "mcd-ruby.jpg", kind: "raw card on a table", dataUrl: ruby },
  slowpoke: { file: "dpc-slowpoke.jpg", kind: "raw card on a table", dataUrl: slowpoke },
  counterspellBgs: { file: "mcd-counterspell-bgs.jpg", kind: "graded-card holder", dataUrl: counterspellBgs },
  black: { file: "mcd-black.jpg", kind: "several cards", dataUrl: black },
  landsAndFatties: { file: "mcd-lands-and-fatties.jpg", kind: "several cards", dataUrl: landsAndFatties },
  mtgscanCube: { file: "mtgscan-cube.jpg", kind: "several cards", dataUrl: mtgscanCube },
} as const satisfies Record<string, RealPhoto>;

/** The photo's bytes, as uploaded. */
export function realPhotoBytes(photo: RealPhoto): Uint8Array {
  return dataUrlBytes(photo.dataUrl);
}

/** What the engine makes of a real photo read as a front: a centering, or the reason it refuses. */
export type RealPhotoOutcome = FaceOutcome;

export function outcomeOf(photo: RealPhoto): RealPhotoOutcome {
  return outcomeOfBytes(realPhotoBytes(photo));
}

/** As outcomeOf, for a photo's bytes as uploaded (a real photo turned or re-encoded, say). */
export function outcomeOfBytes(bytes: Uint8Array): RealPhotoOutcome {
  return faceOutcome(bytes, "front");
}
