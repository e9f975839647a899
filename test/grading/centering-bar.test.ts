// Centering read past a collector bar (centering.ts, designedWidths): an end border printed as a
// bar deeper than the others is not compared with the other end; the other end is read against
// the side borders' mean. And a third scale settling two scales a little apart.
import { describe, expect, it } from "vitest";
import {
  agreeAtThreeScales,
  agreeOnCentering,
  centeringSigma,
  faceCentering,
} from "../../src/grading/engine/centering";
import type { FrameResult } from "../../src/grading/engine/frame";
import { SIDES, type Side, type SideMeasurement } from "../../src/grading/engine/frame-side";
import { FLAT_PX_PER_MM } from "../../src/grading/engine/geometry";
import { cleanSide } from "../helpers/side-measurement";

const px = (mm: number) => mm * FLAT_PX_PER_MM;

function side(widthMm: number): SideMeasurement {
  return cleanSide(px(widthMm), [20, 20, 22], 3);
}

function frame(mm: Record<Side, number>, bar: "top" | "bottom" | null): FrameResult {
  const sides = Object.fromEntries(SIDES.map((s) => [s, side(mm[s])])) as Record<Side, SideMeasurement>;
  return { ok: true, sides, bar };
}

describe("centering past a collector bar", () => {
  it("reads the top against the side borders' mean, and reports the borders measured", () => {
    const widths = { left: px(2.4), right: px(2.6), top: px(2.3), bottom: px(6.5) };
    const c = faceCentering(widths, "bottom");
    expect(c.top_bottom).toBeCloseTo((2.3 / 5) * 100, 6);
    expect(c.left_right).toBeCloseTo(48, 6);
    expect(c.borders_mm).toEqual({ left: 2.4, right: 2.6, top: 2.3, bottom: 6.5 });
    // A bar at the top (the card upside down in the photo): the bottom against the sides.
    expect(faceCentering({ ...widths, top: px(6.5), bottom: px(2.3) }, "top").top_bottom).toBeCloseTo(54, 6);
    // No bar: the two ends against each other, as always.
    expect(faceCentering(widths).top_bottom).toBeCloseTo((2.3 / 8.8) * 100, 6);
  });

  it("is not moved by a miscut across the card", () => {
    // The same print shifted 0.3 mm to the right: the sides' mean, and so top to bottom, stay.
    const centred = faceCentering({ left: px(2.5), right: px(2.5), top: px(2.2), bottom: px(6.8) }, "bottom");
    const shifted = faceCentering({ left: px(2.8), right: px(2.2), top: px(2.2), bottom: px(6.8) }, "bottom");
    expect(shifted.top_bottom).toBeCloseTo(centred.top_bottom, 9);
    expect(shifted.left_right).toBeCloseTo(56, 6);
  });

  it("does not hold the bar's own line to the two scales' agreement, but holds the others", () => {
    const full = frame({ left: 2.5, right: 2.5, top: 2.4, bottom: 6.5 }, "bottom");
    // The line behind the bar 0.3 mm deeper at half resolution: it is in no offset.
    const barMoved = agreeOnCentering(full, frame({ left: 2.5, right: 2.5, top: 2.4, bottom: 6.8 }, "bottom"));
    expect(barMoved).toMatchObject({ ok: true, bar: "bottom" });
    if (barMoved.ok) expect(barMoved.centering.top_bottom).toBeCloseTo(48, 6);
    // The top 0.1 mm apart: 2 points on this axis, refused, and the top named.
    const topMoved = agreeOnCentering(full, frame({ left: 2.5, right: 2.5, top: 2.5, bottom: 6.5 }, "bottom"));
    expect(topMoved).toMatchObject({ ok: false, side: "top" });
  });

  it("refuses a bar read at one scale only", () => {
    const full = frame({ left: 2.5, right: 2.5, top: 2.4, bottom: 6.5 }, "bottom");
    const half = frame({ left: 2.5, right: 2.5, top: 2.4, bottom: 6.5 }, null);
    const result = agreeOnCentering(full, half);
    expect(result).toMatchObject({ ok: false, side: "bottom" });
    if (!result.ok) expect(result.reason).toMatch(/bottom border reads as a bar of print .* at full resolution only/);
  });

  it("refuses an end as wide as the two sides together, which no shift of the print explains", () => {
    const full = frame({ left: 1.2, right: 1.3, top: 2.6, bottom: 6.5 }, "bottom");
    const result = agreeOnCentering(full, full);
    expect(result).toMatchObject({ ok: false, side: "top" });
    if (!result.ok) expect(result.reason).toMatch(/as wide as the left and right ones together/);
  });

  it("predicts √3 times the scatter on the axis read past the bar", () => {
    const widths = { left: px(2.5), right: px(2.5), top: px(2.5), bottom: px(6.5) };
    const plain = centeringSigma(2, 10, 8, { ...widths, bottom: px(2.5) });
    expect(centeringSigma(2, 10, 8, widths, "bottom")).toBeCloseTo(plain * Math.sqrt(3), 9);
    // Without the bar the deep bottom would widen that axis and shrink its scatter: the sides' axis rules.
    expect(centeringSigma(2, 10, 8, widths)).toBeCloseTo(plain, 9);
  });
});

describe("a third scale settling two scales a little apart (agreeAtThreeScales)", () => {
  const full = frame({ left: 2.5, right: 2.9, top: 3.0, bottom: 3.2 }, null);
  // The half copy reads the right frame 0.07 mm deeper: 0.6 points on this axis.
  const half = frame({ left: 2.5, right: 2.97, top: 3.0, bottom: 3.2 }, null);

  it("takes the full scale's reading when the three-quarter copy agrees with it, reporting the full and half scales' disagreement", () => {
    expect(agreeOnCentering(full, half)).toMatchObject({ ok: false, side: "right" });
    // A sharp photo: the card's cut rising over 0.2 mm.
    const settled = agreeAtThreeScales(
      full,
      half,
      () => frame({ left: 2.5, right: 2.91, top: 3.0, bottom: 3.2 }, null),
      0.2,
    );
    expect(settled.ok).toBe(true);
    if (!settled.ok) return;
    expect(settled.centering).toEqual(faceCentering({ left: px(2.5), right: px(2.9), top: px(3), bottom: px(3.2) }));
    expect(settled.agreement).toBeGreaterThan(0.5);
    expect(settled.agreement).toBeLessThanOrEqual(1);
  });

  it("refuses when the three-quarter copy agrees but the reading at twice the resolution, which the photo holds, does not", () => {
    const quarter = () => frame({ left: 2.5, right: 2.91, top: 3.0, bottom: 3.2 }, null);
    // The finer reading puts the right frame 0.06 mm deeper than the flat card: 0.5 points and more.
    const finer = frame({ left: 2.5, right: 2.96, top: 3.0, bottom: 3.2 }, null);
    const result = agreeAtThreeScales(full, half, quarter, 0.2, () => finer);
    expect(result).toMatchObject({ ok: false, side: "right" });
    if (!result.ok) {
      expect(result.reason).toMatch(
        /three-quarter resolution agrees with the full one, but a reading at twice the resolution does not/,
      );
    }
    // Agreeing, or not held by the photo, it does not stand in the way.
    expect(
      agreeAtThreeScales(full, half, quarter, 0.2, () => frame({ left: 2.5, right: 2.9, top: 3.0, bottom: 3.2 }, null))
        .ok,
    ).toBe(true);
    expect(agreeAtThreeScales(full, half, quarter, 0.2, () => null).ok).toBe(true);
  });

  it("refuses, naming the side, when the three-quarter copy does not agree either", () => {
    const result = agreeAtThreeScales(
      full,
      half,
      () => frame({ left: 2.5, right: 2.98, top: 3.0, bottom: 3.2 }, null),
      0.2,
    );
    expect(result).toMatchObject({ ok: false, side: "right" });
    if (!result.ok) expect(result.reason).toMatch(/half resolution.*three-quarter resolution does not settle it/);
  });

  it("asks no third scale of two scales more than a point apart, of two that agree, or in a soft photo", () => {
    const unasked = () => {
      throw new Error("the three-quarter copy was read");
    };
    const farApart = frame({ left: 2.5, right: 3.1, top: 3.0, bottom: 3.2 }, null);
    expect(agreeAtThreeScales(full, farApart, unasked, 0.2)).toMatchObject({ ok: false, side: "right" });
    expect(agreeAtThreeScales(full, full, unasked, 0.2)).toMatchObject({ ok: true, agreement: 0 });
    // The card's cut rising over 0.54 mm: the frame's step spread wider than the half copy's pixel.
    const soft = agreeAtThreeScales(full, half, unasked, 0.54);
    expect(soft).toMatchObject({ ok: false, side: "right" });
    if (!soft.ok) expect(soft.reason).not.toMatch(/three-quarter/);
  });
});

describe("a reading at twice the resolution settling two scales up to 2 points apart (agreeAtThreeScales)", () => {
  const full = frame({ left: 2.5, right: 2.9, top: 3.0, bottom: 3.2 }, null);
  // The half copy reads the right frame 0.2 mm deeper (a rim merged into its pixels): 1.7 points.
  const half = frame({ left: 2.5, right: 3.1, top: 3.0, bottom: 3.2 }, null);
  const threeQuarter = () => frame({ left: 2.5, right: 3.0, top: 3.0, bottom: 3.2 }, null);
  const unasked = () => {
    throw new Error("the reading at twice the resolution was asked");
  };

  it("takes the full scale's reading when the finer reading agrees with it, reporting the half copy's disagreement", () => {
    const settled = agreeAtThreeScales(full, half, threeQuarter, 0.2, () =>
      frame({ left: 2.51, right: 2.92, top: 3.0, bottom: 3.19 }, null),
    );
    expect(settled.ok).toBe(true);
    if (!settled.ok) return;
    expect(settled.widths).toEqual({ left: px(2.5), right: px(2.9), top: px(3), bottom: px(3.2) });
    expect(settled.agreement).toBeGreaterThan(1.5);
    expect(settled.agreement).toBeLessThanOrEqual(2);
  });

  it("holds the finer reading to a quarter of a flat-card pixel where the centering moves more than half a point", () => {
    // 0.04 mm deeper on the right (0.35 points here): within half a point, so it agrees.
    expect(
      agreeAtThreeScales(full, half, threeQuarter, 0.2, () => frame({ ...mmOf(full), right: 2.94 }, null)).ok,
    ).toBe(true);
    // 0.06 mm deeper (0.51 points): past both half a point and a quarter of a flat-card pixel,
    // though within the quarter of a half-copy pixel (0.0625 mm) the half copy is held to.
    const refused = agreeAtThreeScales(full, half, threeQuarter, 0.2, () =>
      frame({ ...mmOf(full), right: 2.96 }, null),
    );
    expect(refused).toMatchObject({ ok: false, side: "right" });
    if (!refused.ok) expect(refused.reason).toMatch(/reading at twice the resolution does not settle it/);
  });

  it("names both readings that did not settle two scales within a point", () => {
    const closer = frame({ left: 2.5, right: 2.97, top: 3.0, bottom: 3.2 }, null);
    const result = agreeAtThreeScales(
      full,
      closer,
      () => closer,
      0.2,
      () => closer,
    );
    expect(result).toMatchObject({ ok: false, side: "right" });
    if (!result.ok) {
      expect(result.reason).toMatch(
        /readings at three-quarter resolution and at twice the resolution do not settle it/,
      );
    }
  });

  it("is not asked of two scales more than 2 points apart, in a soft photo, or where the photo holds too few pixels", () => {
    const farApart = frame({ left: 2.5, right: 3.2, top: 3.0, bottom: 3.2 }, null);
    expect(agreeAtThreeScales(full, farApart, threeQuarter, 0.2, unasked)).toMatchObject({ ok: false, side: "right" });
    const soft = agreeAtThreeScales(full, half, unasked, 0.54, unasked);
    expect(soft).toMatchObject({ ok: false, side: "right" });
    // No finer reading to be had: the half copy's refusal stands, naming no reading that was not made.
    const none = agreeAtThreeScales(full, half, threeQuarter, 0.2, () => null);
    expect(none).toMatchObject({ ok: false, side: "right" });
    if (!none.ok) expect(none.reason).not.toMatch(/twice the resolution|three-quarter/);
  });
});

function mmOf(result: FrameResult): Record<Side, number> {
  if (!result.ok) throw new Error("no frame");
  return Object.fromEntries(SIDES.map((s) => [s, result.sides[s].width / FLAT_PX_PER_MM])) as Record<Side, number>;
}
