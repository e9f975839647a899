import { describe, expect, it } from "vitest";
import { decodeImage } from "../../src/grading/engine/decode";
import { findCardOutline, unwarpCard } from "../../src/grading/engine/geometry";
import { measureFrame } from "../../src/grading/engine/frame";
import { type CardScene, drawCardScene, encodeJpeg, truthOf } from "../helpers/card-images";

function measure(scene: CardScene, quality = 90) {
  const decoded = decodeImage(encodeJpeg(drawCardScene(scene), quality), 1600);
  const outline = findCardOutline(decoded.image);
  if (!outline.ok) return { error: outline.reason };
  const flat = unwarpCard(decoded.image, outline.outline.corners);
  const frame = measureFrame(flat);
  if (!frame.ok) return { error: frame.reason, outline: outline.outline };
  const { left, right, top, bottom } = frame.sides;
  return {
    horizontal: (left.width / (left.width + right.width)) * 100 - 50,
    vertical: (top.width / (top.width + bottom.width)) * 100 - 50,
    outline: outline.outline,
  };
}

describe("centering on drawn cards", () => {
  it("measures a simple card", () => {
    const scene: CardScene = {
      canvasWidth: 1200,
      canvasHeight: 900,
      cardWidth: 480,
      rotation: 2,
      borders: { left: 3.6, right: 2.4, top: 3, bottom: 3.4 },
      borderColor: [245, 200, 40],
      artColor: [40, 90, 160],
      background: [120, 80, 50],
      texture: "wood",
      noise: 3,
      lightFalloff: 0.15,
    };
    const result = measure(scene);
    const truth = truthOf(scene);
    console.log(JSON.stringify({ result, truth }));
    expect(result.error).toBeUndefined();
    expect(Math.abs((result.horizontal ?? 99) - truth.horizontal)).toBeLessThan(1);
    expect(Math.abs((result.vertical ?? 99) - truth.vertical)).toBeLessThan(1);
  });
});
