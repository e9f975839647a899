// When an outline of a graded-card holder's shape round the card is a holder (find-card.ts): its
// walls and label make it at least MIN_HOLDER_AREA_RATIO times the card's area. A raw card's own
// top and bottom cut, closed by two lines crossing its sides at a few degrees, made a holder's
// shape only 1.07–1.13 times the card-shaped outline inside it on two real photos, and the raw
// cards were refused as "in a holder".
import { describe, expect, it } from "vitest";
import { locateCard } from "../../src/grading/engine/find-card";
import type { RgbaImage } from "../../src/grading/engine/image";

/** A dark card 120 × 168 px on a grey table, with yellow bands above and below it up to `height` px in all. */
function cardWithBands(height: number): RgbaImage {
  const width = 400;
  const data = new Uint8Array(width * width * 4);
  const top = 200 - height / 2;
  for (let y = 0; y < width; y++) {
    for (let x = 0; x < width; x++) {
      const inColumn = x >= 140 && x < 260;
      const card = inColumn && y >= 116 && y < 284;
      const band = inColumn && !card && y >= top && y < top + height;
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
    const found = locateCard(cardWithBands(190));
    expect(found.ok ? "located" : found.reason).not.toBe("a graded-card holder");
  });
});
