// A glossy black border under a lamp's reflection, as on a real photo of a modern Magic card on a
// white table (docs/real-photo-set.tsv, ty-fyndhorn-elves*): the reflection adds grey light over
// one end of the card, so that border reads grey and the others black; and the frame's thin dark
// rule, lost in that glare over part of the side, where the first step is the body's behind it.
// And a glossy yellow border under the same reflection, as on a real photo of a Pokémon card under
// a ceiling lamp (docs/held-out-photo-set-4.tsv, garr-4b4dbd85): its top border reads paler than
// the others, the ink with grey light added. Drawn pixel by pixel on the flat card, where every
// line is known.
import { describe, expect, it } from "vitest";
import { analyseFace } from "../../src/grading/engine/analyse-face";
import { agreeOnCentering } from "../../src/grading/engine/centering";
import { measureFrameTwice } from "../../src/grading/engine/frame";
import { SIDES } from "../../src/grading/engine/frame-side";
import { FLAT_PX_PER_MM } from "../../src/grading/engine/geometry";
import {
  luma,
  oneBorderInk,
  type RgbaImage,
  sameInk,
  sameInkOrSheen,
  sameInkUnderSheen,
} from "../../src/grading/engine/image";
import { measureWear } from "../../src/grading/engine/wear";
import { drawCardScene, encodeJpeg, truthOf } from "../helpers/card-images";
import { sceneWith } from "../helpers/submissions";

const MM = FLAT_PX_PER_MM;
const W = 63 * MM;
const H = 88 * MM;
/** Border widths (mm): the top one 2, the sides 2.5, the bottom 3. */
const BORDER_MM = { left: 2.5, right: 2.5, top: 2, bottom: 3 };
/** The frame's depth on each side (flat-card pixels), as the wear reading is handed it. */
const FRAME = { left: BORDER_MM.left * MM, right: BORDER_MM.right * MM, top: BORDER_MM.top * MM, bottom: 3 * MM };
/** The colour of `image` at (x, y). */
const pixelAt = (image: RgbaImage, x: number, y: number) =>
  Array.from(image.data.slice((y * W + x) * 4, (y * W + x) * 4 + 3));
const BLACK: [number, number, number] = [22, 21, 23];
/** The frame: a 0.75 mm dark green rule, then the lighter green body. */
const RULE: [number, number, number] = [40, 100, 50];
const RULE_MM = 0.75;
const BODY: [number, number, number] = [150, 165, 150];
/** The white table beside the card. */
const TABLE: [number, number, number] = [195, 191, 190];
const TABLE_LUMA = luma(TABLE);

const toLinear = (v: number) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};
const toSrgb = (l: number) => {
  const c = Math.min(1, l);
  return 255 * (c <= 0.0031308 ? c * 12.92 : 1.055 * c ** (1 / 2.4) - 0.055);
};

/**
 * The reflection's light (linear, added to every channel) at a pixel: `peak` at the card's left
 * edge, falling off to nothing 70 % of the way across, and from 8 to 16 mm down. It lifts the
 * black top border to rgb(136, 136, 136) at its lit end (0.71 of the table's luma) and to
 * rgb(78, 78, 78) half-way along, where the border's colour is read.
 */
function reflection(x: number, y: number, peak: number): number {
  const across = Math.max(0, 1 - x / (0.7 * W));
  const down = Math.min(1, Math.max(0, (16 - y / MM) / 8));
  return peak * across * down;
}

interface Drawn {
  /** The reflection's light at the left edge (linear). */
  peak?: number;
  /** The top right corner paper-white up to this far (mm) from its point along either edge. */
  whitened?: number;
  /** Across this share of the top side (from, to) the rule is not seen: the border runs on to the body. */
  ruleLost?: [number, number];
  /** The border's ink: black unless told. */
  ink?: readonly number[];
  /** The light added at a pixel (linear), in place of the reflection over the top. */
  light?: (x: number, y: number) => number;
  /** A bite out of the left edge, the table showing: from `y0` to `y1` down (mm), `depth` mm in. */
  chip?: { y0: number; y1: number; depth: number };
  /** The light a pixel is in (linear, multiplying its colour; 1 unless told). */
  gain?: (x: number, y: number) => number;
  /** The added light's colour (linear, per channel): grey, [1, 1, 1], unless told. */
  tint?: readonly [number, number, number];
}

function sheenCard({
  peak = 0.24,
  whitened = 0,
  ruleLost,
  ink = BLACK,
  light,
  chip,
  gain,
  tint = [1, 1, 1],
}: Drawn = {}): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const depth = Math.min(
        (x + 0.5) / MM - BORDER_MM.left,
        (W - x - 0.5) / MM - BORDER_MM.right,
        (y + 0.5) / MM - BORDER_MM.top,
        (H - y - 0.5) / MM - BORDER_MM.bottom,
      );
      const lost = ruleLost && y < 10 * MM && x >= ruleLost[0] * W && x < ruleLost[1] * W;
      let colour: readonly number[] = depth < 0 || (lost && depth < RULE_MM) ? ink : depth < RULE_MM ? RULE : BODY;
      const worn = x >= W - whitened * MM && y < whitened * MM && x + y >= W - whitened * MM;
      if (worn) colour = [232, 230, 228];
      const bitten = chip && (x + 0.5) / MM < chip.depth && (y + 0.5) / MM >= chip.y0 && (y + 0.5) / MM < chip.y1;
      if (bitten) colour = TABLE;
      const added = bitten ? 0 : (light ?? ((x, y) => reflection(x, y, peak)))(x, y);
      const times = bitten || worn ? 1 : (gain?.(x, y) ?? 1);
      const lit = colour.map((v, ch) => Math.round(toSrgb(toLinear(v) * times + added * (tint[ch] ?? 1))));
      data.set([...lit, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

describe("one black ink under a sheen", () => {
  it("takes a black border's grey under a lamp for its ink, not for another card's band", () => {
    // The real photo's top border and its other borders: a brightness ratio of 0.28.
    expect(sameInk([22, 21, 23], [78, 77, 80])).toBe(false);
    expect(sameInkOrSheen([22, 21, 23], [78, 77, 80], TABLE_LUMA)).toBe(true);
    expect(sameInkOrSheen([130, 131, 136], [39, 37, 38], TABLE_LUMA)).toBe(true);
  });

  it("still tells another card's white band, a coloured band, or a lighter ink from a sheen", () => {
    // A white band lit as the table is, beside the black border.
    expect(sameInkOrSheen([22, 21, 23], [190, 188, 186], TABLE_LUMA)).toBe(false);
    // The same grey on a dark table: lighter than such a table, it is no sheen of a lamp over it.
    expect(sameInkOrSheen([22, 21, 23], [78, 77, 80], 60)).toBe(false);
    // Not grey light added: a blue band.
    expect(sameInkOrSheen([22, 21, 23], [50, 80, 150], TABLE_LUMA)).toBe(false);
    // A border that is not near-black (a navy one) has its hue to keep.
    expect(sameInkOrSheen([30, 50, 95], [140, 150, 170], TABLE_LUMA)).toBe(false);
    // With no table known, no sheen is allowed.
    expect(sameInkOrSheen([22, 21, 23], [78, 77, 80], 0)).toBe(false);
  });
});

describe("the frame of a black border under a sheen", () => {
  it("is measured on every side, at both scales alike", () => {
    const { full, half } = measureFrameTwice(sheenCard(), 0, new Set(SIDES), {}, TABLE_LUMA);
    for (const result of [full, half]) {
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      for (const side of SIDES) expect(result.sides[side].width / MM).toBeCloseTo(BORDER_MM[side], 1);
    }
    const centering = agreeOnCentering(full, half);
    expect(centering.ok).toBe(true);
    if (!centering.ok) return;
    expect(centering.centering.top_bottom).toBeCloseTo((100 * 2) / 5, 0);
  });

  it("reads the art's level past the frame's step over the same stretch of the card at both scales", () => {
    // The rule is 89 levels from the border and the body 231: on the flat card the step levels
    // off on the rule within its window and rises again past it, a thin rule, so the half copy
    // reads the rule too. Read three of its own pixels past the step (1–1.1 mm in, on the body),
    // its 50 % level lay past the rule, and it placed the frame 0.75 mm deeper than the flat card
    // did. (A step still rising through the window keeps that reading: frame.test.ts, "a frame
    // step spread by blur".)
    const { full, half } = measureFrameTwice(sheenCard({ peak: 0 }), 0, new Set(SIDES), {}, TABLE_LUMA);
    expect(full.ok && half.ok).toBe(true);
    if (!full.ok || !half.ok) return;
    for (const side of SIDES) {
      expect(Math.abs(full.sides[side].width - half.sides[side].width)).toBeLessThan(0.5);
    }
  });

  it("fits the frame line through the same depths at both scales where the rule is lost over part of the side", () => {
    // Over 0.2–0.35 of the top side the first step is the body's, 0.75 mm (6 px) behind the
    // frame: outside the flat card's band of ±2.5 px round the depth most lines share, inside the
    // half copy's band of as many of its own pixels, where those lines leaned its line.
    const { full, half } = measureFrameTwice(sheenCard({ ruleLost: [0.2, 0.35] }), 0, new Set(SIDES), {}, TABLE_LUMA);
    expect(full.ok && half.ok).toBe(true);
    if (!full.ok || !half.ok) return;
    expect(full.sides.top.width / MM).toBeCloseTo(BORDER_MM.top, 1);
    expect(Math.abs(full.sides.top.width - half.sides.top.width)).toBeLessThan(0.5);
    expect(agreeOnCentering(full, half).ok).toBe(true);
  });

  it("is refused as two inks where the table is not known", () => {
    const { full } = measureFrameTwice(sheenCard(), 0, new Set(SIDES), {}, 0);
    expect(full).toMatchObject({ ok: false });
    if (full.ok) return;
    expect(full.reason).toContain("not one ink in two lights");
  });
});

describe("a yellow border under a sheen", () => {
  const YELLOW: [number, number, number] = [188, 162, 20];

  it("takes its paler lit side for its ink, the grey light added to it", () => {
    // The real photo's top border and its other borders: 0.13 apart in chromaticity.
    expect(sameInk(YELLOW, [217, 204, 130])).toBe(false);
    expect(sameInkUnderSheen(YELLOW, [217, 204, 130])).toBe(true);
    expect(oneBorderInk([217, 204, 130], [168, 141, 19], TABLE_LUMA)).toBe(true);
  });

  it("still tells another card's white band, a sleeve's margin or a band of another hue from a sheen", () => {
    expect(oneBorderInk(YELLOW, [235, 232, 228], TABLE_LUMA)).toBe(false);
    expect(oneBorderInk(YELLOW, TABLE, TABLE_LUMA)).toBe(false);
    // An orange band, lighter: its hue turned 25° from the yellow's.
    expect(oneBorderInk(YELLOW, [230, 160, 90], TABLE_LUMA)).toBe(false);
    // A pale yellow keeping a third of the ink's hue: more than grey light over it.
    expect(sameInkUnderSheen(YELLOW, [225, 215, 175])).toBe(false);
    // A grey border has no hue for a sheen to keep.
    expect(sameInkUnderSheen([120, 118, 116], [200, 199, 197])).toBe(false);
  });

  it("is measured on every side, at both scales alike, where chromaticity calls it two inks", () => {
    const flat = sheenCard({ ink: YELLOW, peak: 0.5 });
    const { full, half } = measureFrameTwice(flat, 0, new Set(SIDES), {}, TABLE_LUMA);
    for (const result of [full, half]) {
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      for (const side of SIDES) expect(result.sides[side].width / MM).toBeCloseTo(BORDER_MM[side], 1);
      expect(sameInk(result.sides.top.borderColor, result.sides.left.borderColor)).toBe(false);
    }
    expect(agreeOnCentering(full, half).ok).toBe(true);
  });
});

describe("a blue border under a warm sheen growing across the card", () => {
  // A real photo of a Pokémon card's back on a dark mat under a warm lamp (docs/held-out-photo-set-7.tsv,
  // irak-back_rotate): its blue border reads rgb(46, 83, 177) along the left, rgb(81, 105, 180)
  // along the right and rgb(138, 145, 185) along the bottom. The warm light's reflection keeps
  // less of the ink's hue than a grey light's would, so the left and the bottom alone are two inks.
  const BLUE: [number, number, number] = [46, 83, 177];
  const WARM: [number, number, number] = [1, 0.9, 0.7];
  /** The lamp's reflection (linear) rising from nothing at the left edge to 0.4 at the right. */
  const growing: Drawn = { ink: BLUE, tint: WARM, light: (x) => (0.4 * x) / W };
  /** The same light at full strength over the right border only, nothing elsewhere. */
  const rightOnly: Drawn = { ink: BLUE, tint: WARM, light: (x) => (x >= W - 10 * MM ? 0.4 : 0) };

  it("reads its borders as one ink, the top's and the bottom's between the left's and the right's", () => {
    const { full, half } = measureFrameTwice(sheenCard(growing), 0, new Set(SIDES), {}, TABLE_LUMA);
    for (const result of [full, half]) {
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      for (const side of SIDES) expect(result.sides[side].width / MM).toBeCloseTo(BORDER_MM[side], 1);
      // The left's and the right's colours alone are two inks.
      expect(oneBorderInk(result.sides.left.borderColor, result.sides.right.borderColor, TABLE_LUMA)).toBe(false);
    }
    expect(agreeOnCentering(full, half).ok).toBe(true);
  });

  it("still refuses the lit colour along one side with no side between it and the ink", () => {
    // Another material along the right edge (a sleeve's margin, another card's band) shows no
    // sheen's growth: the top and bottom read the ink.
    const { full } = measureFrameTwice(sheenCard(rightOnly), 0, new Set(SIDES), {}, TABLE_LUMA);
    expect(full).toMatchObject({ ok: false });
    if (full.ok) return;
    expect(full.reason).toContain("not one ink in two lights");
  });
});

describe("wear on a black border under a sheen", () => {
  const around = (_x: number, _y: number, out: Float64Array) => out.set(TABLE);
  const wearOf = (flat: RgbaImage) => measureWear("front", flat, BLACK, TABLE, FRAME, around);

  it("reads the lit border as its ink, not as missing material or whitening", () => {
    // Judged against the black of the other sides, the lit corner read as 8.5 mm² of missing
    // material and the lit top edge as 19.5 mm of chips on the real photo (corners 3, edges 5).
    const wear = wearOf(sheenCard());
    expect(wear.corners.defects).toEqual([]);
    expect(wear.edges.defects).toEqual([]);
    expect(wear.corners.examinedMm2).toBeCloseTo(wearOf(sheenCard({ peak: 0 })).corners.examinedMm2, 1);
    expect(wear.edges.examinedMm2).toBeCloseTo(wearOf(sheenCard({ peak: 0 })).edges.examinedMm2, 1);
  });

  it("still finds a whitened corner beside it", () => {
    const wear = wearOf(sheenCard({ whitened: 3 }));
    // Paper-white beside a white table: missing material and whitening look alike there.
    expect(wear.corners.defects).toMatchObject([{ location: "top_right_corner" }]);
    expect(wear.worstCornerMm2).toBeGreaterThan(1.5);
  });
});

describe("a black border's sheen in a vignetted photo", () => {
  // A black-bordered card on a light table, the photo 60 % darker toward its corners (a webcam's
  // lens), a lamp's reflection over its top border: that border reads rgb(102, 102, 102), the
  // others rgb(18, 18, 20). The photo's outer frame reads a table of luma about 100, the table
  // beside the card about 190.
  const glare = { x: 0.5, y: 0.08, radius: 0.8, strength: 0.75 };
  const scene = sceneWith({
    canvasWidth: 1200,
    canvasHeight: 900,
    cardWidth: 480,
    borderColor: [20, 20, 22],
    artColor: [200, 160, 60],
    background: [205, 200, 190],
    lightFalloff: 0.05,
    vignette: 0.6,
    glare,
  });

  it("judges the sheen against the table beside the card, not the photo's darkened edges, and measures the card", () => {
    // Against the outer frame's table (0.75 of luma 100) the grey top border was too light for a
    // sheen, and the card was refused for two inks (as if another card lay beneath it).
    const face = analyseFace("front", encodeJpeg(drawCardScene(scene), 90));
    if (!face.ok) throw new Error(face.rejection.message);
    if (!face.face.centering.ok) throw new Error(face.face.centering.reason);
    const truth = truthOf(scene);
    expect(Math.abs(face.face.centering.centering.left_right - truth.leftRight)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(face.face.centering.centering.top_bottom - truth.topBottom)).toBeLessThanOrEqual(0.5);
  });

  it("still refuses a top border lit past what a sheen over black may reach beside that table", () => {
    const face = analyseFace("front", encodeJpeg(drawCardScene({ ...scene, glare: { ...glare, strength: 0.9 } }), 90));
    const reason = face.ok ? (face.face.centering.ok ? "graded" : face.face.centering.reason) : face.rejection.message;
    expect(reason).toMatch(/not one ink in two lights/);
  });
});

describe("wear on a yellow border under a lamp's veil", () => {
  // A real photo of a yellow-bordered Pokémon card on a white table (docs/held-out-photo-set-4.tsv,
  // garr-57b62f81; test/fixtures/real-photos/pcg-shinx.jpg): a lamp's sheen pales its left border
  // over 12 mm, all the way in to the frame, to rgb(160, 149, 122) beside rgb(170, 147, 50). The
  // ink keeps under 0.4 of its hue there (image.ts, sameInkUnderSheen), so the paled border was
  // judged against the face's one yellow, lay nearer the table, and read as 12 mm of chips (edges 5).
  const YELLOW: [number, number, number] = [188, 162, 20];
  const around = (_x: number, _y: number, out: Float64Array) => out.set(TABLE);
  /** Linear light over the left 10 mm, rising over 4 mm to `peak` from 56 to 72 mm down, falling over 4 mm. */
  const veil =
    (peak: number) =>
    (x: number, y: number): number => {
      const down = Math.min(1, Math.max(0, (y / MM - 52) / 4), Math.max(0, (76 - y / MM) / 4));
      return peak * down * Math.max(0, 1 - x / (10 * MM));
    };
  const wearOf = (drawn: Drawn) =>
    measureWear("front", sheenCard({ ink: YELLOW, ...drawn }), YELLOW, TABLE, FRAME, around);

  it("keeps a fifth of the ink's hue under the veil, and reads the veiled border as its ink, not as chips", () => {
    // At the edge the veil leaves the ink rgb(255, 250, 207): 0.3 of its hue, 85 from the table.
    const lit = sheenCard({ ink: YELLOW, light: veil(0.6) }).data.slice(
      (64 * MM * W + 2) * 4,
      (64 * MM * W + 2) * 4 + 3,
    );
    expect(sameInkUnderSheen(YELLOW, lit)).toBe(false);
    expect(sameInkUnderSheen(YELLOW, lit, 0.2)).toBe(true);
    const wear = wearOf({ light: veil(0.6) });
    expect(wear.edges.defects).toEqual([]);
    expect(wear.edges.examinedMm2).toBeCloseTo(wearOf({ peak: 0 }).edges.examinedMm2, 0);
  });

  it("still finds a chip under the veil, the table showing through", () => {
    const wear = wearOf({ light: veil(0.6), chip: { y0: 63, y1: 65, depth: 0.6 } });
    expect(wear.edges.defects).toMatchObject([{ type: "chip", location: "left_edge" }]);
    expect(wear.edges.defects[0]?.box_mm.y).toBeCloseTo(63, 0);
    expect(wear.edges.defects[0]?.length_mm).toBeCloseTo(2, 0);
  });
});

describe("wear on a warm black border in more light", () => {
  // A real photo of a gold Magic card on a desk (docs/held-out-photo-set-6.tsv, rube-IMG_2352.jpg):
  // its warm black border, rgb(43, 36, 23), reads rgb(120, 104, 78) toward one corner, lit 2.9
  // times, its chromaticity kept within 0.03. Brighter than sameInk's shades allow (image.ts,
  // MIN_SHADE_RATIO), the lit border was judged against the side's darker ink and passed for
  // whitening (15 levels lighter, chroma under 45, 60 from the ink): corners and edges 5.
  const WARM_BLACK: [number, number, number] = [43, 36, 23];
  const around = (_x: number, _y: number, out: Float64Array) => out.set(TABLE);
  /**
   * A lamp toward the top right corner, over the card's top right quarter: at full strength the
   * ink's linear light times 7, with 0.015 of grey light added (a cooler lamp than the ink's hue),
   * rgb(119, 104, 77) as on the photo.
   */
  const share = (x: number, y: number) => Math.min(1, 2 * Math.max(0, 1 - Math.hypot(W - x, y) / (40 * MM)));
  const lamp: Drawn = { gain: (x, y) => 1 + 6 * share(x, y), light: (x, y) => 0.015 * share(x, y) };
  const wearOf = (drawn: Drawn) =>
    measureWear("front", sheenCard({ ink: WARM_BLACK, ...drawn }), WARM_BLACK, TABLE, FRAME, around);

  it("reads the lit border as its ink, not as whitening", () => {
    const lit = sheenCard({ ink: WARM_BLACK, ...lamp });
    const corner = pixelAt(lit, W - 8, 4 * MM);
    // As the photo's: about 2.9 times the ink's luma, chroma under 45.
    expect(luma(corner) / luma(WARM_BLACK)).toBeGreaterThan(2.86);
    expect(Math.max(...corner) - Math.min(...corner)).toBeLessThan(45);
    expect(sameInk(corner, WARM_BLACK)).toBe(false);
    const wear = wearOf(lamp);
    expect(wear.corners.defects).toEqual([]);
    expect(wear.edges.defects).toEqual([]);
  });

  it("still finds a whitened corner in that light", () => {
    const wear = wearOf({ ...lamp, whitened: 3 });
    expect(wear.corners.defects).toMatchObject([{ location: "top_right_corner" }]);
    expect(wear.worstCornerMm2).toBeGreaterThan(1.5);
  });
});

describe("wear on a warm silver border in the card's own shade", () => {
  // A real photo of a silver-bordered Pokémon card on dark cloth (docs/held-out-photo-set-11.tsv,
  // rkrk-3.jpg): its left border, rgb(130, 107, 96) along most of the side, reads about
  // rgb(42, 33, 26) toward its bottom left corner (0.32 of the luma, its chromaticity 0.02 off),
  // near the cloth's rgb(28, 38, 37). Darker than sameInk's shades allow (image.ts,
  // MIN_SHADE_RATIO), it was judged against the whole border's ink: 3.5 mm² of missing material
  // at the corner and chips beside it, corners 6 and edges 8.5 on a card that shows no wear.
  const SILVER: [number, number, number] = [130, 107, 96];
  const CLOTH: [number, number, number] = [28, 38, 37];
  const around = (_x: number, _y: number, out: Float64Array) => out.set(CLOTH);
  /** The card's light falling to 0.08 (linear) at its bottom left corner over 40 mm. */
  const share = (x: number, y: number) => Math.min(1, 2 * Math.max(0, 1 - Math.hypot(x, H - y) / (40 * MM)));
  const shade: Drawn = { light: () => 0, gain: (x, y) => 1 - 0.92 * share(x, y) };
  const wearOf = (drawn: Drawn) =>
    measureWear("front", sheenCard({ ink: SILVER, ...drawn }), SILVER, CLOTH, FRAME, around);

  it("reads the shaded border as its ink, not as missing material", () => {
    const card = sheenCard({ ink: SILVER, ...shade });
    const corner = pixelAt(card, 8, H - 4 * MM);
    // As the photo's: about a third of the ink's luma, nearer the cloth's colour than the ink's.
    expect(luma(corner) / luma(SILVER)).toBeLessThan(0.34);
    expect(sameInk(corner, SILVER)).toBe(false);
    const wear = wearOf(shade);
    expect(wear.corners.defects).toEqual([]);
    expect(wear.edges.defects).toEqual([]);
  });

  it("still finds a whitened corner in the light", () => {
    const wear = wearOf({ ...shade, whitened: 3 });
    expect(wear.corners.defects).toMatchObject([{ location: "top_right_corner" }]);
  });
});
