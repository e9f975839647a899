// An outline with one side on the edge of the card's inner panel (src/grading/engine/border-sides.ts),
// on a drawn coarse photo: a white-bordered card with a blue panel on a beige table. The white
// border barely stands out from the beige, the panel's edge strongly, so the coarse outline can
// take the panel's edge for the card's bottom; outside that side lies the white the other three
// sides show inside their cut, and the cut is where the white ends. The outline can also be the
// panel's all round, white just outside each side. A light border is told from a light table by
// less contrast than a dark border from a dark one.
import { describe, expect, it } from "vitest";
import { analyseFace } from "../../src/grading/engine/analyse-face";
import { faintCutOutside, sidesToCut } from "../../src/grading/engine/border-sides";
import { locateCard } from "../../src/grading/engine/find-card";
import type { Quad } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import { encodePng } from "../../src/grading/engine/png";
import { drawCardScene, encodeJpeg, truthOf } from "../helpers/card-images";
import { artPhoto, tablePhoto } from "../helpers/photos";
import { realisticScenes } from "../helpers/scene-sets";

const W = 320;
const H = 400;
/** The card covers x 80–240, y 60–284 (pixel edges), an 8 px (3 mm) white border around the panel. */
const CARD = { x0: 80, x1: 240, y0: 60, y1: 284 };
const BORDER_PX = 8;
const TABLE = [200, 190, 170];
const WHITE = [240, 239, 234];
const PANEL = [58, 68, 146];

/**
 * `paperBelow`: white paper on the table below the card from this row down (no cut there).
 * `table`, `border`: other colours for the table and the card's border.
 */
function photo(paperBelow = H, table = TABLE, border = WHITE, scale = 1): RgbaImage {
  const width = W * scale;
  const height = H * scale;
  const card = { x0: CARD.x0 * scale, x1: CARD.x1 * scale, y0: CARD.y0 * scale, y1: CARD.y1 * scale };
  const inset = BORDER_PX * scale;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const hash = Math.imul(x * 73856093 + y * 19349663, 0x9e3779b1) >>> 16;
      let colour = table.map((v) => v + Math.round(((hash / 65535) * 2 - 1) * 6));
      if (y >= paperBelow * scale) colour = border;
      if (x >= card.x0 && x < card.x1 && y >= card.y0 && y < card.y1) {
        const inPanel = x >= card.x0 + inset && x < card.x1 - inset && y >= card.y0 + inset && y < card.y1 - inset;
        colour = inPanel ? PANEL : border;
      }
      data.set([...colour, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** `image` box-blurred over (2 `radius` + 1)² pixels: a soft photo, its faint cut softer still. */
function blurred(image: RgbaImage, radius: number): RgbaImage {
  const { width, height, data } = image;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0];
      let n = 0;
      for (let dy = -radius; dy <= radius; dy++) {
        for (let dx = -radius; dx <= radius; dx++) {
          const i = (Math.min(height - 1, Math.max(0, y + dy)) * width + Math.min(width - 1, Math.max(0, x + dx))) * 4;
          for (let ch = 0; ch < 3; ch++) sum[ch] = (sum[ch] as number) + (data[i + ch] as number);
          n++;
        }
      }
      out.set([...sum.map((v) => Math.round(v / n)), 255], (y * width + x) * 4);
    }
  }
  return { width, height, data: out };
}

/** `quad` at `scale` times its size (the photo drawn so). */
const scaled = (quad: Quad, scale: number) => quad.map((p) => ({ x: p.x * scale, y: p.y * scale })) as Quad;

/** The panel's outline all round, and the card's cut. */
const PANEL_ALL_ROUND: Quad = [
  { x: CARD.x0 + BORDER_PX, y: CARD.y0 + BORDER_PX },
  { x: CARD.x1 - BORDER_PX, y: CARD.y0 + BORDER_PX },
  { x: CARD.x1 - BORDER_PX, y: CARD.y1 - BORDER_PX },
  { x: CARD.x0 + BORDER_PX, y: CARD.y1 - BORDER_PX },
];
const CUT: Quad = [
  { x: CARD.x0, y: CARD.y0 },
  { x: CARD.x1, y: CARD.y0 },
  { x: CARD.x1, y: CARD.y1 },
  { x: CARD.x0, y: CARD.y1 },
];

/** The moved outline, or null when the answer is another (nothing moved, or the cut off the photo). */
function movedOutline(result: ReturnType<typeof sidesToCut>) {
  return result && "quad" in result ? result : null;
}

/** `image` without its first `rows` rows. */
function cropTop(image: RgbaImage, rows: number): RgbaImage {
  return { width: image.width, height: image.height - rows, data: image.data.slice(rows * image.width * 4) };
}

/** The card's outline with its bottom on the panel's edge (8 px short). */
const PANEL_BOTTOM: Quad = [
  { x: CARD.x0, y: CARD.y0 },
  { x: CARD.x1, y: CARD.y0 },
  { x: CARD.x1, y: CARD.y1 - BORDER_PX },
  { x: CARD.x0, y: CARD.y1 - BORDER_PX },
];

describe("sidesToCut", () => {
  it("moves a side on the panel's edge out to where the border's colour ends", () => {
    const moved = movedOutline(sidesToCut(photo(), PANEL_BOTTOM));
    expect(moved?.fromCuts).toBe(true);
    if (!moved) return;
    const [tl, tr, br, bl] = moved.quad;
    expect(Math.abs(br.y - CARD.y1)).toBeLessThan(1);
    expect(Math.abs(bl.y - CARD.y1)).toBeLessThan(1);
    // The other sides stay where they were.
    expect(Math.abs(tl.y - CARD.y0)).toBeLessThan(0.01);
    expect(Math.abs(tr.x - CARD.x1)).toBeLessThan(0.01);
    expect(Math.abs(bl.x - CARD.x0)).toBeLessThan(0.01);
  });

  it("moves all four sides out when the outline is the panel's all round (white just outside each)", () => {
    const panel: Quad = [
      { x: CARD.x0 + BORDER_PX, y: CARD.y0 + BORDER_PX },
      { x: CARD.x1 - BORDER_PX, y: CARD.y0 + BORDER_PX },
      { x: CARD.x1 - BORDER_PX, y: CARD.y1 - BORDER_PX },
      { x: CARD.x0 + BORDER_PX, y: CARD.y1 - BORDER_PX },
    ];
    const moved = movedOutline(sidesToCut(photo(), panel));
    // Moved on the colour outside all four sides, not on a cut's: find-card.ts asks more of it.
    expect(moved?.fromCuts).toBe(false);
    if (!moved) return;
    const [tl, , br] = moved.quad;
    expect(Math.abs(tl.x - CARD.x0)).toBeLessThan(1);
    expect(Math.abs(tl.y - CARD.y0)).toBeLessThan(1);
    expect(Math.abs(br.x - CARD.x1)).toBeLessThan(1);
    expect(Math.abs(br.y - CARD.y1)).toBeLessThan(1);
  });

  it("moves three sides on the panel's edge out when only the fourth is on the cut", () => {
    // The top on the cut (white inside, beige outside); the left, right and bottom on the panel's
    // edge, white just outside each: that white is the top's inside, the border's colour.
    const three: Quad = [
      { x: CARD.x0 + BORDER_PX, y: CARD.y0 },
      { x: CARD.x1 - BORDER_PX, y: CARD.y0 },
      { x: CARD.x1 - BORDER_PX, y: CARD.y1 - BORDER_PX },
      { x: CARD.x0 + BORDER_PX, y: CARD.y1 - BORDER_PX },
    ];
    const moved = movedOutline(sidesToCut(photo(), three));
    expect(moved?.fromCuts).toBe(true);
    if (!moved) return;
    const [tl, tr, br, bl] = moved.quad;
    expect(Math.abs(tl.x - CARD.x0)).toBeLessThan(1);
    expect(Math.abs(tr.x - CARD.x1)).toBeLessThan(1);
    expect(Math.abs(br.y - CARD.y1)).toBeLessThan(1);
    expect(Math.abs(bl.x - CARD.x0)).toBeLessThan(1);
    // The top, on the cut, stays.
    expect(Math.abs(tl.y - CARD.y0)).toBeLessThan(0.01);
  });

  it("moves a side on the panel's edge when a light border stands only 32 levels from a darker table (cream on beige)", () => {
    // Cream against beige: 32 levels apart, under the 60 asked of a border darker than its table.
    const moved = movedOutline(sidesToCut(photo(H, [215, 205, 185], [235, 225, 200]), PANEL_BOTTOM));
    expect(moved?.fromCuts).toBe(true);
    if (!moved) return;
    const [, , br, bl] = moved.quad;
    expect(Math.abs(br.y - CARD.y1)).toBeLessThan(1);
    expect(Math.abs(bl.y - CARD.y1)).toBeLessThan(1);
  });

  it("asks 60 levels of a border darker than its table, where a cast shadow could pass for more border", () => {
    // A black border on dark cloth, 36 levels apart: the three sides on the cut do not count as
    // cuts, so the bottom on the panel's edge is not moved.
    expect(sidesToCut(photo(H, [45, 45, 50], [25, 25, 28]), PANEL_BOTTOM)).toBeNull();
    // The same border on a table 80 levels lighter: the bottom moves out to the cut.
    const moved = movedOutline(sidesToCut(photo(H, [72, 72, 78], [25, 25, 28]), PANEL_BOTTOM));
    expect(Math.abs((moved?.quad[2].y ?? 0) - CARD.y1)).toBeLessThan(1);
  });

  it("takes a black border lifted beside the panel's edge for the black the cuts show inside them", () => {
    // A black border on grey wood; the 4 px of it beside the panel's bottom edge lifted to
    // rgb(34, 31, 29), as a white frame's edge blurs into black at the coarse scale: 46 levels
    // from the rgb(6, 6, 5) inside the other three sides, but both black.
    const image = photo(H, [110, 100, 90], [6, 6, 5]);
    for (let y = CARD.y1 - BORDER_PX; y < CARD.y1 - BORDER_PX + 4; y++) {
      for (let x = CARD.x0; x < CARD.x1; x++) image.data.set([34, 31, 29], (y * W + x) * 4);
    }
    const moved = movedOutline(sidesToCut(image, PANEL_BOTTOM));
    expect(moved?.fromCuts).toBe(true);
    const [, , br, bl] = moved?.quad ?? PANEL_BOTTOM;
    expect(Math.abs(br.y - CARD.y1)).toBeLessThan(1);
    expect(Math.abs(bl.y - CARD.y1)).toBeLessThan(1);
  });

  it("leaves an outline on the card's cut alone", () => {
    const cut: Quad = [
      { x: CARD.x0, y: CARD.y0 },
      { x: CARD.x1, y: CARD.y0 },
      { x: CARD.x1, y: CARD.y1 },
      { x: CARD.x0, y: CARD.y1 },
    ];
    expect(sidesToCut(photo(), cut)).toBeNull();
  });

  it("reports a cut outside the photo when the outline is the panel's all round and the border runs past the photo's top", () => {
    // A scan cropped into the card's top border: 6 px of white above the panel, then the photo's
    // edge. The other three sides show the white ending at one depth, so the white is a border and
    // the card's top cut lies outside the photo; taking the panel for the card would grade its print.
    const top = CARD.y0 + 2;
    const panel: Quad = [
      { x: CARD.x0 + BORDER_PX, y: CARD.y0 + BORDER_PX - top },
      { x: CARD.x1 - BORDER_PX, y: CARD.y0 + BORDER_PX - top },
      { x: CARD.x1 - BORDER_PX, y: CARD.y1 - BORDER_PX - top },
      { x: CARD.x0 + BORDER_PX, y: CARD.y1 - BORDER_PX - top },
    ];
    expect(sidesToCut(cropTop(photo(), top), panel)).toEqual({ runsOffPhoto: true });
    // Uncropped, the same outline is moved out to the cut on all four sides.
    expect(movedOutline(sidesToCut(photo(), panel.map((p) => ({ x: p.x, y: p.y + top })) as Quad))).toMatchObject({
      fromCuts: false,
    });
  });

  it("makes locateCard refuse a photo cropped into the card's top border as the card touching its edge", () => {
    // Drawn at twice the size and cropped 10 px above the panel: the outline found runs along the
    // panel's edge at the top. Before, the outline was kept with its top on the panel's edge.
    const cropped = locateCard(cropTop(photo(H, TABLE, WHITE, 2), 2 * CARD.y0 + 6));
    expect(cropped.ok).toBe(false);
    if (!cropped.ok) expect(cropped.reason).toMatch(/touches the edge of the photo/);
    const whole = locateCard(photo(H, TABLE, WHITE, 2));
    expect(whole.ok && Math.abs((whole.card.quad[0]?.y ?? 0) - 2 * CARD.y0)).toBeLessThan(2);
  });

  it("leaves an outline on the cut alone when the table, not a border, runs past the photo's edge", () => {
    // The card framed tightly, its top cut 4 px from the photo's edge: the beige outside every side
    // (which may be a border, for all the outline's own colours say) ends on none of them, so
    // nothing shows it to be a border and the card's cut is where the outline is.
    const top = CARD.y0 - 4;
    const cut: Quad = [
      { x: CARD.x0, y: CARD.y0 - top },
      { x: CARD.x1, y: CARD.y0 - top },
      { x: CARD.x1, y: CARD.y1 - top },
      { x: CARD.x0, y: CARD.y1 - top },
    ];
    expect(sidesToCut(cropTop(photo(), top), cut)).toBeNull();
  });

  it("does not move a side when the border's colour runs on past the card (white paper below it)", () => {
    // The white below the panel's edge does not end within 5 mm: no cut is found there.
    expect(sidesToCut(photo(CARD.y1), PANEL_BOTTOM)).toBeNull();
  });
});

describe("faintCutOutside", () => {
  // Off-white paper 17–28 levels from the white border: under the 45 at which sidesToCut finds
  // where the border ends with no side on the cut, so no side moves; the median of each side's
  // profiles still steps there. The photos are drawn at twice the size: the steps along the
  // profiles need room beside the cut's.
  it("finds a faint cut round an outline on the panel's edge all round", () => {
    expect(faintCutOutside(photo(H, [228, 224, 214], WHITE, 2), scaled(PANEL_ALL_ROUND, 2))).toBe(true);
  });

  it("finds none outside the card's cut on a plain table", () => {
    expect(faintCutOutside(photo(H, [228, 224, 214], WHITE, 2), scaled(CUT, 2))).toBe(false);
  });

  it("finds none in a table's faint ruled lines beside the card's cut", () => {
    // A line 29 levels darker every 5 px, along and across: the paper's colour on both sides of each.
    const ruled = photo(H, TABLE, WHITE, 2);
    const line = TABLE.map((v) => v - 17);
    for (let y = 0; y < ruled.height; y++) {
      for (let x = 0; x < ruled.width; x++) {
        const onCard = x >= 2 * CARD.x0 && x < 2 * CARD.x1 && y >= 2 * CARD.y0 && y < 2 * CARD.y1;
        if (!onCard && (x % 5 === 0 || y % 5 === 0)) ruled.data.set(line, (y * ruled.width + x) * 4);
      }
    }
    expect(faintCutOutside(ruled, scaled(CUT, 2))).toBe(false);
  });

  it("takes no photographed table's texture for a faint cut, though its median steps", { timeout: 30_000 }, () => {
    // A white-bordered card on photographed grass (seed 2020, case 12): the median of each side's
    // profiles steps by 13–22 levels here and there in the grass, three times its typical step on
    // three sides; profile by profile those steps are no edge. The card is measured.
    const scene = realisticScenes({ art: artPhoto, table: tablePhoto }, 5, 2020)[12];
    if (!scene) throw new Error("no such case");
    const face = analyseFace("front", encodeJpeg(drawCardScene(scene.scene), scene.quality));
    expect(face.ok && face.face.centering.ok).toBe(true);
    if (face.ok && face.face.centering.ok) {
      const truth = truthOf(scene.scene);
      expect(Math.abs(face.face.centering.centering.left_right - truth.leftRight)).toBeLessThan(1);
    }
  });

  it("refuses the photo whose outline is the panel with a faint cut round it, and finds the card on a plainer table", async () => {
    // Soft, the white border 17 levels from the paper: the panel's edge is the outline found, the
    // card's cut barely seen. Before, the panel was measured as the card.
    const faint = blurred(photo(H, [232, 230, 222], WHITE, 2), 3);
    const located = locateCard(faint);
    expect(located.ok && located.card.faintCut).toBe(true);
    // Lossless, so the engine reads the very pixels located above.
    const face = analyseFace("front", await encodePng(faint));
    expect(face.ok).toBe(false);
    if (!face.ok) expect(face.rejection.message).toMatch(/faint straight edge further out/);
    // The same card 90 levels from its beige table: the cut is the outline, no faint cut flagged.
    const plain = locateCard(blurred(photo(H, TABLE, WHITE, 2), 3));
    expect(plain.ok && plain.card.faintCut).toBe(false);
  });
});
