import { z } from "@hono/zod-openapi";

/** Damage reports are drawn after the grade is recorded (src/grading/damage-reports.ts). */
export const DAMAGE_REPORT_NOTE =
  " Damage reports are drawn just after a grade is recorded, so for a moment after a new grade (or if drawing failed) it is null.";

export const presignedUrl = (what: string, note = "") =>
  z
    .string()
    .url()
    .nullable()
    .openapi({
      description: `Presigned URL of the ${what}, valid for PRESIGNED_URL_TTL_SECONDS (default 300 s) and fresh on every request; null when there is no such image.${note}`,
      example:
        "https://api.example.com/files/users/1/cards/7/front.png?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=300&X-Amz-Signature=5d2c7e9f0a4b",
    });

export const CatalogCardSchema = z
  .object({
    id: z.number().int().openapi({ description: "Catalog card id.", example: 311 }),
    player_name: z.string().openapi({
      description:
        "For an unverified entry, the player the submitter declared, or `Unidentified card` when none was declared.",
      example: "Shohei Ohtani",
    }),
    team_name: z.string().nullable().openapi({
      description: "Null for cards without a team (e.g. trading card games).",
      example: "Los Angeles Angels",
    }),
    brand: z.string().openapi({ example: "Topps" }),
    year: z.string().openapi({ example: "2018" }),
    set_name: z.string().openapi({ example: "Topps Update" }),
    card_number: z.string().openapi({ example: "US285" }),
    variant: z
      .string()
      .nullable()
      .openapi({ description: "Parallel or variant name; null for the base card.", example: "Gold /2018" }),
    category_id: z.number().int().openapi({ example: 1 }),
    category: z.string().openapi({ description: "Catalog category name.", example: "Baseball" }),
    svc_value: z.number().int().openapi({ description: "Catalog value of a raw copy, in US cents.", example: 12500 }),
    external_ids: z.record(z.string(), z.string()).openapi({
      description:
        "Identifiers of this card in external catalogs, by catalog name (`svc_submission` on an unverified entry: the grading that declared it).",
      example: { tcdb: "6954321" },
    }),
    verified: z.boolean().openapi({
      description:
        "False for an entry built from what a submitter declared when the card could not be identified: its fields are declared by the submitter, not verified (text fields not declared are empty). The operator later merges it into a verified catalog card, and the user's card follows.",
      example: true,
    }),
    source: z.enum(["catalog", "submitter"]).openapi({
      description:
        "`catalog`: a card of the catalog; `submitter`: an unverified entry from a submitter's declared hints.",
      example: "catalog",
    }),
  })
  .openapi("CatalogCard");

export const CardImagesSchema = z
  .object({ front: presignedUrl("front photo"), back: presignedUrl("back photo") })
  .openapi("CardImages");

export const CardListItemSchema = z
  .object({
    user_card_id: z
      .number()
      .int()
      .openapi({ description: "Id of the owned card (not the catalog card id).", example: 7 }),
    card_id: z.number().int().openapi({ description: "Catalog card id.", example: 311 }),
    brand: z.string().openapi({ example: "Topps" }),
    year: z.string().openapi({ example: "2018" }),
    card_number: z.string().openapi({ example: "US285" }),
    variant: z.string().nullable().openapi({ example: null }),
    player_name: z.string().openapi({ example: "Shohei Ohtani" }),
    team_name: z.string().nullable().openapi({ example: "Los Angeles Angels" }),
    category: z.string().openapi({ example: "Baseball" }),
    grade: z
      .string()
      .nullable()
      .openapi({ description: "Grade as text; null for a raw (ungraded) card.", example: "9.5" }),
    grader: z.string().nullable().openapi({ description: "Grading company; null for a raw card.", example: "SVC" }),
    svc_value: z.number().int().openapi({ description: "Catalog value in US cents.", example: 12500 }),
    card_verified: z.boolean().openapi({
      description:
        "False when the catalog entry was built from what the submitter declared (the card could not be identified): brand, year, card number and player are declared, not verified.",
      example: true,
    }),
    added_at: z.string().openapi({
      description: "When the card was added to the collection (ISO 8601 UTC).",
      example: "2026-11-20T14:03:11.482Z",
    }),
    images: CardImagesSchema,
  })
  .openapi("CardListItem");

/** The partner-facing grade fields of a grade run, shared by card and grading detail. */
export const subgradeFields = {
  centering_overall_grade: z
    .number()
    .nullable()
    .openapi({ description: "Centering subgrade, 1–10 in half points.", example: 9.5 }),
  corners_overall_grade: z
    .number()
    .nullable()
    .openapi({ description: "Null when only front and back photos were graded.", example: 9 }),
  edges_overall_grade: z
    .number()
    .nullable()
    .openapi({ description: "Null when only front and back photos were graded.", example: 9 }),
  surface_overall_grade: z
    .number()
    .nullable()
    .openapi({ description: "Null when only front and back photos were graded.", example: 8.5 }),
  full_overall_grade: z
    .number()
    .nullable()
    .openapi({ description: "Overall grade; null for a centering-only run.", example: 9 }),
};

export const GradeRunSchema = z
  .object({
    id: z.number().int().openapi({ example: 58 }),
    grading_session_id: z.string().uuid().openapi({ example: "0b5f8a3c-2d7e-4c1a-9f6b-3e8d2a1c7b90" }),
    ...subgradeFields,
    created_at: z.string().openapi({ example: "2026-11-20T14:05:40.120Z" }),
  })
  .openapi("GradeRun");

export const ModelGradeSchema = z
  .record(z.string(), z.unknown())
  .nullable()
  .openapi("ModelGrade", {
    description:
      "The grading model's own payload for the latest grade run: the measurements behind each subgrade. Its inner structure follows the model version and may change; integrations should prefer the `*_overall_grade` fields. It carries `evidence`: the same object as the Public API grade's `evidence` (the card's outline and frame lines in photo pixels, borders in mm, defects, area examined per subgrade), null for engines that report none. Null when no run exists.",
    example: {
      model_version: "svc-edge-1.0",
      centering: {
        front: { left_right: "52/48", top_bottom: "55/45" },
        back: { left_right: "60/40", top_bottom: "58/42" },
      },
      corners: null,
      edges: null,
      surface: null,
    },
  });

export const CardDetailSchema = z
  .object({
    user_card: z
      .object({
        id: z.number().int().openapi({ example: 7 }),
        card_id: z.number().int().openapi({ example: 311 }),
        grade: z.string().nullable().openapi({ example: "9.5" }),
        grader: z.string().nullable().openapi({ example: "SVC" }),
        share_slug: z
          .string()
          .openapi({ description: "Slug of the card's public share page.", example: "ohtani-2018-us285-k3j9" }),
        added_at: z.string().openapi({ example: "2026-11-20T14:03:11.482Z" }),
        updated_at: z.string().openapi({ example: "2026-11-20T14:05:40.120Z" }),
      })
      .openapi({ description: "Ownership, grade and timestamps." }),
    card: CatalogCardSchema,
    images: z
      .object({
        front: presignedUrl("front photo"),
        back: presignedUrl("back photo"),
        slab_front: presignedUrl("digital slab render (front) of the latest grade run"),
        slab_back: presignedUrl("digital slab render (back) of the latest grade run"),
        damage_report_front: presignedUrl("damage report (front) of the latest grade run", DAMAGE_REPORT_NOTE),
        damage_report_back: presignedUrl("damage report (back) of the latest grade run", DAMAGE_REPORT_NOTE),
      })
      .openapi({ description: "Presigned image URLs." }),
    gradings: z.array(z.string().uuid()).openapi({
      description: "UUIDs of the grading sessions of this card, newest first.",
      example: ["0b5f8a3c-2d7e-4c1a-9f6b-3e8d2a1c7b90"],
    }),
    grade_runs: z.array(GradeRunSchema).openapi({ description: "Every grade record of this card, newest first." }),
    model_grade: ModelGradeSchema,
  })
  .openapi("CardDetail");

export const CardIdParams = z.object({
  user_card_id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "must be a positive integer")
    .transform(Number)
    .openapi({
      param: { name: "user_card_id", in: "path" },
      type: "integer",
      description: "Owned-card id from the card list.",
      example: 7,
    }),
});
