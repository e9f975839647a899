// The card's sides to a fraction of a pixel (src/grading/engine/refine-outline.ts), on a drawn
// photo whose card has a thin border on its left side with artwork in stripes just inside it: on
// dark blue stripes the border's blue lies past halfway from the grey table to the art, on red
// stripes short of it, so profile by profile the 50 % crossing jumps between the cut and the art's
// edge 5 px in, and the crossings' line fit settles on a compromise between the two (3 px off
// the cut at one end). The side's median profile, whose first step out of the table's grey is the
// cut, is the second reading: the two disagree and the side is refused. (Where the crossings do
// not line up at all, the median profile alone traces the side: find-card.test.ts, a thin border
// on a lawn.)
import { describe, expect, it } from "vitest";
import type { Quad } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import { refineOutline } from "../../src/grading/engine/refine-outline";

const W = 400;
const H = 480;
/** The card covers x 100–300, y 80–360 (pixel edges); its left border is 5 px, the others 14 px. */
const CARD = { x0: 100, x1: 300, y0: 80, y1: 360 };
const TABLE = [147, 147, 148];
const BORDER = [19, 77, 154];
const ART_DARK = [10, 40, 120];
const ART_RED = [144, 43, 25];

/** `stripe`: rows per stripe of the art. */
function photo(leftBorder: number, stripe: number): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // The table's grain from a fixed hash of the pixel's place (no straight lines in it).
      const hash = Math.imul(x * 73856093 + y * 19349663, 0x9e3779b1) >>> 16;
      let colour = TABLE.map((v) => v + Math.round(((hash / 65535) * 2 - 1) * 8));
      const onCard = x >= CARD.x0 && x < CARD.x1 && y >= CARD.y0 && y < CARD.y1;
      if (onCard) {
        const inArt = x >= CARD.x0 + leftBorder && x < CARD.x1 - 14 && y >= CARD.y0 + 14 && y < CARD.y1 - 14;
        colour = inArt ? (Math.floor(y / stripe) % 2 === 0 ? ART_DARK : ART_RED) : BORDER;
      }
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

/** The outline as the coarse search would hand it over: each corner 1.5 px off. */
const ROUGH: Quad = [
  { x: CARD.x0 + 1.5, y: CARD.y0 - 1.5 },
  { x: CARD.x1 - 1.5, y: CARD.y0 + 1.5 },
  { x: CARD.x1 + 1.5, y: CARD.y1 - 1.5 },
  { x: CARD.x0 - 1.5, y: CARD.y1 + 1.5 },
];

describe("refineOutline", () => {
  it("refuses a side where the two readings trace different edges, rather than guess between them", () => {
    // Wide stripes: each reading finds a line, the crossings' fit a compromise between the cut
    // and the art's edge, the median profile the cut.
    const result = refineOutline(photo(5, 20), ROUGH, 6);
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.reason).toMatch(/left edge .* shows two edges up to [\d.]+ px apart/);
  });

  it("traces the same edges both ways on a card with ordinary borders", () => {
    const result = refineOutline(photo(14, 20), ROUGH, 6);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const [tl, , br] = result.outline.corners;
    expect(Math.abs(tl.x - CARD.x0)).toBeLessThan(0.3);
    expect(Math.abs(br.x - CARD.x1)).toBeLessThan(0.3);
  });
});
