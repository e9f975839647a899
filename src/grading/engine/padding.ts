// Margins added round a photo: a screenshot's bars of one flat colour round the photo it shows
// (a phone's gallery view, letterboxing). A margin is no part of the scene, but where it meets the
// photo it makes a straight, sharp edge along the photo's side, which the outline search would
// otherwise read as an object's side: on real screenshots of Magic cards (1 to 41 px of grey or
// white round the photo), outlines closed by those edges competed with the card's, or the card's
// outline closed on one, and the photos were refused. The card is looked for with the margins
// painted over by the photo's own edge (find-card.ts, locateCard); everything after it reads the
// photo as sent.
import type { Rgb, RgbaImage } from "./image";

/** Pixels of margin along each side. */
export type Insets = Record<"left" | "top" | "right" | "bottom", number>;

/**
 * A line of the margin holds one colour: no channel of any of its pixels varies by more than this
 * (a real photo's sensor noise varies every line of a scene by more, even a white wall's).
 */
const MAX_FLAT_SPREAD = 2;

/** The photo's line just inside a margin differs from the margin's colour by at least this (any channel)... */
const MIN_STEP = 10;

/**
 * ...on at least this share of its pixels: where a margin meets the photo, the photo's edge runs
 * along the whole side. A part of a scene of one flat colour (a blown-out white table along the
 * photo's edge) ends unevenly, on a few pixels of the line beyond it at a time. Nor is a
 * backdrop of one colour round an object a margin: the object's outline does not fill the
 * corners of the rectangle the margins leave (checked last, marginInsets).
 */
const MIN_STEP_SHARE = 0.5;

/**
 * A JPEG blurs a margin's edge into the lines beside it (ringing within its 8 × 8 blocks, 16 × 16
 * for the colour), so they are no longer of one colour: the photo's edge is looked for up to this
 * many lines past the last flat one. Those lines are painted over with the rest of the margin.
 */
const JPEG_RINGING = 8;

/**
 * The photo's corners are read this many pixels in from the margins' (a card's rounded corner,
 * 3 mm, is tens of pixels across wherever a card can be graded).
 */
const CORNER_IN = 2;

/** The margins may take at most this share of the photo's width or height, together. */
const MAX_MARGIN_SHARE = 0.5;

/**
 * The flat margins round `image` (pixels per side), peeled from each side in turn: a run of lines
 * (within the margins already found) of one colour, ended within JPEG_RINGING lines by a line that
 * steps from that colour on most of its length; the photo's corners inside the margins found must
 * not be of those margins' colours. All zero for a photo without margins.
 */
export function marginInsets(image: RgbaImage): Insets {
  const { width, height, data } = image;
  const insets: Insets = { left: 0, top: 0, right: 0, bottom: 0 };
  // The pixel offsets of line `k` from `side` within the current insets.
  const lineOf = (side: keyof Insets, k: number): number[] => {
    const offsets: number[] = [];
    const horizontal = side === "top" || side === "bottom";
    const from = horizontal ? insets.left : insets.top;
    const to = horizontal ? width - insets.right : height - insets.bottom;
    const fixed = side === "top" ? k : side === "bottom" ? height - 1 - k : side === "left" ? k : width - 1 - k;
    for (let t = from; t < to; t++) offsets.push(horizontal ? (fixed * width + t) * 4 : (t * width + fixed) * 4);
    return offsets;
  };
  const flatColour = (offsets: number[]): Rgb | null => {
    if (offsets.length === 0) return null;
    const low = [255, 255, 255];
    const high = [0, 0, 0];
    for (const o of offsets) {
      for (let ch = 0; ch < 3; ch++) {
        const v = data[o + ch] ?? 0;
        if (v < (low[ch] ?? 0)) low[ch] = v;
        if (v > (high[ch] ?? 0)) high[ch] = v;
      }
    }
    if ([0, 1, 2].some((ch) => (high[ch] ?? 0) - (low[ch] ?? 0) > MAX_FLAT_SPREAD)) return null;
    return [0, 1, 2].map((ch) => ((high[ch] ?? 0) + (low[ch] ?? 0)) / 2) as Rgb;
  };
  const differs = (o: number, colour: Rgb) => colour.some((v, ch) => Math.abs((data[o + ch] ?? 0) - v) >= MIN_STEP);
  const stepsFrom = (offsets: number[], colour: Rgb) =>
    offsets.filter((o) => differs(o, colour)).length >= MIN_STEP_SHARE * offsets.length;
  // Each side's margin colour, once found.
  const colours: Partial<Record<keyof Insets, Rgb>> = {};
  const sides: (keyof Insets)[] = ["top", "bottom", "left", "right"];
  // Each side peeled as far as it goes, in turn, until no side peels further: a margin's corner
  // belongs to two sides, so a side's line may be flat only once the other's margin is set aside.
  for (let changed = true; changed; ) {
    changed = false;
    for (const side of sides) {
      const across = side === "top" || side === "bottom" ? height : width;
      const opposite = side === "top" ? "bottom" : side === "bottom" ? "top" : side === "left" ? "right" : "left";
      const room = MAX_MARGIN_SHARE * across - insets[opposite];
      const colour = flatColour(lineOf(side, insets[side]));
      if (!colour) continue;
      // The margin's last line: the lines past the first of the same one colour.
      let last = insets[side];
      while (last + 1 < room) {
        const next = flatColour(lineOf(side, last + 1));
        if (!next || next.some((v, ch) => Math.abs(v - (colour[ch] ?? 0)) > MAX_FLAT_SPREAD)) break;
        last++;
      }
      // The photo's edge: within JPEG_RINGING lines past the flat ones, a line that steps from
      // their colour along most of its length.
      let edge = -1;
      for (let k = last + 1; k <= last + 1 + JPEG_RINGING && k < room; k++) {
        if (stepsFrom(lineOf(side, k), colour)) {
          edge = k;
          break;
        }
      }
      if (edge < 0) continue;
      insets[side] = edge;
      colours[side] = colour;
      changed = true;
    }
  }
  // The photo inside is a rectangle: each of its corners differs from the margins beside it. An
  // object on a backdrop of one colour has the backdrop at its outline's corners (a card's rounded
  // ones, or any turned object's).
  // Read CORNER_IN px in from each corner, clear of a JPEG's ringing along the margin.
  const corners = [
    [insets.left + CORNER_IN, insets.top + CORNER_IN, "left", "top"],
    [width - 1 - insets.right - CORNER_IN, insets.top + CORNER_IN, "right", "top"],
    [width - 1 - insets.right - CORNER_IN, height - 1 - insets.bottom - CORNER_IN, "right", "bottom"],
    [insets.left + CORNER_IN, height - 1 - insets.bottom - CORNER_IN, "left", "bottom"],
  ] as const;
  for (const [x, y, across, along] of corners) {
    const o = (y * width + x) * 4;
    for (const side of [across, along]) {
      const colour = colours[side];
      if (colour && !differs(o, colour)) return { left: 0, top: 0, right: 0, bottom: 0 };
    }
  }
  return insets;
}

/**
 * `image` with its margins painted over by the photo's own edge (a copy: each margin pixel takes
 * the colour of the nearest pixel inside them), or `image` itself when it has none. The image
 * keeps its size, so everything read on it keeps its scale and its pixels' places; only the
 * margin's edge along the photo is gone.
 */
export function withoutMargins(image: RgbaImage, insets: Insets): RgbaImage {
  const { left, top, right, bottom } = insets;
  if (left + top + right + bottom === 0) return image;
  const { width, height } = image;
  const data = new Uint8Array(image.data);
  const lastX = width - 1 - right;
  const lastY = height - 1 - bottom;
  for (let y = 0; y < height; y++) {
    const sy = Math.min(lastY, Math.max(top, y));
    const inside = y >= top && y <= lastY;
    for (let x = 0; x < width; x++) {
      if (inside && x >= left && x <= lastX) {
        x = lastX;
        continue;
      }
      const sx = Math.min(lastX, Math.max(left, x));
      data.set(image.data.subarray((sy * width + sx) * 4, (sy * width + sx) * 4 + 4), (y * width + x) * 4);
    }
  }
  return { width, height, data };
}
