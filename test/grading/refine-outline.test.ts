// The card's sides to a fraction of a pixel (src/grading/engine/refine-outline.ts), on drawn
// photos where the two readings of a side disagree.
// - A card whose top edge bows 10 px over its 200 (a card that does not lie flat): traced as a
//   line on neither reading, it is refused as bowed, by how much; straight, it is traced. Bowed
//   out 7 px over 600 (1.2 %), it is measured from the curve, its corners at the curve's ends;
//   bowed in as much, or out twice as much, it is not.
// - A thin border on the card's left side with artwork in stripes just inside it: on dark blue
//   stripes the border's blue lies past halfway from the grey table to the art, on red stripes
//   short of it, so profile by profile the 50 % crossing jumps between the cut and the art's edge
//   5 px in, and the crossings' line fit settles on a compromise (3 px off the cut at one end).
//   The median profile's first step out of the table's grey is the cut, and the band between the
//   two lines has the blue the other sides show just inside their cut: the card's own border, so
//   the median reading is the side. With the left side in 55 % light (the table beside it too),
//   its border is compared with the others' blue as that light would show it.
// - A thin border all round with art in squares of dark blue and red just inside it: no side's
//   two readings agree, and all four sides' median profiles step into the same blue, which is
//   then the border's colour every side is compared with: each cut is taken.
// - A band of another colour outside the card's left edge (a sleeve's margin): the crossings
//   find the card's edge, the median profile the band's outer edge, and the band is not the
//   card's border colour: neither is trusted, the side is refused.
// - A line of the table along the card's left edge (a brick joint 6 px outside it): the median
//   profile steps into the joint first; past it lie the table again and then the card's border,
//   and there the crossings agree: the cut is taken. The sleeve's margin has no table between it
//   and the card, so it stays refused.
// - A band of the joint's colour against the upper part of the left edge: the median profile
//   steps into it first, but along the rest of the side the table lies right outside the
//   crossings' line: the band does not run along the whole side as a sleeve's margin does, and
//   the cut is taken.
// - A light line of the table's own grey (grout) leaning along the card's left edge, touching the
//   cut at the top and 8 px off it at the bottom: the median profile steps into the line first, the
//   crossings trace the cut, and the line is the table's ink in another light, its step smaller
//   than the cut's: the cut is taken. Beside a grey-blue border whose step off the table is
//   smaller than the line's, the crossings follow the line's inner edge where it nears the cut,
//   and the side stays two edges. The same on a drawn tiled table: a red-bordered card beside a
//   joint is measured, a light bevelled rim beside it refused.
// (Where the crossings do not line up at all, the median profile alone traces the side:
// find-card.test.ts, a thin border on a lawn.)
// - A card blurred by a Gaussian of 2 px on white paper, its shadow lying against the cut on two
//   sides: the blur is the cut's own 10–90 % rise (5.1 px), with the shadow as without it.
// - A yellow-bordered card on bluish white paper with a dark brown band along its bottom cut (the
//   card's dark core seen along the cut): projected onto the step from the paper's colour to the
//   yellow, the brown lies 83 % of the way to the card, so both readings put the cut on the band's
//   outer edge (2.6–3.2 px out before the band was read). The face begins where the colour comes
//   back to the border's out of the band; the same beside a red border, told by its hue, and with
//   bands along two cuts, where the four sides agree on no one colour just past their cut, and
//   with a band along part of the side only. A grey band whose face does not trace the line the
//   side was taken on is refused.
// - A band seen along part of a side but for gaps between its stretches, the readings' edge points
//   there lying off the cut (the band there, unseen): not read past (bandUnseen); lying on it (a
//   band truly broken), read past.
// - A black-bordered card on green felt with its light paper edge seen along two cuts: the grey
//   edge is neither lighter nor darker than the blur of the cut, and the readings put the cut on
//   its inner step short of the middle, or found its two edges. The face begins past it; a light
//   band wider than a card's edge (a sleeve's margin) stays two edges.
// - A blue-grey-bordered card with a 1.8 mm dark brown shadow outside its bottom cut, wider than
//   the readings reach, the outline handed over on the shadow's outer edge: refused, naming the
//   band, since the border's blue-grey comes back past it.
// - The same card with a 9 px brown-black band outside its bottom cut and the paper past it in the
//   card's shadow (a real Yu-Gi-Oh! photo's bottom edge): the crossings find the cut, the median
//   profile the band's outer edge, and the band is of no ink of the border: the cut is taken. A
//   band of the border's own ink in shadow stays two edges.
// - The blue-grey-bordered card with 4 px of near black outside its bottom cut and the grey table
//   past it darkening toward the band over 10 px (a soft shadow's penumbra, as below a real
//   Yu-Gi-Oh! card's bottom edge), the outline handed over 3 or 5 px out: the readings lie in the
//   penumbra 2–4 px apart, and the face past the band is taken. A band of the border's own ink in
//   shadow, 4 px with or without a penumbra or 12 px (1.5 mm) with one, is not read past.
// - A dark-banded card whose outline's left side was handed over at a slant, from the cut at the
//   top to past the band's inner edge at the bottom: no reading traces it, so it is read three
//   times as far and moved onto the line most profiles then find, the cut; the whole outline is
//   refined again. Handed over on a mottled table far from any edge, it is refused as before.
// - The border's colour where the sides whose readings agree show two inks (a real Yu-Gi-Oh!
//   card's banded side and one other): the colour three of the four sides show just inside their
//   line, and none where no three show one.
// - A black border on white paper with a grey band outside its left cut, 8 px (1 mm) wide at the
//   top and none at the bottom (the card's dark core, or its shadow close against the cut): the
//   readings' line tilts from the band's outer edge to the cut; read from the black outward, the
//   cut is the black's outer edge all along. A band all along the side (a rim, or print, as wide
//   all along or wider at one end) or 2.5 mm wide at one end (a sleeve's back) is not read past.
// - A drawn thin red border on a cluttered desk whose art is light grey along the top of its left
//   side: the crossings there sit on the art's edge, below on the cut, and bow between them; the
//   median profile traces the cut, which is taken, not a curve (the card reads standard).
// - dropShadowSteps: a median reading that stepped into the table in shadow, where the other
//   sides show another border, is dropped; a side the crossings did not trace is then named.
import { describe, expect, it } from "vitest";
import { analyseFace } from "../../src/grading/engine/analyse-face";
import {
  bandAtBow,
  bandUnseen,
  borderInShade,
  DARK_BAND,
  mostShown,
  pastBand,
} from "../../src/grading/engine/cut-bands";
import { EDGE_PROFILES, type SideReadings } from "../../src/grading/engine/cut-profiles";
import { sharpSteps } from "../../src/grading/engine/cut-tilt";
import { rgbSampler } from "../../src/grading/engine/edges";
import { lineThrough, type Point, type Quad } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import { dropShadowSteps, refineOutline } from "../../src/grading/engine/refine-outline";
import { drawCardScene, encodeJpeg } from "../helpers/card-images";
import { measuredFront } from "../helpers/drawn-front";
import { normalCdf } from "../helpers/normal";
import { artPhoto, tablePhoto } from "../helpers/photos";
import { DESK_CLUTTER, type RealisticCase, realisticScenes, withBevelledRim } from "../helpers/scene-sets";

const W = 400;
const H = 480;
/** The card covers x 100–300, y 80–360 (pixel edges); its borders are 14 px unless told. */
const CARD = { x0: 100, x1: 300, y0: 80, y1: 360 };
const TABLE = [147, 147, 148];
const BORDER = [19, 77, 154];
const ART_DARK = [10, 40, 120];
const ART_RED = [144, 43, 25];
/** Beige paper, a red border and a grey-brown core seen along a cut (the dark-band cases). */
const BEIGE = [200, 190, 170];
const RED = [200, 30, 40];
const GREY_BROWN = [62, 56, 50];
/** A black border on green felt, with the card's paper edge seen beside it (the light-band cases). */
const FELT = [55, 83, 55];
const BLACK = [24, 24, 26];
const PAPER_EDGE = [170, 170, 165];
/** White paper, a silver border of its hue a shade darker, and a tan paper edge (a real photo's). */
const WARM_PAPER = [215, 202, 187];
const SILVER = [165, 155, 145];
const TAN_EDGE = [178, 156, 129];
/** A sleeve's margin: the table seen through hazy plastic, lighter and bluer. */
const SLEEVE = [196, 204, 222];

/** A brick joint: a light line through the table. */
const JOINT = [214, 206, 190];

/**
 * `stripe`: rows per stripe of the art; `sleeve`: px of sleeve margin outside the left edge;
 * `joint`: px of table between the left edge and a 3 px joint running along it; `patch`: px of a
 * band of the joint's colour against the left edge along its upper 65 %; `leftLight`: the light
 * left of x 120 (table and card alike), rising to full at x 160.
 */
function photo(leftBorder: number, stripe: number, sleeve = 0, joint = 0, patch = 0, leftLight = 1): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // The table's grain from a fixed hash of the pixel's place (no straight lines in it).
      const hash = Math.imul(x * 73856093 + y * 19349663, 0x9e3779b1) >>> 16;
      let colour = TABLE.map((v) => v + Math.round(((hash / 65535) * 2 - 1) * 8));
      if (x >= CARD.x0 - sleeve && x < CARD.x0 && y >= CARD.y0 && y < CARD.y1) colour = SLEEVE;
      if (joint > 0 && x >= CARD.x0 - joint - 3 && x < CARD.x0 - joint) colour = JOINT;
      // A patch of the joint's colour against the cut along the upper 65 % of the left side.
      if (patch > 0 && x >= CARD.x0 - patch && x < CARD.x0 && y < CARD.y0 + 0.65 * (CARD.y1 - CARD.y0)) colour = JOINT;
      const onCard = x >= CARD.x0 && x < CARD.x1 && y >= CARD.y0 && y < CARD.y1;
      if (onCard) {
        const inArt = x >= CARD.x0 + leftBorder && x < CARD.x1 - 14 && y >= CARD.y0 + 14 && y < CARD.y1 - 14;
        colour = inArt ? (Math.floor(y / stripe) % 2 === 0 ? ART_DARK : ART_RED) : BORDER;
      }
      const light = leftLight + (1 - leftLight) * Math.min(1, Math.max(0, (x - 120) / 40));
      data.set([...colour.map((v) => Math.round(v * light)), 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

/** A light grey line of the table's ink (grout): told from the table by brightness only. */
const GROUT = [186, 186, 187];

/**
 * The card (14 px borders of `border`, striped art) with a 3 px line of GROUT outside its left
 * cut, leaning: its inner edge touches the cut at the card's top and lies 8 px off it at the bottom.
 */
function leaningGrout(border: readonly number[]): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const hash = Math.imul(x * 73856093 + y * 19349663, 0x9e3779b1) >>> 16;
      let colour = TABLE.map((v) => v + Math.round(((hash / 65535) * 2 - 1) * 8));
      const gap = (8 * Math.min(1, Math.max(0, y - CARD.y0))) / (CARD.y1 - CARD.y0);
      if (x + 0.5 >= CARD.x0 - gap - 3 && x + 0.5 < CARD.x0 - gap) colour = GROUT;
      if (x >= CARD.x0 && x < CARD.x1 && y >= CARD.y0 && y < CARD.y1) {
        const inArt = x >= CARD.x0 + 14 && x < CARD.x1 - 14 && y >= CARD.y0 + 14 && y < CARD.y1 - 14;
        colour = inArt ? (Math.floor(y / 20) % 2 === 0 ? ART_DARK : ART_RED) : [...border];
      }
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

/**
 * A card with a `border` px border all round and art in 20 px squares of dark blue and red just
 * inside it: along every side the crossings jump between the cut and the art's edge.
 */
function thinBorderAllRound(border: number): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const hash = Math.imul(x * 73856093 + y * 19349663, 0x9e3779b1) >>> 16;
      let colour = TABLE.map((v) => v + Math.round(((hash / 65535) * 2 - 1) * 8));
      if (x >= CARD.x0 && x < CARD.x1 && y >= CARD.y0 && y < CARD.y1) {
        const inArt = x >= CARD.x0 + border && x < CARD.x1 - border && y >= CARD.y0 + border && y < CARD.y1 - border;
        const square = (Math.floor(x / 20) + Math.floor(y / 20)) % 2 === 0;
        colour = inArt ? (square ? ART_DARK : ART_RED) : BORDER;
      }
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

/**
 * A card whose top edge bows `bow` px down at its middle from its corners (a parabola), as the
 * edge of a card that does not lie flat photographs; the border follows the edge. `shadowPx`: a
 * dark band outside the top edge, that wide at the middle and narrowing to nothing at the
 * corners (a parabola too: a shadow where the card lifts off the table).
 */
/**
 * A card whose top cut bows up by `bow` px at its middle, on grey, with a dark band outside it
 * `shadowPx` px wide at the middle and `atCorners` px at the corners (`band`'s colour, `border`
 * the card's border).
 */
function bowedTop(
  bow: number,
  card = CARD,
  width = W,
  height = H,
  shadowPx = 0,
  {
    atCorners = 0,
    border = BORDER,
    band = [70, 55, 40],
  }: { atCorners?: number; border?: number[]; band?: number[] } = {},
): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  const middle = (card.x0 + card.x1) / 2;
  const half = (card.x1 - card.x0) / 2;
  const borderPx = Math.round((card.x1 - card.x0) / 14);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const hash = Math.imul(x * 73856093 + y * 19349663, 0x9e3779b1) >>> 16;
      let colour = TABLE.map((v) => v + Math.round(((hash / 65535) * 2 - 1) * 8));
      const top = card.y0 + bow * (1 - ((x + 0.5 - middle) / half) ** 2);
      const shadow = atCorners + shadowPx * (1 - ((x + 0.5 - middle) / half) ** 2);
      if (x >= card.x0 && x < card.x1 && y + 0.5 >= top - shadow && y + 0.5 < top) colour = band;
      if (x >= card.x0 && x < card.x1 && y + 0.5 >= top && y < card.y1) {
        const inArt =
          x >= card.x0 + borderPx && x < card.x1 - borderPx && y + 0.5 >= top + borderPx && y < card.y1 - borderPx;
        colour = inArt ? ART_RED : border;
      }
      data.set([...colour, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** A card at 32 px per mm (63 × 88 mm) 150 px in from the edges of its photo. */
const FINE = { x0: 150, x1: 150 + 63 * 32, y0: 150, y1: 150 + 88 * 32 };
/** FINE's card (a 3 mm blue border, red art) on the grained grey table, drawn once. */
const fineCard = (() => {
  let card: RgbaImage | undefined;
  return (): RgbaImage => {
    if (card) return card;
    const { x0, x1, y0, y1 } = FINE;
    const width = x1 + 150;
    const height = y1 + 150;
    const data = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const hash = Math.imul(x * 73856093 + y * 19349663, 0x9e3779b1) >>> 16;
        let colour = TABLE.map((v) => v + Math.round(((hash / 65535) * 2 - 1) * 8));
        if (x >= x0 && x < x1 && y >= y0 && y < y1) {
          const inArt = x >= x0 + 96 && x < x1 - 96 && y >= y0 + 96 && y < y1 - 96;
          colour = inArt ? ART_RED : BORDER;
        }
        data.set([...colour, 255], (y * width + x) * 4);
      }
    }
    card = { width, height, data };
    return card;
  };
})();
/** FINE's card with a band of SLEEVE's colour `band` px wide outside its cut along `sides`. */
function fineWithBand(sides: ("left" | "top")[], band: number): RgbaImage {
  const { width, height, data } = fineCard();
  const copy = data.slice();
  const { x0, x1, y0, y1 } = FINE;
  const paint = (xs: number, xe: number, ys: number, ye: number) => {
    for (let y = ys; y < ye; y++) for (let x = xs; x < xe; x++) copy.set([...SLEEVE, 255], (y * width + x) * 4);
  };
  if (sides.includes("left")) paint(x0 - band, x0, y0, y1);
  if (sides.includes("top")) paint(x0, x1, y0 - band, y0);
  return { width, height, data: copy };
}

/** A card 600 px wide in a 900 × 1200 photo, and its outline handed over across its corners. */
const LARGE = (() => {
  const card = { x0: 150, x1: 750, y0: 180, y1: 1020 };
  const quad: Quad = [
    { x: card.x0, y: card.y0 },
    { x: card.x1, y: card.y0 },
    { x: card.x1, y: card.y1 },
    { x: card.x0, y: card.y1 },
  ];
  return { card, quad };
})();

/** A card's outline as the coarse search would hand it over: each corner 1.5 px off its cut. */
function roughOutline(card: { x0: number; x1: number; y0: number; y1: number }): Quad {
  return [
    { x: card.x0 + 1.5, y: card.y0 - 1.5 },
    { x: card.x1 - 1.5, y: card.y0 + 1.5 },
    { x: card.x1 + 1.5, y: card.y1 - 1.5 },
    { x: card.x0 - 1.5, y: card.y1 + 1.5 },
  ];
}
const ROUGH = roughOutline(CARD);

/** The refinement succeeded with its left side on the card's cut (both left corners within 0.3 px). */
function expectLeftCut(result: ReturnType<typeof refineOutline>) {
  expect(result.ok).toBe(true);
  if (!result.ok) return;
  const [tl, , , bl] = result.outline.corners;
  expect(Math.abs(tl.x - CARD.x0)).toBeLessThan(0.3);
  expect(Math.abs(bl.x - CARD.x0)).toBeLessThan(0.3);
}

describe("refineOutline", () => {
  it("refuses an edge that bows instead of running straight, saying by how much", () => {
    // Bowed 10 px over its 200 px, the top edge lies within 1.5 px of no line on half its profiles;
    // the outline is handed over with its top across the bow's middle height.
    const quad: Quad = [
      { x: CARD.x0, y: CARD.y0 + 5 },
      { x: CARD.x1, y: CARD.y0 + 5 },
      { x: CARD.x1, y: CARD.y1 },
      { x: CARD.x0, y: CARD.y1 },
    ];
    const result = refineOutline(bowedTop(10), quad, 6);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const bow = /top edge \(as it appears in the photo\) is not straight: it bows ([\d.]+) px/.exec(result.reason);
    expect(bow).not.toBeNull();
    expect(Number(bow?.[1])).toBeGreaterThan(8.5);
    expect(Number(bow?.[1])).toBeLessThan(11.5);
    expect(result.reason).toMatch(/does not lie flat/);
    // Straight, the same card is traced.
    expect(refineOutline(bowedTop(0), quad, 6).ok).toBe(true);
  });

  it("measures an edge that bows out past its corners by a little from the curve, its corners at the curve's ends", () => {
    // A card 600 px wide, its top bowed 7 px out (up) at the middle (1.2 %, where no line holds 90 %
    // of its profiles); the outline handed over across its ends.
    const { card, quad } = LARGE;
    const result = refineOutline(bowedTop(-7, card, 900, 1200), quad, 8);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.bows[0]).toBeGreaterThan(6.5 / 600);
    expect(result.bows[0]).toBeLessThan(7.5 / 600);
    expect(result.bows.slice(1)).toEqual([0, 0, 0]);
    const [tl, tr] = result.outline.corners;
    expect(Math.abs((tl?.y ?? 0) - card.y0)).toBeLessThan(0.7);
    expect(Math.abs((tr?.y ?? 0) - card.y0)).toBeLessThan(0.7);
    // Bowed in by as much, the side is not taken as a curve (the flat card would hold the table
    // along it), nor bowed out over twice as much (2.5 %): traced as a line, or refused.
    for (const bow of [7, -15]) {
      const other = refineOutline(bowedTop(bow, card, 900, 1200), quad, 8);
      expect(other.ok && other.bows.some((share) => share > 0)).toBe(false);
    }
    // Straight, no side bows.
    const straight = refineOutline(bowedTop(0, card, 900, 1200), quad, 8);
    expect(straight.ok && straight.bows).toEqual([0, 0, 0, 0]);
  });

  it("refuses a side whose curve is a band's edge, the band between it and the chord widest at the middle", () => {
    // A straight cut with a dark band outside it, 6 px at the middle and nothing at the corners:
    // its crossings bow as a bent cut's would, and the band lies between the curve and its chord.
    // Read as a curve, the top border would take in up to 6 px of shadow (1 % of the side).
    const { card, quad } = LARGE;
    for (const bandPx of [3, 6]) {
      const result = refineOutline(bowedTop(0, card, 900, 1200, bandPx), quad, 8);
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.reason).toMatch(
        /^the card's top edge \(as it appears in the photo\) bows from a straight line and has a band along it \(darker than the border and the background: /,
      );
    }
    // With no band the same card is traced straight, its top on the cut.
    const plain = refineOutline(bowedTop(0, card, 900, 1200), quad, 8);
    expect(plain.ok && plain.bows).toEqual([0, 0, 0, 0]);
    if (plain.ok) expect(Math.abs((plain.outline.corners[0]?.y ?? 0) - card.y0)).toBeLessThan(0.3);
  });

  it("says a band lighter than a navy border, its tint turned away, is darker than the background and of another ink", () => {
    // A real navy Pokémon back's soft grey shadow along its bowed bottom cut was said to be darker
    // than the navy. The brown-black beside a navy border of a real back, rgb(39, 27, 28).
    const { card, quad } = LARGE;
    const navy = { border: [3, 6, 48], band: [39, 27, 28] };
    const result = refineOutline(bowedTop(0, card, 900, 1200, 6, navy), quad, 8);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(
      /^the card's top edge \(as it appears in the photo\) bows from a straight line and has a band along it \(darker than the background and of another ink than the border: /,
    );
  });

  it("reads past a dark band along the whole of a side, widest at the middle, to a straight face", () => {
    // The band 2 px wide at the corners and 7 px at the middle: the readings bow along its outer
    // edge, 2 px outside the cut at the ends, and the face past the band traces the cut straight
    // (a card lying flat, its edge in shade and its shadow wider where it lifts). Beside a blue
    // border, and beside a navy one with the brown-black band of a real photo of a Pokémon back,
    // lighter than the navy but of no blend of it and the table.
    const { card, quad } = LARGE;
    for (const colours of [{}, { border: [4, 13, 70], band: [39, 27, 28] }]) {
      const result = refineOutline(bowedTop(0, card, 900, 1200, 5, { atCorners: 2, ...colours }), quad, 8);
      if (!result.ok) throw new Error(result.reason);
      expect(result.bows).toEqual([0, 0, 0, 0]);
      expect(Math.abs((result.outline.corners[0]?.y ?? 0) - card.y0)).toBeLessThan(0.3);
      expect(Math.abs((result.outline.corners[1]?.y ?? 0) - card.y0)).toBeLessThan(0.3);
    }
  });

  it("traces a thin border's cut where the crossings' fit settles between the cut and the art's edge", () => {
    const result = refineOutline(photo(5, 20), ROUGH, 6);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [tl, tr, br, bl] = result.outline.corners;
    expect(Math.abs(tl.x - CARD.x0)).toBeLessThan(0.3);
    expect(Math.abs(bl.x - CARD.x0)).toBeLessThan(0.3);
    expect(Math.abs(tr.x - CARD.x1)).toBeLessThan(0.3);
    expect(Math.abs(br.y - CARD.y1)).toBeLessThan(0.3);
  });

  it("takes the thin border's cut on a side in dimmer light, its border as dark as the table beside it", () => {
    // At 55 % light the left border reads 78 levels from the blue the other sides show (at most 30
    // are allowed), and so it is once the blue is seen in that side's light: the table's colour
    // there, 55 % of the others'.
    const result = refineOutline(photo(5, 20, 0, 0, 0, 0.55), ROUGH, 6);
    expectLeftCut(result);
  });

  it("takes every cut of a thin border all round, where no side's two readings agree, from the colour all four step into", () => {
    // Each side's crossings settle between the cut and the art's edge 5 px in; each median
    // profile's first step out of the table leads into the same blue: the card's border.
    const result = refineOutline(thinBorderAllRound(5), ROUGH, 6);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [tl, tr, br, bl] = result.outline.corners;
    for (const [corner, x, y] of [
      [tl, CARD.x0, CARD.y0],
      [tr, CARD.x1, CARD.y0],
      [br, CARD.x1, CARD.y1],
      [bl, CARD.x0, CARD.y1],
    ] as const) {
      expect(Math.abs(corner.x - x)).toBeLessThan(0.3);
      expect(Math.abs(corner.y - y)).toBeLessThan(0.3);
    }
  });

  it("refuses a side showing two edges when the band between them is not the card's border", () => {
    const result = refineOutline(photo(14, 20, 6), ROUGH, 6);
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.reason).toMatch(/left edge .* shows two edges up to [\d.]+ px apart/);
  });

  it("takes two readings a fifth of a millimetre apart along one side as one edge, weighed, and refuses them along two", () => {
    // A band of a sleeve's colour 6 px wide outside the left cut of a card at 32 px per mm (0.19
    // mm): the crossings find the cut, the median profile the band's outer edge. Along that side
    // alone it is one edge read twice: the crossings' line is taken, and the median's weighed
    // (`gaps`, 6 px out). Along the top as well, the band lies round the card as a sleeve's or a
    // holder's does, and the second side is refused as two edges.
    const one = refineOutline(fineWithBand(["left"], 6), roughOutline(FINE), 10);
    expect(one.ok).toBe(true);
    if (!one.ok) return;
    const [tl, , , bl] = one.outline.corners;
    expect(Math.abs(tl.x - FINE.x0)).toBeLessThan(0.3);
    expect(Math.abs(bl.x - FINE.x0)).toBeLessThan(0.3);
    expect(one.gaps[3]).toBeLessThan(-5);
    const two = refineOutline(fineWithBand(["left", "top"], 6), roughOutline(FINE), 10);
    expect(two).toMatchObject({ ok: false });
    if (!two.ok) expect(two.reason).toMatch(/left edge .* shows two edges up to [\d.]+ px apart/);
    // Ten px out (0.31 mm), along one side only, it stays two edges.
    const wide = refineOutline(fineWithBand(["left"], 10), roughOutline(FINE), 10);
    expect(wide).toMatchObject({ ok: false });
  });

  it("reads past a line of the table along the card (a joint with table on both sides) to the cut", () => {
    // The median profile's first step out of the table is the joint 6–9 px outside the cut; past
    // it, the table again, then the card's blue border, where the crossings found the cut.
    const result = refineOutline(photo(14, 20, 0, 6), ROUGH, 6);
    expectLeftCut(result);
  });

  it("takes the cut beside a line of the table's ink leaning along it, touching it at one end", () => {
    // The median profile steps into the grout first, 0–8 px outside the cut; the crossings trace the
    // cut, the blue border just inside it all along, and the grout is the table's grey, lighter,
    // its step off the table (67 levels) under the cut's (146) by more than MIN_CUT_OVER_BAND.
    const result = refineOutline(leaningGrout(BORDER), ROUGH, 6);
    expectLeftCut(result);
  });

  it("does not take the crossings beside a line of the table's ink whose step is as large as the cut's", () => {
    // A grey-blue border 33 levels off the table: the grout's step (67) is the larger, the crossings
    // follow its inner edge where it nears the cut, and the side stays two edges.
    const result = refineOutline(leaningGrout([128, 132, 150]), ROUGH, 6);
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.reason).toMatch(/left edge .* shows two edges up to [\d.]+ px apart/);
  });

  it("takes the cut where a band of another colour lies against only part of the side, the table beside the rest", () => {
    // The median profile steps into the 8 px band first; the band touches the cut, so it is no
    // line of the table, but along a third of the side the table lies right outside the
    // crossings' line and the border right inside: the band is no sleeve's margin.
    const result = refineOutline(photo(14, 20, 0, 0, 8), ROUGH, 6);
    expectLeftCut(result);
  });

  it("traces the same edges both ways on a card with ordinary borders", () => {
    const result = refineOutline(photo(14, 20), ROUGH, 6);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [tl, , br] = result.outline.corners;
    expect(Math.abs(tl.x - CARD.x0)).toBeLessThan(0.3);
    expect(Math.abs(br.x - CARD.x1)).toBeLessThan(0.3);
  });

  it("reads the blur on the card's side of the cut, a shadow lying against the cut left out", () => {
    const sigma = 2;
    const widths = [0, 6].map((shadow) => {
      const result = refineOutline(blurredCardOnPaper(sigma, shadow), ROUGH, 7);
      expect(result.ok).toBe(true);
      if (!result.ok) return Number.NaN;
      const [tl, , br] = result.outline.corners;
      expect(Math.abs(tl.x - CARD.x0)).toBeLessThan(0.3);
      expect(Math.abs(br.y - CARD.y1)).toBeLessThan(0.3);
      return result.outline.edgeWidth;
    });
    for (const width of widths) expect(Math.abs(width / (2.563 * sigma) - 1)).toBeLessThan(0.05);
  });

  it.each([
    [0.6, 3],
    [1, 3],
    [1.5, 4],
  ])(
    "takes the card's face past a dark band along its cut that both colour readings take for card (blur %s px, band %s px)",
    (sigma, band) => {
      // Read as card before, the cut was placed up to 3.8 px out (the 4 px band blurred 1.5 px).
      const result = refineOutline(cardWithDarkEdge(sigma, band), ROUGH, 6);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const [tl, tr, br, bl] = result.outline.corners;
      expect(Math.abs((br.y + bl.y) / 2 - CARD.y1)).toBeLessThan(0.3);
      expect(Math.abs((tl.y + tr.y) / 2 - CARD.y0)).toBeLessThan(0.3);
    },
  );

  it.each([0.6, 1])(
    "takes a red border's face past a dark band along its cut on beige paper (blur %s px), by its hue",
    (sigma) => {
      // A grey-brown core 23 levels darker than the red and of another hue; read as card before,
      // the cut was placed 1.3–3.1 px out.
      const result = refineOutline(
        cardWithDarkEdge(sigma, 3, { paper: BEIGE, border: RED, core: GREY_BROWN }),
        ROUGH,
        6,
      );
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const [, , br, bl] = result.outline.corners;
      expect(Math.abs((br.y + bl.y) / 2 - CARD.y1)).toBeLessThan(0.3);
    },
  );

  it.each([
    ["a red border on beige paper", 0.6, { paper: BEIGE, border: RED }],
    ["a yellow border on white paper", 0.6, {}],
    ["a yellow border on white paper", 1, {}],
  ])("takes the face past dark bands along two cuts, %s (blur %s px)", (_, sigma, colours) => {
    // Two sides show the border just past their cut and two the band, so the colour the four
    // agreeing sides show is neither; the band's far side is the border two of them show. Read as
    // card before, both cuts were placed 1.7–3.2 px out.
    const result = refineOutline(
      cardWithDarkEdge(sigma, 3, { core: GREY_BROWN, alongRight: true, ...colours }),
      ROUGH,
      6,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [, tr, br, bl] = result.outline.corners;
    expect(Math.abs((br.y + bl.y) / 2 - CARD.y1)).toBeLessThan(0.3);
    expect(Math.abs((tr.x + br.x) / 2 - CARD.x1)).toBeLessThan(0.3);
  });

  it.each([
    ["along 45 % of it from one end (4 px, blur 0.6 px)", 4, 0.6, [[CARD.x0, CARD.x0 + 90]]],
    ["along 45 % of it from one end (4 px, blur 1 px)", 4, 1, [[CARD.x0, CARD.x0 + 90]]],
    [
      "in two 50 px stretches (3 px, blur 0.6 px)",
      3,
      0.6,
      [
        [CARD.x0 + 50, CARD.x0 + 100],
        [CARD.x0 + 150, CARD.x1],
      ],
    ],
  ] as [string, number, number, [number, number][]][])(
    "takes the cut where a dark band lies along part of the side, %s",
    (_, band, sigma, only) => {
      // Both readings find the band's outer edge where it lies and the cut elsewhere; the line
      // fitted through both lay between them, 1.8 px out on average (tilted) and 1.4 px.
      const result = refineOutline(cardWithDarkEdge(sigma, band, { only }), ROUGH, 6);
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const [, , br, bl] = result.outline.corners;
      expect(Math.abs(br.y - CARD.y1)).toBeLessThan(0.3);
      expect(Math.abs(bl.y - CARD.y1)).toBeLessThan(0.3);
    },
  );

  it.each([
    [0.6, 1.5],
    [0.6, 2.5],
    [1, 2],
  ])(
    "takes a black border's face past the card's light paper edge along two cuts on green felt (blur %s px, edge %s px)",
    (sigma, band) => {
      // The grey edge is neither lighter nor darker than the blur between the felt and the black:
      // the crossings' line fell on its inner step short of the middle (0.5 px in), or the two
      // readings found its two edges (refused as two edges 3.1 px apart).
      const result = refineOutline(
        cardWithDarkEdge(sigma, band, { paper: FELT, border: BLACK, core: PAPER_EDGE, alongRight: true }),
        ROUGH,
        6,
      );
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const [tl, tr, br, bl] = result.outline.corners;
      expect(Math.abs((br.y + bl.y) / 2 - CARD.y1)).toBeLessThan(0.3);
      expect(Math.abs((tr.x + br.x) / 2 - CARD.x1)).toBeLessThan(0.3);
      expect(Math.abs((tl.y + tr.y) / 2 - CARD.y0)).toBeLessThan(0.3);
    },
  );

  it("refuses a side with a light band wider than a card's paper edge beside its black border", () => {
    // 5 px here is 1.6 mm at the card's scale (200 px for 63 mm): a sleeve's margin, not the
    // card's 0.3 mm edge, so the two edges stay two edges.
    const result = refineOutline(cardWithDarkEdge(0.6, 5, { paper: FELT, border: BLACK, core: PAPER_EDGE }), ROUGH, 6);
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.reason).toMatch(/bottom edge .* shows two edges up to [\d.]+ px apart/);
  });

  it("takes a thin dark border for the card's border, not for a dark band beside it, where art of another colour lies past it", () => {
    // A 5 px border of dark red-brown around pink art on a grey table: 4.5–6.5 px in lies the art,
    // and the border is darker than the table and of another ink than the art; but it is the
    // border the other sides show just inside their cut, so it is no band.
    const thin = blurredPhoto(0.8, (box) => {
      const card = box(CARD.x0, CARD.x1, CARD.y0, CARD.y1);
      const art = box(CARD.x0 + 5, CARD.x1 - 5, CARD.y0 + 5, CARD.y1 - 5);
      return [150, 150, 150].map(
        (v, i) => v * (1 - card) + ([100, 60, 50][i] ?? 0) * (card - art) + ([172, 90, 86][i] ?? 0) * art,
      );
    });
    const result = refineOutline(thin, ROUGH, 6);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [tl, tr, br, bl] = result.outline.corners;
    expect(Math.abs((br.y + bl.y) / 2 - CARD.y1)).toBeLessThan(0.3);
    expect(Math.abs((tl.x + bl.x) / 2 - CARD.x0)).toBeLessThan(0.3);
    expect(Math.abs((tr.x + br.x) / 2 - CARD.x1)).toBeLessThan(0.3);
  });

  it("refuses a side on the outer edge of a dark band wider than its readings reach, the card's border past it", () => {
    // The 14 px (1.8 mm) shadow is wider than the median reading's 12 px: both readings step from
    // the grey into the brown and agree on the band's outer edge, 14 px outside the cut, which
    // would be measured as border. The brown is of another ink than the blue-grey the other three
    // sides show past their cut, and darker than it and the table; read on inward, the blue-grey
    // comes back past it.
    const { photo, quad } = cardWithWideShadow(14);
    const result = refineOutline(photo, quad, 6);
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.reason).toMatch(/bottom edge .* has a dark band along it, 1\.\d mm wide/);
  });

  // Refines large drawn photos several times over: 8–10 s on a quiet machine, twice that under load.
  it("reads past a soft shadow wider than its readings reach to the cut, its penumbra beginning outside the line", {
    timeout: 60_000,
  }, () => {
    // A real photo's Yu-Gi-Oh! card lifted off a light grey table: below its bottom cut 3 px of
    // near black, the shadow's core, fading to the table over 20 px more, and the outline handed
    // over in the penumbra 13 px out, where its grey is as dark as the rim's. The median reading
    // steps into the dark; read on inward the rim's colour comes back 13 px in, further than the
    // readings reach (12 px), rising out of the dark over 2 px where the penumbra fell over 16.
    const { photo, quad } = cardWithSoftShadow(13);
    expectBottomOnCut(refineOutline(photo, quad, 6));
  });

  it("takes the inner of two edges where a dark band of no ink of the border lies between them, the table beside it in the card's shadow", () => {
    // A blue-grey border with 9 px of brown-black outside its bottom cut, the table past it in the
    // card's shadow at half its light (a real photo of a Yu-Gi-Oh! card on white paper), read 6 px
    // either way: the crossings find the cut, the median profile the band's outer edge. In the
    // shadow's light the border would be as dark as the band, but the band is of another ink,
    // darker than the table and than the border just inside the cut: the cut is taken.
    for (const shade of [1, 0.5]) expectBottomOnCut(refineOutline(cardWithContactBand(9, shade), BIG_ON_CUT, 6));
  });

  it("reads past a brown-black band lighter than a navy border, its tint turned away from the navy's, to the cut", () => {
    // A real photo of a Pokémon back on white paper: the navy border rgb(3, 6, 48), the card's edge
    // in shade and its contact shadow rgb(39, 27, 28) outside its bottom cut. No band is darker
    // than such a border; this one is of no blend of it and the table, its hue turned away.
    const navy = { rim: [4, 13, 70], paper: [188, 186, 184] };
    for (const [band, reach] of [
      [4, 8],
      [6, 12],
    ] as const) {
      expectBottomOnCut(refineOutline(cardWithContactBand(band, 1, [39, 27, 28], navy), BIG_ON_CUT, reach));
    }
  });

  it("does not take the blur between a navy border and a warm table for a band", () => {
    // Orange wood beside the navy: halfway between them the blur is a brown whose tint turns away
    // from the navy's, as the card's edge in shade does, but it lies on the blend of the two.
    for (const [sigma, wood] of [
      [1, [170, 110, 60]],
      [2, [170, 110, 60]],
      [2, [120, 80, 45]],
      [3, [170, 110, 60]],
      [3, [120, 80, 45]],
    ] as const) {
      const photo = blurredPhoto(sigma, (box) => bigCardColour(box, [...wood], [4, 13, 70], [60, 110, 190]), {
        width: 700,
        height: 900,
      });
      expectBottomOnCut(refineOutline(photo, BIG_ON_CUT, 8));
    }
  });

  it("does not read past a lighter band of the navy border's own tint: it is the border", () => {
    const navy = { rim: [4, 13, 70], paper: [188, 186, 184] };
    const result = refineOutline(cardWithContactBand(6, 1, [30, 40, 95], navy), BIG_ON_CUT, 12);
    expect(result.ok).toBe(true);
    if (result.ok) expect(Math.abs(result.outline.corners[2].y - (BIG.y1 + 6))).toBeLessThan(0.5);
  });

  it("reads past a dark band wider than 2.5 px that both readings took for card, to the cut", () => {
    // Read 8 or 12 px either way, both readings reach the paper past the band and agree on its
    // outer edge, 4–9 px outside the cut (before this was read: 6 and 9 px out). The band runs in
    // from their line unbroken to the border.
    for (const [band, reach, shade] of [
      [4, 8, 1],
      [6, 12, 1],
      [9, 12, 1],
      [9, 12, 0.5],
    ] as const) {
      expectBottomOnCut(refineOutline(cardWithContactBand(band, shade), BIG_ON_CUT, reach));
    }
  });

  it("does not read past a band of the border's own ink: two edges stay two, or the band is border", () => {
    // The band in the border's blue-grey at 45 % of its light (the border's own colour in shadow,
    // as a wider border's outer part would show it) is no dark band of another ink.
    const ownInk = [40, 40, 49];
    const apart = refineOutline(cardWithContactBand(9, 1, ownInk), BIG_ON_CUT, 6);
    expect(apart).toMatchObject({ ok: false });
    if (!apart.ok) expect(apart.reason).toMatch(/bottom edge .* shows two edges up to 9\.\d px apart/);
    const agreed = refineOutline(cardWithContactBand(9, 1, ownInk), BIG_ON_CUT, 12);
    expect(agreed.ok).toBe(true);
    if (agreed.ok) expect(Math.abs(agreed.outline.corners[2].y - (BIG.y1 + 9))).toBeLessThan(0.5);
  });

  it("does not read past a dark line printed inside a light border to find the cut", () => {
    // A 3 px brown-black line 4 px inside the cut of a light grey border on a brown table, read 12 px
    // either way: the line is darker than the table and of another ink than the border past it, but
    // between it and the cut lies the border, so it is no band against the cut. (Read past, the
    // bottom side moved 7 px into the card.)
    const printedLine = { rim: [200, 200, 205], line: 4, paper: [120, 110, 100] };
    const result = refineOutline(cardWithContactBand(0, 1, [28, 19, 18], printedLine), BIG_ON_CUT, 12);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [, , br, bl] = result.outline.corners;
    expect(Math.abs(br.y - BIG.y1)).toBeLessThan(0.5);
    expect(Math.abs(bl.y - BIG.y1)).toBeLessThan(0.5);
  });

  it("takes the cut of a silver border on white paper past its paper edge, a band of neither one's hue", () => {
    // A real photo's Pokémon card: its grey border is the paper's own hue a shade darker (each
    // channel at 76–78 %), so a colour reading alone takes it for the paper in shadow; and along one
    // side lies its tan paper edge, 4 px (0.5 mm) wide, as light as the border and as dark as the
    // paper in a little shadow, only of another hue. Read 6 px either way, the cut is past the band.
    const silver = cardWithContactBand(4, 1, TAN_EDGE, { rim: SILVER, paper: WARM_PAPER });
    expectBottomOnCut(refineOutline(silver, BIG_ON_CUT, 6));
  });

  it("takes the same cut under a warm lamp, the silver border tinted as the paper is", () => {
    // Every colour lit by a warmer light (green at 95 %, blue at 87 %): the border shows 0.09
    // saturated, no grey as it stands, and grey again balanced by the paper's colour, which the
    // same light tints (a real photo's silver border under lamplight, rgb(164, 153, 139) beside
    // paper of rgb(201, 185, 165)). Judged as it shows, the band was not read past.
    const lamp = (colour: number[]) => colour.map((v, ch) => v * ([1, 0.95, 0.87][ch] ?? 1));
    const silver = cardWithContactBand(4, 1, lamp(TAN_EDGE), { rim: lamp(SILVER), paper: lamp(WARM_PAPER) });
    expectBottomOnCut(refineOutline(silver, BIG_ON_CUT, 6));
  });

  it("reads past a warm dark band along one side of a silver border on paper, the other three read as the paper in shade", () => {
    // A real photo's Pokémon card: its silver border is the paper's own hue a shade darker, so the
    // median readings of three sides take it for the paper in shadow; along the fourth lies a
    // brown contact shadow 4 px wide, darker than both and warmer than the paper. The three sides
    // agreeing on one colour are the border, and the band is read past to the face; with the one
    // side's brown taken for the border instead, the cut was put on the band's outer edge (4.5 px out).
    const silver = cardWithContactBand(4, 1, [101, 88, 75], { rim: [150, 146, 140], paper: [196, 193, 187] });
    expectBottomOnCut(refineOutline(silver, BIG_ON_CUT, 6));
  });

  it("reads past a warm dark edge only 18 levels under a cool grey rim, its tint turned away from the rim's", () => {
    // A drawn card's 0.3 mm dark edge, blurred into the table and the rim, read 15–18 levels under
    // the rim and was taken for it: the cut was put on the band's outer edge (4 px out here).
    expectBottomOnCut(
      refineOutline(
        cardWithContactBand(4, 1, [82, 77, 71], { rim: [92, 96, 108], paper: [200, 192, 172] }),
        BIG_ON_CUT,
        6,
      ),
    );
  });

  it("reads past a dark band of nearly the border's ink along two adjacent cuts only: the card's edge seen one way", () => {
    // A warm grey border (luma 95) on light paper, a warmer dark band (luma 57, the card's dark
    // edge) 4 px wide outside the right and bottom cuts: one ink with the border by sameInk's
    // measure, so no dark band of another, but not the border in shade (its chromaticity 0.06 off
    // the border's); the top and left show none, and print runs all round a card. Taken as read,
    // both sides lay on the bands' outer edges (4 px out).
    const result = refineOutline(cardWithBandsOutside(["right", "bottom"]), BIG_ON_CUT, 6);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [tl, tr, br, bl] = result.outline.corners;
    for (const corner of [tr, br]) expect(Math.abs(corner.x - BIG.x1)).toBeLessThan(0.3);
    for (const corner of [br, bl]) expect(Math.abs(corner.y - BIG.y1)).toBeLessThan(0.3);
    expect(Math.abs(tl.x - BIG.x0)).toBeLessThan(0.3);
    expect(Math.abs(tl.y - BIG.y0)).toBeLessThan(0.3);
  });

  it("does not read past such bands along two opposite cuts: the card's own print would lie so", () => {
    const result = refineOutline(cardWithBandsOutside(["top", "bottom"]), BIG_ON_CUT, 6);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [tl, tr, br, bl] = result.outline.corners;
    for (const corner of [tl, tr]) expect(corner.y).toBeLessThan(BIG.y0 - 3);
    for (const corner of [br, bl]) expect(corner.y).toBeGreaterThan(BIG.y1 + 3);
  });

  it("does not read past a band of the border's own hue beside a silver border: it is the border", () => {
    // The same card with a 4 px strip of the border's grey a little lighter outside its cut: a
    // wider border, not a paper edge of another hue, so the bottom is taken on the strip's outer edge.
    const wider = refineOutline(
      cardWithContactBand(4, 1, [178, 168, 160], { rim: SILVER, paper: WARM_PAPER }),
      BIG_ON_CUT,
      6,
    );
    expect(wider.ok).toBe(true);
    if (wider.ok) expect(Math.abs(wider.outline.corners[2].y - (BIG.y1 + 4))).toBeLessThan(0.5);
  });

  it("reads past a soft shadow's penumbra and the narrow dark band beside the cut to the face", {
    timeout: 60_000,
  }, () => {
    // Below the bottom cut, 4 px of near black (the card's edge, its contact shadow), then the
    // table darkening toward it over 10 px (a soft shadow's penumbra), the outline handed over 5 px
    // out: both readings lie in the penumbra or the band, 2–4 px apart. The penumbra darkens four
    // times as gradually as the face rises out of the band: the face is the cut.
    for (const out of [3, 5]) expectBottomOnCut(refineOutline(cardWithPenumbra(10, 4), bigWithBottomOut(out), 6));
  });

  it("does not read past a band of the border's own ink beside a penumbra, nor one wider than a card's edge", {
    timeout: 60_000,
  }, () => {
    // The band in the border's blue-grey at 40 % of its light (the border's outer part in shadow),
    // 4 px wide with or without a penumbra past it, or 12 px (1.5 mm) with one: not taken for the
    // card's edge, the cut is not put at its inner edge.
    for (const [penumbra, band] of [
      [0, 4],
      [10, 4],
      [10, 12],
    ] as const) {
      const result = refineOutline(cardWithPenumbra(penumbra, band, [38, 42, 51]), bigWithBottomOut(5), 6);
      if (!result.ok) expect(result.reason).toMatch(/bottom edge .* shows two edges/);
      else for (const corner of result.outline.corners.slice(2)) expect(corner.y).toBeGreaterThan(BIG.y1 + 2);
    }
  });

  it("reads the face past a dark band whose crossings trace a line tilted across it", () => {
    // A 4 px grey band blurred by 1 px: the crossings wander between the band's two edges and
    // trace a line tilted across it, which the side is taken on (the median reading's step lies
    // in the band). The face past the band, read all along the side, lies 5 px inside that line at
    // one end and 2 px outside it at the other: it is the cut, read where the line taken crosses it
    // (cut-bands.ts, liesInsideWhereRead; refused before stop 98, the band's inner edge not traced).
    const result = refineOutline(cardWithDarkEdge(1, 4, { core: [60, 60, 62] }), ROUGH, 6);
    if (!result.ok) throw new Error(result.reason);
    for (const [corner, y] of result.outline.corners.map((c, k) => [c, k < 2 ? CARD.y0 : CARD.y1] as const)) {
      expect(Math.abs(corner.y - y)).toBeLessThan(0.3);
    }
  });

  it("reads the cut past a dark band along two thirds of a side, seen at its middle, and on the line taken along the rest", () => {
    // The same band from the left corner to x 230: the face past it is read on 69 % of the
    // profiles, and the line taken crosses it. The cut is read past the band where it lies and on
    // the line taken's edge points elsewhere (pastPartialBand; refused before stop 98, the band's
    // inner edge not traced).
    const result = refineOutline(cardWithDarkEdge(1, 4, { core: [60, 60, 62], only: [[100, 230]] }), ROUGH, 6);
    if (!result.ok) throw new Error(result.reason);
    for (const [corner, y] of result.outline.corners.map((c, k) => [c, k < 2 ? CARD.y0 : CARD.y1] as const)) {
      expect(Math.abs(corner.y - y)).toBeLessThan(0.3);
    }
  });

  it("refuses a side whose dark band is seen in two stretches with the line taken's points between them off the cut, naming the band", () => {
    // A 3 px band blurred by 1.5 px along the side but for 40 px at its middle: between the two
    // stretches the edge points of the line taken lie off the cut read past them by more than a
    // third of the band's width, so the band may lie there unseen (bandUnseen), and the face past
    // it, seen at neither the side's middle nor all along it, is not read.
    const result = refineOutline(
      cardWithDarkEdge(1.5, 3, {
        core: [60, 60, 62],
        only: [
          [100, 180],
          [220, 300],
        ],
      }),
      ROUGH,
      6,
    );
    expect(result).toMatchObject({ ok: false });
    if (!result.ok)
      expect(result.reason).toMatch(/bottom edge .* has a dark band along it .* whose inner edge could not be traced/);
  });
});

/**
 * A photo drawn pixel by pixel from `colourAt`, given `box`: how much of a pixel (by its centre) lies
 * in the rectangle x0–x1, y0–y1 once blurred by a Gaussian of `sigma` px.
 */
function blurredPhoto(
  sigma: number,
  colourAt: (box: Box) => number[],
  { width = W, height = H }: { width?: number; height?: number } = {},
): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const box = (x0: number, x1: number, y0: number, y1: number) =>
        (normalCdf((x + 0.5 - x0) / sigma) - normalCdf((x + 0.5 - x1) / sigma)) *
        (normalCdf((y + 0.5 - y0) / sigma) - normalCdf((y + 0.5 - y1) / sigma));
      data.set([...colourAt(box).map((v) => Math.round(v)), 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/**
 * A card 500 × 698 px (7.9 px per mm) with a 15 px blue-grey border round an orange body, on grey,
 * blurred by 1 px, a `band` px band of dark brown (a soft shadow cast on the table) outside its
 * bottom cut; and the outline find-card.ts hands over, its bottom side on the band's outer edge.
 */
const BIG = { x0: 100, x1: 600, y0: 100, y1: 798 };
/** How much of a pixel lies in a rectangle, as blurredPhoto hands it to its colour function. */
type Box = (x0: number, x1: number, y0: number, y1: number) => number;

/**
 * The colour of a pixel (its shares in rectangles given by `box`) of the BIG card: a 15 px
 * `border` round `body` on `table`, with `outside` (shares beside the card, each with its colour)
 * taking the table's place and `onBorder` (shares inside the cut) the border's.
 */
function bigCardColour(
  box: Box,
  table: number[],
  border: number[],
  body: number[],
  outside: [number, number[]][] = [],
  onBorder: [number, number[]][] = [],
): number[] {
  const card = box(BIG.x0, BIG.x1, BIG.y0, BIG.y1);
  const inner = box(BIG.x0 + 15, BIG.x1 - 15, BIG.y0 + 15, BIG.y1 - 15);
  const sum = (marks: [number, number[]][]) => marks.reduce((total, [share]) => total + share, 0);
  const marked = (marks: [number, number[]][], i: number) =>
    marks.reduce((total, [share, colour]) => total + share * (colour[i] ?? 0), 0);
  return table.map(
    (v, i) =>
      v * (1 - card - sum(outside)) +
      marked(outside, i) +
      (border[i] ?? 0) * (card - inner - sum(onBorder)) +
      marked(onBorder, i) +
      (body[i] ?? 0) * inner,
  );
}

function cardWithWideShadow(band: number): { photo: RgbaImage; quad: Quad } {
  return cardWithShadowBelow(
    Array.from({ length: band }, () => [57, 38, 31]),
    band,
  );
}

/**
 * The card of cardWithWideShadow with a soft shadow below its bottom cut in place of the flat band:
 * 3 px of near black, then a penumbra fading linearly to the table over 20 px; and the outline
 * find-card.ts hands over, its bottom side `out` px below the cut.
 */
function cardWithSoftShadow(out: number): { photo: RgbaImage; quad: Quad } {
  const core = [40, 27, 24];
  const shade = (i: number) => {
    const t = Math.min(1, Math.max(0, (i - 2.5) / 20));
    return core.map((v, c) => v + t * ((SHADOWED_TABLE[c] ?? 0) - v));
  };
  return cardWithShadowBelow(
    Array.from({ length: 23 }, (_, i) => shade(i)),
    out,
  );
}

/** The table of cardWithShadowBelow. */
const SHADOWED_TABLE = [182, 175, 173];

/**
 * The BIG card, a blue-grey border round an orange body on grey, blurred by 1 px, with one colour
 * of `rows` in each pixel row below its bottom cut; and the outline find-card.ts hands over, its
 * bottom side `out` px below the cut.
 */
function cardWithShadowBelow(rows: number[][], out: number): { photo: RgbaImage; quad: Quad } {
  const [rim, body] = [
    [100, 100, 120],
    [214, 130, 70],
  ];
  const photo = blurredPhoto(
    1,
    (box) =>
      bigCardColour(
        box,
        SHADOWED_TABLE,
        rim,
        body,
        rows.map((colour, i): [number, number[]] => [box(BIG.x0, BIG.x1, BIG.y1 + i, BIG.y1 + i + 1), colour]),
      ),
    { width: 700, height: 900 },
  );
  const quad: Quad = [
    { x: BIG.x0, y: BIG.y0 },
    { x: BIG.x1, y: BIG.y0 },
    { x: BIG.x1, y: BIG.y1 + out },
    { x: BIG.x0, y: BIG.y1 + out },
  ];
  return { photo, quad };
}

/**
 * The BIG card (blue-grey border, or `rim`, round a blue body, on white paper, or `paper`) blurred by 1 px,
 * with a `band` px band of brown-black (or `core`) outside its bottom cut, the 30 px of paper past
 * the band at `shade` of its light (the card's soft shadow), and, `line` px inside the bottom cut,
 * a 3 px line of the band's colour printed across the border.
 */
function cardWithContactBand(
  band: number,
  shade: number,
  core = [28, 19, 18],
  { rim = [90, 90, 108], line = 0, paper = [200, 193, 190] }: { rim?: number[]; line?: number; paper?: number[] } = {},
): RgbaImage {
  const body = [60, 110, 190];
  return blurredPhoto(
    1,
    (box) => {
      const printed = line > 0 ? box(BIG.x0 + 15, BIG.x1 - 15, BIG.y1 - line - 3, BIG.y1 - line) : 0;
      const outside: [number, number[]][] = [
        [box(BIG.x0, BIG.x1, BIG.y1, BIG.y1 + band), core],
        [box(BIG.x0, BIG.x1, BIG.y1 + band, BIG.y1 + band + 30), paper.map((v) => v * shade)],
      ];
      return bigCardColour(box, paper, rim, body, outside, [[printed, core]]);
    },
    { width: 700, height: 900 },
  );
}

/**
 * The BIG card, a warm grey border (15 px) round a blue body on light paper, blurred by 1 px, with
 * a warmer dark band (the card's dark edge) 4 px wide outside each of `sides`.
 */
function cardWithBandsOutside(sides: ("top" | "right" | "bottom")[]): RgbaImage {
  const [paper, band, border, body] = [
    [200, 195, 190],
    [66, 54, 40],
    [100, 94, 88],
    [60, 110, 190],
  ];
  return blurredPhoto(
    1,
    (box) => {
      const outside = {
        top: box(BIG.x0, BIG.x1, BIG.y0 - 4, BIG.y0),
        right: box(BIG.x1, BIG.x1 + 4, BIG.y0, BIG.y1),
        bottom: box(BIG.x0, BIG.x1 + (sides.includes("right") ? 4 : 0), BIG.y1, BIG.y1 + 4),
      };
      return bigCardColour(
        box,
        paper,
        border,
        body,
        sides.map((side): [number, number[]] => [outside[side], band]),
      );
    },
    { width: 700, height: 900 },
  );
}

/**
 * The BIG card (a 15 px blue-grey border round an orange body, on grey) blurred by 1 px, with a
 * `band` px band of near black outside its bottom cut and, past it, the table darkening toward the
 * band over `penumbra` px (a soft shadow: the table's light rising linearly from a fifth to full).
 */
function cardWithPenumbra(penumbra: number, band: number, core = [30, 26, 30]): RgbaImage {
  const [table, rim, body] = [
    [182, 175, 173],
    [95, 104, 128],
    [214, 130, 70],
  ];
  return blurredPhoto(
    1,
    (box) => {
      // The penumbra's light by rows, in 1 px steps (the blur smooths them).
      let shadow = 0;
      for (let row = 0; row < penumbra; row++) {
        shadow +=
          box(BIG.x0, BIG.x1, BIG.y1 + band + row, BIG.y1 + band + row + 1) * (0.8 * (1 - (row + 0.5) / penumbra));
      }
      const outside: [number, number[]][] = [
        [box(BIG.x0, BIG.x1, BIG.y1, BIG.y1 + band), core],
        [shadow, table.map((v) => v * 0.2)],
      ];
      return bigCardColour(box, table, rim, body, outside);
    },
    { width: 700, height: 900 },
  );
}

/** BIG_ON_CUT with its bottom side handed over `out` px outside the cut. */
function bigWithBottomOut(out: number): Quad {
  const [tl, tr, br, bl] = BIG_ON_CUT;
  return [tl, tr, { x: br.x, y: br.y + out }, { x: bl.x, y: bl.y + out }];
}

/** The refined bottom side lies on the BIG card's cut, and the other sides on theirs. */
function expectBottomOnCut(result: ReturnType<typeof refineOutline>): void {
  expect(result.ok).toBe(true);
  if (!result.ok) return;
  const [tl, tr, br, bl] = result.outline.corners;
  expect(Math.abs(br.y - BIG.y1)).toBeLessThan(0.3);
  expect(Math.abs(bl.y - BIG.y1)).toBeLessThan(0.3);
  expect(Math.abs(tl.y - BIG.y0)).toBeLessThan(0.3);
  expect(Math.abs(tr.x - BIG.x1)).toBeLessThan(0.3);
}

/** The BIG card's outline as an earlier step hands it over on its cut. */
const BIG_ON_CUT = roughOutline(BIG);

/**
 * A yellow-bordered card (or a border of `border`'s colour) with a violet panel 28 px in, on bluish
 * white paper (or `paper`), blurred by a Gaussian of `sigma` px, with a `band` px band of dark
 * brown (or `core`: the card's core seen along its cut) outside its bottom cut, and its right one
 * too when `alongRight`; or only along the stretches `only` of its bottom cut (x from–to).
 */
function cardWithDarkEdge(
  sigma: number,
  band: number,
  {
    paper = [212, 216, 225],
    border = [250, 224, 90],
    core = [118, 97, 70],
    alongRight = false,
    only,
  }: { paper?: number[]; border?: number[]; core?: number[]; alongRight?: boolean; only?: [number, number][] } = {},
): RgbaImage {
  const violet = [120, 80, 160];
  return blurredPhoto(sigma, (box) => {
    const card = box(CARD.x0, CARD.x1, CARD.y0, CARD.y1);
    const edge = only
      ? only.reduce((sum, [from, to]) => sum + box(from, to, CARD.y1, CARD.y1 + band), 0)
      : box(CARD.x0, CARD.x1 + (alongRight ? band : 0), CARD.y0, CARD.y1 + band) - card;
    const panel = box(CARD.x0 + 28, CARD.x1 - 28, CARD.y0 + 28, CARD.y1 - 28);
    return paper.map(
      (v, i) =>
        v * (1 - card - edge) + (core[i] ?? 0) * edge + (border[i] ?? 0) * (card - panel) + (violet[i] ?? 0) * panel,
    );
  });
}

/**
 * A yellow-bordered card on white paper blurred by a Gaussian of `sigma` px, with `shadow` px of
 * its shadow (the paper at 64 % of its light) against the cut on its right and bottom sides.
 */
function blurredCardOnPaper(sigma: number, shadow: number): RgbaImage {
  const paper = [235, 235, 232];
  const yellow = [226, 190, 40];
  const dim = 0.64;
  return blurredPhoto(sigma, (box) => {
    const card = box(CARD.x0, CARD.x1, CARD.y0, CARD.y1);
    const shade = shadow > 0 ? box(CARD.x0, CARD.x1 + shadow, CARD.y0, CARD.y1 + shadow) - card : 0;
    return paper.map((v, i) => v * (1 - card - shade) + v * dim * shade + (yellow[i] ?? 0) * card);
  });
}

describe("a dark band seen along part of a side", () => {
  // The bottom side of CARD, read on EDGE_PROFILES profiles across its middle 80 %. The band, 1.8
  // px wide outside the cut, is seen on the first 80 profiles but for four gaps of 5; past it the
  // side shows none. On the profiles with the band the readings' edge points lie on its outer
  // edge, elsewhere where the test puts them.
  const side = { p: { x: CARD.x0, y: CARD.y1 }, q: { x: CARD.x1, y: CARD.y1 }, nx: 0, ny: -1 };
  const cut = lineThrough(side.p, side.q);
  const at = (s: number, out: number): Point => ({
    x: CARD.x0 + (CARD.x1 - CARD.x0) * (0.1 + (0.8 * (s + 0.5)) / EDGE_PROFILES),
    y: CARD.y1 + out,
  });
  const gaps = (s: number) => s < 80 && s % 20 >= 15;
  const faces = Array.from({ length: EDGE_PROFILES }, (_, s) => (s < 80 && !gaps(s) ? at(s, 0) : null));
  const edgePoints = (between: number) =>
    faces.map((face, s) => at(s, face ? 1.8 : gaps(s) ? between : 0.1 * Math.sin(s)));

  it("finds the band unseen where the edge points between its stretches lie off the cut", () => {
    // dimas-pikachu.png's right cut: those points lay 1.25 px out at the median, and read again
    // from the photo recompressed at JPEG quality 75, 0.84.
    expect(bandUnseen(side, cut, faces, edgePoints(1.25))).toBe(true);
    expect(bandUnseen(side, cut, faces, edgePoints(0.84))).toBe(true);
  });

  it("takes the band as broken where the edge points between its stretches lie on the cut", () => {
    expect(bandUnseen(side, cut, faces, edgePoints(0.2))).toBe(false);
    expect(bandUnseen(side, cut, faces, edgePoints(-0.3))).toBe(false);
  });

  it("does not judge a band from fewer than three edge points between its stretches", () => {
    const few = edgePoints(1.25).map((point, s) => (gaps(s) && s > 16 ? null : point));
    expect(bandUnseen(side, cut, faces, few)).toBe(false);
  });
});

describe("a thin border whose art is lighter than it along part of a side", () => {
  it("traces the cut the median profile finds, not a curve between the cut and the art's edge", () => {
    // `npm run accuracy`'s first designs card on a cluttered desk: a 1 mm red border on dark
    // gravel, at 4.5 px per mm. Along the top quarter of its left side the art is light grey,
    // and there the red lies short of halfway from the gravel to the art, so the crossings sit
    // on the art's edge 5 px in; further down, on the cut. A parabola through both (1.4 % of the
    // side) was taken for a bowed cut, the top-left corner 9 px in, and the card read 1.431 tall:
    // the 1952 Topps format. The median profile traces the cut cleanly on all 120 profiles.
    const designs = realisticScenes({ art: artPhoto, table: tablePhoto }).filter((c) => c.category === "designs");
    const card = designs[0] as RealisticCase;
    const scene = { ...card.scene, cardWidth: Math.round(card.scene.cardWidth * 0.6), clutter: DESK_CLUTTER };
    const result = analyseFace("front", encodeJpeg(drawCardScene(scene), card.quality));
    if (!result.ok) throw new Error(result.rejection.message);
    expect(result.face.format.id).toBe("standard");
    expect(Math.abs(result.face.aspect / (88 / 63) - 1)).toBeLessThan(0.005);
    // Its centering is then refused for what the photo lacks: pixels for a border this thin.
    expect(result.face.centering.ok).toBe(false);
    if (!result.face.centering.ok)
      expect(result.face.centering.reason).toMatch(/cannot support a 1-point centering measurement/);
  });
});

describe("a side the outline crossed at a slant (reseated)", () => {
  /**
   * A card with a dark band `band` px wide all round its purple body, on light grey paper (pixels
   * up to 6 levels lighter or darker); on a table of 3 px blocks each up to 50 levels lighter or
   * darker (`mottled`); or on paper of one grey (`flat`).
   */
  function darkBandedCard(band: number, table: "paper" | "mottled" | "flat" = "paper"): RgbaImage {
    const data = new Uint8Array(W * H * 4);
    const blocks: Record<typeof table, [number, number]> = { paper: [1, 6], mottled: [3, 50], flat: [1, 0] };
    const [cell, spread] = blocks[table];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const hash = Math.imul(Math.floor(x / cell) * 73856093 + Math.floor(y / cell) * 19349663, 0x9e3779b1) >>> 16;
        let colour = [200, 198, 195].map((v) => v + Math.round(((hash / 65535) * 2 - 1) * spread));
        if (x >= CARD.x0 && x < CARD.x1 && y >= CARD.y0 && y < CARD.y1) {
          const inBody = x >= CARD.x0 + band && x < CARD.x1 - band && y >= CARD.y0 + band && y < CARD.y1 - band;
          colour = inBody ? [120, 96, 170] : [40, 42, 55];
        }
        data.set([...colour, 255], (y * W + x) * 4);
      }
    }
    return { width: W, height: H, data };
  }
  const [topLeft, topRight, bottomRight, bottomLeft] = [
    { x: CARD.x0, y: CARD.y0 },
    { x: CARD.x1, y: CARD.y0 },
    { x: CARD.x1, y: CARD.y1 },
    { x: CARD.x0, y: CARD.y1 },
  ];
  const cut: Quad = [topLeft, topRight, bottomRight, bottomLeft];
  const offBy = (corners: Quad) =>
    Math.max(...corners.map((c, k) => Math.hypot(c.x - (cut[k]?.x ?? 0), c.y - (cut[k]?.y ?? 0))));
  /** The outline with its left side from 1 px outside the cut at the top to `bottomIn` px inside it at the bottom. */
  const slanted = (bottomIn: number): Quad => [
    { x: CARD.x0 - 1, y: CARD.y0 },
    topRight,
    bottomRight,
    { x: CARD.x0 + bottomIn, y: CARD.y1 },
  ];

  it("moves the side onto the cut that most of its profiles find read three times as far, and traces every cut", () => {
    // Past the band's inner edge (10 px in) at the bottom, the side's profiles, reaching 4 px,
    // find the cut along its top tenth, the band's inner edge along most of the rest, and
    // nothing where the line runs through the band: no line traces the side. Read 12 px either
    // side, 94 of the 120 profiles find the cut.
    const refined = refineOutline(darkBandedCard(10), slanted(14), 4);
    if (!refined.ok) throw new Error(refined.reason);
    expect(offBy(refined.outline.corners)).toBeLessThanOrEqual(0.1);
    expect(refined.clean).toEqual([true, true, true, true]);
  });

  it("swings a side handed over at a tilt onto the cut, pivoting on the end where it lay on it", () => {
    // The bottom side handed over on the cut at the right and 38 px outside it at the left (a
    // Hough line through a contact shadow's wedge), on paper of one grey: its profiles, reaching
    // 6 px, find the cut along the first few only; read 18 px either side, 52 of 120 do, short of
    // half. Read 36 px either side, every profile has a sharp step on the cut, and the side is
    // swung onto it.
    const quad: Quad = [topLeft, topRight, bottomRight, { x: CARD.x0, y: CARD.y1 + 38 }];
    const refined = refineOutline(darkBandedCard(10, "flat"), quad, 6);
    if (!refined.ok) throw new Error(refined.reason);
    expect(offBy(refined.outline.corners)).toBeLessThanOrEqual(0.1);
    expect(refined.clean).toEqual([true, true, true, true]);
  });

  it("reads a profile's two sharpest steps only, past a speckled border's small ones", () => {
    // Across a row: paper 200, a step to the card's dark band (40) at x = 100, specks of ±40 in
    // the band every 4 px, and the body's step (to 120) at x = 110.
    const data = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++)
      for (let x = 0; x < W; x++) {
        const speck = x > 100 && x < 108 && x % 4 === 0 ? 40 : 0;
        const level = x < 100 ? 200 : x < 110 ? 40 + speck : 120;
        data.set([level, level, level, 255], (y * W + x) * 4);
      }
    const steps = sharpSteps(rgbSampler({ width: W, height: H, data }), { x: 95, y: 200 }, 1, 0, 30);
    expect(steps).toHaveLength(2);
    // The cut (offset 5 from x = 95) first, then the body's edge (offset 15), each to the 0.5 px
    // the profile is read at.
    expect(Math.abs((steps[0] ?? 0) - 5)).toBeLessThanOrEqual(0.5);
    expect(Math.abs((steps[1] ?? 0) - 15)).toBeLessThanOrEqual(0.5);
  });

  it("does not swing a side onto a line lying beyond its reach at both ends", () => {
    // The bottom side handed over 30 px outside the cut along its length, on paper of one grey:
    // the cut and the band's inner edge lie 30 and 40 px inside it at both ends, past the 6 px
    // either end of a swung line may move, and no line pivoting within that holds half the
    // profiles. (A frame's edge lies so, a border's width inside the cut.)
    const quad: Quad = [topLeft, topRight, { x: CARD.x1, y: CARD.y1 + 30 }, { x: CARD.x0, y: CARD.y1 + 30 }];
    const refined = refineOutline(darkBandedCard(10, "flat"), quad, 6);
    expect(refined.ok).toBe(false);
    if (refined.ok) return;
    expect(refined.reason).toMatch(/bottom edge \(as it appears in the photo\) could not be traced/);
  });

  it("still refuses a side no line traces however far it is read, naming it", () => {
    // The left side handed over 30 px out on the mottled table, past three times the reach: the
    // blocks' edges give lines to move it onto, but from none of them is the side traced.
    const quad: Quad = [{ x: CARD.x0 - 30, y: CARD.y0 }, topRight, bottomRight, { x: CARD.x0 - 30, y: CARD.y1 }];
    const refined = refineOutline(darkBandedCard(10, "mottled"), quad, 4);
    expect(refined.ok).toBe(false);
    if (refined.ok) return;
    expect(refined.reason).toMatch(/left edge \(as it appears in the photo\) could not be traced along its length/);
  });
});

describe("a drawn card on a tiled table, a light joint running along its cut", () => {
  // Seed 2020's case 9 (the drawn sweeps' "tables #5"): a grey table of light joints, one running
  // along the card's right cut, 3 px off it at the top and 10 px at the bottom.
  const tiled = realisticScenes({ art: artPhoto, table: tablePhoto }, 5, 2020)[9] as RealisticCase;

  it("measures a red-bordered card from its cut, the joint taken for table", () => {
    // Its median profile steps into the joint (rgb 171, 173, 173 against the table's 134), the
    // crossings trace the cut, and the red border's step off the table is 2.3 times the joint's.
    const { offBy } = measuredFront(tiled.scene, tiled.quality);
    expect(offBy.leftRight).toBeLessThan(0.5);
    expect(offBy.topBottom).toBeLessThan(0.5);
  });

  it("still refuses a light bevelled rim beside the joint, whose crossings follow the joint", () => {
    // The rim's grey lies 50 levels off the table, the joint 79: along the lower half the crossings
    // sit on the joint's inner edge, 3 px out, and graded from them the card read 1.7 points off.
    const rimmed = withBevelledRim(tiled, 9);
    const result = analyseFace("front", encodeJpeg(drawCardScene(rimmed.scene), rimmed.quality));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.rejection.message).toMatch(/right edge .* shows two edges up to [\d.]+ px apart/);
  });
});

describe("the border's colour where the sides whose readings agree show two inks (mostShown)", () => {
  it("is the colour three of the four sides show just inside their line, not the median with the fourth's band", () => {
    // A real photo's Yu-Gi-Oh! card: the rim's blue-grey just inside three cuts, and 0.6 mm of
    // near-black along the fourth, which the outline had taken in. The two sides whose readings
    // agreed were that one and one other, and the median of their colours, rgb(63, 62, 71), was
    // neither ink: the band was not read past, and the card read 1.48 times as tall as wide.
    const rim = [
      [122, 136, 150],
      [100, 114, 139],
      [116, 127, 141],
    ];
    expect(mostShown([rim[0], rim[1], [31, 30, 41], rim[2]] as number[][])).toEqual(rim);
  });

  it("is not named where no three sides show one colour", () => {
    expect(
      mostShown([
        [122, 136, 150],
        [120, 134, 148],
        [31, 30, 41],
        [33, 29, 40],
      ]),
    ).toBeNull();
    expect(
      mostShown([
        [122, 136, 150],
        [31, 30, 41],
        [200, 40, 40],
      ]),
    ).toBeNull();
  });
});

describe("a light border's ink in shade, not a dark band beside it (borderInShade)", () => {
  // A real photo's yellow-bordered Pokémon card on a white wall (pcg-haunter.jpg, real-photos.test.ts):
  // the yellow, the colour the bottom side's reading took for a dark band 4.5–6.5 px in, and the wall.
  const yellow = [207, 172, 53];
  const wall = [168, 151, 141];

  it("is the yellow's own ink darkened, its hue turned 2° from the border's and off the wall's ink", () => {
    expect(borderInShade([134, 115, 54], yellow, wall)).toBe(true);
  });

  it("is not a band of another ink: a dark core under a third of the yellow's light, or a brown turned 17° from it", () => {
    // The drawn warm dark edge of the accuracy run's "card edge" category, and a brown core that
    // chromaticity alone (sameInk) takes for the yellow's ink.
    expect(borderInShade([62, 56, 50], yellow, wall)).toBe(false);
    expect(borderInShade([120, 80, 40], yellow, wall)).toBe(false);
    expect(borderInShade([118, 97, 70], [250, 224, 90], [212, 216, 225])).toBe(false);
  });

  it("is not asked of a border with no hue to keep, or too dark for a band to be darker", () => {
    expect(borderInShade([100, 100, 102], [160, 160, 164], wall)).toBe(false);
    expect(borderInShade([20, 30, 70], [40, 60, 140], wall)).toBe(false);
  });

  it("is not the table's own ink in shade, where the table is of the border's hue", () => {
    // A cream table beside the yellow: its shade keeps the table's ink as well as the border's.
    expect(borderInShade([150, 130, 60], yellow, [230, 200, 90])).toBe(false);
  });
});

describe("a grey band between the table and a black border, widening along one side (cut-plateau.ts)", () => {
  // The BIG card (7.9 px per mm) with a 20 px black border round red art on white paper, blurred
  // by 0.8 px, and a band of grey (the card's dark core seen beside its face, or its shadow close
  // against the cut) outside its left cut: `top` px wide at the top, `bottom` px at the bottom.
  const PAPER = [185, 185, 180];
  const CORE = [62, 62, 64];
  const SIGMA = 0.8;
  function wedge(top: number, bottom: number): RgbaImage {
    const width = 700;
    const height = 900;
    const cover = (a: number, b: number, t: number) => normalCdf((t - a) / SIGMA) - normalCdf((t - b) / SIGMA);
    const data = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) {
      const rows = cover(BIG.y0, BIG.y1, y + 0.5);
      const band = bottom + ((top - bottom) * (BIG.y1 - (y + 0.5))) / (BIG.y1 - BIG.y0);
      for (let x = 0; x < width; x++) {
        const card = cover(BIG.x0, BIG.x1, x + 0.5) * rows;
        const art = cover(BIG.x0 + 20, BIG.x1 - 20, x + 0.5) * cover(BIG.y0 + 20, BIG.y1 - 20, y + 0.5);
        const edge = band > 0 ? cover(BIG.x0 - band, BIG.x0, x + 0.5) * rows : 0;
        const colour = PAPER.map(
          (v, i) => v * (1 - card - edge) + (CORE[i] ?? 0) * edge + 15 * (card - art) + (ART_RED[i] ?? 0) * art,
        );
        data.set([...colour.map((v) => Math.round(v)), 255], (y * width + x) * 4);
      }
    }
    return { width, height, data };
  }
  /** The outline find-card.ts hands over: each corner 1.5 px off the cut, the left side's top on the band's outer edge. */
  const handedOver = (top: number): Quad => [
    { x: BIG.x0 - top + 1.5, y: BIG.y0 - 1.5 },
    { x: BIG.x1 - 1.5, y: BIG.y0 + 1.5 },
    { x: BIG.x1 + 1.5, y: BIG.y1 - 1.5 },
    { x: BIG.x0 - 1.5, y: BIG.y1 + 1.5 },
  ];
  const leftCorners = (result: ReturnType<typeof refineOutline>) => {
    if (!result.ok) throw new Error(result.reason);
    const [tl, , , bl] = result.outline.corners;
    return [tl.x - BIG.x0, bl.x - BIG.x0];
  };

  it("puts the left cut on the black's outer edge, the band 1 mm wide at the top and none at the bottom", () => {
    // Halfway from the paper's white to the black lies on the band's outer edge where the band is
    // wide: before the band was read, the left side's top corner was put 8.1 px out (1.6 % of the
    // card's width) and its bottom one 0.4 px in.
    const [top, bottom] = leftCorners(refineOutline(wedge(8, 0), handedOver(8), 7));
    expect(Math.abs(top ?? 99)).toBeLessThan(0.4);
    expect(Math.abs(bottom ?? 99)).toBeLessThan(0.4);
  });

  it("does not read past a band all along the side, nor one wider than a card's edge could show", () => {
    // As wide all along, a band is a rim or a border of the card's own print, and so it is where
    // it widens along the side but shows all along (nearer the camera at one end); 2.5 mm wide at
    // one end, a sleeve's back or a shadow cast away from the card.
    for (const [top, bottom] of [
      [6, 6],
      [8, 4],
      [20, 0],
    ] as const) {
      // The side stays on the band's outer edge, as the readings put it.
      const [atTop, atBottom] = leftCorners(refineOutline(wedge(top, bottom), handedOver(top), 7));
      expect(Math.abs((atTop ?? 99) + top)).toBeLessThan(0.5);
      expect(Math.abs((atBottom ?? 99) + bottom)).toBeLessThan(0.5);
    }
  });
});

describe("the face past a dark band widening along a side, the line taken crossing the cut (pastBand)", () => {
  // A yellow card's bottom cut along y 100 on a grey table, and a contact shadow below it, warm
  // and dark, `wide` px wide at x 50 and 1 px at x 350; all blurred by 0.8 px. The line taken runs
  // from the shadow's outer edge at x 50 to 3 px inside the cut at x 350, as the colour readings
  // tilted it on a real photo (2a2f35ee of GarrettMaury7921/pokemon_card_grader).
  const TABLE_GREY = [129, 128, 129];
  const YELLOW = [192, 173, 55];
  const SHADOW_CORE = [54, 40, 30];
  const CUT_Y = 100;
  const SIGMA = 0.8;
  /** `along`: the share of the side, from x 50, that the shadow runs along (it stops short after). */
  function shadowed(wide: number, along = 1): RgbaImage {
    const width = 400;
    const height = 200;
    const data = new Uint8Array(width * height * 4);
    const cover = (a: number, b: number, t: number) => normalCdf((t - a) / SIGMA) - normalCdf((t - b) / SIGMA);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const band = x < 50 + 300 * along ? wide + ((1 - wide) * (x - 50)) / 300 : 0;
        const card = cover(-1000, CUT_Y, y + 0.5);
        const shadow = band > 0 ? cover(CUT_Y, CUT_Y + band, y + 0.5) : 0;
        const colour = TABLE_GREY.map(
          (v, i) => v * (1 - card - shadow) + (YELLOW[i] ?? 0) * card + (SHADOW_CORE[i] ?? 0) * shadow,
        );
        data.set([...colour.map((v) => Math.round(v)), 255], (y * width + x) * 4);
      }
    }
    return { width, height, data };
  }
  const side = { p: { x: 50, y: CUT_Y }, q: { x: 350, y: CUT_Y }, nx: 0, ny: -1 };
  const taken = (wide: number) => lineThrough({ x: 50, y: CUT_Y + wide }, { x: 350, y: CUT_Y - 3 });
  const read = (image: RgbaImage, wide: number, reach: number) =>
    pastBand(rgbSampler(image), side, taken(wide), reach, TABLE_GREY, YELLOW, DARK_BAND);

  it("reads the cut past the band where the line taken lies outside the face at one end and inside it at the other", () => {
    const face = read(shadowed(10), 10, 12);
    expect(face).not.toBeNull();
    // The face's line is the cut: within 0.5 px of y 100 at both ends of the side.
    for (const x of [50, 350]) {
      const { a, b, c } = face?.line ?? { a: 0, b: 1, c: 0 };
      expect(Math.abs((c - a * x) / b - CUT_Y)).toBeLessThan(0.5);
    }
  });

  it("does not take a face read along only part of the side past a line it crosses", () => {
    // The shadow along the first 60 % of the side: the face read there is a stretch of the cut, and
    // where the line taken crosses it is not read.
    expect(read(shadowed(10, 0.6), 10, 12)).toBeNull();
  });

  it("does not take a face further inside the line than the band was looked for", () => {
    // Looked for 7 px in, the band 10 px wide at one end: the face lies 8.7 px inside the line at
    // the first profile.
    expect(read(shadowed(10), 10, 7)).toBeNull();
  });
});

describe("the colour between a bowed side's curve and its chord (bandAtBow)", () => {
  // A real photo's lossless copy, 2,000 px, shrunk to its working size by area: a silver border on
  // white paper, a tan band (the card's edge) along its left cut. The crossings bowed through the
  // band's outer edge; halfway between that curve and its chord the colour read rgb(186, 168, 149),
  // 0.0205 off every blend of the paper's and the silver's chromaticity. Taken as the cut's curve,
  // the band put the card 52.4 left to right against the photo's own 48.0.
  const table = [214, 202, 187];
  const silver = [150, 146, 143];
  // A top side 600 px long, its inward normal down; the median profile the border's colour all along.
  const side: SideReadings = {
    p: { x: 100, y: 100 },
    q: { x: 700, y: 100 },
    nx: 0,
    ny: 1,
    crossings: null,
    median: null,
    card: silver,
    table,
    medianProfile: Array.from({ length: 81 }, () => [...silver]),
    apart: null,
    shadowAsCard: false,
  };
  const chord = { a: 0, b: 1, c: 100 };
  /** Outside the chord (toward the table), `band`; the border's colour inside. */
  const sampler = (band: number[]) => (_x: number, y: number, out: Float64Array) => out.set(y < 100 ? band : silver);

  it("is a band of another hue, though off the blends by less than a straight side's band must be", () => {
    const band = bandAtBow(sampler([186, 168, 149]), side, chord, 6, table, silver, [silver], 8);
    expect(band).toEqual({ dark: false, text: "of another hue than the border and the background" });
  });

  it("is no band where it is a blend of the paper and the border, or the paper itself", () => {
    for (const colour of [table, [182, 174, 165]]) {
      expect(bandAtBow(sampler(colour), side, chord, 6, table, silver, [silver], 8)).toBeNull();
    }
  });
});

describe("dropShadowSteps (a median reading that stepped into the table in shadow)", () => {
  // Three sides whose readings agree step into a yellow border; the bottom's median reading
  // stepped into the table's grey-blue in shadow (taken for a silver border) and is dropped.
  const yellow = [130, 162, 102];
  const shade = [140, 143, 161];
  const table = [200, 205, 230];
  const line = lineThrough({ x: 0, y: 0 }, { x: 100, y: 0 });
  const trace = { line, close: [] };
  const side = (card: number[], shadowAsCard: boolean, crossings = true): SideReadings => ({
    p: { x: 0, y: 0 },
    q: { x: 100, y: 0 },
    nx: 0,
    ny: 1,
    crossings: crossings ? trace : null,
    median: trace,
    card,
    table,
    medianProfile: [],
    apart: crossings ? 0.2 : null,
    shadowAsCard,
  });

  it("drops the bottom's median reading and keeps its crossings", () => {
    const sides = [side(yellow, false), side(yellow, false), side(shade, true), side(yellow, false)];
    expect(dropShadowSteps(sides)).toBeNull();
    expect(sides[2]).toMatchObject({ median: null, card: null, apart: null });
    expect(sides[2]?.crossings).toBe(trace);
  });

  it("names the side left with no reading where the crossings traced none", () => {
    // Two local stress copies (a sharpened and a blurred one, not openly licensed) read so: the
    // side was kept with neither reading, and the engine threw reading it (a TypeError).
    const sides = [side(yellow, false), side(yellow, false), side(shade, true, false), side(yellow, false)];
    expect(dropShadowSteps(sides)).toBe(2);
  });
});
