// The format a collector bar names (analyse-face.ts, barNamesStandard): a modern Magic card's bar
// is a 63 × 88 mm card's, so a card showing one whose proportions read as the 1952 Topps card's is
// measured as the standard format, and its back, of the same shape, with it (builtin.ts). As on a
// real photo of a Magic foil on wood (docs/held-out-photo-set-9.tsv, jojo-Screenshot 2026-04-13
// 185646.png): a screenshot's crop of a phone photo, the lens guessed, the card 1.427 tall. Read as
// the Topps card, its top border against its sides came out 1.1 points off the reading by hand.
import { describe, expect, it } from "vitest";
import { analyseFace } from "../../src/grading/engine/analyse-face";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import type { RgbaImage } from "../../src/grading/engine/image";
import { type CardScene, drawCardScene, encodeJpeg, truthOf } from "../helpers/card-images";
import { artPhoto, tablePhoto } from "../helpers/photos";
import { type RealisticCase, realisticScenes } from "../helpers/scene-sets";

/** Seed 4040's collector-bar case: print 1.6–4.1 mm into a bottom border 6.8 mm deep. */
const c = realisticScenes({ art: artPhoto, table: tablePhoto }, 5, 4040)[34] as RealisticCase;
/** The 1952 Topps card's proportions over the standard card's. */
const STRETCH = 95.3 / 66.7 / (88 / 63);

/** The photo stretched along its height (bilinear), as a crop taken for a whole photo stretches it. */
function stretched(image: RgbaImage, factor: number): RgbaImage {
  const { width, height, data } = image;
  const tall = Math.round(height * factor);
  const out = new Uint8Array(width * tall * 4);
  for (let y = 0; y < tall; y++) {
    const from = Math.min(height - 1, Math.max(0, (y + 0.5) / factor - 0.5));
    const y0 = Math.floor(from);
    const y1 = Math.min(height - 1, y0 + 1);
    const t = from - y0;
    for (let i = 0; i < width * 4; i++) {
      out[y * width * 4 + i] = Math.round(
        (data[y0 * width * 4 + i] ?? 0) * (1 - t) + (data[y1 * width * 4 + i] ?? 0) * t,
      );
    }
  }
  return { width, height: tall, data: out };
}

const photo = (scene: CardScene) => encodeJpeg(stretched(drawCardScene(scene), STRETCH), c.quality);

describe("the format a collector bar names", { timeout: 60_000 }, () => {
  it("reads a card with a collector bar, of the Topps card's shape in the photo, as the standard format", () => {
    expect(c.scene.collectorBar).toBe(true);
    const face = analyseFace("front", photo(c.scene));
    if (!face.ok) throw new Error(face.rejection.message);
    expect(face.face.aspect).toBeCloseTo(95.3 / 66.7, 1);
    expect(face.face.format.id).toBe("standard");
    expect(face.face.standardByBar).toBe(true);
    if (!face.face.centering.ok) throw new Error(face.face.centering.reason);
    expect(face.face.centering.bar).toBe("bottom");
    const truth = truthOf(c.scene);
    expect(Math.abs(face.face.centering.centering.left_right - truth.leftRight)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(face.face.centering.centering.top_bottom - truth.topBottom)).toBeLessThanOrEqual(0.5);
  });

  it("leaves a card of that shape without a bar as the Topps card", () => {
    const face = analyseFace("front", photo({ ...c.scene, borderPrint: undefined, collectorBar: undefined }));
    if (!face.ok) throw new Error(face.rejection.message);
    expect(face.face.format.id).toBe("vintage_topps_1952");
    expect(face.face.standardByBar).toBe(false);
  });

  it("measures the back, of the same shape and without a bar, as the front's standard format", async () => {
    const back = analyseFace("back", photo(c.back));
    if (!back.ok) throw new Error(back.rejection.message);
    expect(back.face.format.id).toBe("vintage_topps_1952");
    const result = await new BuiltinEngine().grade({
      front: { bytes: photo(c.scene), contentType: "image/jpeg" },
      back: { bytes: photo(c.back), contentType: "image/jpeg" },
    });
    if (result.status !== "graded") throw new Error(result.status === "rejected" ? result.message : result.status);
    const capture = result.model_grade.capture as Record<"front" | "back", { card_format: string }>;
    expect([capture.front.card_format, capture.back.card_format]).toEqual(["standard", "standard"]);
    expect(result.evidence?.faces.front.format.id).toBe("standard");
  });
});
