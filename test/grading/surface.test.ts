import { describe, expect, it } from "vitest";
import { FLAT_PX_PER_MM, median, selectKth } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import { measureSurface, ridgeStrength, sagitta } from "../../src/grading/engine/surface";
import { seededRandom } from "../helpers/seeded-random";

// A flat 63 × 88 mm face at FLAT_PX_PER_MM, drawn pixel by pixel: grey print, optionally split by
// a straight boundary into a darker and a lighter part, with a thin light line (a scratch, or a
// highlight) from (x0, y0) to (x1, y1) in millimetres.
const W = 63 * FLAT_PX_PER_MM;
const H = 88 * FLAT_PX_PER_MM;
const FRAME = {
  left: 3 * FLAT_PX_PER_MM,
  right: 3 * FLAT_PX_PER_MM,
  top: 3 * FLAT_PX_PER_MM,
  bottom: 3 * FLAT_PX_PER_MM,
};

interface Line {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function face(line: Line, split: "none" | "along" | "across" | "border"): RgbaImage {
  const data = new Uint8Array(W * H * 4);
  const dx = line.x1 - line.x0;
  const dy = line.y1 - line.y0;
  const length = Math.hypot(dx, dy);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const u = x / FLAT_PX_PER_MM;
      const v = y / FLAT_PX_PER_MM;
      // Signed distance from the line's direction through its start, and position along it.
      const across = ((u - line.x0) * dy - (v - line.y0) * dx) / length;
      const along = ((u - line.x0) * dx + (v - line.y0) * dy) / length;
      let level = 120;
      // "along": the picture's edge is the line itself (one side darker); "across": a boundary
      // perpendicular to the line, half way along it.
      if (split === "along") level = across < 0 ? 70 : 150;
      if (split === "across") level = along < length / 2 ? 70 : 150;
      // "border": dark art inside the frame, a light plain border outside it.
      const inFrame = x >= FRAME.left && x < W - FRAME.right && y >= FRAME.top && y < H - FRAME.bottom;
      if (split === "border") level = inFrame ? 70 : 200;
      if (Math.abs(across) < 0.12 && along >= 0 && along <= length) level = 235;
      const p = (y * W + x) * 4;
      data[p] = level;
      data[p + 1] = level;
      data[p + 2] = level;
      data[p + 3] = 255;
    }
  }
  return { width: W, height: H, data };
}

// 20° off the card's axes, 14 mm long, inside the art.
const LINE: Line = { x0: 20, y0: 40, x1: 20 + 14 * Math.cos(0.35), y1: 40 + 14 * Math.sin(0.35) };
// The same line starting in the left border (3 mm wide), so it runs on across the frame into the art.
const INTO_BORDER: Line = { x0: 1.6, y0: 40, x1: 1.6 + 14 * Math.cos(0.35), y1: 40 + 14 * Math.sin(0.35) };

/** A line `lengthMm` long centred on (x, y) mm, `degrees` from the card's horizontal. */
function centredLine(x: number, y: number, degrees: number, lengthMm: number): Line {
  const hx = (lengthMm / 2) * Math.cos((degrees * Math.PI) / 180);
  const hy = (lengthMm / 2) * Math.sin((degrees * Math.PI) / 180);
  return { x0: x - hx, y0: y - hy, x1: x + hx, y1: y + hy };
}

describe("surface lines", () => {
  it("keeps a thin light line wholly inside the artwork as an art line, not as damage", () => {
    const wear = measureSurface("front", face(LINE, "none"), FRAME);
    expect(wear.defects).toEqual([]);
    expect(wear.lineMm).toBe(0);
    expect(wear.artLines).toHaveLength(1);
    const [line] = wear.artLines;
    expect(line?.lengthMm).toBeGreaterThan(12);
    // Its points lie on the drawn line, in flat-card pixels.
    for (const p of line?.points ?? []) {
      const u = p.x / FLAT_PX_PER_MM - LINE.x0;
      const v = p.y / FLAT_PX_PER_MM - LINE.y0;
      expect(Math.abs(u * Math.sin(0.35) - v * Math.cos(0.35))).toBeLessThan(0.4);
    }
    expect(line?.points.length).toBeGreaterThan(10);
    // 235 on 120 print: the ridge stands about 115 grey levels above it.
    expect(line?.ridge).toBeGreaterThan(80);
  });

  it("keeps it as an art line when it crosses an edge of the picture", () => {
    const wear = measureSurface("front", face(LINE, "across"), FRAME);
    expect(wear.defects).toEqual([]);
    expect(wear.artLines).toHaveLength(1);
  });

  it("counts a line inside a back's design as a scratch (a maker's back has no such printed lines)", () => {
    const wear = measureSurface("back", face(LINE, "none"), FRAME);
    expect(wear.defects).toHaveLength(1);
    expect(wear.defects[0]).toMatchObject({ type: "scratch", face: "back", location: "surface" });
    expect(wear.artLines).toEqual([]);
  });

  it("counts a line that runs on out of the artwork into the border as a scratch", () => {
    const wear = measureSurface("front", face(INTO_BORDER, "none"), FRAME);
    expect(wear.defects).toHaveLength(1);
    expect(wear.defects[0]).toMatchObject({ type: "scratch", location: "surface_and_border" });
    expect(wear.lineMm).toBeGreaterThan(12);
    expect(wear.artLines).toEqual([]);
  });

  it("counts a short line crossing the frame line at a slant into a border of another colour as a scratch", () => {
    // 5 mm long, 25° to the top frame line, crossing it half way: 0.75 mm either side of the line,
    // one side lies in the light border and the other in the dark art along 3.2 mm of it, the
    // border always on the same side. That is the frame's edge beside the line, not the
    // picture's: the line does not follow it.
    const wear = measureSurface("front", face(centredLine(30, 3, 25, 5), "border"), FRAME);
    expect(wear.defects).toHaveLength(1);
    expect(wear.defects[0]).toMatchObject({ type: "scratch", location: "surface_and_border" });
    expect(wear.lineMm).toBeGreaterThan(4);
  });

  it("does not count a short line along the frame line, art on one side and border on the other", () => {
    // 3 mm long, 5° off the left frame line and crossing it: the frame's own edge, not a scratch.
    const wear = measureSurface("front", face(centredLine(3, 40, 85, 3), "border"), FRAME);
    expect(wear.defects).toEqual([]);
    expect(wear.lineMm).toBe(0);
  });

  it("does not count a light line that runs along an edge of the picture (a highlight)", () => {
    const wear = measureSurface("front", face(LINE, "along"), FRAME);
    expect(wear.defects).toEqual([]);
    expect(wear.artLines).toEqual([]);
    expect(wear.lineMm).toBe(0);
  });
});

describe("selectKth", () => {
  it("finds what sorting finds, with ties, runs and every k", () => {
    const random = seededRandom(7);
    for (let trial = 0; trial < 200; trial++) {
      const count = 1 + Math.floor(random() * 300);
      // Few distinct values (ties, as ridge levels of flat print are), or sorted and reversed runs.
      const kind = trial % 3;
      const values = Float32Array.from({ length: count }, (_, i) =>
        kind === 0 ? Math.floor(random() * 5) : kind === 1 ? i : count - i + random(),
      );
      const sorted = values.slice().sort();
      for (const k of [0, count >> 1, count - 1, Math.floor(random() * count)]) {
        expect(selectKth(values.slice(), count, k)).toBe(sorted[k]);
      }
    }
  });

  it("reads only the first `count` values", () => {
    const values = Float32Array.from([5, 1, 4, 100, -100]);
    expect(selectKth(values, 3, 1)).toBe(4);
  });
});

describe("median", () => {
  const bySort = (values: number[]) => {
    const sorted = Float64Array.from(values).sort();
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
  };

  it("is the sorted middle value, or the mean of the two middle ones, with ties and runs", () => {
    const random = seededRandom(11);
    for (let trial = 0; trial < 300; trial++) {
      const count = 1 + Math.floor(random() * 200);
      const kind = trial % 3;
      const values = Array.from({ length: count }, (_, i) =>
        kind === 0 ? Math.floor(random() * 4) : kind === 1 ? count - i : random() * 1000 - 500,
      );
      const before = [...values];
      expect(median(values)).toBe(bySort(values));
      expect(values).toEqual(before);
    }
  });

  it("orders a NaN as a sort does (last), and is NaN for no values", () => {
    expect(median([3, Number.NaN, 1, 2])).toBe(2.5);
    expect(median([Number.NaN, 5, 1])).toBe(5);
    expect(median([])).toBeNaN();
  });
});

describe("ridgeStrength", () => {
  it("is exactly the strongest direction's min(c − one neighbour, c − the other), or 0", () => {
    // Grey levels as the engine makes them (weighted RGB in float32), over a region 2 px inside.
    const random = seededRandom(11);
    const width = 40;
    const height = 30;
    const gray = Float32Array.from({ length: width * height }, () =>
      Math.fround(
        0.299 * Math.floor(random() * 256) + 0.587 * Math.floor(random() * 256) + 0.114 * Math.floor(random() * 256),
      ),
    );
    const ridge = ridgeStrength(gray, width, 2, 2, width - 4, height - 4);
    const steps = [2, 2 * width, 2 * width + 2, -2 * width + 2];
    let positive = 0;
    for (let y = 0; y < height - 4; y++) {
      for (let x = 0; x < width - 4; x++) {
        const i = (y + 2) * width + x + 2;
        const c = gray[i] ?? 0;
        const expected = Math.max(0, ...steps.map((s) => Math.min(c - (gray[i + s] ?? 0), c - (gray[i - s] ?? 0))));
        expect(ridge[y * (width - 4) + x]).toBe(Math.fround(expected));
        if (expected > 0) positive++;
      }
    }
    // Both outcomes occur: ridges and pixels that stand above no pair.
    expect(positive).toBeGreaterThan(100);
    expect(positive).toBeLessThan((width - 4) * (height - 4) - 100);
  });
});

describe("sagitta", () => {
  /** Pixel indices (in a region 200 px wide) along y = x·tan(angle) + bend·(1 − (2x / length)²) + 100. */
  function linePixels(length: number, angle: number, bend: number): { pixels: number[]; mx: number; my: number } {
    const points = new Set<number>();
    for (let s = -length / 2; s <= length / 2; s += 0.25) {
      const across = bend * (1 - ((2 * s) / length) ** 2);
      const x = Math.round(100 + s * Math.cos(angle) - across * Math.sin(angle));
      const y = Math.round(100 + s * Math.sin(angle) + across * Math.cos(angle));
      points.add(y * 200 + x);
    }
    const pixels = [...points];
    const mx = pixels.reduce((sum, i) => sum + (i % 200), 0) / pixels.length;
    const my = pixels.reduce((sum, i) => sum + Math.floor(i / 200), 0) / pixels.length;
    return { pixels, mx, my };
  }

  it("is about 0 for a straight line at any angle and the bend of an arc", () => {
    for (const angle of [0.3, 1.1, 2.5]) {
      const straight = linePixels(80, angle, 0);
      expect(sagitta(straight.pixels, 200, straight.mx, straight.my, angle, 80)).toBeLessThan(0.3);
      const bent = linePixels(80, angle, 2);
      expect(sagitta(bent.pixels, 200, bent.mx, bent.my, angle, 80)).toBeCloseTo(2, 0);
    }
  });
});
