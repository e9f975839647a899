// The grade's evidence as the Public API documents it (src/grading/engine/evidence.ts is the type
// the engine fills; test/public/evidence.test.ts checks the two agree on a real grade).
import { z } from "@hono/zod-openapi";
import { PRINT_SIZE_TOLERANCE_MM } from "../../grading/engine/reference-print";

// Fixed-length arrays rather than tuples: a tuple is written as `prefixItems` alone, which linters
// (Spectral's `array-items`) and OpenAPI 3.0-era code generators reject, and which leaves its length
// open; `items` with `minItems` = `maxItems` says the same to every tool. (`.length(n)` would not do:
// the document generator drops it, where it writes `.min()` and `.max()`.)
const point = z
  .array(z.number())
  .min(2)
  .max(2)
  .openapi({
    description: "[x, y] in the photo's pixels (after EXIF orientation), x right, y down.",
    example: [412.5, 230.1],
  });
const segment = z
  .array(point)
  .min(2)
  .max(2)
  .openapi({ description: "A line from one point to another, [from, to], photo pixels." });
const sides = <T extends z.ZodType>(value: (side: string) => T) =>
  z.object({ left: value("left"), right: value("right"), top: value("top"), bottom: value("bottom") });

const FaceEvidenceSchema = z
  .object({
    image_size: z
      .object({
        width: z.number().int().openapi({ description: "Width, pixels.", example: 1632 }),
        height: z.number().int().openapi({ description: "Height, pixels.", example: 1224 }),
      })
      .openapi({ description: "The photo as decoded, in pixels." }),
    corners: z.array(point).min(4).max(4).openapi({
      description: "The card's detected corners in the photo: its own top-left, top-right, bottom-right, bottom-left.",
    }),
    orientation: z.enum(["portrait", "landscape"]).openapi({
      description:
        "How the card lay in the photo: long side vertical (`portrait`, read upright) or horizontal (`landscape`, read with the card's top toward the photo's left edge).",
      example: "portrait",
    }),
    format: z
      .object({
        id: z.string().openapi({
          description:
            "Recognised from the rectified card's proportions: `standard` (63 × 88 mm), `small` (59 × 86 mm, Japanese size) or `vintage_topps_1952` (66.7 × 95.3 mm, 1952–56 Topps).",
          example: "standard",
        }),
        width_mm: z.number().openapi({ example: 63 }),
        height_mm: z.number().openapi({ example: 88 }),
      })
      .openapi({ description: "The card format the face was graded against." }),
    px_per_mm: z.number().openapi({ description: "Pixels per millimetre on the card in the photo.", example: 7.4 }),
    frame_lines: sides((side) => segment.openapi({ description: `The frame's ${side} line, photo pixels.` }))
      .nullable()
      .openapi({ description: "The printed frame's line on each side, photo pixels; null when not measured." }),
    borders_mm: sides((side) => z.number().openapi({ description: `The ${side} border, mm.`, example: 3.1 }))
      .nullable()
      .openapi({
        description: "Border widths in millimetres; null when the frame was not measured.",
        example: { left: 3.1, right: 2.9, top: 3.4, bottom: 3 },
      }),
    bar: z.enum(["top", "bottom"]).nullable().optional().openapi({
      description:
        "The end whose border is a bar of the border's colour deeper than the others, printed with text (a modern Magic card's collector bar: its frame 5–7 mm in, against 2–3 mm). Its designed width cannot be told from a miscut, so `top_bottom` centering is read from the other end's border against the mean of the left and right borders, which such a design prints as wide: `top / (left + right)` with a bottom bar. `borders_mm` still gives the bar's depth to the frame behind it. Null for a plain border all round or when the frame was not measured; absent from evidence stored before it was reported.",
      example: null,
    }),
  })
  .openapi("FaceEvidence");

const DefectSchema = z
  .object({
    type: z
      .enum(["whitening", "missing_material", "chip", "crease", "scratch", "stain", "reference_difference"])
      .openapi({ example: "whitening" }),
    face: z.enum(["front", "back"]).openapi({ description: "The face the defect is on.", example: "front" }),
    location: z.string().openapi({
      description: "e.g. `top_left_corner`, `left_edge`, `surface`, `border`.",
      example: "top_left_corner",
    }),
    box_mm: z
      .object({
        x: z.number().openapi({ description: "Left edge of the box, mm from the card's left.", example: 0.4 }),
        y: z.number().openapi({ description: "Top edge of the box, mm from the card's top.", example: 0.3 }),
        width: z.number().openapi({ description: "Width, mm.", example: 1.8 }),
        height: z.number().openapi({ description: "Height, mm.", example: 1.6 }),
      })
      .openapi({ description: "Box on the card in millimetres from the card's top-left corner." }),
    area_mm2: z.number().openapi({ description: "Affected area, mm² (line defects: length × 0.2 mm).", example: 2.8 }),
    length_mm: z
      .number()
      .nullable()
      .openapi({ description: "Length of a line defect in mm; null otherwise.", example: null }),
  })
  .openapi("DefectRegion");

const WearEvidenceSchema = z
  .object({
    examined_share: z.number().openapi({
      description:
        "Share (0–1) of the region this subgrade judges that could be examined, both faces. What could not be examined is not counted as damage.",
      example: 0.94,
    }),
    examined_mm2: z.number().openapi({ description: "Area examined, mm², both faces.", example: 118 }),
    defects: z.array(DefectSchema).openapi({ description: "The defects found." }),
  })
  .openapi("WearEvidence");

const SizeMmSchema = z.object({
  width: z.number().openapi({ description: "Width, mm.", example: 57.1 }),
  height: z.number().openapi({ description: "Height, mm.", example: 82.05 }),
});

const PrintSizeEvidenceSchema = z
  .object({
    frame_mm: SizeMmSchema.openapi({
      description: "The frame measured on the front: the card's size less its borders.",
    }),
    catalog_print_mm: SizeMmSchema.openapi({ description: "The frame of the catalog's print nearest in size." }),
    verdict: z.enum(["same", "other"]).openapi({
      description: `\`same\`: within ${PRINT_SIZE_TOLERANCE_MM} mm both ways. \`other\`: no print's frame fits, and the outline was not shown to be too large (a frame larger than the print's: another printing, say).`,
    }),
  })
  .openapi("PrintSizeEvidence");

export const GradeEvidenceSchema = z
  .object({
    version: z.literal(1).openapi({ description: "The evidence format's version.", example: 1 }),
    faces: z.object({ front: FaceEvidenceSchema, back: FaceEvidenceSchema }),
    centering: z
      .object({
        face: z.enum(["front", "back"]).openapi({ description: "The face the centering subgrade is measured on." }),
        horizontal_offset: z
          .number()
          .openapi({ description: "Percentage points off centre (+ = left border larger).", example: 3.2 }),
        vertical_offset: z
          .number()
          .openapi({ description: "Percentage points off centre (+ = top border larger).", example: -1.5 }),
        margin_to_next_grade: z.number().nullable().openapi({
          description: "How far (percentage points) the worse offset could move before the centering subgrade changes.",
          example: 1.8,
        }),
        agreement: z.number().openapi({
          description: "Largest disagreement between independent estimates of the offsets, percentage points.",
          example: 0.12,
        }),
        print_size: PrintSizeEvidenceSchema.nullable().optional().openapi({
          description:
            "The front's printed frame checked against the catalog's print of the identified card: a copy's frame may sit anywhere on its card, but is printed at one size, so a frame smaller than the print's means the outline took in more than the card (refused). Null when no catalog print was compared; absent from grades made before the check.",
        }),
      })
      .openapi("CenteringEvidence"),
    corners: WearEvidenceSchema,
    edges: WearEvidenceSchema,
    surface: WearEvidenceSchema,
  })
  .openapi("GradeEvidence", {
    description:
      "How the grade was measured: the card's outline and printed frame in the photo's pixels, border widths, the centering's margin to the next grade, the defects found and the area each wear subgrade could examine. Null for grades by an engine that reports none.",
  });
