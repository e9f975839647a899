// The card round a part of its own print (find-card.ts, partOf): a part lying crosswise inside the
// card's outline, a side along one of its sides, is never the card. The card round it wins when it
// competes with the part, or when it is weaker but better supported along its sides: a card creased
// across its middle has its lower half cut off by the crease's light ridge, sharper than the cut.
// Round a part of no card's shape, one of a card's shape supported as well wins too; of several
// round the part, the largest that stands out and is sharp as a cut (find-card.ts, cardRoundPart).
import { describe, expect, it } from "vitest";
import { cardRoundPart, firstCard, locateCard, printOfCard } from "../../src/grading/engine/find-card";
import { type Quad, signedArea2 } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import type { Hypothesis } from "../../src/grading/engine/quad-hypotheses";

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

/** An upright rectangle's corners, top-left first (photo order). */
const box = (left: number, top: number, right: number, bottom: number): Quad => [
  { x: left, y: top },
  { x: right, y: top },
  { x: right, y: bottom },
  { x: left, y: bottom },
];

/** A scored outline as locateCard holds it (quad-hypotheses.ts, score): its area from its corners. */
function outline(
  quad: Quad,
  {
    support,
    strength,
    sharpness,
    distinct,
    aspect,
  }: Record<"support" | "strength" | "sharpness" | "distinct" | "aspect", number>,
): Hypothesis {
  const area = Math.abs(signedArea2(quad)) / 2;
  return {
    quad,
    support,
    strength,
    sideStrengths: [strength, strength, strength, strength],
    sharpness,
    distinct: () => distinct,
    aspect,
    area,
  };
}

// The scores follow those read on a real yellow-bordered Pokémon card on a white wall
// (GarrettMaury7921/pokemon_card_grader 3d5d6aa6, test/fixtures/real-photos/pcg-special-charge.jpg),
// on a card 252 × 352 coarse px.
const CARD_CORNERS = box(100, 100, 352, 452);
/** The text box and the bottom border below it: 252 × 156 px, 1.62 times as wide as tall. */
const lowerPart = (aspect = 1.62) =>
  outline(box(100, 296, 352, 452), { support: 0.97, strength: 5.2, sharpness: 0.2, distinct: 0.89, aspect });

describe("the card round a part of its print, chosen among the outlines round it", () => {
  it("is one of a card's shape supported as well as a part of no card's shape, however much weaker", () => {
    // The card's top cut, its yellow washed pale by the light, reads at 4.0 against the text box's
    // edge at 5.2: under the 0.8 a competing outline needs, and 0.03 better supported, under 0.05.
    const part = lowerPart();
    const card = outline(CARD_CORNERS, { support: 1, strength: 4, sharpness: 0.3, distinct: 0.84, aspect: 1.4 });
    expect(cardRoundPart(part, [part, card])).toBe(card);
  });

  it("is not taken so round a part of a card's shape lying crosswise", () => {
    // Half a card cut across (63 × 44 mm, 1.43) could be a card of its own lying sideways.
    const part = lowerPart(1.43);
    const card = outline(CARD_CORNERS, { support: 1, strength: 4, sharpness: 0.3, distinct: 0.84, aspect: 1.4 });
    expect(cardRoundPart(part, [part, card])).toBeUndefined();
  });

  it("is the largest that stands out from beside it and is sharp as a cut, not the strongest", () => {
    const part = lowerPart();
    // Its top on the print's edge 5 px inside the cut, a side on a line through the wall's texture.
    const strongest = outline(box(100, 105, 352, 452), {
      support: 1,
      strength: 6.6,
      sharpness: 0.21,
      distinct: 0.02,
      aspect: 1.38,
    });
    // Its sides on the print inside the cut along the left and the bottom, standing out.
    const inside = outline(box(104, 100, 352, 449), {
      support: 1,
      strength: 6.5,
      sharpness: 0.19,
      distinct: 0.61,
      aspect: 1.41,
    });
    const card = outline(CARD_CORNERS, { support: 1, strength: 6.4, sharpness: 0.35, distinct: 0.48, aspect: 1.4 });
    // A soft shadow's edge 4 px out along the bottom: larger, but not sharp as a cut.
    const shadow = outline(box(100, 100, 352, 456), {
      support: 1,
      strength: 4.9,
      sharpness: 0.1,
      distinct: 0.5,
      aspect: 1.42,
    });
    expect(cardRoundPart(part, [part, strongest, inside, card, shadow])).toBe(card);
  });

  it("is the strongest round the part when none stands out from beside it", () => {
    const part = lowerPart();
    const weaker = outline(CARD_CORNERS, { support: 1, strength: 6, sharpness: 0.35, distinct: 0.1, aspect: 1.4 });
    const stronger = outline(box(100, 104, 352, 452), {
      support: 1,
      strength: 6.6,
      sharpness: 0.21,
      distinct: 0.02,
      aspect: 1.38,
    });
    expect(cardRoundPart(part, [part, stronger, weaker])).toBe(stronger);
  });
});

// The scores follow those read on a real silver-bordered Pokémon trainer on a blue playmat
// (rkrk-2.jpg, set 11 of docs/held-out-photo-set-11.tsv), in working-image pixels: its art window
// (1.5 times as wide as tall) closed by the card's own left cut, the silver round it lit as light
// as the playmat's sheen, so that the colour cue counted half the ring between them as table.
describe("print of the card round it, which does not make that card the table's pattern", () => {
  const card = outline(box(230, 293, 930, 1277), {
    support: 0.95,
    strength: 2.1,
    sharpness: 0.29,
    distinct: 0.79,
    aspect: 1.4,
  });

  it("is an art window closed by the card's cut along one side", () => {
    const window = outline(box(230, 366, 875, 788), {
      support: 1,
      strength: 3.2,
      sharpness: 0.26,
      distinct: 0.3,
      aspect: 1.5,
    });
    expect(printOfCard(card, window)).toBe(true);
  });

  it("is a panel clear of all four of the card's sides", () => {
    const panel = outline(box(290, 800, 870, 1200), {
      support: 1,
      strength: 3,
      sharpness: 0.25,
      distinct: 0.4,
      aspect: 1.45,
    });
    expect(printOfCard(card, panel)).toBe(true);
  });

  it("is not a card lying in the outline round it and another card, along three of its sides", () => {
    const pair = outline(box(100, 300, 980, 930), {
      support: 0.9,
      strength: 2,
      sharpness: 0.25,
      distinct: 0.6,
      aspect: 1.4,
    });
    const left = outline(box(100, 300, 540, 930), {
      support: 1,
      strength: 3,
      sharpness: 0.3,
      distinct: 0.7,
      aspect: 1.43,
    });
    expect(printOfCard(pair, left)).toBe(false);
  });

  it("is not a card of its own orientation inside it", () => {
    const inner = outline(box(300, 400, 860, 1180), {
      support: 1,
      strength: 3,
      sharpness: 0.3,
      distinct: 0.7,
      aspect: 1.39,
    });
    expect(printOfCard(card, inner)).toBe(false);
  });
});

// The scores follow those read on a real silver-bordered Pokémon trainer on a white table, on the
// coarse copy (480 × 640) of nmch-super_potion.png (set 13 of the local photos; not committed, its
// repository published no licence with it): the card's top end, closed by its art window's foot,
// and the card round it, whose pale grey text box the colour cue counted as table.
describe("the card's end cut off by a line of its print", () => {
  const card = outline(box(62, 98, 407, 578), {
    support: 1,
    strength: 3.84,
    sharpness: 0.338,
    distinct: 0.662,
    aspect: 1.391,
  });
  const end = outline(box(62, 98, 407, 351), {
    support: 1,
    strength: 3.84,
    sharpness: 0.311,
    distinct: 0.656,
    aspect: 1.364,
  });

  it("is print of the card: along three of its sides, with no card's proportions where the card has them", () => {
    expect(printOfCard(card, end)).toBe(true);
  });

  it("is not, when it has a card's proportions (a card beside another in an outline round both)", () => {
    expect(printOfCard(card, { ...end, aspect: 1.397 })).toBe(false);
  });

  it("is not, when the outline round it has no card's proportions either", () => {
    expect(printOfCard({ ...card, aspect: 1.3 }, end)).toBe(false);
  });
});

// The scores follow those read on a real white-bordered Magic card on light wood, 640 × 480
// (keyo-pic_1.jpg, set 11), in its pixels: the wood's grain withdrew Hough votes from the card's
// left cut, so the only outlines supported as well as its frame's are the frame and outlines
// closed by the frame on one side and the cut on the others, all inside the card's own outline.
describe("the first outline taken for the card", () => {
  const frame = outline(box(218, 90, 468, 429), {
    support: 1,
    strength: 1.97,
    sharpness: 0.23,
    distinct: 0.3,
    aspect: 1.41,
  });
  const mixed = outline(box(218, 79, 479, 429), {
    support: 0.95,
    strength: 1.28,
    sharpness: 0.23,
    distinct: 0.39,
    aspect: 1.397,
  });
  const card = outline(box(208, 79, 480, 440), {
    support: 0.78,
    strength: 1.15,
    sharpness: 0.24,
    distinct: 0.4,
    aspect: 1.384,
  });
  // The wood's grain closes an outline 1.72 times as tall as wide round the card: no card's shape.
  const grain = outline(box(208, 6, 480, 440), {
    support: 0.68,
    strength: 0.98,
    sharpness: 0.22,
    distinct: 0.61,
    aspect: 1.718,
  });
  const accepted = [frame, mixed, card, grain];
  const insideTheCard = (h: Hypothesis) => h === frame || h === mixed;

  it("is the best supported that is not print inside a card-shaped outline", () => {
    expect(firstCard(accepted, () => false)).toBe(frame);
    expect(firstCard(accepted, (h) => h === frame)).toBe(mixed);
  });

  it("is the card's outline, however supported, when every well-supported one lies inside it", () => {
    expect(firstCard(accepted, insideTheCard)).toBe(card);
  });

  it("is not an outline round four cards laid out in two rows, which has a card's shape", () => {
    const cards = [
      box(200, 100, 350, 310),
      box(370, 100, 520, 310),
      box(200, 330, 350, 540),
      box(370, 330, 520, 540),
    ].map((quad) => outline(quad, { support: 1, strength: 2.5, sharpness: 0.3, distinct: 0.6, aspect: 1.4 }));
    const block = outline(box(195, 95, 525, 545), {
      support: 0.82,
      strength: 2.54,
      sharpness: 0.33,
      distinct: 0.42,
      aspect: 1.373,
    });
    // Each card counts as print inside a card-shaped outline (the block round them, with the other
    // cards between), so none is taken first, and the block itself holds four cards.
    expect(firstCard([...cards, block], (h) => cards.includes(h))).toBeUndefined();
  });
});
