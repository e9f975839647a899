import { describe, expect, it } from "vitest";
import { BuiltinEngine } from "../../src/grading/engine/builtin";
import type { CatalogReference } from "../../src/grading/engine/identify";
import { referenceHash } from "../../src/grading/engine/reference";
import type { Graded, GradeResult } from "../../src/grading/engine/types";
import { backOf, type CardScene, drawCardScene, encodeJpeg, referenceScan } from "../helpers/card-images";
import { catalogReference } from "../helpers/catalog-reference";
import { sceneWith } from "../helpers/submissions";

// A light line wholly inside the artwork is print or a scratch; the photo alone cannot say which.
// The engine asks the catalog's reference image of the identified card.
const engine = new BuiltinEngine();
const jpeg = (scene: CardScene) => encodeJpeg(drawCardScene(scene), 90);

/** The card: a printed light line across the art, 25° off the card's axes, 28 mm long. */
const LINED: CardScene = sceneWith({
  canvasWidth: 1200,
  canvasHeight: 900,
  cardWidth: 460,
  printedLines: [{ x0: 11, y0: 27, x1: 11 + 28 * Math.cos(0.44), y1: 27 + 28 * Math.sin(0.44) }],
});
/** The same card printed without the line: its reference then lacks what the photo shows. */
const PLAIN: CardScene = { ...LINED, printedLines: [] };

const catalogEntry = (reference: Uint8Array, id = 7) => catalogReference(id, referenceHash(reference));

/** Grades the lined card's photos against `catalog`, recording which reference images were asked for. */
async function gradeWith(catalog: CatalogReference[], referenceImage?: (id: number) => Promise<Uint8Array | null>) {
  const asked: number[] = [];
  const result = await engine.grade({
    front: { bytes: jpeg(LINED), contentType: "image/jpeg" },
    back: { bytes: jpeg(backOf(LINED)), contentType: "image/jpeg" },
    references: catalog,
    ...(referenceImage
      ? {
          referenceImage: (id: number) => {
            asked.push(id);
            return referenceImage(id);
          },
        }
      : {}),
  });
  return { graded: expectGraded(result), asked };
}

function expectGraded(result: GradeResult): Graded {
  if (result.status !== "graded") throw new Error(`expected a grade, got ${JSON.stringify(result)}`);
  return result;
}

const artLines = (graded: Graded) =>
  (graded.model_grade as { surface: { art_lines: Record<string, unknown> } }).surface.art_lines;
/** The art-line outcome of one line compared with `references` reference images. */
const compared = (c: { printed: number; differences: number; references: number }) => ({
  found: 1,
  printed: c.printed,
  differences: c.differences,
  references_compared: c.references,
  reference: "compared",
});
const defectTypes = (graded: Graded) => graded.evidence?.surface.defects.map((d) => d.type) ?? [];

describe("art lines against the catalog's reference image", { timeout: 30_000 }, () => {
  const withLine = jpeg(referenceScan(LINED));
  const withoutLine = jpeg(referenceScan(PLAIN));

  it("does not count a line inside the art as damage when the card is not identified", async () => {
    const { graded, asked } = await gradeWith([], async () => withoutLine);
    expect(artLines(graded)).toMatchObject({ found: 1, reference: "card not identified with high confidence" });
    expect(graded.grades.surface).toBe(10);
    expect(defectTypes(graded)).toEqual([]);
    expect(asked).toEqual([]);
  });

  it("calls the line print when the identified card's reference shows it", async () => {
    const { graded, asked } = await gradeWith([catalogEntry(withLine)], async () => withLine);
    expect(graded.card).toMatchObject({ catalog_id: 7, confidence: "high" });
    expect(asked).toEqual([7]);
    expect(artLines(graded)).toEqual(compared({ printed: 1, differences: 0, references: 1 }));
    expect(graded.grades.surface).toBe(10);
    expect(defectTypes(graded)).toEqual([]);
  });

  it("aligns the reference on its printed frame: a copy printed off centre, photographed on a table", async () => {
    // The catalog's copy: its print sits 0.9 mm further left and 0.8 mm lower on the card (the
    // line with it), photographed turned on a cloth; card edges laid on each other would miss it.
    const offCentre = { ...LINED.borders, left: 2.4, right: 3.6, top: 3.8, bottom: 2.4 };
    const photo = jpeg({ ...LINED, borders: offCentre, rotation: -3, texture: "cloth", background: [40, 60, 110] });
    const { graded } = await gradeWith([catalogEntry(photo)], async () => photo);
    expect(artLines(graded)).toEqual(compared({ printed: 1, differences: 0, references: 1 }));
    expect(graded.grades.surface).toBe(10);
  });

  it("counts the line as damage, a reference difference, when the reference lacks it", async () => {
    const { graded } = await gradeWith([catalogEntry(withoutLine)], async () => withoutLine);
    expect(artLines(graded)).toEqual(compared({ printed: 0, differences: 1, references: 1 }));
    expect(graded.grades.surface).toBeLessThan(10);
    const [defect] = graded.evidence?.surface.defects ?? [];
    expect(defect).toMatchObject({ type: "reference_difference", face: "front", location: "surface" });
    // Where it was drawn: from (11, 27) mm inside the frame (3.3 mm and 3 mm from the card's edges), 28 mm long.
    expect(defect?.length_mm).toBeGreaterThan(22);
    expect(defect?.box_mm.x).toBeCloseTo(14, -0.5);
    expect(defect?.box_mm.y).toBeCloseTo(30, -0.5);
  });

  it("calls the line print when a catalog card the front cannot be told from shows it (a parallel)", async () => {
    // The catalog holds the plain print (8) and the lined one (7), their hashes a few bits apart:
    // whichever the front is taken for, the other is asked too.
    const images = new Map([
      [7, withLine],
      [8, withoutLine],
    ]);
    const { graded: result, asked } = await gradeWith(
      [catalogEntry(withoutLine, 8), catalogEntry(withLine, 7)],
      async (id) => images.get(id) ?? null,
    );
    expect(asked.sort()).toEqual([7, 8]);
    expect(artLines(result)).toEqual(compared({ printed: 1, differences: 0, references: 2 }));
    expect(result.grades.surface).toBe(10);
  });

  it("claims nothing when more catalog cards look like the front than can be compared", async () => {
    // Seven cards whose references hash alike (reprints of one picture): a line none of six
    // compared showed could be the seventh's print.
    const { graded: result, asked } = await gradeWith(
      [1, 2, 3, 4, 5, 6, 7].map((id) => catalogEntry(withoutLine, id)),
      async () => withoutLine,
    );
    expect(artLines(result)).toMatchObject({
      found: 1,
      differences: 0,
      reference: "more than 6 catalog cards look like this one",
    });
    // Only the identified card's print is read: for the print-size check, which it passes.
    expect(asked).toEqual([1]);
    expect((result.model_grade as { centering: { print_size: unknown } }).centering.print_size).toMatchObject({
      checked: true,
      verdict: "same",
    });
    expect(result.grades.surface).toBe(10);
  });

  it("leaves the line unexamined, not damage, when the card has no reference image or it cannot be read", async () => {
    const none = await gradeWith([catalogEntry(withLine)], async () => null);
    expect(artLines(none.graded)).toMatchObject({ found: 1, reference: "catalog card has no reference image" });
    expect(none.graded.grades.surface).toBe(10);
    const unreadable = await gradeWith([catalogEntry(withLine)], async () => new TextEncoder().encode("not an image"));
    expect(artLines(unreadable.graded)).toMatchObject({ found: 1, reference: "reference image could not be aligned" });
    expect(unreadable.graded.grades.surface).toBe(10);
    expect(defectTypes(unreadable.graded)).toEqual([]);
  });
});
