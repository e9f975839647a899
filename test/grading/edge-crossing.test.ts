// The sub-pixel edge crossing (src/grading/engine/edges.ts) on a synthetic profile with a thin
// border: a dark table, then 5 px of white border, then mid-grey artwork at the profile's inner
// end. Read between the profile's ends alone (table and art), the border lies at twice the step,
// so the 50 % level sits a quarter of the way up the edge's ramp: 0.25 px outside the edge.
// The blur (cardSideRise) on a Gaussian-blurred step, with and without a shadow lying against the
// cut outside the card: read on the card's side, it is the step's own 10–90 % rise (2.563 σ)
// either way, where a rise read between the profile's two ends takes the shadow in.
import { describe, expect, it } from "vitest";
import { cardSideRise, edgeCrossing, type RgbSampler } from "../../src/grading/engine/edges";
import { normalCdf } from "../helpers/normal";

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

/** White paper, a yellow border and the card's shadow on the paper (a photo under a lamp). */
const PAPER = [235, 235, 232];
const YELLOW = [226, 190, 40];
const SHADOW = [150, 150, 148];

/**
 * A step from paper to the yellow border at `edge`, blurred by a Gaussian of `sigma` px; with
 * `shadow` px of shadow against the cut outside the card, blurred alike.
 */
function blurredStep(edge: number, sigma: number, shadow = 0): RgbSampler {
  return (x, _y, out) => {
    const onCard = normalCdf((x - edge) / sigma);
    const inShadow = shadow > 0 ? normalCdf((x - edge + shadow) / sigma) - onCard : 0;
    out.set(PAPER.map((v, i) => v * (1 - onCard - inShadow) + (YELLOW[i] ?? 0) * onCard + (SHADOW[i] ?? 0) * inShadow));
  };
}

describe("cardSideRise", () => {
  it("reads a blurred step's 10–90 % rise wherever the step lies on the profile", () => {
    for (const sigma of [1, 2, 3]) {
      for (const edge of [-1.3, 0, 0.8]) {
        const rise = cardSideRise(blurredStep(edge, sigma), { x: 0, y: 0 }, 1, 0, 14);
        expect(Math.abs((rise ?? Number.NaN) / (2.563 * sigma) - 1)).toBeLessThan(0.05);
      }
    }
  });

  it("leaves out a shadow lying against the cut, which the rise between the profile's ends takes in", () => {
    for (const sigma of [1, 2]) {
      const sampler = blurredStep(0, sigma, 5);
      const rise = cardSideRise(sampler, { x: 0, y: 0 }, 1, 0, 14);
      expect(Math.abs((rise ?? Number.NaN) / (2.563 * sigma) - 1)).toBeLessThan(0.05);
      const acrossBoth = edgeCrossing(sampler, { x: 0, y: 0 }, 1, 0, 14);
      expect(acrossBoth?.width ?? 0).toBeGreaterThan(1.5 * 2.563 * sigma);
    }
  });

  it("answers null where the profile shows no step", () => {
    const flat: RgbSampler = (_x, _y, out) => out.set(TABLE);
    expect(cardSideRise(flat, { x: 0, y: 0 }, 1, 0, 6)).toBeNull();
  });

  it("reads a sharp cut's rise on a border thinner than the profile reaches, not the art beyond it", () => {
    // A red border 4 px wide, then light art: a card with a thin border small in a sharp photo.
    // The profile's inner end lies in the art; read there, the "card's colour" is the art's and
    // the rise runs past the whole border (7.7 px here: 1.7 mm of blur at 4.5 px/mm).
    const red = [200, 30, 40];
    const art = [230, 140, 95];
    for (const sigma of [0.4, 0.6]) {
      const sampler: RgbSampler = (x, _y, out) => {
        const w = normalCdf(x / sigma);
        const border = red.map((v, ch) => (TABLE[ch] ?? 0) + (v - (TABLE[ch] ?? 0)) * w);
        out.set(x < 4 ? border : art);
      };
      const rise = cardSideRise(sampler, { x: 0, y: 0 }, 1, 0, 7);
      expect(rise).not.toBeNull();
      expect(rise ?? Number.NaN).toBeLessThan(2.563 * sigma + 0.5);
    }
  });
});
