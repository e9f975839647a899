// When an outline of a graded-card holder's shape round the card is a holder (find-card.ts): its
// walls and label make it at least MIN_HOLDER_AREA_RATIO times the card's area, and its walls
// surround the card (it shares no side with it). A raw card's own
// top and bottom cut, closed by two lines crossing its sides at a few degrees, made a holder's
// shape only 1.07–1.13 times the card-shaped outline inside it on two real photos, and the raw
// cards were refused as "in a holder".
import { describe, expect, it } from "vitest";
import { locateCard } from "../../src/grading/engine/find-card";
import type { RgbaImage } from "../../src/grading/engine/image";

/**
 * A dark card 120 × 168 px on a grey table, in a yellow holder `height` px tall (its label above
 * the card, its wall below) and `walls` px wider than the card on either side (0: bands above and
 * below the card only, sharing its sides).
 */
function cardWithBands(height: number, walls = 10): RgbaImage {
  const width = 400;
  const data = new Uint8Array(width * width * 4);
  const top = 200 - height / 2;
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < width; x++) {
      const card = x >= 140 && x < 260 && y >= 116 && y < 284;
      const band = x >= 140 - walls && x < 260 + walls && !card && y >= top && y < top + height;
      const colour = card ? [40, 50, 120] : band ? [220, 200, 80] : [128, 128, 126];
      data.set([...colour, 255], (y * width + x) * 4);
    }
  }
  return { width, height: width, data };
}

describe("a holder's shape round the card", () => {
  it("is a holder when it is 1.28 times the card's area (a label and walls)", () => {
    const found = locateCard(cardWithBands(215));
    expect(found).toMatchObject({ ok: false, reason: "a graded-card holder" });
  });

  it("is no holder when it is only 1.13 times the card's area", () => {
    const found = locateCard(cardWithBands(190, 0));
    expect(found.ok ? "located" : found.reason).not.toBe("a graded-card holder");
  });

  it("is no holder when it shares a side with the card inside it (lines of one card's print)", () => {
    // A holder's walls surround the card: bands above and below the card alone, its own sides
    // carried on, are no holder's (drawn raw cards on lawns and bricks were refused so).
    expect(locateCard(cardWithBands(215, 10))).toMatchObject({ ok: false, reason: "a graded-card holder" });
    const found = locateCard(cardWithBands(215, 0));
    expect(found.ok ? "located" : found.reason).not.toBe("a graded-card holder");
  });
});
