// The printed frame from line evidence (src/grading/engine/frame.ts), on flat cards drawn pixel by
// pixel at FLAT_PX_PER_MM, where the frame line is known exactly.
import { describe, expect, it } from "vitest";
import {
  agreeAtThreeScales,
  agreeOnCentering,
  edgeBlurLimitMm,
  faceCentering,
  widthsOf,
} from "../../src/grading/engine/centering";
import {
  bordersWithinChord,
  measureFrame,
  measureFrameDouble,
  measureFrameTwice,
} from "../../src/grading/engine/frame";
import { ruleBefore, SIDES } from "../../src/grading/engine/frame-side";
import { FLAT_PX_PER_MM } from "../../src/grading/engine/geometry";
import { downscaleToFit, type RgbaImage } from "../../src/grading/engine/image";
import { measuredFront } from "../helpers/drawn-front";
import { normalCdf } from "../helpers/normal";
import { artPhoto, tablePhoto } from "../helpers/photos";
import { type RealisticCase, realisticScenes, withBevelledRim } from "../helpers/scene-sets";

const MM = FLAT_PX_PER_MM;
const W = 63 * MM;
const H = 88 * MM;
const BORDER: [number, number, number] = [232, 205, 90]; // a yellow border
const ART: [number, number, number] = [60, 90, 140];
const FAINT: [number, number, number] = [224, 198, 84]; // the body's yellow, a shade off the border's (12.2 levels)
const FAINTER: [number, number, number] = [228, 201, 87]; // a body 6.4 levels off the border's: no step at any threshold

/**
 * A flat card with 3 mm borders on every side, except that on the left, from `splitRow` down, the
 * frame line is not printed: the border runs on into the body's faint yellow (`body`), and the
 * first clear step is wherever the text on that row begins (6–11 mm in), as below the art box of
 * a modern yellow-bordered card.
 */
function flatCard(splitRow: number, body = FAINT): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inFrame = x >= 3 * MM && x < W - 3 * MM && y >= 3 * MM && y < H - 3 * MM;
      let colour = inFrame ? ART : BORDER;
      const textStarts = (6 + ((y * 37) % 50) / 10) * MM;
      if (y >= splitRow && x >= 3 * MM && x < textStarts) colour = body;
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

/**
 * A flat card with 3 mm borders whose frame is printed turned by `degrees` about the card's centre
 * (a frame printed out of square, or a rectified edge that leans against it), and with `textShare`
 * of the bottom border's columns carrying print 1.2–2 mm in from the edge (a collector line).
 */
function turnedCard(degrees: number, textShare = 0): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  const turn = (degrees * Math.PI) / 180;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      // The pixel's centre in the frame's own (turned) coordinates.
      const dx = x + 0.5 - W / 2;
      const dy = y + 0.5 - H / 2;
      const u = dx * Math.cos(turn) + dy * Math.sin(turn) + W / 2;
      const v = -dx * Math.sin(turn) + dy * Math.cos(turn) + H / 2;
      const inFrame = u >= 3 * MM && u < W - 3 * MM && v >= 3 * MM && v < H - 3 * MM;
      const text = y >= H - 2 * MM && y < H - 1.2 * MM && x % 40 < 40 * textShare;
      data.set([...(inFrame || text ? ART : BORDER), 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

/**
 * A flat card with rows of print in its bottom border (each [from, to] mm in from the edge) across
 * `share` of its columns, in words with gaps: a copyright line, or a modern Magic card's two-row
 * collector line. Its frame lies `frame` mm in at the bottom, `top` mm at the top and 3 mm at the
 * sides. With `cutBlur` (mm), the cut is soft: the colour rises from a grey table's to the card's
 * over that depth from every edge.
 */
function printedBottomBorder(rows: [number, number][], share: number, frame = 3, top = 3, cutBlur = 0): RgbaImage {
  const TABLE = [120, 120, 120];
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inFrame = x >= 3 * MM && x < W - 3 * MM && y >= top * MM && y < H - frame * MM;
      const depth = (H - y) / MM;
      const print = x % 40 < 40 * share && rows.some(([from, to]) => depth > from && depth <= to);
      const colour = inFrame || print ? ART : BORDER;
      const fromEdge = Math.min(x + 0.5, y + 0.5, W - x - 0.5, H - y - 0.5) / MM;
      const rise = cutBlur > 0 ? Math.min(1, fromEdge / cutBlur) : 1;
      data.set(
        [...colour.map((v, ch) => Math.round((TABLE[ch] ?? 0) + (v - (TABLE[ch] ?? 0)) * rise)), 255],
        (y * W + x) * 4,
      );
    }
  }
  return { width: W, height: H, data };
}

/**
 * A modern Magic card's collector bar: two rows of print 1.7–2.7 and 3.4–4.4 mm in across 60 %
 * of the bottom border's columns, the frame 6.5 mm in; the top border `top` mm, the sides 3 mm.
 */
function collectorBarCard(top = 2.5): RgbaImage {
  return printedBottomBorder(
    [
      [1.7, 2.7],
      [3.4, 4.4],
    ],
    0.6,
    6.5,
    top,
  );
}

/**
 * `card` with the border's pixels from `from` to `to` mm in from its `side` cut painted the body's
 * faint yellow (FAINT), along the side clear of the corners: a faint straight line in the border.
 */
function withFaintBand(card: RgbaImage, side: "bottom" | "left", from: number, to: number): RgbaImage {
  const data = card.data.slice();
  const [x0, x1, y0, y1] = side === "left" ? [0, 3 * MM, 3 * MM, H - 3 * MM] : [3 * MM, W - 3 * MM, H - 3 * MM, H];
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const depth = (side === "left" ? x + 0.5 : H - y - 0.5) / MM;
      const o = (y * W + x) * 4;
      if (depth > from && depth <= to && data[o] === BORDER[0] && data[o + 1] === BORDER[1]) data.set(FAINT, o);
    }
  }
  return { width: W, height: H, data };
}

/**
 * A flat card with 3 mm borders whose left frame line is printed on the first `printedShare` of
 * the scanned rows only; on the rest the art runs on in the border's colour to a straight edge of
 * its own 5 mm in (a thin frame beside art of nearly the border's colour): two lines, the first
 * broken, with art behind it.
 */
function artEdgeCard(printedShare: number): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  const splitRow = Math.round(H * (0.2 + 0.6 * printedShare));
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inFrame = x >= 3 * MM && x < W - 3 * MM && y >= 3 * MM && y < H - 3 * MM;
      const borderLikeArt = y >= splitRow && x >= 3 * MM && x < 5 * MM;
      data.set([...(inFrame && !borderLikeArt ? ART : BORDER), 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

/**
 * A worn vintage card: a whitened rim fading (fast, then slowly) into the yellow border over the
 * outer 0.75 mm, the border mottled (±4 by a fixed hash of the pixel's place), and a body of pale
 * yellow-green beyond the 3 mm frame line, a step of ~44 from the border's colour.
 */
function wornCard(): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  const RIM: [number, number, number] = [250, 246, 232];
  const BODY: [number, number, number] = [200, 200, 120];
  const rim = 0.75 * MM;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const depth = Math.min(x, y, W - 1 - x, H - 1 - y) + 0.5;
      const inFrame = x >= 3 * MM && x < W - 3 * MM && y >= 3 * MM && y < H - 3 * MM;
      const mottle = (Math.imul(x * 73856093 + y * 19349663, 0x9e3779b1) >>> 29) - 4;
      const towardBorder = 1 - (1 - Math.min(1, depth / rim)) ** 2;
      const colour = inFrame
        ? BODY
        : BORDER.map((v, ch) => (RIM[ch] ?? 0) + (v - (RIM[ch] ?? 0)) * towardBorder + mottle * towardBorder);
      data.set([...colour.map((v) => Math.round(v)), 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

describe("the printed frame from line evidence", () => {
  it("reads the border's colour where it settles past a whitened rim, so a faint frame line is found", () => {
    const result = measureFrame(wornCard());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    for (const side of ["left", "right", "top", "bottom"] as const)
      expect(result.sides[side].width / MM).toBeCloseTo(3, 1);
  });

  it("measures a frame leaning 0.38 mm over the scanned side, and refuses one leaning 0.6 mm", () => {
    // Turned 0.43°, the frame leans about 0.38 mm over the line fitted along the scanned 60 % of
    // the long side; turned 0.65°, about 0.6 mm.
    const slight = measureFrame(turnedCard(0.43));
    expect(slight.ok).toBe(true);
    if (!slight.ok) return;
    expect(slight.sides.left.lean).toBeGreaterThan(0.35);
    expect(slight.sides.left.lean).toBeLessThan(0.4);
    expect(slight.sides.left.width / MM).toBeCloseTo(3, 1);
    const steep = measureFrame(turnedCard(0.65));
    expect(steep).toMatchObject({ ok: false });
    if (!steep.ok) expect(steep.reason).toMatch(/not parallel/);
  });

  it("measures a frame leaning 0.45 mm beside cuts traced cleanly, and refuses it beside others", () => {
    // Turned 0.48°, the frame leans about 0.45 mm: printed off square (a real vintage back's left
    // border narrows from 2.9 to 2.4 mm down its side), which only an outline traced cleanly along
    // the cut (refine-outline.ts, MIN_CLEAN_CUT) tells from an outline's side off the cut.
    const card = turnedCard(0.48);
    const beside = measureFrameTwice(card, 0, new Set(SIDES));
    expect(beside.full.ok && beside.half.ok).toBe(true);
    if (!beside.full.ok) return;
    expect(beside.full.sides.left.lean).toBeGreaterThan(0.4);
    expect(beside.full.sides.left.lean).toBeLessThan(0.5);
    expect(beside.full.sides.left.width / MM).toBeCloseTo(3, 1);
    // Beside a cut not traced cleanly (here the long sides'), the same lean is refused.
    const notBeside = measureFrameTwice(card, 0, new Set(["top", "bottom"]));
    expect(notBeside.full).toMatchObject({ ok: false });
    // The message names both causes: a line that is not the frame, or a side of the outline off the cut.
    if (!notBeside.full.ok)
      expect(notBeside.full.reason).toMatch(
        /(left|right) side is not parallel .* leans 0\.4\d mm\): either it is not the printed frame, or the card's edge there was placed off true/,
      );
    // A lean past 0.5 mm is refused beside any cut.
    const steep = measureFrameTwice(turnedCard(0.65), 0, new Set(SIDES));
    expect(steep.full).toMatchObject({ ok: false });
    if (!steep.full.ok) expect(steep.full.reason).toMatch(/not parallel/);
  });

  it("measures the frame behind print in the border, met first on some scan lines or on most", () => {
    // A copyright line 1.2–2 mm in, the border's colour behind it up to the frame at 3 mm (a
    // modern Pokémon card's bottom border), on half the columns (the frame is what most scan
    // lines find) and on 60 % (the print is): read through, the frame is measured at both scales.
    for (const share of [0.5, 0.6]) {
      const card = turnedCard(0, share);
      const twice = measureFrameTwice(card);
      const centering = agreeOnCentering(twice.full, twice.half);
      expect(centering.ok).toBe(true);
      if (!centering.ok || !twice.full.ok) return;
      expect(centering.widths.bottom / MM).toBeCloseTo(3, 1);
      // Print was met first on those columns, and the frame found behind it.
      expect(twice.full.sides.bottom.print?.share).toBeGreaterThan(0.4);
      expect(twice.full.sides.bottom.print?.frameBehind).toBeGreaterThan(0.9);
    }
    const specks = measureFrame(turnedCard(0, 0.1));
    expect(specks.ok).toBe(true);
    if (specks.ok) expect(specks.sides.bottom.width / MM).toBeCloseTo(3, 1);
  });

  it("reads a rule along the top border with a body of nearly the border's colour behind it as the frame, not print", () => {
    // A yellow border 2.5 mm wide all round, a darker rule 0.6 mm wide inside it (a print row's
    // height), then the body's faint yellow out to the art 9 mm in; along 30 % of the top's
    // columns dark print lies right behind the rule (to 5 mm in), so the border's colour follows it
    // on 70 % of them. Every column meets the rule at one depth: a line, not words, which have
    // gaps. Read past as print, the top was refused (print 3.1 mm deep, the line behind it 9 mm in).
    const RULE: [number, number, number] = [170, 140, 50];
    const data = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const depth = Math.min(x, y, W - 1 - x, H - 1 - y);
        let colour = depth < 2.5 * MM ? BORDER : depth < 3.1 * MM ? RULE : depth < 9 * MM ? FAINT : ART;
        if (y >= 3.1 * MM && y < 5 * MM && depth >= 3.1 * MM && x % (10 * MM) < 3 * MM) colour = ART;
        data.set([...colour, 255], (y * W + x) * 4);
      }
    }
    const twice = measureFrameTwice({ width: W, height: H, data });
    expect(twice.full.ok && twice.half.ok).toBe(true);
    if (!twice.full.ok || !twice.half.ok) return;
    // The half copy reads the thin rule up to 0.055 mm short (its art window falls on the body).
    for (const side of SIDES) {
      expect(twice.full.sides[side].width / MM).toBeCloseTo(2.5, 2);
      expect(Math.abs(twice.half.sides[side].width / MM - 2.5)).toBeLessThanOrEqual(0.06);
    }
    expect(agreeOnCentering(twice.full, twice.half).ok).toBe(true);
  });

  it("refuses print along a side rather than read past it (only the top and bottom borders are)", () => {
    // The same print turned onto the left border (vertical text, as on some cards' sides): 60 %
    // of the rows carry it 1.2–2 mm in, the frame 3 mm in.
    const data = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const inFrame = x >= 3 * MM && x < W - 3 * MM && y >= 3 * MM && y < H - 3 * MM;
        const print = x >= 1.2 * MM && x < 2 * MM && y % 40 < 24;
        data.set([...(inFrame || print ? ART : BORDER), 255], (y * W + x) * 4);
      }
    }
    const result = measureFrame({ width: W, height: H, data });
    expect(result).toMatchObject({ ok: false, side: "left" });
    if (!result.ok)
      expect(result.reason).toMatch(/left border holds a broken line 1\.[123] mm in .*print along the side/);
  });

  it("reads through two rows of print the same way, the frame behind both", () => {
    const rows: [number, number][] = [
      [0.8, 1.3],
      [1.7, 2.3],
    ];
    const result = measureFrame(printedBottomBorder(rows, 0.6));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.sides.bottom.width / MM).toBeCloseTo(3, 1);
  });

  it("reads print that begins 0.65 mm from a soft cut as print at half resolution too, the border read on the same strip", () => {
    // A copyright line in two rows 0.65–1.2 and 1.45–2.0 mm in, the cut rising over 0.3 mm. On
    // pixels of 0.25 mm the border's colour settled 0.5 mm further in than on the flat card, on
    // the first row: the scan lines that met it there found print before the frame, and the
    // half-resolution reading refused the side that the flat card's measured.
    const rows: [number, number][] = [
      [0.65, 1.2],
      [1.45, 2.0],
    ];
    const { full, half } = measureFrameTwice(printedBottomBorder(rows, 0.4, 2.9, 3, 0.3));
    expect(full.ok).toBe(true);
    expect(half.ok).toBe(true);
    if (!full.ok || !half.ok) return;
    expect(full.sides.bottom.width / MM).toBeCloseTo(2.9, 1);
    expect(Math.abs(half.sides.bottom.width - full.sides.bottom.width) / MM).toBeLessThan(0.05);
    expect(full.sides.bottom.print).not.toBeNull();
    expect(half.sides.bottom.print).not.toBeNull();
  });

  it("reads print in a bar of the border's colour as deep as a collector bar as a bar, and refuses shallower print deeper than the opposite border", () => {
    // A modern Magic card: a two-row collector line 1.7–4.4 mm in, the frame 6.5 mm in, the top
    // border 2.5 mm. Its bottom border's designed width is not the top's: the side is a bar,
    // measured to the frame behind it, and centering.ts reads the axis past it.
    const bar = measureFrame(collectorBarCard());
    expect(bar).toMatchObject({ ok: true, bar: "bottom" });
    if (bar.ok) {
      expect(bar.sides.bottom.width / MM).toBeCloseTo(6.5, 1);
      expect(bar.sides.top.width / MM).toBeCloseTo(2.5, 1);
    }
    // A copyright line 1.2–2.2 mm in within a 3 mm bottom border, the top border 1.5 mm (a miscut
    // card, or the frame's design): the print lies deeper than the top border by more than
    // 0.5 mm, but neither it nor the frame is as deep as a collector bar's, so it is refused.
    const narrow = measureFrame(printedBottomBorder([[1.2, 2.2]], 0.6, 3, 1.5));
    expect(narrow).toMatchObject({ ok: false, side: "bottom" });
    if (!narrow.ok) {
      expect(narrow.reason).toMatch(
        /print up to 2\.[12] mm in .* against the top border's 1\.5 mm, the line behind it 3\.0 mm in: deeper than the top border, yet no collector bar/,
      );
    }
    // A frame 5.5 mm in behind print reaching only 2.2 mm: not a collector bar either.
    const shallowPrint = measureFrame(printedBottomBorder([[1.2, 2.2]], 0.6, 5.5, 2.5));
    expect(shallowPrint).toMatchObject({ ok: false, side: "bottom" });
    if (!shallowPrint.ok) {
      expect(shallowPrint.reason).toMatch(
        /the line behind it 5\.5 mm in: deeper than the top border, yet no collector bar/,
      );
    }
    // The same print beside a top border of 2 mm is read through: the frame behind it is the
    // side's, and no side is a bar.
    const wide = measureFrame(printedBottomBorder([[1.2, 2.2]], 0.6, 3, 2));
    expect(wide).toMatchObject({ ok: true, bar: null });
    if (wide.ok) expect(wide.sides.bottom.width / MM).toBeCloseTo(3, 1);
  });

  it("reads a bar at the top of a card upside down in the photo, and the axis the other way round", () => {
    const upright = collectorBarCard();
    const row = W * 4;
    const turned = { ...upright, data: new Uint8Array(upright.data.length) };
    for (let y = 0; y < H; y++) turned.data.set(upright.data.subarray((H - 1 - y) * row, (H - y) * row), y * row);
    const { full, half } = measureFrameTwice(turned);
    expect(full).toMatchObject({ ok: true, bar: "top" });
    const centering = agreeOnCentering(full, half);
    expect(centering).toMatchObject({ ok: true, bar: "top" });
    // The bottom border (2.5 mm) against the sides' 3 mm: printed 0.5 mm towards the bottom of the photo.
    if (centering.ok) expect(centering.centering.top_bottom).toBeCloseTo(100 - (2.5 / 6) * 100, 0);
  });

  it("reads a bar whose print is more than rows of letters (an icon 2.7 mm tall on a quarter of the lines)", () => {
    const card = collectorBarCard();
    // The icon: art's colour 1.7–4.4 mm in, over columns 13–23 mm from the left (just over a
    // quarter of the 60 % scanned), too tall for an island of print: print before the frame, on
    // more lines than a plain side allows (MAX_PRINT_BEFORE).
    for (let y = Math.round(H - 4.4 * MM); y < H - 1.7 * MM; y++) {
      for (let x = Math.round(13 * MM); x < 23 * MM; x++) card.data.set([...ART, 255], (y * W + x) * 4);
    }
    const result = measureFrame(card);
    if (!result.ok) throw new Error(result.reason);
    expect(result).toMatchObject({ ok: true, bar: "bottom" });
    if (result.ok) {
      expect(result.sides.bottom.printBefore).toBeGreaterThan(0.25);
      expect(result.sides.bottom.width / MM).toBeCloseTo(6.5, 1);
    }
  });

  it("measures a bar whose frame steps along its foot, but refuses such a step on a plain end", () => {
    // A real modern Magic card's text box is trimmed in another ink along part of its foot: the
    // bar's frame line steps 0.3 mm there, and its line fitted through the step leaned 0.70 mm. A
    // bar's width is in no offset, so its line may lean; a plain end's may not. Here the frame
    // steps 0.4 mm at the middle of the side (a line leaning 0.6 mm).
    const stepped = (end: "top" | "bottom") => {
      const card = collectorBarCard();
      const from = end === "bottom" ? Math.round(H - 6.5 * MM) : Math.round(2.5 * MM);
      const rows = Math.round(0.4 * MM);
      for (let y = end === "bottom" ? from - rows : from; y < (end === "bottom" ? from : from + rows); y++) {
        for (let x = Math.round(W / 2); x < W - 3 * MM; x++) card.data.set([...BORDER, 255], (y * W + x) * 4);
      }
      return measureFrame(card);
    };
    const bar = stepped("bottom");
    expect(bar).toMatchObject({ ok: true, bar: "bottom" });
    if (bar.ok) expect(bar.sides.bottom.lean).toBeGreaterThan(0.5);
    const plain = stepped("top");
    expect(plain).toMatchObject({ ok: false, side: "top" });
    if (!plain.ok)
      expect(plain.reason).toMatch(
        /line found on the top side is not parallel to the card's edge \(it leans 0\.[5-7]\d mm\)/,
      );
  });

  it("refuses a bar beside an end that is not a plain border to read the axis by", () => {
    // Collector bars at both ends (the bottom's rows mirrored onto the top): each end's print is
    // beside the other's, and neither is a plain border measured without print.
    const card = collectorBarCard(6.5);
    const row = W * 4;
    for (let y = 0; y < 10 * MM; y++) {
      card.data.copyWithin(y * row, (H - 1 - y) * row, (H - y) * row);
    }
    const result = measureFrame(card);
    expect(result).toMatchObject({ ok: false });
    if (!result.ok) expect(result.reason).toMatch(/border is not a plain one to compare it with/);
  });

  it("measures a frame line broken where the art beside it has the border's colour, though a second line lies behind", () => {
    // The frame printed on 65 % of the scanned rows; on the rest the first step is the art's own
    // edge 5 mm in. Behind the frame is art, not the border's colour: the frame is measured.
    const result = measureFrame(artEdgeCard(0.65));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.sides.left.width / MM).toBeCloseTo(3, 1);
    expect(result.sides.left.print).toBeNull();
  });

  it("measures the frame line that most scan lines find, not an average with the art behind it", () => {
    // Scan lines cover rows 20–80 % of the side; the frame line is printed on 55 % of them.
    const result = measureFrame(flatCard(Math.round(H * (0.2 + 0.6 * 0.55))));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.sides.left.width / MM).toBeCloseTo(3, 1);
    expect(result.sides.left.lean).toBeLessThan(0.05);
    expect(result.sides.right.width / MM).toBeCloseTo(3, 1);
  });

  it("accepts a frame line found on 45 % of the side when those lines agree exactly", () => {
    const result = measureFrame(flatCard(Math.round(H * (0.2 + 0.6 * 0.45))));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.sides.left.width / MM).toBeCloseTo(3, 1);
  });

  it("does not read a side again at the faint threshold where its border strip scatters more than a plain border's, but from median profiles", () => {
    // The card just above, its left border and body lit from 40 levels darker at the top to 40
    // lighter at the bottom: the body stays 12.2 levels off the border everywhere (read again, the
    // side would be measured), but the strip scatters about the side's one colour by more than
    // the 24 levels a plain border is allowed, as a border with print in it does. Such a side is
    // left as the step threshold read it: the limit is cautious, and light falling off along a
    // side keeps it from the faint threshold too. Its stretches' median profiles, each against
    // its own border colour, find the body's step all along the side (frame-median.ts): read so
    // (since stop 115), the frame is measured where it is.
    const card = flatCard(Math.round(H * (0.2 + 0.6 * 0.3)));
    for (let y = 0; y < H; y++) {
      const light = Math.round(-40 + (80 * y) / (H - 1));
      for (let x = 0; x < 11 * MM; x++) {
        const o = (y * W + x) * 4;
        for (let c = 0; c < 3; c++) card.data[o + c] = Math.max(0, Math.min(255, (card.data[o + c] ?? 0) + light));
      }
    }
    const result = measureFrame(card);
    if (!result.ok) throw new Error(result.reason);
    for (const side of SIDES) expect(result.sides[side].width / MM).toBeCloseTo(3, 1);
  });

  it("refuses a side where no depth is shared by 40 % of the scan lines", () => {
    // The frame line on 30 % of the scan lines, the text's scattered starts on the rest, and the
    // body too close to the border's colour to be told from it at any threshold.
    const result = measureFrame(flatCard(Math.round(H * (0.2 + 0.6 * 0.3)), FAINTER));
    expect(result).toMatchObject({ ok: false, side: "left" });
    if (!result.ok) expect(result.reason).toMatch(/left side/);
  });

  it("reads a side whose frame the step threshold leaves unclear again at the faint threshold, and measures the faint frame", () => {
    // The same card with the body 12.2 levels off the border (under the step threshold of 24):
    // at that threshold alone no depth is shared by 40 % of the scan lines (the card was refused,
    // as above); read again at 3 σ (at least 12 levels), the body's edge is a clear line at 3 mm.
    for (const split of [0.3, 0]) {
      const result = measureFrame(flatCard(Math.round(H * (0.2 + 0.6 * split))));
      expect(result.ok).toBe(true);
      if (!result.ok) continue;
      expect(result.sides.left.width / MM).toBeCloseTo(3, 1);
      expect(result.sides.left.agreement).toBeGreaterThan(0.9);
      expect(result.sides.right.width / MM).toBeCloseTo(3, 1);
    }
  });

  it("reads a collector bar past a faint straight line in front of its print, and refuses that line on a side that is no bar", () => {
    // The collector bar's card with a faint band (the body's yellow, 12.2 levels off the border's)
    // 1.0–1.4 mm in across the bottom border: on a real photo of a modern Magic card, a straight
    // shade 1.4 mm in, before the bar's print. The bar's line is in no offset, so the faint line
    // moves no centering: the side is read as a bar.
    const barred = measureFrame(withFaintBand(collectorBarCard(), "bottom", 1.0, 1.4));
    expect(barred).toMatchObject({ ok: true, bar: "bottom" });
    if (barred.ok) expect(barred.sides.bottom.width / MM).toBeCloseTo(6.5, 1);
    // The same band along the left side, which is no bar: the frame may be that line.
    const refused = measureFrame(withFaintBand(collectorBarCard(), "left", 1.0, 1.4));
    expect(refused).toMatchObject({ ok: false, side: "left" });
    if (!refused.ok) expect(refused.reason).toMatch(/the left border shows a faint straight line 1\.\d mm in/);
  });

  it("refuses a side whose faint frame line lies before the art's edge, rather than measure the art's edge", () => {
    // A yellow body inside the yellow border from 3 mm in (18.5 levels off the border's colour, under
    // the step threshold of 24), and the art's edge at 5 mm: measured at the usual threshold alone,
    // the left border read 5 mm.
    const body: [number, number, number] = [220, 195, 80];
    const data = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const inBody = x >= 3 * MM && x < W - 3 * MM && y >= 3 * MM && y < H - 3 * MM;
        const inArt = x >= 5 * MM && x < W - 5 * MM && y >= 5 * MM && y < H - 5 * MM;
        data.set([...(inArt ? ART : inBody ? body : BORDER), 255], (y * W + x) * 4);
      }
    }
    const result = measureFrame({ width: W, height: H, data });
    expect(result).toMatchObject({ ok: false, side: "left" });
    if (!result.ok) {
      expect(result.reason).toContain("a faint straight line 3.0 mm in, before the line found 5.0 mm in");
    }
    // With the body a clear step off the border, the frame is measured at 3 mm.
    const clear = { width: W, height: H, data: data.slice() };
    for (let o = 0; o < clear.data.length; o += 4) {
      if (clear.data[o] === body[0] && clear.data[o + 1] === body[1]) clear.data.set([120, 160, 90], o);
    }
    const measured = measureFrame(clear);
    expect(measured.ok).toBe(true);
    if (measured.ok) for (const side of SIDES) expect(measured.sides[side].width / MM).toBeCloseTo(3, 1);
  });

  it("says a side has no plain border when the art runs to the cut (a full-art card), not only that no frame was found", () => {
    // 3 mm yellow borders, except on the left, where the art (every pixel its own colour) runs to the cut.
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const fullArt = flatCard(H);
    const bare = flatCard(H);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const o = (y * W + x) * 4;
        if (x < 3 * MM && y >= 3 * MM && y < H - 3 * MM) {
          fullArt.data.set([random() * 255, random() * 255, random() * 255], o);
        }
        // A plain border with nothing printed inside it on the left: no frame, but a border.
        if (x < W / 2 && y >= 3 * MM && y < H - 3 * MM) bare.data.set(BORDER, o);
      }
    }
    const result = measureFrame(fullArt);
    expect(result).toMatchObject({ ok: false, side: "left" });
    if (!result.ok)
      expect(result.reason).toMatch(/^the card shows no plain border along its left edge: .*full-art card/);
    expect(measureFrame(bare)).toEqual({
      ok: false,
      side: "left",
      reason: "the printed frame could not be found on the left side",
      unclear: true,
    });
  });

  it("refuses a card whose right and bottom borders read another ink: a white card beneath it, 1.5 mm out", () => {
    const result = measureFrame(bandedCard([236, 236, 232], 1));
    expect(result).toMatchObject({ ok: false, side: "right" });
    if (!result.ok) {
      expect(result.reason).toContain(
        "the left border reads rgb(232, 205, 90) and the right border rgb(236, 236, 232)",
      );
      expect(result.reason).toContain("another card beneath it");
    }
  });

  it("refuses a black band the same way, and measures a card whose right and bottom borders lie in shadow", () => {
    expect(measureFrame(bandedCard([18, 18, 20], 1))).toMatchObject({ ok: false, side: "right" });
    const shaded = measureFrame(bandedCard(null, 0.45));
    expect(shaded.ok).toBe(true);
    if (shaded.ok) {
      for (const side of SIDES) expect(shaded.sides[side].width / MM).toBeCloseTo(3, 1);
    }
  });
});

describe("a thumb over the middle of the bottom border", () => {
  it("measures the bottom border where it shows, past a thumb 20 mm across", () => {
    // Over the middle 60 % of the side (37.8 mm) the thumb covers 52 % of the scan lines, and the
    // border's colour read over them all is no longer blue: read on the other 48 %, which show the
    // blue the other three sides show.
    const result = measureFrame(thumbedCard(20));
    expect(result.ok).toBe(true);
    if (result.ok) {
      for (const side of SIDES) expect(result.sides[side].width / MM).toBeCloseTo(3, 1);
    }
  });

  it("measures a drawn red-bordered card held by a thumb over the middle of its bottom edge", () => {
    // Seed 4040's case 12 on grass, the thumb as the drawn sweeps hold it: its bottom border read
    // over every scan line was rgb(223, 82, 69), the red's and the skin's blend, and refused.
    const c = realisticScenes({ art: artPhoto, table: tablePhoto }, 5, 4040)[12] as RealisticCase;
    const scene = { ...c.scene, occluder: { x: 0, y: 46, rx: 10, ry: 8, color: [224, 172, 140] as const } };
    const { offBy } = measuredFront(scene, c.quality);
    expect(offBy.leftRight).toBeLessThan(0.5);
    expect(offBy.topBottom).toBeLessThan(0.5);
  });

  it("measures a drawn card with a bevelled rim held by a thumb over its left border", () => {
    // Seed 5050's case 11, its rim drawn as the sweeps draw it, a thumb over the middle of the left
    // side: a third of the left rim's scan lines stepped out of it off the line the others find
    // ("the rim does not end at one line"). Read where the rim shows the other sides' ink, the rim
    // ends at one line.
    const plain = realisticScenes({ art: artPhoto, table: tablePhoto }, 5, 5050)[11] as RealisticCase;
    const c = withBevelledRim(plain, 11);
    const scene = { ...c.scene, occluder: { x: -33, y: 5, rx: 8, ry: 11, color: [224, 172, 140] as const } };
    const { offBy } = measuredFront(scene, c.quality);
    expect(offBy.leftRight).toBeLessThan(0.5);
    expect(offBy.topBottom).toBeLessThan(0.5);
  });

  it("still refuses a thumb 30 mm across, the border shown on under 40 % of the side", () => {
    // Over 79 % of its scan lines the thumb hides the frame: the side is not clear enough.
    expect(measureFrame(thumbedCard(30))).toEqual({
      ok: false,
      side: "bottom",
      reason: "the printed frame on the bottom side is not clear enough to measure",
      unclear: true,
    });
  });
});

/**
 * A flat card with 3 mm blue borders round red art and a thumb (skin, rgb(224, 172, 140)) over the
 * middle of its bottom edge: an ellipse `acrossMm` wide at the card's edge, reaching 6 mm in. (Skin
 * beside a yellow border is one ink in two lights by chromaticity; beside blue it is not.)
 */
function thumbedCard(acrossMm: number): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  // An ellipse 8 mm tall centred 2 mm past the edge, as wide as asked where it crosses the edge.
  const ry = 8 * MM;
  const cy = H + 2 * MM;
  const rx = (acrossMm * MM) / 2 / Math.sqrt(1 - (2 * MM) ** 2 / ry ** 2);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inFrame = x >= 3 * MM && x < W - 3 * MM && y >= 3 * MM && y < H - 3 * MM;
      const onThumb = ((x + 0.5 - W / 2) / rx) ** 2 + ((y + 0.5 - cy) / ry) ** 2 <= 1;
      const colour = onThumb ? [224, 172, 140] : inFrame ? [200, 60, 40] : [19, 77, 154];
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

/**
 * A flat card with 3 mm yellow borders. With `band`, that colour fills the outer 1.5 mm on the
 * right and bottom, and the card with its borders lies inside the rest (another card beneath it,
 * offset, taken into the outline). With `shade` below 1, the right and bottom 6 mm are that much
 * darker (a shadow across them).
 */
function bandedCard(band: [number, number, number] | null, shade: number): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  const width = band ? W - 1.5 * MM : W;
  const height = band ? H - 1.5 * MM : H;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inFrame = x >= 3 * MM && x < width - 3 * MM && y >= 3 * MM && y < height - 3 * MM;
      let colour: readonly number[] = band && (x >= width || y >= height) ? band : inFrame ? ART : BORDER;
      if (x >= W - 6 * MM || y >= H - 6 * MM) colour = colour.map((v) => Math.round(v * shade));
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

const BODY: [number, number, number] = [226, 222, 218]; // a vintage card's light body inside its yellow border

/**
 * A flat card with a yellow border (3 mm left and top, 3.5 mm right and bottom) and a flat light
 * body inside, its step blurred as a soft phone photo blurs it: a Gaussian whose 10–90 % rise is
 * `blurMm` (the cut's own rise in the same photo), as on a vintage Pokémon card shot at 1080p.
 */
function blurredCard(blurMm: number, bodyRamp = false): RgbaImage {
  const sigma = (blurMm / 2.563) * MM;
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inside = Math.min(x + 0.5 - 3 * MM, W - 3.5 * MM - x - 0.5, y + 0.5 - 3 * MM, H - 3.5 * MM - y - 0.5);
      const s = normalCdf(inside / sigma);
      // With `bodyRamp`, the inside keeps changing for 2 mm past the step, toward the art's blue
      // (art, not flat ink).
      const t = bodyRamp ? Math.min(1, Math.max(0, inside / (2 * MM))) : 0;
      const colour = BORDER.map((v, i) => {
        const body = (BODY[i] ?? 0) + ((ART[i] ?? 0) - (BODY[i] ?? 0)) * t;
        return Math.round(v + (body - v) * s);
      });
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

/**
 * A flat card with 3 mm yellow borders around a pale body 43 levels from the border's colour (a
 * text box), mottled ±2, lit from the top: every pixel's brightness falls from 100 % on the top
 * row to 65 % on the bottom one, as under a phone held over the card's lower half. Over the
 * scanned 60 % of the left and right sides the border's colour changes by 45 levels, about its
 * step to the body: read against one colour for the whole side, that change is noise enough to
 * hide the step.
 */
function unevenlyLitCard(): RgbaImage {
  const PALE: [number, number, number] = [226, 190, 130];
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    const light = 1 - (0.35 * y) / (H - 1);
    for (let x = 0; x < W; x++) {
      const inFrame = x >= 3 * MM && x < W - 3 * MM && y >= 3 * MM && y < H - 3 * MM;
      const mottle = (Math.imul(x * 73856093 + y * 19349663, 0x9e3779b1) >>> 30) - 2;
      const colour = (inFrame ? PALE : BORDER).map((v) => Math.round(v * light + mottle));
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

describe("a border under light that falls off along the card", () => {
  it("compares each scan line with the border's colour where it runs, so the frame's step is not lost in the fall-off", () => {
    const result = measureFrameTwice(unevenlyLitCard());
    for (const scale of [result.full, result.half]) {
      expect(scale.ok).toBe(true);
      if (!scale.ok) continue;
      for (const side of SIDES) {
        expect(scale.sides[side].width / MM).toBeCloseTo(3, 1);
      }
    }
  });
});

describe("a frame step spread by blur", () => {
  /** The full and half scales' readings (the three-quarter copy's is read only when asked). */
  const twoScales = (card: RgbaImage, blurMm: number) => {
    const { full, half } = measureFrameTwice(card, blurMm);
    return { full, half };
  };
  const truth = { left: 3, right: 3.5, top: 3, bottom: 3.5 };
  const mm = (result: ReturnType<typeof measureFrame>) =>
    result.ok ? Object.fromEntries(Object.entries(result.sides).map(([side, m]) => [side, m.width / MM])) : result;

  it("is read at the step's middle at both scales when the cut's blur is known", () => {
    const { full, half } = measureFrameTwice(blurredCard(0.8), 0.8);
    for (const result of [full, half]) {
      const widths = mm(result) as Record<keyof typeof truth, number>;
      for (const side of SIDES) expect(Math.abs(widths[side] - truth[side])).toBeLessThan(0.02);
    }
    const agreed = agreeOnCentering(full, half);
    expect(agreed.ok && agreed.agreement).toBeLessThan(0.05);
  });

  it("falls short of the step's middle at full resolution when read with the fixed window (no blur given)", () => {
    // The window reads the body's level part-way up the ramp: every border 0.09 mm short at full
    // resolution, 0.01 mm at half, the two scales 0.1 points apart on this card (1.4 points and
    // 0.23 mm on a vintage Pokémon card photographed at 1080p, whose step rose over 1 mm).
    const { full, half } = measureFrameTwice(blurredCard(0.8), 0);
    const widths = mm(full) as Record<keyof typeof truth, number>;
    for (const side of SIDES) expect(truth[side] - widths[side]).toBeGreaterThan(0.06);
    const agreed = agreeOnCentering(full, half);
    expect(agreed.ok && agreed.agreement).toBeGreaterThan(0.05);
  });

  it("leaves a step into art that keeps changing to the fixed window (no plateau to read)", () => {
    const card = blurredCard(0.8, true);
    expect(twoScales(card, 0.8)).toEqual(twoScales(card, 0));
  });

  it("leaves a sharp step to the fixed window, and follows a ramp only as far as the cut's blur reaches", () => {
    expect(twoScales(blurredCard(0.3), 0.3)).toEqual(twoScales(blurredCard(0.3), 0));
    // A step spread over 0.8 mm in a photo whose cut rises over 0.3 mm is not the cut's blur
    // (print graded from one colour to another): the window reads it.
    expect(twoScales(blurredCard(0.8), 0.3)).toEqual(twoScales(blurredCard(0.8), 0));
  });
});

describe("the blur a face's borders allow", () => {
  it("is a third of the mean border on the thinner axis, at most 0.85 mm", () => {
    const px = (mmWidth: number) => mmWidth * MM;
    // Thin full-bleed borders, 1.2 mm a side: 0.4 mm.
    expect(edgeBlurLimitMm({ left: px(1.2), right: px(1.2), top: px(1.3), bottom: px(1.5) })).toBeCloseTo(0.4, 5);
    // A vintage card's 3 mm borders: 0.85 mm, the absolute limit (a third would be 1 mm).
    expect(edgeBlurLimitMm({ left: px(3), right: px(3), top: px(3.5), bottom: px(3.5) })).toBe(0.85);
  });
});

/**
 * The flat card of a photo whose top cut bowed out past the chord between its corners by `bowMm`
 * at its middle (a card that does not lie flat): the flat card's top edge is that chord, so the
 * cut lies outside it by `bowMm` × 4t(1 − t) at a share t along the side, and the frame, printed
 * `border` mm in from the cut and bowing with it, lies that much nearer the flat card's edge.
 */
function bowedTopCard(bowMm: number, border = 3): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const t = (x + 0.5) / W;
      const top = (border - bowMm * 4 * t * (1 - t)) * MM;
      // The share of the pixel below the frame's top edge, as a photo's pixel takes in both sides.
      const below = x >= 3 * MM && x < W - 3 * MM && y < H - 3 * MM ? Math.min(1, Math.max(0, y + 1 - top)) : 0;
      const colour = ART.map((v, i) => Math.round(v * below + (BORDER[i] ?? 0) * (1 - below)));
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

describe("a cut that bows out past the flat card's edge", () => {
  it("reads each border from the cut beside its scan line, so a frame bowing with the cut is measured at its width", () => {
    // Bowed 0.5 mm at the middle (1.0 % of the 63 mm side, a creased card's on a real photo).
    const flat = bowedTopCard(0.5);
    const bow = 0.5 / 63;
    const { full, half } = measureFrameTwice(flat, 0, new Set(), { top: bow });
    expect(full.ok && half.ok).toBe(true);
    if (!full.ok || !half.ok) return;
    expect(full.sides.top.width / MM).toBeCloseTo(3, 1);
    expect(half.sides.top.width / MM).toBeCloseTo(3, 1);
    expect(full.sides.top.bow).toBe(bow);
    // The frame's own curve, read from the flat card's edge, is the cut's.
    expect(full.sides.top.frameBow).toBeCloseTo(bow, 3);
    // The other sides, straight, are read as before.
    expect(full.sides.bottom.width / MM).toBeCloseTo(3, 1);
    // The wear readings take the top border only as far as the flat card shows it along the whole
    // side (3 mm less the 0.5 mm bow at the middle), the other sides whole.
    const within = bordersWithinChord(full.sides, flat);
    expect(within.top / MM).toBeCloseTo(2.5, 1);
    expect(within.bottom).toBe(full.sides.bottom.width);
    // Read from the flat card's straight edge instead, the bowed frame is no line: refused, or
    // measured short of the border by most of the bow.
    const asChord = measureFrame(flat);
    if (asChord.ok) expect(asChord.sides.top.width / MM).toBeLessThan(2.75);
  });

  it("refuses a side whose cut bows while its printed frame runs straight: the curve is no bend of the card", () => {
    // A straight card whose top cut was traced along a shadow's outer edge over its middle: a
    // curve 1.2 mm out at the middle (as on a blurred real photo of a black-bordered card on white
    // paper), the frame 3 mm in from the flat card's edge all along.
    const flat = bowedTopCard(0);
    const { full } = measureFrameTwice(flat, 0, new Set(), { top: 1.2 / 63 });
    expect(full.ok).toBe(false);
    if (full.ok) return;
    expect(full.side).toBe("top");
    expect(full.reason).toContain(
      "top edge bows 1.20 mm out from a straight line, but the printed frame beside it not at all",
    );
    // Half as far out, the frame bowing with it by half as much: a bend the frame follows is read.
    const followed = measureFrameTwice(bowedTopCard(0.3), 0, new Set(), { top: 0.6 / 63 }).full;
    expect(followed).toMatchObject({ ok: true });
    if (followed.ok) {
      const share = followed.sides.top.frameBow / followed.sides.top.bow;
      expect(share).toBeGreaterThan(0.3);
      expect(share).toBeLessThan(0.7);
    }
    // A bow within what the frame's own curve can be measured to (0.2 mm) is read from the curve.
    expect(measureFrameTwice(bowedTopCard(0), 0, new Set(), { top: 0.2 / 63 }).full).toMatchObject({ ok: true });
  });
});

/**
 * A flat card with a pink border whose frame is a dark rule `ruleMm` wide with a tan body behind
 * it, nearer the border's colour than the rule is (a Baseball Heroes card's frame), the rule's
 * outer edge at `edgeMm` on every side; every edge is softened over about a pixel, as a photo's is.
 */
function ruledCard(edgeMm: number, ruleMm: number): RgbaImage {
  const PINK: [number, number, number] = [214, 168, 200];
  const RULE: [number, number, number] = [40, 28, 40];
  const TAN: [number, number, number] = [196, 150, 128];
  const sigma = 0.5;
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inside = Math.min(x + 0.5, W - x - 0.5, y + 0.5, H - y - 0.5) - edgeMm * MM;
      const rule = normalCdf(inside / sigma);
      const body = normalCdf((inside - ruleMm * MM) / sigma);
      const colour = PINK.map((v, i) => {
        const ruled = v + ((RULE[i] ?? 0) - v) * rule;
        return Math.round(ruled + ((TAN[i] ?? 0) - ruled) * body);
      });
      data.set([...colour, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

describe("a frame that is a thin dark rule with a lighter body behind it", () => {
  it("is read at the rule's edge at both scales: the half copy's window ends where the body begins", () => {
    // The half copy's window (0.5–1.1 mm past the step) reaches past a 0.7 mm rule onto the tan
    // body: averaged in, the body lowered the step's level, and the half copy placed the frame
    // 0.05–0.06 mm short of the flat card (a real photo of such a card, 0.8 points apart).
    for (const edgeMm of [2.81, 2.87, 2.94]) {
      const { full, half } = measureFrameTwice(ruledCard(edgeMm, 0.7));
      for (const result of [full, half]) {
        expect(result.ok).toBe(true);
        if (!result.ok) continue;
        for (const side of SIDES) expect(Math.abs(result.sides[side].width / MM - edgeMm)).toBeLessThan(0.03);
      }
    }
  });
});

/**
 * A black-bordered card (3 mm borders, a cream body) as the flat card reads it: `bands` maps a side
 * to the lumas of its first flat-card pixels inside the cut (a grey band, or a blur's ramp), the
 * black beginning past them.
 */
function blackBorderedCard(bands: Partial<Record<"left" | "right" | "top" | "bottom", number[]>>): RgbaImage {
  const BLACK = 18;
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inFrame = x >= 3 * MM && x < W - 3 * MM && y >= 3 * MM && y < H - 3 * MM;
      let value = inFrame ? 205 : BLACK;
      const depths = { left: x, right: W - 1 - x, top: y, bottom: H - 1 - y };
      for (const [side, lumas] of Object.entries(bands)) {
        const depth = depths[side as keyof typeof depths];
        if (depth < lumas.length) value = lumas[depth] ?? value;
      }
      data.set([value, value, value + 2, 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

describe("a grey band along one cut beside a black border, on a light table", () => {
  const TABLE = 190;
  const full = (card: RgbaImage) => measureFrameTwice(card, 0, new Set(), {}, TABLE).full;

  it("refuses the side: the band is the card's edge seen at a slant, its shadow or a strip of its face, not its border", () => {
    // A held-out real photo's left cut: a 0.4 mm band at luma 51 and 42, then the black.
    const result = full(blackBorderedCard({ left: [70, 51, 42, 23] }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.side).toBe("left");
    expect(result.reason).toContain("grey band along its cut");
  });

  it("measures the card when no band is there, when the band runs along both opposite cuts, or on a dark table", () => {
    for (const card of [
      blackBorderedCard({}),
      blackBorderedCard({ left: [70, 51, 42, 23], right: [70, 51, 42, 23] }),
    ]) {
      expect(full(card).ok).toBe(true);
    }
    expect(measureFrameTwice(blackBorderedCard({ left: [70, 51, 42, 23] }), 0, new Set(), {}, 60).full.ok).toBe(true);
  });

  it("measures a cut blurred into a ramp on one side (its black reached steadily, not past a step)", () => {
    // A real Flesh and Blood card's soft right cut on white paper: 86, 56, 39, 28, 21, 16, then its black.
    expect(full(blackBorderedCard({ right: [86, 56, 39, 28, 21, 16] })).ok).toBe(true);
  });
});

/**
 * A black-bordered card drawn at twice the flat card's resolution: 3 mm borders, and along the
 * right and top a darker rim of the frame's red 0.375 mm wide between the border and the frame's
 * body (a modern Magic card's bevel), the body lightly textured. Halved, it is the flat card.
 */
function rimmedBlackCard(): RgbaImage {
  return cardAtTwice(({ depth, nearest, x, y }) => {
    const rimmed = nearest === "right" || nearest === "top";
    const level = depth < 3 ? 24 : rimmed && depth < 3.375 ? 57 : 100 + (((x * 7 + y * 13) % 11) - 5);
    return [level * 1.1, level * 0.8, level * 0.6].map(Math.round) as [number, number, number];
  });
}

/**
 * A flat card drawn at twice the flat card's resolution, each pixel painted from its depth (mm
 * from the nearest cut), which side that cut is, and its place.
 */
function cardAtTwice(
  paint: (at: { depth: number; nearest: (typeof SIDES)[number]; x: number; y: number }) => [number, number, number],
): RgbaImage {
  const times = 2;
  const width = W * times;
  const height = H * times;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const across = (x + 0.5) / (MM * times);
      const down = (y + 0.5) / (MM * times);
      const depth = Math.min(across, 63 - across, down, 88 - down);
      const nearest = depth === across ? "left" : depth === 63 - across ? "right" : depth === down ? "top" : "bottom";
      data.set([...paint({ depth, nearest, x, y }), 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

describe("a frame's rim finer than the half copy's pixels", () => {
  it("is settled by a reading at twice the resolution, which the half and three-quarter copies cannot give", () => {
    const double = rimmedBlackCard();
    const flat = downscaleToFit(double, H);
    expect(flat.width).toBe(W);
    const frames = measureFrameTwice(flat, 0.2);
    // The half copy merges the rim into the border on the right and the top: a point apart.
    const without = agreeAtThreeScales(frames.full, frames.half, frames.threeQuarter, 0.2);
    expect(without).toMatchObject({ ok: false, side: "right" });
    const finer = measureFrameDouble(double, 0.2);
    expect(finer.ok).toBe(true);
    if (!finer.ok) return;
    // The finer reading places every frame line on its step, 3 mm in.
    for (const width of Object.values(widthsOf(finer.sides))) expect(width / MM).toBeCloseTo(3, 1);
    const settled = agreeAtThreeScales(frames.full, frames.half, frames.threeQuarter, 0.2, () => finer);
    expect(settled.ok).toBe(true);
    if (!settled.ok) return;
    // The flat card's reading stands, within half a point of the card as drawn.
    const truth = faceCentering({ left: 3 * MM, right: 3 * MM, top: 3 * MM, bottom: 3 * MM });
    expect(Math.abs(settled.centering.left_right - truth.left_right)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(settled.centering.top_bottom - truth.top_bottom)).toBeLessThanOrEqual(0.5);
    expect(settled.agreement).toBeGreaterThan(0.5);
  });
});

/**
 * A white-bordered card drawn at twice the flat card's resolution, its art 3 mm in on every side
 * except the right, where the frame is a dark rule 0.45 mm wide from 3 mm in, 0.3 mm of the
 * border's white behind it, and the art from 3.75 mm (a Topps Heritage card's art box). Halved,
 * it is the flat card.
 */
function ruledWhiteCard(): RgbaImage {
  const WHITE: [number, number, number] = [212, 208, 204];
  return cardAtTwice(({ depth, nearest, x, y }) => {
    const art: [number, number, number] = [70 + ((x * 7 + y * 13) % 9), 90, 150];
    if (depth < 3) return WHITE;
    if (nearest !== "right") return art;
    return depth < 3.45 ? [40, 38, 36] : depth < 3.75 ? WHITE : art;
  });
}

describe("a frame's rule finer than the half copy's pixels, a second line behind it", () => {
  const double = ruledWhiteCard();
  const flat = downscaleToFit(double, H);
  const frames = measureFrameTwice(flat, 0.2);
  const finer = measureFrameDouble(double, 0.2);
  const ruleAt = (side: (typeof SIDES)[number], from: number, to: number) => ruleBefore(flat, side, from, to);

  it("is read at the rule by the flat card and the copies at three quarters and twice its resolution, at the line behind by the half copy", () => {
    expect(frames.full.ok && frames.half.ok && finer.ok).toBe(true);
    if (!frames.full.ok || !frames.half.ok || !finer.ok) return;
    const quarter = frames.threeQuarter();
    expect(quarter.ok).toBe(true);
    if (!quarter.ok) return;
    expect(widthsOf(frames.full.sides).right / MM).toBeCloseTo(3, 1);
    expect(widthsOf(quarter.sides).right / MM).toBeCloseTo(3, 1);
    expect(widthsOf(finer.sides).right / MM).toBeCloseTo(3, 1);
    expect(widthsOf(frames.half.sides).right / MM).toBeCloseTo(3.75, 1);
    // The flat card's profile shows the rule, the border's white behind it, then the art.
    expect(ruleAt("right", widthsOf(frames.full.sides).right, widthsOf(frames.half.sides).right)).toBe(true);
    // A plain step into the art has no gap behind it.
    expect(ruleAt("left", 3 * MM, 3.75 * MM)).toBe(false);
  });

  it("stands at the rule when the three finer readings agree, and is refused without the finest", () => {
    // Without the rule's evidence the two scales are over 5 points apart: refused, as before.
    const without = agreeAtThreeScales(frames.full, frames.half, frames.threeQuarter, 0.2, () => finer);
    expect(without).toMatchObject({ ok: false, side: "right" });
    const settled = agreeAtThreeScales(frames.full, frames.half, frames.threeQuarter, 0.2, () => finer, ruleAt);
    expect(settled.ok).toBe(true);
    if (!settled.ok) return;
    const truth = faceCentering({ left: 3 * MM, right: 3 * MM, top: 3 * MM, bottom: 3 * MM });
    expect(Math.abs(settled.centering.left_right - truth.left_right)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(settled.centering.top_bottom - truth.top_bottom)).toBeLessThanOrEqual(0.5);
    // With no reading finer than the flat card (a photo with fewer pixels on the card), or in a soft photo, it is refused.
    expect(agreeAtThreeScales(frames.full, frames.half, frames.threeQuarter, 0.2, () => null, ruleAt).ok).toBe(false);
    expect(agreeAtThreeScales(frames.full, frames.half, frames.threeQuarter, 0.6, () => finer, ruleAt).ok).toBe(false);
  });
});

/**
 * A black-bordered card drawn at twice the flat card's resolution, a tan body 3 mm in on every
 * side; along the top the frame's step is printed as a ramp (`ramp`: from the black to the body
 * over 0.8 mm, its middle 3 mm in, as a modern Magic card's bevelled frame) or in two stages (`two`:
 * a dark brown band 2.8–3.2 mm in, then the body). Halved, it is the flat card.
 */
function softFramedBlackCard(top: "ramp" | "two"): RgbaImage {
  const BLACK: [number, number, number] = [22, 22, 24];
  const TAN: [number, number, number] = [196, 150, 96];
  return cardAtTwice(({ depth, nearest, x, y }) => {
    const mottle = ((x * 7 + y * 13) % 5) - 2;
    const body = TAN.map((v) => v + mottle) as [number, number, number];
    if (nearest !== "top") return depth < 3 ? BLACK : body;
    if (top === "two") return depth < 2.8 ? BLACK : depth < 3.2 ? [70, 50, 40] : body;
    const t = Math.min(1, Math.max(0, (depth - 2.6) / 0.8));
    return BLACK.map((v, i) => Math.round(v + ((body[i] ?? 0) - v) * t)) as [number, number, number];
  });
}

describe("a frame's step printed softer than the cut", () => {
  const read = (top: "ramp" | "two") => {
    const double = softFramedBlackCard(top);
    const frames = measureFrameTwice(downscaleToFit(double, H), 0.2);
    const finer = () => measureFrameDouble(double, 0.2);
    const soft = (sides: readonly (typeof SIDES)[number][]) => ({
      full: frames.softFull(sides),
      double: () => measureFrameDouble(double, 0.2, undefined, undefined, undefined, sides),
    });
    return { frames, finer, soft };
  };
  const top = (result: ReturnType<typeof measureFrame>) => (result.ok ? widthsOf(result.sides).top / MM : Number.NaN);

  it("is read part-way up by the flat card's window and near its middle by the half copy's", () => {
    const { frames, finer } = read("ramp");
    expect(top(frames.full)).toBeLessThan(2.9);
    expect(Math.abs(top(frames.half) - 3)).toBeLessThan(0.02);
    expect(top(finer())).toBeLessThan(2.9);
    expect(agreeAtThreeScales(frames.full, frames.half, frames.threeQuarter, 0.2, finer)).toMatchObject({
      ok: false,
      side: "top",
    });
  });

  it("stands when the flat card and the finer reading, each step followed to where it levels off, land where the half copy read it", () => {
    const { frames, finer, soft } = read("ramp");
    expect(Math.abs(top(frames.softFull(["top"])) - 3)).toBeLessThan(0.02);
    const settled = agreeAtThreeScales(frames.full, frames.half, frames.threeQuarter, 0.2, finer, undefined, soft);
    expect(settled.ok).toBe(true);
    if (!settled.ok) return;
    const truth = faceCentering({ left: 3 * MM, right: 3 * MM, top: 3 * MM, bottom: 3 * MM });
    expect(Math.abs(settled.centering.left_right - truth.left_right)).toBeLessThanOrEqual(0.1);
    expect(Math.abs(settled.centering.top_bottom - truth.top_bottom)).toBeLessThanOrEqual(0.1);
    // In a soft photo the half copy's window says nothing of where a step spread by blur is: refused.
    expect(agreeAtThreeScales(frames.full, frames.half, frames.threeQuarter, 0.6, finer, undefined, soft).ok).toBe(
      false,
    );
  });

  it("takes a finer reading refused on a collector bar's side as none, and one refused on another side as a veto", () => {
    const { frames, soft } = read("ramp");
    // The same card read with its bottom as a bar at every scale (a bar's own line does not enter
    // the centering): the finer reading refused there says nothing of the top.
    const barred = (result: ReturnType<typeof measureFrame>) =>
      result.ok ? { ...result, bar: "bottom" as const } : result;
    const refusedAt = (side: (typeof SIDES)[number]) => () => ({
      ok: false as const,
      side,
      reason: "print before the line",
    });
    const withRefusal = (side: (typeof SIDES)[number]) => (sides: readonly (typeof SIDES)[number][]) => ({
      full: barred(soft(sides).full),
      double: refusedAt(side),
    });
    const settle = (side: (typeof SIDES)[number]) =>
      agreeAtThreeScales(
        barred(frames.full),
        barred(frames.half),
        () => barred(frames.threeQuarter()),
        0.2,
        () => null,
        undefined,
        withRefusal(side),
      );
    expect(settle("bottom").ok).toBe(true);
    expect(settle("left")).toMatchObject({ ok: false, side: "top" });
  });

  it("stays refused where the step is two steps (a dark band before a lighter body): read again, it does not move", () => {
    const { frames, finer, soft } = read("two");
    expect(top(frames.softFull(["top"]))).toBeCloseTo(top(frames.full), 3);
    expect(
      agreeAtThreeScales(frames.full, frames.half, frames.threeQuarter, 0.2, finer, undefined, soft),
    ).toMatchObject({
      ok: false,
      side: "top",
    });
  });
});

describe("the copy at three quarters of the flat card's resolution", () => {
  it("places each frame line where the flat card does, measured from either edge", () => {
    // Frames 3.1, 2.9, 3.3 and 2.7 mm in, each a step blurred over 2 px.
    const depths = { left: 3.1, right: 2.9, top: 3.3, bottom: 2.7 };
    const data = new Uint8Array(W * H * 4);
    const ramp = (d: number, at: number) => Math.min(1, Math.max(0, (d - at * MM) / 2 + 0.5));
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const t = Math.min(
          ramp(x + 0.5, depths.left),
          ramp(W - x - 0.5, depths.right),
          ramp(y + 0.5, depths.top),
          ramp(H - y - 0.5, depths.bottom),
        );
        const colour = BORDER.map((b, i) => Math.round(b + ((ART[i] ?? 0) - b) * t));
        data.set([...colour, 255], (y * W + x) * 4);
      }
    }
    const frames = measureFrameTwice({ width: W, height: H, data });
    const quarter = frames.threeQuarter();
    expect(frames.full.ok && quarter.ok).toBe(true);
    if (!frames.full.ok || !quarter.ok) return;
    const full = widthsOf(frames.full.sides);
    const copy = widthsOf(quarter.sides);
    // Whole-pixel boxes put the left and top lines 0.03–0.05 mm deeper and the right and bottom
    // ones as much shallower: up to a centering point on 3 mm borders.
    for (const side of SIDES) {
      expect(Math.abs(full[side] / MM - depths[side])).toBeLessThan(0.01);
      expect(Math.abs(copy[side] - full[side]) / MM).toBeLessThan(0.015);
    }
  });
});
