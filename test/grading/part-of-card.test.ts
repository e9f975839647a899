// The card round a part of its own print (find-card.ts, partOf): a part lying crosswise inside the
// card's outline, a side along one of its sides, is never the card. The card round it wins when it
// competes with the part, or when it is weaker but better supported along its sides: a card creased
// across its middle has its lower half cut off by the crease's light ridge, sharper than the cut.
import { describe, expect, it } from "vitest";
import { locateCard } from "../../src/grading/engine/find-card";
import type { RgbaImage } from "../../src/grading/engine/image";

const W = 480;
const H = 640;
const PX_PER_MM = 4;
const CARD = { x0: 114, y0: 144, width: 63 * PX_PER_MM, height: 88 * PX_PER_MM };
const BORDER_PX = 3 * PX_PER_MM;
const TABLE = [190, 190, 186];
const BORDER = [228, 228, 222];
/** The crease's row: the lower half below it is 45 mm tall, a card's shape lying sideways. */
const CREASE_Y = CARD.y0 + Math.round(0.49 * CARD.height);

/**
 * A white-bordered card on a light grey table, creased across at CREASE_Y: a light ridge with the
 * fold's dark side below it, broken in two places. Its upper half is turned by `turnDeg` about the
 * crease's middle, as a folded card's halves lie.
 */
function creasedCard(turnDeg: number): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  const turn = (turnDeg * Math.PI) / 180;
  for (let Y = 0; Y < H; Y++) {
    for (let X = 0; X < W; X++) {
      let x = X;
      let y = Y;
      if (Y < CREASE_Y) {
        const dx = X - W / 2;
        const dy = Y - CREASE_Y;
        x = Math.round(W / 2 + dx * Math.cos(turn) + dy * Math.sin(turn));
        y = Math.round(CREASE_Y - dx * Math.sin(turn) + dy * Math.cos(turn));
      }
      let colour = TABLE;
      const u = x - CARD.x0;
      const v = y - CARD.y0;
      if (u >= 0 && u < CARD.width && v >= 0 && v < CARD.height) {
        const inBorder = u < BORDER_PX || u >= CARD.width - BORDER_PX || v < BORDER_PX || v >= CARD.height - BORDER_PX;
        colour = inBorder ? BORDER : [110 + ((x * 7 + y * 3) % 23), 90, 120];
        const below = y - CREASE_Y;
        const broken =
          (u > 0.2 * CARD.width && u < 0.27 * CARD.width) || (u > 0.6 * CARD.width && u < 0.66 * CARD.width);
        if (!broken && below >= 0 && below < 2) colour = [255, 255, 255];
        if (!broken && below >= 2 && below < 4) colour = [45, 40, 50];
      }
      data.set([...colour, 255], (Y * W + X) * 4);
    }
  }
  return { width: W, height: H, data };
}

describe("the card round a part of its print", () => {
  it("is found round a half cut off by a crease, the half sharper and the card better supported", () => {
    // The half below the crease is the strongest outline (its ridge, 255 against the art, outshines
    // the white border's cut against the grey table), and with the upper half turned it is not
    // inside the card's outline; taken for the card, it was read as a card lying sideways.
    const found = locateCard(creasedCard(-4));
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    const ys = found.card.quad.map((p) => p.y);
    expect(Math.min(...ys)).toBeLessThan(CARD.y0 + 20);
    expect(Math.max(...ys)).toBeGreaterThan(CARD.y0 + CARD.height - 10);
  });

  it("takes the card round a half cut off by a crease when the card is flat", () => {
    const found = locateCard(creasedCard(0));
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    const ys = found.card.quad.map((p) => p.y);
    expect(Math.min(...ys)).toBeLessThan(CARD.y0 + 5);
  });
});
