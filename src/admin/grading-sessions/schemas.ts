// Schemas shared by the operator API's grading-sessions routes.
import { z } from "@hono/zod-openapi";

export const halfPoint = z
  .number()
  .min(1)
  .max(10)
  .refine((value) => Number.isInteger(value * 2), "must be a whole or half point");

export const IngestSchema = z
  .object({
    user_id: z.number().int().positive().openapi({ example: 1 }),
    card_id: z.number().int().positive().openapi({ description: "Catalog card id.", example: 1 }),
    outcome: z.enum(["success", "failure"]).openapi({ example: "success" }),
    grades: z
      .object({
        overall: halfPoint.openapi({ example: 9 }),
        centering: halfPoint.openapi({ example: 9.5 }),
        corners: halfPoint.openapi({ example: 9 }),
        edges: halfPoint.openapi({ example: 9 }),
        surface: halfPoint.openapi({ example: 8.5 }),
      })
      .strict()
      .optional()
      .openapi({ description: "Required for `success`, absent for `failure`." }),
    grader: z.string().trim().min(1).max(60).default("SVC").openapi({ example: "SVC" }),
    model_grade: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({
        description: "The grader's own measurements, stored as the grade run's model_grade.",
        example: { model_version: "external-2" },
      }),
    images: z
      .object({
        front: z
          .object({ base64: z.string().min(1).openapi({ description: "The front photo, base64." }) })
          .strict()
          .optional(),
        back: z
          .object({ base64: z.string().min(1).openapi({ description: "The back photo, base64." }) })
          .strict()
          .optional(),
      })
      .strict()
      .optional()
      .openapi({ description: "Photos of the card (JPEG, PNG or WebP, base64, ≤ 12 MB each)." }),
  })
  .strict()
  .refine((body) => (body.outcome === "success") === (body.grades !== undefined), {
    message: "grades are required for success and not allowed for failure",
    path: ["grades"],
  })
  .openapi("IngestGradingSession");

export const BackfillSchema = z
  .object({
    limit: z
      .number()
      .int()
      .min(1)
      .max(200)
      .default(50)
      .openapi({ description: "Submissions handled by this call (1–200).", example: 50 }),
  })
  .strict()
  .openapi("PartnerViewBackfill");
