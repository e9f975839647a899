// Two helpers of find-card.ts's rule for the table's own pattern closing outlines around the card:
// the row-span count of non-table pixels between two outlines, against counting every pixel
// centre with the half-plane test of geometry.ts; and whether an outline shares two opposite
// sides with one inside it, and whether what it adds beside that one is the card's border; and the
// looser table mask those outlines are read with; the share of one outline inside another,
// by which outlines apart from each other are told (several cards); and whether one outline lies
// crosswise to another (half a card, lying sideways inside it, is not the card); and whether one
// outline is another with a side swung off it about a corner (swungSide); and which ringed outline
// takes the place of a winner with no border ring, as found or once its sides on a panel's edge
// are moved to the cut (ringedOverWinner).
import { describe, expect, it } from "vitest";
import { crosswise, inside, type Quad, shareInside } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import {
  addsBorder,
  addsTableBeside,
  borderRingAllRound,
  ringedOverWinner,
  sidesOf,
  sidesShared,
  swungOntoWeaker,
  swungSide,
} from "../../src/grading/engine/outline-relations";
import type { Hypothesis } from "../../src/grading/engine/quad-hypotheses";
import { colourCue } from "../../src/grading/engine/segment";
import { notTableCounter } from "../../src/grading/engine/table-share";

function bruteForce(table: Uint8Array, width: number, outer: Quad, inner: Quad): number {
  const height = table.length / width;
  let ring = 0;
  let notTable = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const centre = { x: x + 0.5, y: y + 0.5 };
      if (!inside(outer, centre, 0) || inside(inner, centre, 0)) continue;
      ring++;
      if (table[y * width + x] !== 1) notTable++;
    }
  }
  return ring > 0 ? notTable / ring : 0;
}

/** A rotated rectangle, clockwise on screen from its top-left corner. */
function rectangle(cx: number, cy: number, w: number, h: number, degrees: number): Quad {
  const t = (degrees * Math.PI) / 180;
  const corner = (x: number, y: number) => ({
    x: cx + x * Math.cos(t) - y * Math.sin(t),
    y: cy + x * Math.sin(t) + y * Math.cos(t),
  });
  return [corner(-w / 2, -h / 2), corner(w / 2, -h / 2), corner(w / 2, h / 2), corner(-w / 2, h / 2)];
}

/** An image `width` × `height` whose pixel at (x, y) has the colour `colourAt` gives. */
function painted(width: number, height: number, colourAt: (x: number, y: number) => readonly number[]): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([...colourAt(x, y), 255], (y * width + x) * 4);
  }
  return { width, height, data };
}

describe("shareInside (two outlines apart: several cards)", () => {
  it("reads the share of one outline inside another, whole, half, none, and turned", () => {
    const card = rectangle(100, 100, 63, 88, 0);
    expect(shareInside(rectangle(100, 100, 80, 110, 0), card)).toBe(1);
    expect(shareInside(rectangle(131.5, 100, 63, 88, 0), card)).toBe(0.5);
    expect(shareInside(rectangle(180, 100, 63, 88, 0), card)).toBe(0);
    // Turned 45° about the same centre: the card's corners stick out of its own outline.
    const turned = shareInside(card, rectangle(100, 100, 63, 88, 45));
    expect(turned).toBeGreaterThan(0.6);
    expect(turned).toBeLessThan(0.9);
  });
});

describe("crosswise (half a card lying sideways inside it)", () => {
  it("tells half a standard card, cut across by a line of its print, from the card and its art box", () => {
    // A card 63 × 88 (scaled ×3) turned 2°, its top half (63 × 44: a card's shape lying sideways),
    // and its art box (51 × 40 lying sideways too) against the card, its frame, and itself.
    const card = rectangle(200, 200, 189, 264, 2);
    const half = rectangle(200 + 66 * Math.sin((2 * Math.PI) / 180), 134, 189, 132, 2);
    expect(crosswise(card, half)).toBe(true);
    expect(crosswise(half, card)).toBe(true);
    expect(crosswise(card, rectangle(200, 170, 153, 120, 2))).toBe(true);
    expect(crosswise(card, rectangle(200, 200, 171, 246, 2))).toBe(false);
    expect(crosswise(card, card)).toBe(false);
    // A card lying sideways, its top toward the left, inside a landscape outline: the same way.
    expect(crosswise(rectangle(200, 200, 264, 189, -3), rectangle(200, 200, 300, 220, -3))).toBe(false);
    // Turned 30° against it: still along it; 60°: across.
    expect(crosswise(card, rectangle(200, 200, 189, 264, 32))).toBe(false);
    expect(crosswise(card, rectangle(200, 200, 189, 264, 62))).toBe(true);
  });
});

describe("notTableCounter", () => {
  it("counts the ring between two outlines exactly as a per-pixel test does", () => {
    const width = 160;
    const height = 120;
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const table = new Uint8Array(width * height).map(() => (random() < 0.6 ? 1 : 0));
    const share = notTableCounter(table, width);
    for (let n = 0; n < 40; n++) {
      const cx = 60 + random() * 40;
      const cy = 45 + random() * 30;
      const angle = random() * 30 - 15;
      const outer = rectangle(cx, cy, 70 + random() * 40, 60 + random() * 40, angle);
      // Inside the outer one, partly outside it, or beyond it altogether.
      const inner = rectangle(cx + (random() - 0.5) * 60, cy + (random() - 0.5) * 40, 30, 40, angle + random() * 6);
      expect(share(outer, inner)).toBeCloseTo(bruteForce(table, width, outer, inner), 12);
    }
  });

  it("answers 0 for an outline outside the photo", () => {
    const share = notTableCounter(new Uint8Array(100).fill(0), 10);
    expect(share(rectangle(50, 50, 8, 8, 0), rectangle(50, 50, 2, 2, 0))).toBe(0);
  });
});

describe("sidesShared", () => {
  const card = rectangle(100, 100, 60, 84, 4);
  const corner = (quad: Quad, k: number) => quad[k] as { x: number; y: number };
  /**
   * `quad` with its left side moved outward by `left` px and its right side by `right` px, along
   * the top and bottom sides.
   */
  function widened(quad: Quad, left: number, right = left): Quad {
    const along = (from: number, to: number, by: number) => {
      const p = corner(quad, from);
      const q = corner(quad, to);
      const length = Math.hypot(q.x - p.x, q.y - p.y);
      return { x: p.x + ((p.x - q.x) / length) * by, y: p.y + ((p.y - q.y) / length) * by };
    };
    return [along(0, 1, left), along(1, 0, right), along(2, 3, right), along(3, 2, left)];
  }

  it("finds the card's top and bottom closed by two lines further out", () => {
    expect(sidesShared(widened(card, 20), sidesOf(card))).toBe("two");
    // The same with the lines 5 px out: still two other lines.
    expect(sidesShared(widened(card, 5), sidesOf(card))).toBe("two");
  });

  it("finds one side closed by a line further out, the other three shared", () => {
    expect(sidesShared(widened(card, 20, 0), sidesOf(card))).toBe("three");
    expect(sidesShared(widened(card, 0, 8), sidesOf(card))).toBe("three");
  });

  it("finds nothing for one edge placed twice, a card around its art, or the same outline", () => {
    // Sides 3 px apart: one edge read twice, or a thin border's cut and its art.
    expect(sidesShared(widened(card, 3), sidesOf(card))).toBeNull();
    expect(sidesShared(widened(card, 20, 3), sidesOf(card))).toBeNull();
    // A card around its art: no side shared.
    expect(sidesShared(rectangle(100, 100, 60, 84, 4), sidesOf(rectangle(100, 100, 50, 70, 4)))).toBeNull();
    expect(sidesShared(card, sidesOf(card))).toBeNull();
  });
});

describe("swungSide", () => {
  const card = rectangle(100, 100, 60, 84, 4);
  const at = (k: number) => card[k] as { x: number; y: number };
  /** `card` with corner k moved `by` px along the side from corner k - 1 (its other sides kept). */
  function swung(k: number, by: number): Quad {
    const from = at((k + 3) % 4);
    const to = at(k);
    const length = Math.hypot(to.x - from.x, to.y - from.y);
    const moved = { x: to.x + ((to.x - from.x) / length) * by, y: to.y + ((to.y - from.y) / length) * by };
    return card.map((p, i) => (i === k ? moved : p)) as Quad;
  }

  it("finds a side swung outward about one corner, the other three shared", () => {
    // Corner 0 (top-left) moved up the left side: the top side swings about the top-right corner.
    expect(swungSide(swung(0, 12), card)).toBe(0);
    // Corner 2 (bottom-right) moved down the right side: the bottom swings about the bottom-left.
    expect(swungSide(swung(2, 9), card)).toBe(2);
  });

  it("finds none for a side moved out parallel, a swing of a few pixels, another outline, or the same one", () => {
    // A holder's or a sleeve's wall beside the cut: both ends off the card's side.
    const moved: Quad = [{ x: at(0).x, y: at(0).y - 10 }, { x: at(1).x, y: at(1).y - 10 }, at(2), at(3)];
    expect(swungSide(moved, card)).toBeNull();
    // One edge placed twice: within DISTINCT_SIDE_PX of the card's side at its far end.
    expect(swungSide(swung(0, 3), card)).toBeNull();
    expect(swungSide(rectangle(100, 100, 80, 110, 4), card)).toBeNull();
    expect(swungSide(card, card)).toBeNull();
  });

  it("lets a swung outline swallow the other only when its swung side is the stronger edge (swungOntoWeaker)", () => {
    const inner = { quad: card, sideStrengths: [9, 9, 9, 9] };
    // Top swung onto a line weaker than the inner outline's top (a table's joint): no swallowing.
    expect(swungOntoWeaker({ quad: swung(0, 12), sideStrengths: [2.6, 9, 9, 9] }, inner)).toBe(true);
    // Swung onto a stronger one (the card's cut, the inner top on a slanting line of print): it swallows.
    expect(swungOntoWeaker({ quad: swung(0, 12), sideStrengths: [14.6, 9, 9, 9] }, inner)).toBe(false);
    // Not swung at all: left to the other rules.
    expect(swungOntoWeaker({ quad: rectangle(100, 100, 80, 110, 4), sideStrengths: [1, 1, 1, 1] }, inner)).toBe(false);
  });
});

/** The rectangle x0–x1, y0–y1 as a quadrilateral in photo order. */
const box = (x0: number, y0: number, x1: number, y1: number): Quad => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];

/**
 * A 400 × 400 photo of a card at x 100–299, y 60–339: `border` round a `panel` inset `inset` px
 * (`borderAt(x, y)` instead where it gives a colour), and `around(x, y)` outside it.
 */
function cardPhoto(
  border: readonly number[],
  panel: readonly number[],
  inset: number,
  around: (x: number, y: number) => readonly number[],
  borderAt: (x: number, y: number) => readonly number[] | null = () => null,
): RgbaImage {
  return painted(400, 400, (x, y) => {
    if (x >= 100 + inset && x < 300 - inset && y >= 60 + inset && y < 340 - inset) return panel;
    return x >= 100 && x < 300 && y >= 60 && y < 340 ? (borderAt(x, y) ?? border) : around(x, y);
  });
}

describe("addsBorder", () => {
  // A card (yellow border 10 px, purple panel) at x 100–299, y 60–339 on a white table, a yellow
  // sticker on the table beside it (the table's colour cue may count yellow as table).
  const TABLE = [235, 235, 240];
  function cardOnTable(): RgbaImage {
    return cardPhoto([240, 215, 70], [150, 90, 170], 10, (x, y) =>
      x >= 20 && x < 90 && y >= 150 && y < 250 ? [240, 215, 70] : TABLE,
    );
  }
  const image = cardOnTable();

  it("tells the card's border running on round it from lines closing its sides", () => {
    // The card's cut all round, around its own sides closed by the panel's top and bottom lines:
    // what it adds at top and bottom is the border's yellow, as inside its left and right cuts.
    expect(
      addsBorder(image, box(100, 60, 300, 340), box(100, 70, 300, 330), { shared: [1, 3], outside: [0, 2] }, TABLE),
    ).toBe(true);
    // One side so (the panel's top line closing the card's other three cuts).
    expect(
      addsBorder(image, box(100, 60, 300, 340), box(100, 70, 300, 340), { shared: [1, 2, 3], outside: [0] }, TABLE),
    ).toBe(true);
  });

  it("does not tell a border of nearly the table's colour from table (a black border on dark cloth, a shadow beside it)", () => {
    // The same card on a table of nearly its border's yellow, and an outline 10 px beyond its top
    // and bottom cuts: what that outline adds could as well be more border as table, or the card's
    // shadow on it.
    const YELLOW_TABLE = [228, 205, 85];
    const onYellow = cardPhoto([240, 215, 70], [150, 90, 170], 10, () => YELLOW_TABLE);
    expect(
      addsBorder(
        onYellow,
        box(100, 50, 300, 350),
        box(100, 60, 300, 340),
        { shared: [1, 3], outside: [0, 2] },
        YELLOW_TABLE,
      ),
    ).toBe(false);
  });

  it("reads the table beside the card as well as over the photo (a silver border on a white table in falling light)", () => {
    // A silver border on a white table whose light falls off away from the card: the table's
    // colour over the photo is the silver's own, but beside the card the table is lighter.
    const BESIDE = [206, 204, 198];
    const FAR = [168, 167, 165];
    const silver = cardPhoto([166, 166, 166], [120, 170, 60], 12, (x, y) =>
      x >= 70 && x < 330 && y >= 30 && y < 370 ? BESIDE : FAR,
    );
    // The card's cut all round, around its sides closed by the panel's top and bottom lines.
    expect(
      addsBorder(silver, box(100, 60, 300, 340), box(100, 72, 300, 328), { shared: [1, 3], outside: [0, 2] }, FAR),
    ).toBe(true);
    // Its left and right cuts closed by lines of the table 20 px above and below it: table beside.
    expect(
      addsBorder(silver, box(100, 40, 300, 360), box(100, 60, 300, 340), { shared: [1, 3], outside: [0, 2] }, FAR),
    ).toBe(false);
  });

  it("finds table, not border, beside a card closed by lines of the table", () => {
    // The card's left and right cuts closed by two lines of the table 30 px above and below it:
    // what that outline adds is white table, inside the shared cuts is the yellow border.
    expect(
      addsBorder(image, box(100, 30, 300, 370), box(100, 60, 300, 340), { shared: [1, 3], outside: [0, 2] }, TABLE),
    ).toBe(false);
  });
});

describe("addsTableBeside", () => {
  // A black-bordered card on a sheet of white paper that ends 40 px below it, on a dark mat: the
  // photo's frame is mostly mat, so the colour cue's table is the mat and the sheet is no table.
  const SHEET = [232, 232, 226];
  const MAT = [70, 58, 50];
  const onSheet = cardPhoto([20, 20, 24], [225, 215, 190], 10, (x, y) => (x >= 60 && x < 340 && y < 380 ? SHEET : MAT));

  it("finds the sheet the card lies on in what an outline adds past the card's cut, whatever the photo's table", () => {
    // The card's sides carried on down to the sheet's edge: what that adds is the sheet, as beside
    // the card's sides.
    expect(
      addsTableBeside(onSheet, box(100, 60, 300, 380), box(100, 60, 300, 340), { shared: [0, 1, 3], outside: [2] }),
    ).toBe(true);
    // Its top and bottom carried on to the sheet's sides.
    expect(
      addsTableBeside(onSheet, box(60, 60, 340, 340), box(100, 60, 300, 340), { shared: [0, 2], outside: [1, 3] }),
    ).toBe(true);
  });

  it("finds the card's border, not the sheet, round its own sides closed by its panel's lines", () => {
    // The card's cut all round, around its sides closed by the panel's top and bottom lines: what
    // it adds is the border's black, not the sheet beside the card.
    expect(
      addsTableBeside(onSheet, box(100, 60, 300, 340), box(100, 70, 300, 330), { shared: [1, 3], outside: [0, 2] }),
    ).toBe(false);
  });

  it("tells nothing when the border is of the sheet's colour (a white border on white paper)", () => {
    const white = cardPhoto([236, 236, 232], [150, 90, 170], 10, (x, y) =>
      x >= 60 && x < 340 && y < 380 ? SHEET : MAT,
    );
    expect(
      addsTableBeside(white, box(100, 60, 300, 380), box(100, 60, 300, 340), { shared: [0, 1, 3], outside: [2] }),
    ).toBe(false);
  });
});

describe("addsBorder beside a cut", () => {
  // A silver border (165) 12 px wide round a yellow panel, on a table only 34 levels lighter (185),
  // a shadow of nearly the border's grey (172) 12 px wide along its left cut.
  const TABLE = [185, 185, 183];

  it("takes a silver border nearer the border's grey than the paper's for more border, though under 40 levels from the paper", () => {
    // A real photo's silver border on off-white paper (38 levels apart): the outline with its left
    // side on the panel's edge, the card's other three cuts shared, adds the border's own grey.
    const PAPER = [190, 186, 180];
    const silver = cardPhoto([165, 164, 162], [210, 180, 60], 12, () => PAPER);
    const threeShared = { shared: [0, 1, 2], outside: [3] };
    expect(addsBorder(silver, box(100, 60, 300, 340), box(112, 60, 300, 340), threeShared, PAPER)).toBe(true);
  });

  it("does not take the card's shadow of nearly its border's grey for more border", () => {
    // The outline round the shadow adds its grey beside the card's cut: as near the border's
    // colour as the table's, over the photo and beside the card.
    const shadowed = cardPhoto([165, 165, 165], [210, 180, 60], 12, (x, y) =>
      x >= 88 && x < 100 && y >= 60 && y < 340 ? [172, 172, 171] : TABLE,
    );
    const threeShared = { shared: [0, 1, 2], outside: [3] };
    expect(addsBorder(shadowed, box(88, 60, 300, 340), box(100, 60, 300, 340), threeShared, TABLE)).toBe(false);
  });
});

describe("colourCue's looser table", () => {
  // Brown bricks (30 × 12 px) in dark joints, and a card (red border, blue art) at x 80–139. The
  // joints stand further from the brick than Otsu's split puts the table, so the strict table
  // stops at them; the frame's whole spread takes them in.
  function brickTable(joint = [40, 28, 18], artColour = [40, 60, 140], every = 30, wide = 3): RgbaImage {
    return painted(240, 160, (x, y) => {
      const card = x >= 80 && x < 140 && y >= 35 && y < 125;
      const art = x >= 85 && x < 135 && y >= 40 && y < 120;
      const inJoint = x % every < wide || y % 12 < 2;
      return art ? artColour : card ? [190, 30, 40] : inJoint ? joint : [110, 77, 51];
    });
  }
  const at = (mask: Uint8Array, x: number, y: number) => mask[y * 240 + x];

  it("reaches the bricks between the joints and the card, and takes neither joints nor card", () => {
    const cue = colourCue(brickTable());
    // A brick beside the card, walled off by joints in the strict table.
    expect(at(cue.table, 70, 80)).toBe(0);
    const loose = cue.looseTable();
    expect(at(loose, 70, 80)).toBe(1);
    expect(at(loose, 5, 5)).toBe(1);
    // A joint, the card's border and its art are not table.
    for (const [x, y] of [
      [61, 80],
      [82, 80],
      [110, 80],
    ] as const) {
      expect(at(loose, x, y)).toBe(0);
    }
  });

  it("does not cross a card's border into art of the table's colour", () => {
    // Light joints 4 px wide every 15 px spread the frame's colours past the red border's; the
    // white art differs from the brown bricks mostly in brightness, which the table's distance
    // forgives. The border (5 px) is wider than a line is crossed, so the art stays card.
    // (Crossing any number of pixels, the art is reached and counted as table.)
    const loose = colourCue(brickTable([220, 200, 170], [240, 240, 240], 15, 4)).looseTable();
    expect(at(loose, 110, 80)).toBe(0);
  });

  it("does not take the colours of something along one edge of the photo for the table's", () => {
    // A plain light table with a dark strip along the photo's bottom edge (the floor beyond the
    // table's edge), and a card with a 3 px black border round light art of nearly the table's
    // colour. Read over the whole frame, the table's colours take in the strip's black, and the
    // looser table crosses the card's border into its art.
    const photo = painted(240, 160, (x, y) => {
      const card = x >= 80 && x < 140 && y >= 35 && y < 125;
      const art = x >= 83 && x < 137 && y >= 38 && y < 122;
      const strip = y >= 150;
      return art ? [205, 200, 200] : card || strip ? [20, 20, 22] : [200, 196, 197];
    });
    const loose = colourCue(photo).looseTable();
    expect(at(loose, 110, 80)).toBe(0);
    expect(at(loose, 81, 80)).toBe(0);
    expect(at(loose, 40, 80)).toBe(1);
  });
});

describe("borderRingAllRound", () => {
  // A card (a 10 px yellow border, 3.2 mm at its scale, round a grey panel) at x 100–299,
  // y 60–339 on a white wall: its own outline shows the border all round, whatever the colour cue
  // counts as table.
  const YELLOW = [205, 176, 48];
  const PANEL = [196, 196, 200];
  const WALL = [190, 184, 176];
  const card = box(100, 60, 300, 340);
  /** The card with its top border's band (10 px) in `top`, its other three sides yellow. */
  const topBandOf = (top: readonly number[]) =>
    cardPhoto(
      YELLOW,
      PANEL,
      10,
      () => WALL,
      (x, y) => (y < 70 && x >= 100 && x < 300 ? top : null),
    );

  it("finds a card's border all round its outline, and its top paled by a lamp's sheen", () => {
    expect(
      borderRingAllRound(
        cardPhoto(YELLOW, PANEL, 10, () => WALL),
        card,
      ),
    ).toBe(true);
    expect(borderRingAllRound(topBandOf([217, 204, 130]), card)).toBe(true);
  });

  it("finds none round a card on the plain wall, beside a band of the border's ink, or with another ink along one side", () => {
    // An outline round the card on the wall: the wall inside and out.
    expect(
      borderRingAllRound(
        cardPhoto(YELLOW, PANEL, 10, () => WALL),
        box(80, 40, 320, 360),
      ),
    ).toBe(false);
    // The border's yellow runs on past the right side (a sticker, another card's band).
    const beside = cardPhoto(YELLOW, PANEL, 10, (x) => (x >= 300 && x < 320 ? YELLOW : WALL));
    expect(borderRingAllRound(beside, card)).toBe(false);
    // The top band red: no one border's ink.
    expect(borderRingAllRound(topBandOf([200, 50, 40]), card)).toBe(false);
  });
});

describe("ringedOverWinner", () => {
  // Outlines of a card 200 × 280 px; the ring is read from a set of rings the test names.
  const rect = (x0: number, y0: number, x1: number, y1: number): Quad => [
    { x: x0, y: y0 },
    { x: x1, y: y0 },
    { x: x1, y: y1 },
    { x: x0, y: y1 },
  ];
  const outline = (quad: Quad, support: number): Hypothesis => ({
    quad,
    support,
    strength: 5,
    sideStrengths: [5, 5, 5, 5],
    sharpness: 0.3,
    distinct: () => 1,
    aspect: 1.4,
    area: 200 * 280,
  });
  // The winner: its top side on the art box's top, 40 px inside the card's (the card's top edge
  // faint against a wall); the card's own outline over it.
  const printed = outline(rect(100, 120, 300, 360), 0.9);
  const card = outline(rect(100, 80, 300, 360), 1);
  const ringedOnly =
    (...ringed: Quad[]) =>
    (quad: Quad) =>
      ringed.includes(quad);
  const anyShape = () => true;

  it("takes the card's outline over a winner with no ring, when it shows one and is better supported", () => {
    expect(ringedOverWinner(printed, [printed, card], anyShape, ringedOnly(card.quad))).toBe(card);
  });

  it("keeps a winner that shows a ring all round", () => {
    expect(ringedOverWinner(printed, [printed, card], anyShape, ringedOnly(printed.quad, card.quad))).toBe(printed);
  });

  it("keeps the winner beside an outline no better supported, or without a ring, or of no card's shape", () => {
    const asWell = outline(card.quad, 0.93);
    expect(ringedOverWinner(printed, [printed, asWell], anyShape, ringedOnly(asWell.quad))).toBe(printed);
    expect(ringedOverWinner(printed, [printed, card], anyShape, ringedOnly())).toBe(printed);
    expect(ringedOverWinner(printed, [printed, card], (h) => h !== card, ringedOnly(card.quad))).toBe(printed);
  });

  it("keeps the winner beside a ringed outline elsewhere (another card)", () => {
    const elsewhere = outline(rect(400, 80, 600, 360), 1);
    expect(ringedOverWinner(printed, [printed, elsewhere], anyShape, ringedOnly(elsewhere.quad))).toBe(printed);
  });

  it("takes an outline ringed once its sides on a panel's edge are moved to the cut; the winner is judged as found", () => {
    // The card's outline with its top on the frame's edge: no ring as found, one once moved.
    expect(ringedOverWinner(printed, [printed, card], anyShape, ringedOnly(), ringedOnly(card.quad))).toBe(card);
    // A winner ringed only once moved still gives way to an outline ringed as found.
    expect(ringedOverWinner(printed, [printed, card], anyShape, ringedOnly(card.quad), ringedOnly(printed.quad))).toBe(
      card,
    );
    // And the rules above hold for the moved ring: no better supported, no outline over it.
    const asWell = outline(card.quad, 0.93);
    expect(ringedOverWinner(printed, [printed, asWell], anyShape, ringedOnly(), ringedOnly(asWell.quad))).toBe(printed);
    const elsewhere = outline(rect(400, 80, 600, 360), 1);
    expect(ringedOverWinner(printed, [printed, elsewhere], anyShape, ringedOnly(), ringedOnly(elsewhere.quad))).toBe(
      printed,
    );
  });
});
