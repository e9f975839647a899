// A drawn card's front as the engine measures it, and how far its centering lies from the truth
// the scene was drawn with. Shared by the tests that grade a drawn photo whole.
import { analyseFace } from "../../src/grading/engine/analyse-face";
import { type CardScene, drawCardScene, encodeJpeg, truthOf } from "./card-images";

/**
 * The front of `scene`, drawn and encoded at `quality`, measured by the engine (a refusal is thrown,
 * its reason as the test's failure), and its centering's distance from the drawn truth per axis, in
 * points.
 */
export function measuredFront(scene: CardScene, quality: number) {
  const result = analyseFace("front", encodeJpeg(drawCardScene(scene), quality));
  if (!result.ok) throw new Error(result.rejection.message);
  if (!result.face.centering.ok) throw new Error(result.face.centering.reason);
  const truth = truthOf(scene);
  const { left_right, top_bottom } = result.face.centering.centering;
  return {
    face: result.face,
    offBy: { leftRight: Math.abs(left_right - truth.leftRight), topBottom: Math.abs(top_bottom - truth.topBottom) },
  };
}
