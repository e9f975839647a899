import { describe, expect, it } from "vitest";
import { FLAT_PX_PER_MM } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import { measureSurface } from "../../src/grading/engine/surface";
import { artPhoto } from "../helpers/photos";
import { seededRandom } from "../helpers/seeded-random";

// A flat 63 × 88 mm face at FLAT_PX_PER_MM: a plain 3 mm border, a dark frame line, a real
// photograph as art, and printed light lines inside the frame that are not damage (a double ring,
// a rule across the art). A fold is drawn as a real one photographs: a jagged light ridge with a
// shadow on one side, broken in places, nearly parallel to the card's short side.
const MM = FLAT_PX_PER_MM;
const W = 63 * MM;
const H = 88 * MM;
const BORDER_MM = 3;
const frameOf = (borderMm: number) => {
  const px = borderMm * MM;
  return { left: px, right: px, top: px, bottom: px };
};
const FRAME = frameOf(BORDER_MM);

interface Fold {
  /** Where the fold runs along x (mm), and its height at x = 0 (mm) and rise per mm. */
  fromMm: number;
  toMm: number;
  y0: number;
  slope: number;
  /** How much lighter its ridge is (70 unless told); 0 draws its shaded side alone. */
  ridge?: number;
}

/**
 * `border`: the border's grey level (208, a cream; 250, white, above which a fold's ridge cannot
 * show); `borderMm`: its width.
 */
function face(fold: Fold | null, border = 208, borderMm = BORDER_MM): RgbaImage {
  const random = seededRandom(11);
  const art = artPhoto("chelsea");
  const data = new Uint8Array(W * H * 4);
  const inFrame = (u: number, v: number) => u >= borderMm && u < 63 - borderMm && v >= borderMm && v < 88 - borderMm;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const u = x / MM;
      const v = y / MM;
      const p = (y * W + x) * 4;
      let rgb: number[];
      if (inFrame(u, v)) {
        const ax = Math.floor(((u - borderMm) / (63 - 2 * borderMm)) * (art.width - 1));
        const ay = Math.floor(((v - borderMm) / (88 - 2 * borderMm)) * (art.height - 1));
        const q = (ay * art.width + ax) * 4;
        rgb = [art.data[q] ?? 0, art.data[q + 1] ?? 0, art.data[q + 2] ?? 0];
        // A printed double ring round the art's middle and a rule across it: light lines, not damage.
        const r = Math.hypot(u - 31.5, v - 40);
        if (Math.abs(r - 22) < 0.1 || Math.abs(r - 23) < 0.1 || Math.abs(v - 70) < 0.1) rgb = [240, 236, 226];
        // The frame line.
        const edge = Math.min(u - borderMm, 63 - borderMm - u, v - borderMm, 88 - borderMm - v);
        if (edge < 0.25) rgb = [40, 36, 34];
      } else {
        const n = Math.min(255 - border, (random() - 0.5) * 6);
        rgb = [border + n, border - 6 + n, border - 12 + n];
      }
      data[p] = rgb[0] ?? 0;
      data[p + 1] = rgb[1] ?? 0;
      data[p + 2] = rgb[2] ?? 0;
      data[p + 3] = 255;
    }
  }
  if (fold) drawFold(data, fold);
  return { width: W, height: H, data };
}

/** A jagged fold: vertices every 4 mm, each up to 0.5 mm off the straight line, with two breaks. */
function drawFold(data: Uint8Array, fold: Fold): void {
  const random = seededRandom(7);
  const vertices: { u: number; v: number }[] = [];
  for (let u = fold.fromMm; u <= fold.toMm + 1e-9; u += 4) {
    vertices.push({ u, v: fold.y0 + fold.slope * u + (random() - 0.5) });
  }
  const breaks = [fold.fromMm + (fold.toMm - fold.fromMm) * 0.3, fold.fromMm + (fold.toMm - fold.fromMm) * 0.65];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const u = x / MM;
      if (u < fold.fromMm || u > fold.toMm || breaks.some((b) => Math.abs(u - b) < 0.75)) continue;
      const k = Math.min(vertices.length - 2, Math.floor((u - fold.fromMm) / 4));
      const a = vertices[k];
      const b = vertices[k + 1];
      if (!a || !b) continue;
      const across = y / MM - (a.v + ((b.v - a.v) * (u - a.u)) / (b.u - a.u));
      const p = (y * W + x) * 4;
      // The ridge catches the light; just below it, the fold's shaded side.
      const change = Math.abs(across) < 0.13 ? (fold.ridge ?? 70) : across >= 0.13 && across < 0.35 ? -35 : 0;
      if (change === 0) continue;
      for (let ch = 0; ch < 3; ch++) data[p + ch] = Math.max(0, Math.min(255, (data[p + ch] ?? 0) + change));
    }
  }
}

const creases = (image: RgbaImage, frame = FRAME) =>
  measureSurface("front", image, frame).defects.filter((defect) => defect.type === "crease");

describe("folds across the card", () => {
  it("finds a jagged fold from cut to cut, nearly parallel to the short side, as one crease", () => {
    const wear = measureSurface("front", face({ fromMm: 0, toMm: 63, y0: 30, slope: 0.05 }), FRAME);
    const found = wear.defects.filter((defect) => defect.type === "crease");
    expect(found).toHaveLength(1);
    const [crease] = found;
    expect(crease?.location).toBe("surface_and_border");
    expect(crease?.length_mm).toBeGreaterThan(55);
    // Its box lies along the drawn fold (30–33 mm down, ± its jags).
    expect(crease?.box_mm.y).toBeGreaterThan(28);
    expect((crease?.box_mm.y ?? 0) + (crease?.box_mm.height ?? 0)).toBeLessThan(35);
    // Counted once: the fold's own length, not again as pieces.
    expect(wear.lineMm).toBeGreaterThan(55);
    expect(wear.lineMm).toBeLessThan(70);
  });

  it("finds no fold on the same card unfolded: the printed ring and rule are not damage", () => {
    const wear = measureSurface("front", face(null), FRAME);
    expect(wear.defects).toEqual([]);
    expect(wear.lineMm).toBe(0);
  });

  it("takes a jagged line that stops inside the art, or never leaves the frame, for no fold", () => {
    // From the left cut to 12 mm short of the right border: it crosses one border only.
    expect(creases(face({ fromMm: 0, toMm: 48, y0: 30, slope: 0.05 }))).toEqual([]);
    // Across the art only, from frame line to frame line.
    expect(creases(face({ fromMm: 3.5, toMm: 59.5, y0: 30, slope: 0.05 }))).toEqual([]);
  });

  it("finds a fold across a white border by its shaded side, where its light ridge cannot show", () => {
    // The ridge's +70 saturates in the white border (+5 at most), so the ridge pixels alone cross
    // no border; the fold's shaded side, 35 levels below the white, does.
    const found = creases(face({ fromMm: 0, toMm: 63, y0: 30, slope: 0.05 }, 250));
    expect(found).toHaveLength(1);
    expect(found[0]?.length_mm).toBeGreaterThan(55);
    expect(found[0]?.box_mm.y).toBeGreaterThan(28);
    expect((found[0]?.box_mm.y ?? 0) + (found[0]?.box_mm.height ?? 0)).toBeLessThan(35);
  });

  it("finds no fold on the white-bordered card unfolded: its dark frame line and art are not one", () => {
    expect(measureSurface("front", face(null, 250), FRAME).defects).toEqual([]);
  });

  it("finds a fold's ends in a 1.3 mm border, inside the edge band the surface is otherwise read past", () => {
    // The surface is read from 1.2 mm inside the cut, which leaves 0.1 mm of this border: less than
    // a fold's end must reach past the frame line. Ridges and valleys are read from 0.5 mm in.
    const found = creases(face({ fromMm: 0, toMm: 63, y0: 30, slope: 0.05 }, 250, 1.3), frameOf(1.3));
    expect(found).toHaveLength(1);
    expect(found[0]?.length_mm).toBeGreaterThan(55);
  });

  it("finds no fold on the 1.3 mm white-bordered card unfolded", () => {
    expect(measureSurface("front", face(null, 250, 1.3), frameOf(1.3)).defects).toEqual([]);
  });

  it("takes a line along the top border, from the left border to the right, for no fold", () => {
    // Read 0.5 mm inside the cut, a real black-bordered card's top edge made such a line, dark,
    // 60 mm long, from 0.7 mm down in the top border to 4.6 mm down at its right end: a fold's
    // ends, but its middle lies in the border, not across the card.
    expect(creases(face({ fromMm: 0, toMm: 63, y0: 0.6, slope: 0.06, ridge: 0 }, 250))).toEqual([]);
  });
});
