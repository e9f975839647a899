// The rectangle rectification (rectify.ts) on quadrilaterals projected exactly through a pinhole
// camera: with the lens's focal length (from EXIF) the card's proportions come back whatever the
// slant; with an assumed one they come back only when the guess is near the lens's.
import { describe, expect, it } from "vitest";
import { analyseFace } from "../../src/grading/engine/analyse-face";
import type { CardFormat } from "../../src/grading/engine/evidence";
import { FORMATS, formatAcrossLenses, STANDARD_FORMAT } from "../../src/grading/engine/formats";
import type { Point, Quad } from "../../src/grading/engine/geometry";
import {
  aspectsAcrossLenses,
  cornerSensitivity,
  DEFAULT_FOCAL_SHARE,
  lensMatters,
  liesDiagonally,
  orientCard,
  photoOrder,
  rectangleProportions,
  telephotoFormat,
  vanishingFocal,
} from "../../src/grading/engine/rectify";
import { drawCardScene, encodeJpeg, truthOf } from "../helpers/card-images";
import { cleanScenes } from "../helpers/scene-sets";

const PHOTO = { width: 1600, height: 1200 } as const;
const CARD_RATIO = 63 / 88;

/**
 * The corners (tl, tr, br, bl) of a 63 × 88 mm card drawn `scale` px per mm, centred `offset` px
 * from the photo's centre, turned `turnDeg` in its own plane (then both pairs of its sides
 * converge, and the vanishing points give a focal length), tilted `tiltDeg` about its horizontal
 * midline (top away from the lens), through a lens of focal length `focal` px whose principal
 * point is the photo's centre.
 */
function projectedCard(focal: number, tiltDeg: number, offset: Point = { x: 0, y: 0 }, scale = 5, turnDeg = 0): Quad {
  const tilt = (tiltDeg * Math.PI) / 180;
  const turn = (turnDeg * Math.PI) / 180;
  const corners = [
    [-31.5, -44],
    [31.5, -44],
    [31.5, 44],
    [-31.5, 44],
  ] as const;
  return corners.map(([u0, v0]) => {
    const u = u0 * Math.cos(turn) - v0 * Math.sin(turn);
    const v = u0 * Math.sin(turn) + v0 * Math.cos(turn);
    // The card's centre sits at depth `focal` (drawn at `scale` when untilted), offset in the plane.
    const x = offset.x + u * scale;
    const y = offset.y + v * scale * Math.cos(tilt);
    const z = focal - v * scale * Math.sin(tilt);
    return { x: PHOTO.width / 2 + (focal * x) / z, y: PHOTO.height / 2 + (focal * y) / z };
  }) as Quad;
}

const longSide = Math.max(PHOTO.width, PHOTO.height);
/** A card turned 30° in its plane and tilted 35°, through a lens of `share` × the longer side. */
const turnedCard = (share: number) => projectedCard(share * longSide, 35, { x: 0, y: 0 }, 5, 30);

describe("rectangleProportions", () => {
  it.each([
    [0.35, 35],
    [0.75, 30],
    [1.5, 25],
    [2.2, 40],
  ])(
    "recovers 63 × 88 from a card tilted away, with the lens's focal length (%s × the longer side, %s°)",
    (share, tilt) => {
      const focal = share * longSide;
      const measured = rectangleProportions(
        projectedCard(focal, tilt, { x: 120, y: -80 }),
        PHOTO.width,
        PHOTO.height,
        focal,
      );
      expect(measured.focalSource).toBe("exif");
      expect(measured.focal).toBe(focal);
      expect(measured.ratio).toBeCloseTo(CARD_RATIO, 4);
    },
  );

  it("without the lens, a slanted card seen through a lens far from the assumed one reads the wrong shape", () => {
    // Only the vertical sides converge: the vanishing geometry leaves the focal length open.
    const wide = rectangleProportions(projectedCard(0.35 * longSide, 35), PHOTO.width, PHOTO.height);
    const tele = rectangleProportions(projectedCard(1.5 * longSide, 25), PHOTO.width, PHOTO.height);
    for (const measured of [wide, tele]) {
      expect(measured.focalSource).toBe("assumed");
      expect(measured.focal).toBe(DEFAULT_FOCAL_SHARE * longSide);
      expect(Math.abs(measured.ratio / CARD_RATIO - 1)).toBeGreaterThan(0.03);
    }
    // Even a phone's 24 mm-equivalent main camera (0.7 ×) against the assumed 26 mm one, at 30°,
    // reads the shape more than 1 % off: as far as the format tolerance.
    const usual = rectangleProportions(projectedCard(0.7 * longSide, 30), PHOTO.width, PHOTO.height);
    expect(Math.abs(usual.ratio / CARD_RATIO - 1)).toBeGreaterThan(0.01);
  });

  it("takes the focal length from the vanishing points only within phones' main cameras", () => {
    // Turned 30° and tilted 35°: both pairs of sides converge. Through a 0.8 × lens the vanishing
    // points give it back, and the card's shape with it.
    const main = rectangleProportions(turnedCard(0.8), PHOTO.width, PHOTO.height);
    expect(main.focalSource).toBe("vanishing_points");
    expect(main.focal / longSide).toBeCloseTo(0.8, 3);
    expect(main.ratio).toBeCloseTo(CARD_RATIO, 4);
    // 0.45 × is an ultra-wide lens, or (more often, on real photos of a card) a misreading: two
    // photos of a Pokémon card on a desk gave 0.46 and 0.49, and read 1.28 tall, no card's shape,
    // where the assumed 0.75 reads 1.395 and 1.397. Outside 0.6–0.9 the lens is assumed, and the
    // shape is read across main-camera lenses (analyse-face.ts).
    const wide = rectangleProportions(turnedCard(0.45), PHOTO.width, PHOTO.height);
    expect(wide.focalSource).toBe("assumed");
    expect(wide.focal).toBe(DEFAULT_FOCAL_SHARE * longSide);
  });

  it("takes no focal length from vanishing points that a pixel at one corner moves", () => {
    // Turned 4° and tilted 35° through a 0.8 × lens, the card's near and far sides are nearly
    // parallel: their vanishing point lies far off. Its exact corners give the lens back, but with
    // one corner a pixel off, the length read (0.8 ± about 0.03) moves the card's shape by more
    // than the format tolerance; such a length is not taken, and the lens is assumed (its shape is
    // then read across main-camera lenses, analyse-face.ts).
    const nearlyParallel = projectedCard(0.8 * longSide, 35, { x: 0, y: 0 }, 5, 4);
    const unsteady = rectangleProportions(nearlyParallel, PHOTO.width, PHOTO.height);
    expect(unsteady.focalSource).toBe("assumed");
    expect(unsteady.focal).toBe(DEFAULT_FOCAL_SHARE * longSide);
    // What the vanishing points alone give: the lens, from the exact corners; with the bottom-right
    // corner a pixel to the right, another lens, through which the card reads more than 1 % off.
    const share = (quad: Quad) => (vanishingFocal(quad, PHOTO.width, PHOTO.height) ?? Number.NaN) / longSide;
    const pixelOff = nearlyParallel.map((p, i) => (i === 2 ? { x: p.x + 1, y: p.y } : p)) as Quad;
    expect(share(nearlyParallel)).toBeCloseTo(0.8, 6);
    expect(Math.abs(share(pixelOff) - 0.8)).toBeGreaterThan(0.01);
    const aspectThrough = (s: number) =>
      1 / rectangleProportions(nearlyParallel, PHOTO.width, PHOTO.height, s * longSide).ratio;
    expect(Math.abs(aspectThrough(share(pixelOff)) / aspectThrough(0.8) - 1)).toBeGreaterThan(0.005);
    // Turned 30°, both vanishing points lie near: a pixel moves the length little, and it is taken.
    const steady = rectangleProportions(turnedCard(0.8), PHOTO.width, PHOTO.height);
    expect(steady.focalSource).toBe("vanishing_points");
    expect(steady.ratio).toBeCloseTo(CARD_RATIO, 4);
  });

  it.each([0, 20, 40])("reads the slant of a card tilted %s° and turned 30°, with the lens's focal length", (tilt) => {
    const focal = 0.75 * longSide;
    const quad = projectedCard(focal, tilt, { x: 120, y: -80 }, 5, 30);
    expect(rectangleProportions(quad, PHOTO.width, PHOTO.height, focal).slant).toBeCloseTo(tilt, 1);
  });

  it("places a steeply slanted card's proportions less exactly by its corners than a card square to the lens", () => {
    const focal = 0.75 * longSide;
    const square = cornerSensitivity(projectedCard(focal, 0), PHOTO.width, PHOTO.height, focal);
    const steep = cornerSensitivity(projectedCard(focal, 40), PHOTO.width, PHOTO.height, focal);
    // 440 px tall, a pixel is about 0.2 % of either side.
    expect(square).toBeGreaterThan(0.001);
    expect(square).toBeLessThan(0.004);
    expect(steep).toBeGreaterThan(1.3 * square);
  });

  it("reads a card square to the lens the same with or without the focal length", () => {
    const quad = projectedCard(0.75 * longSide, 0, { x: -200, y: 150 });
    expect(rectangleProportions(quad, PHOTO.width, PHOTO.height).ratio).toBeCloseTo(CARD_RATIO, 6);
    expect(rectangleProportions(quad, PHOTO.width, PHOTO.height, 2 * longSide).ratio).toBeCloseTo(CARD_RATIO, 6);
  });

  it("tells when the lens matters: a steep slant, not a card nearly square to the lens", () => {
    const main = 0.75 * longSide;
    const matters = (quad: Quad) => lensMatters(aspectsAcrossLenses(quad, PHOTO.width, PHOTO.height));
    expect(matters(projectedCard(main, 0, { x: 150, y: -100 }))).toBe(false);
    expect(matters(projectedCard(main, 5))).toBe(false);
    expect(matters(projectedCard(main, 30))).toBe(true);
  });

  it("reads a slanted card's possible proportions across main-camera lenses, its own among them", () => {
    const aspects = aspectsAcrossLenses(projectedCard(0.75 * longSide, 25), PHOTO.width, PHOTO.height);
    expect(aspects).toHaveLength(13);
    expect(Math.min(...aspects)).toBeLessThan(88 / 63);
    expect(Math.max(...aspects)).toBeGreaterThan(88 / 63);
  });
});

describe("telephotoFormat", () => {
  /** The mm-equivalent of `focal` px on PHOTO (its diagonal against a 35 mm frame's). */
  const mmEquivalent = (focal: number) => (focal * Math.hypot(36, 24)) / Math.hypot(PHOTO.width, PHOTO.height);

  it("reads a card slanted through a 2× or 3× telephoto as the standard card through the shortest telephoto that gives it", () => {
    for (const lens of [52, 77]) {
      const focal = (lens * Math.hypot(PHOTO.width, PHOTO.height)) / Math.hypot(36, 24);
      const quad = projectedCard(focal, 25, { x: 0, y: 0 }, 5 * (focal / (0.75 * longSide)));
      // Through the assumed main camera's lens it is no card (1.3 tall or less).
      expect(orientCard(quad, PHOTO.width, PHOTO.height).aspect).toBeLessThan(1.33);
      const reading = telephotoFormat(quad, PHOTO.width, PHOTO.height);
      expect(reading?.format).toEqual(STANDARD_FORMAT);
      expect(reading?.candidates).toContainEqual(STANDARD_FORMAT);
      expect(Math.abs((reading?.aspect ?? 0) / (88 / 63) - 1)).toBeLessThanOrEqual(0.01);
      expect(mmEquivalent(reading?.focal ?? 0)).toBeGreaterThan(26);
      expect(mmEquivalent(reading?.focal ?? 0)).toBeLessThanOrEqual(lens);
    }
  });

  it("reads nothing for a card square to the lens, or one slanted through a lens longer than a 3× telephoto", () => {
    expect(telephotoFormat(projectedCard(0.75 * longSide, 0, { x: -200, y: 150 }), PHOTO.width, PHOTO.height)).toBe(
      null,
    );
    const focal = (150 * Math.hypot(PHOTO.width, PHOTO.height)) / Math.hypot(36, 24);
    const far = projectedCard(focal, 25, { x: 0, y: 0 }, 5 * (focal / (0.75 * longSide)));
    expect(telephotoFormat(far, PHOTO.width, PHOTO.height)).toBe(null);
  });
});

describe("formatAcrossLenses", () => {
  const ids = (aspects: number[]) => {
    const { format, candidates } = formatAcrossLenses(aspects);
    return { format: format?.id ?? null, candidates: candidates.map((candidate) => candidate.id) };
  };

  it("takes standard when the proportions fit it through some lens, else the only format they fit", () => {
    expect(ids([1.39, 1.41, 1.43, 1.45])).toEqual({
      format: "standard",
      candidates: ["standard", "small", "vintage_topps_1952"],
    });
    expect(ids([1.455, 1.46, 1.465])).toEqual({ format: "small", candidates: ["small"] });
  });

  it("claims none when no format fits, or when two that are not standard tie", () => {
    expect(ids([1.3, 1.32, 1.34])).toEqual({ format: null, candidates: [] });
    expect(ids([1.43, 1.445, 1.46])).toEqual({ format: null, candidates: ["small", "vintage_topps_1952"] });
  });
});

describe("liesDiagonally", () => {
  const focal = DEFAULT_FOCAL_SHARE * longSide;
  /** A card turned `turnDeg` (clockwise on screen) and tilted `tiltDeg`, in photo order. */
  const card = (turnDeg: number, tiltDeg = 0) => photoOrder(projectedCard(focal, tiltDeg, { x: 0, y: 0 }, 5, turnDeg));
  const diagonal = (turnDeg: number, tiltDeg = 0) =>
    liesDiagonally(card(turnDeg, tiltDeg), PHOTO.width, PHOTO.height, focal);

  it("refuses a card turned clockwise within 5° of the diagonal, where upright and sideways are half a turn apart", () => {
    for (const turn of [41, 45, 49]) expect(diagonal(turn)).toBe(true);
    // Either side of the diagonal the card's top-left is read at opposite corners.
    const topLeft = (turnDeg: number) => {
      const quad = card(turnDeg);
      const corner = orientCard(quad, PHOTO.width, PHOTO.height, focal).corners[0];
      return Math.round(
        Math.atan2(corner.y - PHOTO.height / 2, corner.x - PHOTO.width / 2) * (180 / Math.PI) - turnDeg,
      );
    };
    expect(topLeft(44)).not.toBe(topLeft(46));
  });

  it("reads a card nearer upright or sideways, or turned counter-clockwise, where both readings agree", () => {
    for (const turn of [0, 15, 30, 38, 52, 60, 90, -30, -44, -46, -90]) expect(diagonal(turn)).toBe(false);
    // Tilted 30° the card's sides are no longer parallel in the photo; the rule is the reading's own.
    expect(diagonal(45, 30)).toBe(true);
    expect(diagonal(25, 30)).toBe(false);
  });
});

describe("the centering whatever format the outline is mapped onto", () => {
  // The flat card is the homography from the outline's four corners onto the format's rectangle.
  // Onto another rectangle it is the same homography followed by a scaling of each axis, which
  // leaves each axis's border ratio as it is: a slanted card read as the wrong format through a
  // guessed lens (formatAcrossLenses takes standard among several) has the format and the
  // millimetres wrong, not the centering.
  it.each(cleanScenes(4, 74).map((c) => [c.name, c] as const))(
    "%s: the same centering as small and as vintage",
    (_name, c) => {
      const bytes = encodeJpeg(drawCardScene(c.scene), c.quality);
      const measured = (format?: CardFormat) => {
        const result = analyseFace("front", bytes, format);
        if (!result.ok) throw new Error(result.rejection.message);
        if (!result.face.centering.ok) throw new Error(result.face.centering.reason);
        return { centering: result.face.centering.centering, widths: result.face.centering.widths };
      };
      const standard = measured();
      const truth = truthOf(c.scene);
      expect(Math.abs(standard.centering.left_right - truth.leftRight)).toBeLessThan(1);
      for (const id of ["small", "vintage_topps_1952"]) {
        const format = FORMATS.find((candidate) => candidate.id === id) as CardFormat;
        const other = measured(format);
        expect(Math.abs(other.centering.left_right - standard.centering.left_right)).toBeLessThan(0.2);
        expect(Math.abs(other.centering.top_bottom - standard.centering.top_bottom)).toBeLessThan(0.2);
        // The flat card has the same px per mm whatever the format: each border's width in it is the
        // standard reading scaled by the ratio of the two formats' sides.
        const across = format.width_mm / STANDARD_FORMAT.width_mm;
        expect(other.widths.left / standard.widths.left).toBeCloseTo(across, 1);
      }
    },
  );
});
