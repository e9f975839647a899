import { afterAll, describe, expect, it } from "vitest";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import { backOf, drawCardScene, encodeJpeg, truthOf } from "../helpers/card-images";
import { cleanScenes } from "../helpers/scene-sets";

// 50 drawn photos with known geometry (6 tables, 5 border colours, ±3°, keystone, shadows, JPEG
// q70–95, sensor noise, uneven light) graded by the whole engine: none may be refused, and the
// measured front centering must be within 1 percentage point of the drawn truth on both axes.
const engine = new BuiltinEngine();
const errors: number[] = [];

describe("centering on 50 drawn cards with known geometry", { timeout: 20_000 }, () => {
  afterAll(() => {
    const mean = errors.reduce((sum, e) => sum + e, 0) / errors.length;
    console.log(
      `centering error over ${errors.length} cards: mean ${mean.toFixed(3)} pp, max ${Math.max(...errors).toFixed(3)} pp`,
    );
  });

  it.each(cleanScenes(50).map((c) => [c.name, c] as const))(
    "%s: graded, centering within 1 pp",
    async (_name, { scene, quality }) => {
      const result = await engine.grade({
        front: { bytes: encodeJpeg(drawCardScene(scene), quality), contentType: "image/jpeg" },
        back: { bytes: encodeJpeg(drawCardScene(backOf(scene)), quality), contentType: "image/jpeg" },
      });
      expect(result.status === "graded" ? null : result).toBeNull();
      if (result.status !== "graded") return;
      const truth = truthOf(scene);
      const horizontal = result.centering.front.left_right - 50;
      const vertical = result.centering.front.top_bottom - 50;
      const error = Math.max(Math.abs(horizontal - truth.horizontal), Math.abs(vertical - truth.vertical));
      errors.push(error);
      expect(error).toBeLessThan(1);
      expect(Math.abs(result.centering_offset.horizontal - truth.horizontal)).toBeLessThan(1.05);
    },
  );
});
