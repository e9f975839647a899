// A screenshot's flat margins round the photo it shows (padding.ts): found on each side, painted
// over by the photo's own edge before the card is looked for (find-card.ts, locateCard), and not
// mistaken for a backdrop of one colour round a card, or for a blown-out table.
import { describe, expect, it } from "vitest";
import { decodeImage } from "../../src/grading/engine/decode";
import type { RgbaImage } from "../../src/grading/engine/image";
import { marginInsets, withoutMargins } from "../../src/grading/engine/padding";
import { encodePng } from "../../src/grading/engine/png";
import { drawCardScene, encodeJpeg, truthOf } from "../helpers/card-images";
import { faceOutcome } from "../helpers/face-outcome";
import { artPhoto, tablePhoto } from "../helpers/photos";
import { realisticScenes } from "../helpers/scene-sets";
import { seededRandom } from "../helpers/seeded-random";

type Margins = { left: number; top: number; right: number; bottom: number };

/** `photo` inside a screenshot: `margins` px of grey 242 round it, the top margin white. */
function screenshot(photo: RgbaImage, margins: Margins): RgbaImage {
  const width = photo.width + margins.left + margins.right;
  const height = photo.height + margins.top + margins.bottom;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const px = x - margins.left;
      const py = y - margins.top;
      if (px >= 0 && py >= 0 && px < photo.width && py < photo.height) {
        const from = (py * photo.width + px) * 4;
        data.set(photo.data.subarray(from, from + 4), o);
      } else {
        data.fill(y < margins.top ? 255 : 242, o, o + 3);
        data[o + 3] = 255;
      }
    }
  }
  return { width, height, data };
}

/** A photo-like image: every pixel its own shade (a scene's texture and noise), no line of one colour. */
function noisyPhoto(width: number, height: number, seed = 7): RgbaImage {
  const random = seededRandom(seed);
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const base = 90 + 60 * Math.sin(i / 97) + 30 * random();
    data.set([base, base * 0.9, base * 0.8, 255], i * 4);
  }
  return { width, height, data };
}

const SHOT: Margins = { left: 8, top: 3, right: 9, bottom: 40 };

describe("marginInsets", () => {
  it("finds a screenshot's margins on every side, to the pixel", () => {
    expect(marginInsets(screenshot(noisyPhoto(300, 400), SHOT))).toEqual(SHOT);
    expect(marginInsets(noisyPhoto(300, 400))).toEqual({ left: 0, top: 0, right: 0, bottom: 0 });
  });

  it("finds them through a JPEG's ringing, at most its block's lines short of the photo's edge", () => {
    const wide: Margins = { left: 60, top: 80, right: 60, bottom: 120 };
    const decoded = decodeImage(encodeJpeg(screenshot(noisyPhoto(320, 400), wide), 85), 2048).image;
    const found = marginInsets(decoded);
    for (const side of ["left", "top", "right", "bottom"] as const) {
      expect(found[side]).toBeGreaterThanOrEqual(wide[side] - 8);
      expect(found[side]).toBeLessThanOrEqual(wide[side] + 1);
    }
  });

  it("takes no backdrop of one colour round a card for a margin, nor a blown-out stretch that ends unevenly", () => {
    // A card 65 % of the photo's width on pure black, its corners rounded (3 mm at 4 px per mm):
    // the lines round it are one colour, and its cut steps from them along most of each line, but
    // the backdrop shows at the corners of the rectangle they leave. (A square-cut card on such a
    // backdrop is read as a photo in margins, its outline then run out to the photo's edge and
    // refused as touching it.)
    const width = 400;
    const height = 500;
    const backdrop = { width, height, data: new Uint8Array(width * height * 4) };
    const card = noisyPhoto(260, 360);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const o = (y * width + x) * 4;
        backdrop.data[o + 3] = 255;
        const cx = x - 70;
        const cy = y - 60;
        const r = 12;
        const dx = Math.max(r - cx, cx - (card.width - 1 - r), 0);
        const dy = Math.max(r - cy, cy - (card.height - 1 - r), 0);
        if (cx >= 0 && cy >= 0 && cx < card.width && cy < card.height && Math.hypot(dx, dy) <= r) {
          backdrop.data.set(card.data.subarray((cy * card.width + cx) * 4, (cy * card.width + cx) * 4 + 3), o);
        }
      }
    }
    expect(marginInsets(backdrop)).toEqual({ left: 0, top: 0, right: 0, bottom: 0 });
    // A table blown out to white along the top, the white ending a few pixels at a time.
    const table = noisyPhoto(300, 300);
    for (let x = 0; x < 300; x++) {
      const reach = 12 + Math.round(10 * Math.sin(x / 9));
      for (let y = 0; y < reach; y++) table.data.fill(255, (y * 300 + x) * 4, (y * 300 + x) * 4 + 3);
    }
    expect(marginInsets(table).top).toBe(0);
  });
});

describe("withoutMargins", () => {
  it("paints each margin pixel with the nearest of the photo's, and leaves the photo as it is", () => {
    const photo = noisyPhoto(50, 60);
    const painted = withoutMargins(screenshot(photo, SHOT), SHOT);
    const width = photo.width + SHOT.left + SHOT.right;
    const at = (image: RgbaImage, x: number, y: number) =>
      Array.from(image.data.subarray((y * image.width + x) * 4, (y * image.width + x) * 4 + 4));
    expect(painted.width).toBe(width);
    expect(at(painted, 0, 0)).toEqual(at(photo, 0, 0));
    expect(at(painted, width - 1, painted.height - 1)).toEqual(at(photo, photo.width - 1, photo.height - 1));
    expect(at(painted, 3, 30)).toEqual(at(photo, 0, 30 - SHOT.top));
    expect(at(painted, SHOT.left + 20, SHOT.top + 25)).toEqual(at(photo, 20, 25));
  });
});

describe("a card photo shown in a screenshot", () => {
  // The photo's edge along the margins is a straight, sharp line on every side: closed with the
  // card's own sides or its print's, it made outlines of the photo's 4:3 shape, a holder's or
  // another card's (with margins round them, three of these four photos were refused for no
  // format or two edges before the margins were painted over).
  const wide: Margins = { left: 60, top: 80, right: 60, bottom: 120 };
  const designs = realisticScenes({ art: artPhoto, table: tablePhoto })
    .filter((c) => c.category === "designs")
    .slice(0, 4);
  it.each(designs.map((c) => [c.name, c] as const))(
    "grades %s within a point, as without the margins",
    async (_, c) => {
      const truth = truthOf(c.scene);
      const outcome = faceOutcome(await encodePng(screenshot(drawCardScene(c.scene), wide)), "front");
      if (!outcome.graded) throw new Error(`refused: ${outcome.message}`);
      expect(Math.abs(outcome.leftRight - truth.leftRight)).toBeLessThan(1);
      expect(Math.abs(outcome.topBottom - truth.topBottom)).toBeLessThan(1);
    },
  );
});
