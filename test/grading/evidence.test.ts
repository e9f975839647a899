// The evidence a grade carries: where the card and its printed frame are in the photo, border
// widths, the margin to the next centering grade, and the damage report drawn from it.
import { describe, expect, it } from "vitest";
import { analyseFace } from "../../src/grading/engine/analyse-face";
import { marginToNextGrade } from "../../src/grading/engine/build-evidence";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import { decodeImage } from "../../src/grading/engine/decode";
import type { PixelPoint } from "../../src/grading/engine/evidence";
import { backOf, type CardScene, drawCardScene, encodeJpeg } from "../helpers/card-images";
import { artPhoto, tablePhoto } from "../helpers/photos";
import { type RealisticCase, realisticScenes } from "../helpers/scene-sets";
import { sceneWith } from "../helpers/submissions";

/** Evenly lit (no light falloff): the drawn truth is exact to compare the evidence with. */
const scene: CardScene = sceneWith({
  canvasWidth: 1200,
  canvasHeight: 900,
  cardWidth: 460,
  rotation: 2,
  borders: { left: 3.6, right: 2.4, top: 3, bottom: 3.2 },
  lightFalloff: undefined,
  seed: 4,
});

/** Where the drawn card's corner (u, v in card pixels from its centre) lands in the photo. */
function truthPoint(u: number, v: number): PixelPoint {
  const theta = ((scene.rotation ?? 0) * Math.PI) / 180;
  const cx = 0.5 * scene.canvasWidth;
  const cy = 0.5 * scene.canvasHeight;
  return [cx + u * Math.cos(theta) - v * Math.sin(theta), cy + u * Math.sin(theta) + v * Math.cos(theta)];
}

describe("grade evidence", { timeout: 30_000 }, () => {
  it("places the card's corners, frame lines and borders where they were drawn", async () => {
    const result = await new BuiltinEngine().grade({
      front: { bytes: encodeJpeg(drawCardScene(scene), 90), contentType: "image/jpeg" },
      back: { bytes: encodeJpeg(drawCardScene(backOf(scene)), 90), contentType: "image/jpeg" },
    });
    if (result.status !== "graded" || !result.evidence) throw new Error(JSON.stringify(result));
    const { front } = result.evidence.faces;
    expect(front.image_size).toEqual({ width: 1200, height: 900 });
    expect(front.orientation).toBe("portrait");
    expect(front.format).toEqual({ id: "standard", width_mm: 63, height_mm: 88 });
    const halfW = scene.cardWidth / 2;
    const halfH = (scene.cardWidth * 88) / 63 / 2;
    const truth = [
      truthPoint(-halfW, -halfH),
      truthPoint(halfW, -halfH),
      truthPoint(halfW, halfH),
      truthPoint(-halfW, halfH),
    ];
    front.corners.forEach((corner, i) => {
      const [tx, ty] = truth[i] ?? [0, 0];
      expect(Math.hypot(corner[0] - tx, corner[1] - ty)).toBeLessThan(3);
    });
    expect(front.px_per_mm).toBeCloseTo(scene.cardWidth / 63, 0);
    if (!front.borders_mm || !front.frame_lines) throw new Error("the front's frame was measured");
    for (const side of ["left", "right", "top", "bottom"] as const) {
      expect(Math.abs(front.borders_mm[side] - scene.borders[side])).toBeLessThan(0.15);
    }
    // The left frame line runs 3.6 mm inside the card's left edge, parallel to it.
    const pxPerMm = scene.cardWidth / 63;
    const [a, b] = front.frame_lines.left;
    const expectedTop = truthPoint(-halfW + 3.6 * pxPerMm, -halfH + 3 * pxPerMm);
    expect(Math.hypot(a[0] - expectedTop[0], a[1] - expectedTop[1])).toBeLessThan(3);
    expect(b[1]).toBeGreaterThan(a[1] + 500);
    const { centering } = result.evidence;
    expect(centering.face).toBe("front");
    expect(centering.horizontal_offset).toBe(result.centering_offset.horizontal);
    expect(centering.vertical_offset).toBe(result.centering_offset.vertical);
    expect(centering.agreement).toBeLessThan(0.5);
    // 60/40 worst share: the 60/40 tolerance is right there (grade 9 holds until 60).
    expect(centering.margin_to_next_grade).toBeLessThan(1);
    // The stored run carries the same evidence the grade returns.
    expect(result.evidence.corners.defects).toEqual([]);
    expect(result.evidence.edges.examined_mm2).toBeGreaterThan(100);
  });

  it("gives as the centering's agreement the larger disagreement of its independent estimates", async () => {
    // Seed 2020's *border print #3* (a dark back on a grey table): its frame's two scales lie 0.09
    // points apart, and its cut's two readings on one side 0.17.
    const c = realisticScenes({ art: artPhoto, table: tablePhoto }, 5, 2020)[32] as RealisticCase;
    const front = encodeJpeg(drawCardScene(c.scene), c.quality);
    const face = analyseFace("front", front);
    if (!face.ok || !face.face.centering.ok) throw new Error("the front was measured");
    const { agreement } = face.face.centering;
    const cutSpread = face.face.cutSpread ?? 0;
    expect(cutSpread).toBeGreaterThan(agreement + 0.05);
    const result = await new BuiltinEngine().grade({
      front: { bytes: front, contentType: "image/jpeg" },
      back: { bytes: encodeJpeg(drawCardScene(c.back), c.quality), contentType: "image/jpeg" },
    });
    if (result.status !== "graded" || !result.evidence) throw new Error(JSON.stringify(result));
    expect(result.evidence.centering.agreement).toBeCloseTo(cutSpread, 2);
    // The partner view's capture gives it per face, beside the predicted σ.
    const capture = (result.model_grade as { capture: { front: { cut_readings_apart_pp: number | null } } }).capture;
    expect(capture.front.cut_readings_apart_pp).toBeCloseTo(cutSpread, 2);
  });

  it("draws the detected outline over the photo in the damage report", async () => {
    const result = await new BuiltinEngine().grade({
      front: { bytes: encodeJpeg(drawCardScene(scene), 90), contentType: "image/jpeg" },
      back: { bytes: encodeJpeg(drawCardScene(backOf(scene)), 90), contentType: "image/jpeg" },
    });
    const drawn = result.status === "graded" ? (await result.renderReports()).damage_report_front : null;
    if (result.status !== "graded" || !result.evidence || !drawn) {
      throw new Error("expected a grade with evidence and a report");
    }
    const report = decodeImage(drawn.bytes, 2000).image;
    expect([report.width, report.height]).toEqual([1000, 750]);
    const k = report.width / 1200;
    const [tl, tr] = result.evidence.faces.front.corners;
    const x = Math.round(((tl[0] + tr[0]) / 2) * k);
    const y = Math.round(((tl[1] + tr[1]) / 2) * k);
    const p = (y * report.width + x) * 4;
    expect([report.data[p], report.data[p + 1], report.data[p + 2]]).toEqual([0, 200, 255]);
  });

  it("measures the margin to the next centering grade from the tolerances", () => {
    const face = (lr: number, tb: number) => ({ left_right: lr, top_bottom: tb, borders_mm: null });
    // Worst 52: 3 points from the 55/45 tolerance of a 10.
    expect(marginToNextGrade(face(52, 50), null)).toBe(3);
    // Worst 58.5: 1 point from 57.5 and 1.5 from 60.
    expect(marginToNextGrade(face(41.5, 50), null)).toBe(1);
    // The back at 80/20: 2.5 points from its 82.5 tolerance.
    expect(marginToNextGrade(face(50, 50), face(80, 50))).toBe(2.5);
  });
});
