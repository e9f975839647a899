// An outline with one side on the edge of the card's inner panel (src/grading/engine/border-sides.ts),
// on a drawn coarse photo: a white-bordered card with a blue panel on a beige table. The white
// border barely stands out from the beige, the panel's edge strongly, so the coarse outline can
// take the panel's edge for the card's bottom; outside that side lies the white the other three
// sides show inside their cut, and the cut is where the white ends. The outline can also be the
// panel's all round, white just outside each side. A light border is told from a light table by
// less contrast than a dark border from a dark one.
import { describe, expect, it } from "vitest";
import { sidesToCut } from "../../src/grading/engine/border-sides";
import type { Quad } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";

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
function photo(paperBelow = H, table = TABLE, border = WHITE): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const hash = Math.imul(x * 73856093 + y * 19349663, 0x9e3779b1) >>> 16;
      let colour = table.map((v) => v + Math.round(((hash / 65535) * 2 - 1) * 6));
      if (y >= paperBelow) colour = border;
      const onCard = x >= CARD.x0 && x < CARD.x1 && y >= CARD.y0 && y < CARD.y1;
      if (onCard) {
        const inPanel =
          x >= CARD.x0 + BORDER_PX && x < CARD.x1 - BORDER_PX && y >= CARD.y0 + BORDER_PX && y < CARD.y1 - BORDER_PX;
        colour = inPanel ? PANEL : border;
      }
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

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
