import { z } from "@hono/zod-openapi";
import {
  CatalogCardSchema,
  DAMAGE_REPORT_NOTE,
  ModelGradeSchema,
  presignedUrl,
  subgradeFields,
} from "../cards/schemas";

// Both cases are accepted; written without a regex flag so the document's `pattern` is valid JSON
// Schema (a `/i` flag is not, and validating proxies then refuse every id).
const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const GradingListItemSchema = z
  .object({
    id: z.string().openapi({
      description: "Grading identifier (UUID); use it with `GET /v1/gradings/{id}`.",
      example: "0b5f8a3c-2d7e-4c1a-9f6b-3e8d2a1c7b90",
    }),
    user_card_id: z.number().int().openapi({ description: "The owned card that was graded.", example: 7 }),
    unique_identifier: z
      .number()
      .int()
      .openapi({ description: "The grading's sequence number within the user's account.", example: 1042 }),
    outcome: z.enum(["success", "failure"]).openapi({
      description:
        "`success`: graded; `failure`: refused (for example photos that could not be graded), with no grade. The same value the webhook notification carries.",
      example: "success",
    }),
    created_at: z.string().openapi({ example: "2026-11-20T14:03:11.482Z" }),
    updated_at: z.string().openapi({ example: "2026-11-20T14:05:40.120Z" }),
  })
  .openapi("GradingListItem");

export const UserCardGradeSchema = z
  .object({
    grade_run_id: z
      .number()
      .int()
      .openapi({ description: "The grade run these values come from (the session's latest).", example: 58 }),
    ...subgradeFields,
    damage_report_front_url: presignedUrl("front damage report", DAMAGE_REPORT_NOTE),
    damage_report_back_url: presignedUrl("back damage report", DAMAGE_REPORT_NOTE),
    slab_front_url: presignedUrl("front digital slab render"),
    slab_back_url: presignedUrl("back digital slab render"),
    model_grade: ModelGradeSchema,
    graded_at: z
      .string()
      .openapi({ description: "When the grade run was recorded.", example: "2026-11-20T14:05:40.120Z" }),
  })
  .openapi("UserCardGrade");

export const GradingDetailSchema = z
  .object({
    grading: GradingListItemSchema,
    // A union rather than .nullable(): .nullable() on a registered schema made the CatalogCard
    // component itself nullable, so the card detail's `card` read as nullable too.
    card: z.union([CatalogCardSchema, z.null()]).openapi({
      description:
        "Catalog metadata of the graded card; null when the card could not be identified (the user's card then points at an unverified entry built from the submitter's declared hints, see `GET /v1/cards/{user_card_id}`).",
    }),
    user_card_grade: z.union([UserCardGradeSchema, z.null()]).openapi({
      description:
        "Grades and images of the latest grade run; null when no grade exists (a rejected submission: the session's outcome is `failure`).",
    }),
  })
  .openapi("GradingDetail");

export const GradingIdParams = z.object({
  id: z
    .string()
    .regex(UUID_PATTERN, "must be a UUID")
    .transform((value) => value.toLowerCase())
    .openapi({
      param: { name: "id", in: "path" },
      description: "Grading UUID.",
      example: "0b5f8a3c-2d7e-4c1a-9f6b-3e8d2a1c7b90",
    }),
});
