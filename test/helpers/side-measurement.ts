// A frame side as frame.ts measures it, read cleanly: for tests that start from the widths.
import type { SideMeasurement } from "../../src/grading/engine/frame-side";

/** A side `width` flat-card pixels wide, its frame line found on every scan line, square and without print. */
export function cleanSide(width: number, borderColor: [number, number, number], borderNoise: number): SideMeasurement {
  return {
    width,
    agreement: 1,
    coverage: 1,
    lean: 0,
    printBefore: 0,
    behind: 0,
    rim: false,
    borderColor,
    borderNoise,
    print: null,
    brokenIsland: false,
    bow: 0,
    frameBow: 0,
  };
}
