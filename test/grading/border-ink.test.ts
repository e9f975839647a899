// Wear is judged against the border's ink near each place along a side. Where the strip inside the
// examined band cannot be read (print in the border starts within 2 mm of the cut), the ink is
// read on the band itself, over 6 mm either way: a silver border's sheen is its ink in another
// light, while a chip (1–3 mm) still stands out from it.
import { describe, expect, it } from "vitest";
import { FLAT_PX_PER_MM } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import { measureWear } from "../../src/grading/engine/wear";

const MM = FLAT_PX_PER_MM;
const W = 63 * MM;
const H = 88 * MM;
/** Borders (flat-card px) of a modern Pokémon card with a silver border, as a real photo read them. */
const FRAME = { left: 18.4, right: 20, top: 18.8, bottom: 21.3 };
/** White paper beside the card, and the table as read further round it (in the paper's shadow). */
const PAPER: [number, number, number] = [215, 202, 187];
const TABLE: [number, number, number] = [181, 179, 167];
const SILVER: [number, number, number] = [165, 155, 145];
const GREEN: [number, number, number] = [130, 180, 60];
const PRINT: [number, number, number] = [40, 40, 46];

/**
 * The bottom border's silver as that photo showed it along the side (luma, x in mm): dark at the
 * ends, and in the middle as light as the table read round the card, where the light falls on it.
 */
function sheen(xMm: number): number {
  const t = Math.max(0, 1 - Math.abs(xMm - 31) / 26);
  return 105 + 88 * t * t * (3 - 2 * t);
}

/**
 * The flat card: silver borders round green, a copyright line printed in the bottom border 1.1–2.1
 * mm from the cut along 20–47 mm, the bottom border lit along it (`sheen`); `chip`: x from–to (mm)
 * where 0.6 mm of the bottom edge is missing and the paper shows; `left`: the left border's colour
 * at a depth and a place along it (mm), instead of the silver.
 */
function flatCard(
  chip?: [number, number],
  left?: (depthMm: number, yMm: number) => readonly number[] | null,
): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const fromBottom = (H - 0.5 - y) / MM;
      const xMm = (x + 0.5) / MM;
      const inFrame = x >= FRAME.left && x < W - FRAME.right && y >= FRAME.top && y < H - FRAME.bottom;
      let colour: readonly number[] = inFrame ? GREEN : SILVER;
      if (!inFrame && y >= H - FRAME.bottom && x >= FRAME.left && x < W - FRAME.right) {
        const lift = sheen(xMm) / 155;
        colour = SILVER.map((v) => Math.min(255, v * lift));
        const letter = Math.floor(xMm / 0.55) % 3 !== 2;
        if (fromBottom >= 1.1 && fromBottom < 2.1 && xMm >= 20 && xMm < 47 && letter) colour = PRINT;
      }
      if (chip && fromBottom < 0.6 && xMm >= chip[0] && xMm < chip[1]) colour = PAPER;
      if (left && x < FRAME.left && y >= FRAME.top && y < H - FRAME.bottom)
        colour = left(xMm, (y + 0.5) / MM) ?? colour;
      data.set([...colour.map(Math.round), 255], (y * W + x) * 4);
    }
  }
  return { width: W, height: H, data };
}

/** Outside the cut lies the white paper. */
const around = (_x: number, _y: number, out: Float64Array) => out.set(PAPER);

const wearOf = (flat: RgbaImage) =>
  measureWear("front", flat, SILVER, TABLE, { ...FRAME, printFrom: { bottom: 1.1 * MM } }, around);

describe("wear against the border's ink", () => {
  it("reads a silver border lit along a printed bottom edge as its ink in another light, not as chips", () => {
    // Judged against the left border's one colour, 22 mm of the lit silver read as missing
    // material (the table's colour), edges 5, on the real photo this is drawn from.
    const wear = wearOf(flatCard());
    expect(wear.edges.defects).toEqual([]);
    expect(wear.edgeWornMm).toBe(0);
  });

  it("examines the other sides' bands all along where print lies in the bottom border", () => {
    // Print in one side's border is not examined; it once left every border pixel lying deeper
    // from the bottom than the print out too (34 of the edges' 270 mm² examined).
    const wear = wearOf(flatCard());
    expect(wear.edges.examinedMm2).toBeGreaterThan(0.8 * wear.edges.regionMm2);
    // The top corners all, the bottom ones short of the print's depth.
    const unprinted = measureWear("front", flatCard(), SILVER, TABLE, FRAME, around);
    expect(wear.corners.examinedMm2).toBeGreaterThan(0.6 * unprinted.corners.examinedMm2);
  });

  it("does not look for missing material where the border is lit as pale as the table", () => {
    // The left border lit round 35 mm along, to within 10 of the table's colour at the middle
    // (the light falling off smoothly over 8 mm either way): there a chip could not be told from
    // the ink, so that stretch is left unexamined, not called chips.
    const litInk = [186, 182, 172];
    const lit = wearOf(
      flatCard(undefined, (_, y) => {
        const t = Math.max(0, 1 - Math.abs(y - 35) / 8);
        const w = t * t * (3 - 2 * t);
        return SILVER.map((v, i) => v + ((litInk[i] ?? v) - v) * w);
      }),
    );
    expect(lit.edges.defects).toEqual([]);
    const plain = wearOf(flatCard());
    // Some mm of the left band (0.95 mm deep) less.
    expect(plain.edges.examinedMm2 - lit.edges.examinedMm2).toBeGreaterThan(3);
  });

  it("takes no stripe of the table's colour inside the border for missing material, border between it and the cut", () => {
    // A paler stripe 0.6–0.9 mm in along 30–40 mm of the left border (the silver's sheen): of the
    // table's colour, but with the border's ink between it and the cut, it is no bite out of the edge.
    const striped = wearOf(flatCard(undefined, (d, y) => (y >= 30 && y < 40 && d >= 0.6 && d < 0.9 ? TABLE : null)));
    expect(striped.edges.defects).toEqual([]);
    // Open to the cut, the same stripe is a chip.
    const bitten = wearOf(flatCard(undefined, (d, y) => (y >= 30 && y < 40 && d < 0.9 ? PAPER : null)));
    expect(bitten.edges.defects.filter((d) => d.location === "left_edge")).toHaveLength(1);
  });

  it("still finds a 2 mm chip out of that edge, read against the band's ink", () => {
    // Where the silver is lit as light as the paper (30 mm along), a chip cannot be told from it;
    // 12 mm along, the light is falling off and the paper showing through stands out.
    const wear = wearOf(flatCard([12, 14]));
    const chips = wear.edges.defects.filter((d) => d.location === "bottom_edge");
    expect(chips).toHaveLength(1);
    expect(chips[0]?.length_mm).toBeGreaterThan(1.5);
    expect(chips[0]?.length_mm).toBeLessThan(2.5);
  });
});
