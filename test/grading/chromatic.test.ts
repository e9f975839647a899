// Lateral chromatic aberration (src/grading/engine/chromatic.ts): drawn photos of the realistic
// set whose red channel is shrunk and blue enlarged about the photo's centre, each edge moved 2 px
// at the photo's corners (1200 × 900). Read in colour, the cut and the frame land where the
// channels carrying their contrast put them: a thin black border on a green lawn, off the photo's
// centre, graded 2.95 points off before the aberration was measured and taken out. The card's
// outline measures it (red and blue against green, side by side), and the corrected photo
// measures none; a photo without it is left as it is.
import { describe, expect, it } from "vitest";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import { measureAberration, withoutAberration } from "../../src/grading/engine/chromatic";
import { locateCard } from "../../src/grading/engine/find-card";
import { drawCardScene, encodeJpeg, truthOf } from "../helpers/card-images";
import { artPhoto, tablePhoto } from "../helpers/photos";
import { type RealisticCase, realisticScenes } from "../helpers/scene-sets";

const sets = { art: artPhoto, table: tablePhoto };
/** A thin black border on a lawn, its centre 4 % of the photo's width right of the photo's. */
const lawn = realisticScenes(sets, 5, 2020)[0] as RealisticCase;
const CORNER_PX = 2;

function outlineOf(scene: RealisticCase["scene"]) {
  const image = drawCardScene(scene);
  const located = locateCard(image);
  if (!located.ok) throw new Error(located.reason);
  return { image, quad: located.card.quad, reach: located.card.reach + 2 };
}

describe("lateral chromatic aberration", { timeout: 60_000 }, () => {
  it("measures none on a photo without it", () => {
    const { image, quad, reach } = outlineOf(lawn.scene);
    expect(measureAberration(image, quad, reach, { x: image.width / 2, y: image.height / 2 })).toBeNull();
  });

  it("measures red shrunk and blue enlarged by the drawn share, and none once taken out", () => {
    const { image, quad, reach } = outlineOf({ ...lawn.scene, lateralAberration: CORNER_PX });
    const centre = { x: image.width / 2, y: image.height / 2 };
    const aberration = measureAberration(image, quad, reach, centre);
    expect(aberration).not.toBeNull();
    if (!aberration) return;
    const share = CORNER_PX / Math.hypot(centre.x, centre.y);
    expect(aberration.red).toBeCloseTo(-share, 3);
    expect(aberration.blue).toBeCloseTo(share, 3);
    expect(measureAberration(withoutAberration(image, aberration), quad, reach, centre)).toBeNull();
  });

  it("grades the card within a point of its drawn centering with the aberration taken out", async () => {
    const scene = { ...lawn.scene, lateralAberration: CORNER_PX };
    const result = await new BuiltinEngine().grade({
      front: { bytes: encodeJpeg(drawCardScene(scene), lawn.quality), contentType: "image/jpeg" },
      back: {
        bytes: encodeJpeg(drawCardScene({ ...lawn.back, lateralAberration: CORNER_PX }), lawn.quality),
        contentType: "image/jpeg",
      },
    });
    if (result.status !== "graded") throw new Error(JSON.stringify(result));
    const truth = truthOf(scene);
    expect(Math.abs(result.centering_offset.horizontal - truth.horizontal)).toBeLessThanOrEqual(1);
    expect(Math.abs(result.centering_offset.vertical - truth.vertical)).toBeLessThanOrEqual(1);
  });
});
