// Real phone photos of real cards (test/fixtures/real-photos, openly licensed; SOURCES.md names
// each one's source and licence), as the bytes a partner would upload. Imported inline (base64)
// because tests run in workerd, which has no file system.
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
