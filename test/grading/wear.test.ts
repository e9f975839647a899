// Wear on cards with real photographs as artwork (test/fixtures/photos): a pristine card with a
// busy photograph grades 9.5–10 on corners, edges and surface; drawn damage brings the subgrade
// it belongs to to 8 or below; and the evidence names what was found, where, and the area examined.
import { describe, expect, it } from "vitest";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import { FLAT_PX_PER_MM } from "../../src/grading/engine/geometry";
import type { RgbaImage } from "../../src/grading/engine/image";
import type { Graded, GradeResult } from "../../src/grading/engine/types";
import { measureWear } from "../../src/grading/engine/wear";
import { backOf, type CardScene, drawCardScene, encodeJpeg } from "../helpers/card-images";
import { faceOutcome } from "../helpers/face-outcome";
import { artPhoto, tablePhoto } from "../helpers/photos";
import { type RealisticCase, realisticScenes } from "../helpers/scene-sets";
import { sceneWith } from "../helpers/submissions";

const engine = new BuiltinEngine();

/** A blue-bordered card with a photograph as art, on a photographed gravel table. */
const pristine: CardScene = sceneWith({
  canvasWidth: 1200,
  canvasHeight: 900,
  cardWidth: 470,
  borders: { left: 3.2, right: 2.8, top: 3, bottom: 3.4 },
  borderColor: [20, 80, 160],
  artColor: [128, 128, 128],
  artPhoto: artPhoto("astronaut"),
  background: [150, 150, 150],
  texture: undefined,
  tablePhoto: tablePhoto("gravel"),
  seed: 21,
});

async function grade(front: CardScene, back: CardScene = { ...backOf(front), artPhoto: undefined }) {
  return engine.grade({
    front: { bytes: encodeJpeg(drawCardScene(front), 88), contentType: "image/jpeg" },
    back: { bytes: encodeJpeg(drawCardScene(back), 88), contentType: "image/jpeg" },
  });
}

function expectGraded(result: GradeResult): Graded {
  if (result.status !== "graded") throw new Error(`expected a grade, got ${JSON.stringify(result)}`);
  return result;
}

describe("wear on photographic artwork", { timeout: 60_000 }, () => {
  it("does not examine a corner under a thumb holding the card, nor call it damage", async () => {
    const clean = expectGraded(await grade(pristine)).evidence;
    const thumb = { x: 31, y: 43, rx: 9, ry: 12, color: [224, 172, 140] as const };
    const held = expectGraded(await grade({ ...pristine, occluder: thumb }));
    expect(held.grades.corners).toBeGreaterThanOrEqual(9.5);
    expect(held.grades.edges).toBeGreaterThanOrEqual(9.5);
    if (!clean || !held.evidence) throw new Error("the built-in engine always gives evidence");
    // One corner patch of the front's four (4 × 4 mm less the rounding) is under the thumb.
    expect(clean.corners.examined_mm2 - held.evidence.corners.examined_mm2).toBeGreaterThan(8);
    expect(held.evidence.edges.examined_mm2).toBeLessThan(clean.edges.examined_mm2);
    expect(held.evidence.corners.defects).toEqual([]);
  });

  it("judges a black border against its own ink where the light falls, not one colour for the whole side", async () => {
    // A glossy black border catching the light over the top-left corner: luma 20 lifted to 60–80
    // there. Against the side's one colour its ink read as whitening and chips; against the
    // border's ink nearby it is sound, and drawn whitening in the same light is still found.
    const black: CardScene = {
      ...pristine,
      borderColor: [18, 18, 20],
      glare: { x: 0.33, y: 0.18, radius: 0.4, strength: 0.2 },
    };
    const lit = expectGraded(await grade(black));
    expect(lit.grades.corners).toBeGreaterThanOrEqual(9.5);
    expect(lit.grades.edges).toBeGreaterThanOrEqual(9.5);
    const worn = expectGraded(await grade({ ...black, wear: { cornerWhitening: 1 } }));
    expect(worn.grades.corners).toBeLessThanOrEqual(8);
  });

  it.each([
    ["navy", [40, 45, 70], [185, 182, 180]],
    ["black", [20, 20, 22], [190, 190, 190]],
  ] as const)(
    "takes a glare over a %s border's corner for light, not whitening, and finds whitening under it",
    (_, borderColor, background) => {
      // A lamp's reflection of 6 mm radius centred on the top-left corner, on a light table: the
      // border's ink is read beyond the 4 mm corner patch, where the glare has faded, and the lit
      // corner read as whitening (corners 4–7). It fades smoothly round its brightest part, as
      // worn paper, ending in a step, does not.
      const lit: CardScene = {
        ...pristine,
        borderColor,
        background,
        glare: { x: 0.304, y: 0.136, radius: 0.1, strength: 0.5 },
      };
      // The front alone: the back, drawn without the glare, adds nothing here.
      const corners = (scene: CardScene) => {
        const face = faceOutcome(encodeJpeg(drawCardScene(scene), 88));
        if (!face.graded) throw new Error(face.message);
        return face.wear.corners;
      };
      expect(corners(lit)).toBeGreaterThanOrEqual(9.5);
      expect(corners({ ...lit, wear: { cornerWhitening: 1 } })).toBeLessThanOrEqual(8);
    },
  );

  it("grades a pristine card with a photograph as art 9.5–10 on corners, edges and surface", async () => {
    for (const art of ["astronaut", "chelsea", "rocket", "coffee"] as const) {
      const graded = expectGraded(await grade({ ...pristine, artPhoto: artPhoto(art) }));
      expect(graded.grades.corners).toBeGreaterThanOrEqual(9.5);
      expect(graded.grades.edges).toBeGreaterThanOrEqual(9.5);
      expect(graded.grades.surface).toBeGreaterThanOrEqual(9.5);
      const evidence = graded.evidence;
      if (!evidence) throw new Error("the built-in engine always gives evidence");
      // The borders are examined whole; the photograph where a line could stand out from it.
      expect(evidence.corners.examined_share).toBeGreaterThan(0.5);
      expect(evidence.edges.examined_share).toBeGreaterThan(0.8);
      expect(evidence.surface.examined_share).toBeGreaterThan(0.1);
      expect(evidence.surface.examined_share).toBeLessThanOrEqual(1);
      // Both faces, 1.2 mm in from the edges: at most 2 × 60.6 × 85.6 mm².
      expect(evidence.surface.examined_mm2).toBeGreaterThan(1000);
      expect(evidence.surface.examined_mm2).toBeLessThanOrEqual(2 * 60.6 * 85.6 + 1);
      expect(evidence.surface.defects).toEqual([]);
    }
  });

  // Pristine cards of the drawn sets that read as worn before (false wear).
  it.each([
    // A white card on brown wood with a cup of coffee as art: the light rims of the cup and the
    // saucer, 8–9 mm long, bend 0.2–0.3 mm from their chords and were read as scratches
    // (surface 7); scratches run straight.
    ["does not read the rim highlights of a cup and its saucer in the art as scratches", 5050, 5],
    // A thin red border on green bricks: the pixels along the frame line blend the border with
    // the art under the photo's blur, and read as missing material in 1 px strips (corners 8.5).
    ["does not read the blend of a thin border and its art at the frame line as missing material", 6060, 8],
    // A copyright line 0.6–1.7 mm in from the bottom edge of a white and of a coloured border: the
    // edges' band (0.25–1.2 mm) held its letters, read as wear (edges 6 on both).
    ["does not read a copyright line in the bottom border as worn edges (white border)", 2020, 31],
    ["does not read a copyright line in the bottom border as worn edges (coloured border)", 1010, 31],
  ])("%s", async (_name, seed, index) => {
    const c = realisticScenes({ art: artPhoto, table: tablePhoto }, 5, seed)[index] as RealisticCase;
    expect(c.worn).toEqual([]);
    const graded = expectGraded(
      await engine.grade({
        front: { bytes: encodeJpeg(drawCardScene(c.scene), c.quality), contentType: "image/jpeg" },
        back: { bytes: encodeJpeg(drawCardScene(c.back), c.quality), contentType: "image/jpeg" },
      }),
    );
    expect(graded.grades.corners).toBeGreaterThanOrEqual(9.5);
    expect(graded.grades.edges).toBeGreaterThanOrEqual(9.5);
    expect(graded.grades.surface).toBeGreaterThanOrEqual(9.5);
  });

  it("brings corners to 8 or below for 1 mm of whitening, and names the corners", async () => {
    const graded = expectGraded(await grade({ ...pristine, wear: { cornerWhitening: 1 } }));
    expect(graded.grades.corners).toBeLessThanOrEqual(8);
    const found = graded.evidence?.corners.defects.filter((d) => d.face === "front") ?? [];
    expect(found.map((d) => d.location).sort()).toEqual([
      "bottom_left_corner",
      "bottom_right_corner",
      "top_left_corner",
      "top_right_corner",
    ]);
    for (const defect of found) {
      expect(defect.type).toBe("whitening");
      expect(defect.area_mm2).toBeGreaterThan(1);
      expect(defect.box_mm.width).toBeLessThanOrEqual(4);
    }
  });

  it("brings edges to 8 or below for chips along the edges, with each chip's length", async () => {
    const graded = expectGraded(await grade({ ...pristine, wear: { edgeChips: 8 } }));
    expect(graded.grades.edges).toBeLessThanOrEqual(8);
    const chips = graded.evidence?.edges.defects ?? [];
    expect(chips.length).toBeGreaterThanOrEqual(4);
    for (const chip of chips) {
      expect(chip.type).toBe("chip");
      expect(chip.location).toMatch(/^(left|right|top|bottom)_edge$/);
      expect(chip.length_mm).toBeGreaterThan(0);
    }
  });

  it("brings edges to 8 or below for chips out of a white border's edge, where the table shows", async () => {
    // On a white border whitened stock cannot be seen (the drawn sets draw this wear there so).
    const white: CardScene = { ...pristine, borderColor: [236, 236, 232] };
    const graded = expectGraded(await grade({ ...white, wear: { edgeChips: 8, chipsMissing: true } }));
    expect(graded.grades.edges).toBeLessThanOrEqual(8);
    const chips = graded.evidence?.edges.defects.filter((d) => d.face === "front") ?? [];
    expect(chips.length).toBeGreaterThanOrEqual(4);
    for (const chip of chips) expect(chip.location).toMatch(/^(left|right|top|bottom)_edge$/);
    // The same card without them keeps its edges.
    expect(expectGraded(await grade(white)).grades.edges).toBeGreaterThanOrEqual(9.5);
  });

  it("brings surface to 8 or below for a crease across art and border", async () => {
    const graded = expectGraded(await grade({ ...pristine, wear: { creases: 1 } }));
    expect(graded.grades.surface).toBeLessThanOrEqual(8);
    const lines = graded.evidence?.surface.defects ?? [];
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((d) => d.location !== "surface")).toBe(true);
  });

  it("brings surface to 8 or below for scratches across the art", async () => {
    const graded = expectGraded(await grade({ ...pristine, artPhoto: artPhoto("coffee"), wear: { scratches: 6 } }));
    expect(graded.grades.surface).toBeLessThanOrEqual(8);
    expect(graded.evidence?.surface.defects.every((d) => d.type === "scratch" || d.type === "crease")).toBe(true);
  });
});

describe("a corner's rounding beside the outline's", () => {
  // On real photos the sides' fitted lines meet a pixel or two outside the card's rounding (a
  // lens's bend, a corner die-cut rounder than the 3 mm the wear patches assume), and the blend of
  // the border with the table there read as 0.2–0.8 mm² of missing material or whitening (corners
  // 9.5–8.5) on cards whose corners are sound on the photo. Drawn on the flat card: a navy border
  // 3 mm wide on a white table, its corners cut to `radius` mm.
  const MM = FLAT_PX_PER_MM;
  const W = 63 * MM;
  const H = 88 * MM;
  const NAVY: [number, number, number] = [20, 40, 110];
  const TABLE: [number, number, number] = [200, 198, 195];
  const frame = { left: 3 * MM, right: 3 * MM, top: 3 * MM, bottom: 3 * MM };
  const around = (_x: number, _y: number, out: Float64Array) => out.set(TABLE);

  /** Depth (mm) of the flat card's point inside a rounded rectangle of corner radius `r` mm (negative outside). */
  const inside = (x: number, y: number, r: number) => {
    const cx = Math.min(x, W / MM - x);
    const cy = Math.min(y, H / MM - y);
    return cx < r && cy < r ? r - Math.hypot(r - cx, r - cy) : Math.min(cx, cy);
  };

  /** The card cut to `radius`, with a bite `ding` mm deep out of its top left corner's rounding (0: none). */
  function card(radius: number, ding = 0): RgbaImage {
    const data = new Uint8Array(W * H * 4);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const u = (x + 0.5) / MM;
        const v = (y + 0.5) / MM;
        const bitten = ding > 0 && u < 4 && v < 4 && Math.abs(u - v) < 1 && inside(u, v, 3) < ding;
        // Blurred over 3 px at the cut (0.38 mm: the real photos' cuts rise over 0.35–0.48 mm).
        const cover = bitten ? 0 : Math.min(1, Math.max(0, (inside(u, v, radius) * MM) / 3 + 0.5));
        const ink = inside(u, v, 0) < 3 ? NAVY : [128, 128, 128];
        const colour = ink.map((c, k) => Math.round(c * cover + (TABLE[k] ?? 0) * (1 - cover)));
        data.set([...colour, 255], (y * W + x) * 4);
      }
    }
    return { width: W, height: H, data };
  }
  const wearOf = (flat: RgbaImage) => measureWear("front", flat, NAVY, TABLE, frame, around);

  it("reads no wear where the card's corners are cut rounder than 3 mm (a sliver of the table along each)", () => {
    const wear = wearOf(card(4));
    expect(wear.corners.defects).toEqual([]);
    expect(wear.worstCornerMm2).toBe(0);
    expect(wearOf(card(3)).corners.defects).toEqual([]);
  });

  it("still finds a bite 0.7 mm deep out of a corner's rounding", () => {
    const wear = wearOf(card(3, 0.7));
    expect(wear.corners.defects).toMatchObject([{ type: "missing_material", location: "top_left_corner" }]);
    expect(wearOf(card(4, 0.7)).corners.defects).toMatchObject([{ location: "top_left_corner" }]);
  });
});
