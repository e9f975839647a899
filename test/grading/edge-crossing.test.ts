// The sub-pixel edge crossing (src/grading/engine/edges.ts) on a synthetic profile with a thin
// border: a dark table, then 5 px of white border, then mid-grey artwork at the profile's inner
// end. Read between the profile's ends alone (table and art), the border lies at twice the step,
// so the 50 % level sits a quarter of the way up the edge's ramp: 0.25 px outside the edge.
import { describe, expect, it } from "vitest";
import { edgeCrossing, type RgbSampler } from "../../src/grading/engine/edges";

const TABLE = [40, 40, 40];
const BORDER = [240, 240, 240];
const ART = [140, 140, 140];

/** Colour at distance `t` along the profile (x), the card's edge at `edge` with a 1 px ramp. */
function sampler(edge: number, borderWidth: number): RgbSampler {
  const mix = (a: number[], b: number[], w: number) => a.map((v, i) => v + ((b[i] ?? 0) - v) * w);
  const clamp = (w: number) => Math.min(1, Math.max(0, w));
  return (x, _y, out) => {
    const cardSide = mix(TABLE, BORDER, clamp(x - edge + 0.5));
    const colour = mix(cardSide, ART, clamp(x - edge - borderWidth + 0.5));
    out.set(colour);
  };
}

describe("edgeCrossing", () => {
  it("places a thin border's edge where the border begins, not pulled by the art at the profile's end", () => {
    for (const edge of [-1.3, -0.4, 0, 0.7, 1.6]) {
      const crossing = edgeCrossing(sampler(edge, 5), { x: 0, y: 0 }, 1, 0, 6);
      expect(crossing).not.toBeNull();
      expect(Math.abs((crossing?.t ?? Number.NaN) - edge)).toBeLessThan(0.05);
    }
  });

  it("answers null where the profile shows no step", () => {
    const flat: RgbSampler = (_x, _y, out) => out.set(TABLE);
    expect(edgeCrossing(flat, { x: 0, y: 0 }, 1, 0, 6)).toBeNull();
  });
});
