// Schemas shared by the operator API's catalog routes.
import { z } from "@hono/zod-openapi";

export const CatalogImportSchema = z
  .object({
    category: z
      .string()
      .trim()
      .min(1)
      .max(60)
      .openapi({ description: "Category name; created when new.", example: "Baseball" }),
    player_name: z.string().trim().min(1).max(200).openapi({ example: "Shohei Ohtani" }),
    team_name: z.string().trim().min(1).max(200).nullable().default(null).openapi({ example: "Los Angeles Angels" }),
    brand: z.string().trim().min(1).max(100).openapi({ example: "Topps" }),
    year: z
      .string()
      .trim()
      .regex(/^\d{4}(-\d{2})?$/, "must be a year such as 2018 or 2018-19")
      .openapi({ example: "2018" }),
    set_name: z.string().trim().min(1).max(200).openapi({ example: "Topps Update" }),
    card_number: z.string().trim().min(1).max(40).openapi({ example: "US285" }),
    variant: z.string().trim().min(1).max(100).nullable().default(null).openapi({ example: null }),
    svc_value: z.number().int().min(0).openapi({ description: "Value of a raw copy in US cents.", example: 12500 }),
    external_ids: z
      .record(z.string(), z.string())
      .default({})
      .openapi({ example: { tcdb: "6954321" } }),
    reference_image: z
      .object({
        base64: z.string().min(1).openapi({
          description:
            "JPEG, PNG or WebP, base64 (a `data:` URL is accepted); at most 12 MB decoded. A scan cropped to the card (its proportions a card format's within 1 %) or a photo of the card on a plain table. Its hash identifies graded fronts; lines inside a graded front's art are compared with it.",
        }),
      })
      .strict(),
  })
  .strict()
  .openapi("CatalogImport");

export const ReferenceImageSchema = z
  .object({
    reference_image: CatalogImportSchema.shape.reference_image,
  })
  .strict()
  .openapi("CatalogReferenceImage");

export const MergeSchema = z
  .object({
    into: z
      .number()
      .int()
      .positive()
      .openapi({ description: "The verified catalog card the entry really is.", example: 3 }),
  })
  .strict()
  .openapi("CatalogMerge");
