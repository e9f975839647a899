// The frame measured on a photo against the catalog's print of the card
// (src/grading/engine/reference-print.ts): a copy's frame may sit anywhere on its card, but it is
// printed at one size.
import { describe, expect, it } from "vitest";
import { analyseFace } from "../../src/grading/engine/analyse-face";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import { STANDARD_FORMAT } from "../../src/grading/engine/formats";
import { SIDES, type Side, type SideMeasurement } from "../../src/grading/engine/frame-side";
import { FLAT_PX_PER_MM } from "../../src/grading/engine/geometry";
import { referenceHash } from "../../src/grading/engine/reference";
import {
  checkPrintSize,
  frameSize,
  PRINT_SIZE_TOLERANCE_MM,
  printSizeRefusal,
  type ReferencePrint,
  recutMatchesPrint,
  referencePrint,
} from "../../src/grading/engine/reference-print";
import type { GradeResult } from "../../src/grading/engine/types";
import { backOf, type CardScene, drawCardScene, encodeJpeg, referenceScan } from "../helpers/card-images";
import { catalogReference } from "../helpers/catalog-reference";
import { cleanSide } from "../helpers/side-measurement";
import { sceneWith } from "../helpers/submissions";

type BordersMm = Record<Side, number>;
const px = (borders: BordersMm) =>
  Object.fromEntries(SIDES.map((side) => [side, borders[side] * FLAT_PX_PER_MM])) as Record<Side, number>;

/** A print whose frame lies `borders` (mm) in from its card's edges. */
function printWith(borders: BordersMm): ReferencePrint {
  const side = (width: number): SideMeasurement => cleanSide(width, [232, 205, 90], 2);
  const widths = px(borders);
  return {
    flat: { width: 1, height: 1, data: new Uint8Array(4) },
    hash: "0000000000000000",
    sides: { left: side(widths.left), right: side(widths.right), top: side(widths.top), bottom: side(widths.bottom) },
  };
}

async function* each(prints: ReferencePrint[], reached: number[] = []) {
  for (const [i, print] of prints.entries()) {
    reached.push(i);
    yield print;
  }
}

const EVEN: BordersMm = { left: 3, right: 3, top: 3, bottom: 3 };

describe("the printed frame's size against the catalog's print", () => {
  it("is the card's size less its borders", () => {
    expect(frameSize(px({ left: 2, right: 4, top: 3, bottom: 5 }), STANDARD_FORMAT)).toEqual({
      width_mm: 57,
      height_mm: 80,
    });
  });

  it("passes a copy printed off centre: only the frame's size is compared, not where it sits", async () => {
    const check = await checkPrintSize(
      px({ left: 1.5, right: 4.5, top: 4, bottom: 2 }),
      STANDARD_FORMAT,
      each([printWith(EVEN)]),
    );
    expect(check).toMatchObject({ verdict: "same", measured: { width_mm: 57, height_mm: 82 } });
  });

  it("passes within the tolerance, a copy cut a little wide or narrow", async () => {
    const within = PRINT_SIZE_TOLERANCE_MM - 0.05;
    const widths = px({ left: 3 + within / 2, right: 3 + within / 2, top: 3, bottom: 3 });
    expect(await checkPrintSize(widths, STANDARD_FORMAT, each([printWith(EVEN)]))).toMatchObject({ verdict: "same" });
  });

  it("calls a frame smaller than the print an outline that takes in more than the card", async () => {
    // A card of the same border colour beneath it, 1.5 mm out to the right and bottom: the outline is
    // 64.5 × 89.5 mm, scaled to 63 × 88, and the band reads as border.
    const scale = 63 / 64.5;
    const widths = px({ left: 3 * scale, right: 4.5 * scale, top: 3 * (88 / 89.5), bottom: 4.5 * (88 / 89.5) });
    const check = await checkPrintSize(widths, STANDARD_FORMAT, each([printWith(EVEN)]));
    expect(check?.verdict).toBe("smaller");
    if (check) {
      expect(check.reference).toEqual({ width_mm: 57, height_mm: 82 });
      expect(printSizeRefusal(check)).toContain("the printed frame measures 55.7 × 80.6 mm inside the outline found");
      expect(printSizeRefusal(check)).toContain("the catalog's print of this card measures 57.0 × 82.0 mm");
    }
  });

  it("calls one smaller on one axis only smaller too (a card beneath offset one way)", async () => {
    const widths = px({ left: 3, right: 4.5, top: 3, bottom: 3 });
    expect(await checkPrintSize(widths, STANDARD_FORMAT, each([printWith(EVEN)]))).toMatchObject({
      verdict: "smaller",
    });
  });

  it("does not refuse a frame larger than the print: another printing is the likelier cause", async () => {
    // The photo's card has 1 mm borders, the print taken for it 3 mm ones (a reprint framed otherwise).
    const widths = px({ left: 1, right: 1, top: 1, bottom: 1 });
    expect(await checkPrintSize(widths, STANDARD_FORMAT, each([printWith(EVEN)]))).toMatchObject({ verdict: "other" });
  });

  it("passes when any look-alike's print fits, and reads no further than that one", async () => {
    const reached: number[] = [];
    const prints = [printWith({ left: 5, right: 5, top: 5, bottom: 5 }), printWith(EVEN), printWith(EVEN)];
    const check = await checkPrintSize(px(EVEN), STANDARD_FORMAT, each(prints, reached));
    expect(check).toMatchObject({ verdict: "same", reference: { width_mm: 57, height_mm: 82 } });
    expect(reached).toEqual([0, 1]);
  });

  it("has nothing to say without a print", async () => {
    expect(await checkPrintSize(px(EVEN), STANDARD_FORMAT, each([]))).toBeNull();
  });

  it("measures a reference scan's frame, and reads none from bytes that are not an image", () => {
    const scene = sceneWith({ borders: { left: 2.5, right: 3.5, top: 3, bottom: 4 } });
    const print = referencePrint(encodeJpeg(drawCardScene(referenceScan(scene)), 92), STANDARD_FORMAT);
    expect(print).not.toBeNull();
    if (print) {
      const { left, right, top, bottom } = print.sides;
      const size = frameSize(
        { left: left.width, right: right.width, top: top.width, bottom: bottom.width },
        STANDARD_FORMAT,
      );
      expect(size.width_mm).toBeCloseTo(57, 0);
      expect(size.height_mm).toBeCloseTo(81, 0);
    }
    expect(referencePrint(new TextEncoder().encode("not an image"), STANDARD_FORMAT)).toBeNull();
  });
});

describe("a card on another of its own design, graded with the catalog's print", { timeout: 60_000 }, () => {
  const engine = new BuiltinEngine();
  const CARD = sceneWith({ canvasWidth: 1200, canvasHeight: 900, cardWidth: 460 });
  const scan = encodeJpeg(drawCardScene(referenceScan(CARD)), 92);
  const catalog = [catalogReference(7, referenceHash(scan))];
  const grade = (scene: CardScene, references = catalog) =>
    engine.grade({
      front: { bytes: encodeJpeg(drawCardScene(scene), 90), contentType: "image/jpeg" },
      back: { bytes: encodeJpeg(drawCardScene(backOf(CARD)), 90), contentType: "image/jpeg" },
      references,
      referenceImage: async (id) => (id === 7 ? scan : null),
    });
  const printSize = (result: GradeResult) =>
    result.status === "graded"
      ? (result.model_grade as { centering: { print_size: Record<string, unknown> } }).centering.print_size
      : null;
  // The same design beneath it, 1.5 mm out to the right and bottom, square to it, its cut casting no
  // shadow: the band reads as more border on two sides.
  const ON_ANOTHER: CardScene = {
    ...CARD,
    underlay: { color: CARD.borderColor, margins: { left: 0, right: 1.5, top: 0, bottom: 1.5 }, cornerRadius: 3 },
  };

  it("is refused: the frame measured inside the outline is smaller than the print's", async () => {
    const result = await grade(ON_ANOTHER);
    expect(result).toMatchObject({ status: "rejected", reason: "grading_failed" });
    if (result.status === "rejected") {
      expect(result.message).toMatch(/the printed frame measures [\d.]+ × [\d.]+ mm inside the outline found/);
      expect(result.message).toContain("the outline takes in more than the card");
    }
  });

  it("is measured with its band as border when the catalog has no print to check it against (the gap left)", async () => {
    const result = await grade(ON_ANOTHER, []);
    expect(result.status).toBe("graded");
    expect(printSize(result)).toEqual({ checked: false, reason: "card not identified" });
  });

  it("tells the print's card from another when the card is identified only probably: cut again to the print's size", async () => {
    // The band beneath moves the front's hash 10 bits from the print's (a medium match): cut again
    // around its frame to the print's size, the card is the print's; a different card is not.
    const analysed = analyseFace("front", encodeJpeg(drawCardScene(ON_ANOTHER), 90));
    if (!analysed.ok || !analysed.face.centering.ok) throw new Error("the card on another was not measured");
    const { flat, centering, format } = analysed.face;
    const own = referencePrint(scan, format);
    const other = referencePrint(
      encodeJpeg(
        drawCardScene(
          referenceScan({
            ...CARD,
            artColor: [200, 170, 60],
            seed: 99,
            borders: { left: 1.5, right: 1.5, top: 1.5, bottom: 1.5 },
          }),
        ),
        92,
      ),
      format,
    );
    if (!own || !other) throw new Error("a print was not read");
    const ownCheck = await checkPrintSize(centering.widths, format, each([own]));
    const otherCheck = await checkPrintSize(centering.widths, format, each([other]));
    expect(ownCheck?.verdict).toBe("smaller");
    expect(otherCheck?.verdict).toBe("smaller");
    if (ownCheck && otherCheck) {
      expect(recutMatchesPrint(flat, centering.widths, format, ownCheck)).toBe(true);
      expect(recutMatchesPrint(flat, centering.widths, format, otherCheck)).toBe(false);
    }
  });

  it("grades the card alone, its frame the print's size", async () => {
    const result = await grade(CARD);
    expect(result.status).toBe("graded");
    const check = printSize(result);
    expect(check).toMatchObject({ checked: true, verdict: "same" });
    const evidence = result.status === "graded" ? result.evidence?.centering.print_size : null;
    if (!evidence) throw new Error("no print size in the evidence");
    expect(check).toEqual({ checked: true, ...evidence });
    expect(Math.abs(evidence.frame_mm.width - evidence.catalog_print_mm.width)).toBeLessThanOrEqual(
      PRINT_SIZE_TOLERANCE_MM,
    );
    expect(Math.abs(evidence.frame_mm.height - evidence.catalog_print_mm.height)).toBeLessThanOrEqual(
      PRINT_SIZE_TOLERANCE_MM,
    );
  });
});
