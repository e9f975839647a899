import { afterAll, describe, expect, it } from "vitest";
import { decodeImage } from "../../src/grading/engine/decode";
import { measureFrame } from "../../src/grading/engine/frame";
import { findCardOutline, unwarpCard } from "../../src/grading/engine/geometry";
import { type CardScene, drawCardScene, encodeJpeg, truthOf } from "../helpers/card-images";
import { cleanScenes } from "../helpers/scene-sets";

function measure(scene: CardScene, quality: number) {
  const decoded = decodeImage(encodeJpeg(drawCardScene(scene), quality), 1600);
  const outline = findCardOutline(decoded.image);
  if (!outline.ok) return { error: outline.reason };
  const flat = unwarpCard(decoded.image, outline.outline.corners);
  const frame = measureFrame(flat);
  if (!frame.ok) return { error: frame.reason };
  const { left, right, top, bottom } = frame.sides;
  return {
    horizontal: (left.width / (left.width + right.width)) * 100 - 50,
    vertical: (top.width / (top.width + bottom.width)) * 100 - 50,
  };
}

const errors: number[] = [];

describe("centering on 50 drawn cards with known geometry", { timeout: 15_000 }, () => {
  afterAll(() => {
    const mean = errors.reduce((sum, e) => sum + e, 0) / errors.length;
    console.log(
      `centering error over ${errors.length} cards: mean ${mean.toFixed(3)} pp, max ${Math.max(...errors).toFixed(3)} pp`,
    );
  });

  it.each(cleanScenes(50).map((c) => [c.name, c] as const))(
    "%s is within 1 percentage point of the truth",
    (_name, { scene, quality }) => {
      const result = measure(scene, quality);
      expect("error" in result ? result.error : null).toBeNull();
      if ("error" in result) return;
      const truth = truthOf(scene);
      const error = Math.max(
        Math.abs(result.horizontal - truth.horizontal),
        Math.abs(result.vertical - truth.vertical),
      );
      errors.push(error);
      expect(error).toBeLessThan(1);
    },
  );
});
