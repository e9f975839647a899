import { z } from "@hono/zod-openapi";
import { isCertificateNumber } from "../../grading/certificate-number";
import { GradeEvidenceSchema } from "./evidence-schema";

const halfPoint = (what: string, example: number) =>
  z.number().openapi({ description: `${what}, 1–10 in half points.`, example });

export const CertificateSchema = z
  .object({
    certificate_number: z
      .string()
      .openapi({ description: "10 digits, the last a Luhn check digit.", example: "1234567897" }),
    certificate_url: z
      .string()
      .url()
      .openapi({ description: "The certificate's public page.", example: "https://grading.example.com/c/1234567897" }),
    issued_at: z.string().openapi({ example: "2026-11-20T14:05:40.120Z" }),
    revoked: z
      .boolean()
      .openapi({ description: "Always false here: a revoked certificate answers 404.", example: false }),
    grade: z
      .object({
        overall: halfPoint("Overall grade", 9),
        centering: halfPoint("Centering subgrade", 9.5),
        corners: halfPoint("Corners subgrade", 9),
        edges: halfPoint("Edges subgrade", 9),
        surface: halfPoint("Surface subgrade", 8.5),
        centering_offset: z
          .object({
            horizontal: z.number().openapi({
              description: "Front: left border's share of left + right, minus 50 (55/45 → +5.0).",
              example: 3.2,
            }),
            vertical: z
              .number()
              .openapi({ description: "Front: top border's share of top + bottom, minus 50.", example: -1.5 }),
          })
          .openapi({ description: "Percentage points off centre, one decimal." }),
        model_version: z.string().openapi({ example: "svc-edge-1.0" }),
        graded_at: z.string().openapi({ example: "2026-11-20T14:05:39.900Z" }),
        evidence: GradeEvidenceSchema.nullable(),
      })
      .openapi({ description: "The grade and its subgrades." }),
    pipeline: z
      .object({
        engine: z.string().openapi({ description: "`<engine id>@<version>`.", example: "builtin@svc-edge-1.0" }),
        graded_by: z.string().openapi({ example: "SVC Grading" }),
        hosted_by: z.string().openapi({ example: "Cloudflare Workers" }),
      })
      .openapi({ description: "What graded the card and where." }),
    card: z
      .object({
        player: z.string().nullable().openapi({
          description: "Null when the card could not be identified and no hint was given.",
          example: "Shohei Ohtani",
        }),
        year: z.string().nullable().openapi({ example: "2018" }),
        brand: z.string().nullable().openapi({ example: "Topps" }),
        set: z.string().nullable().openapi({ example: "Topps Update" }),
        card_number: z.string().nullable().openapi({ example: "US285" }),
        variant: z.string().nullable().openapi({ example: null }),
        category: z.string().nullable().openapi({ example: "Baseball" }),
      })
      .openapi({ description: "The identified card." }),
    estimated_value: z
      .object({
        currency: z.string().openapi({ example: "USD" }),
        low: z
          .number()
          .nullable()
          .openapi({ description: "Null when the card is not identified in the catalog.", example: 127.5 }),
        mid: z.number().nullable().openapi({ example: 150 }),
        high: z.number().nullable().openapi({ example: 172.5 }),
        confidence: z.enum(["high", "medium", "low", "none"]).openapi({ example: "high" }),
      })
      .openapi({ description: "Estimated market value of this copy at this grade." }),
    images: z
      .object({
        front: z.string().url().openapi({
          description:
            "Presigned URL of the front photo, valid for 2 hours (longer than the 1 hour a response may be cached).",
        }),
        back: z.string().url().openapi({ description: "Presigned URL of the back photo, valid for 2 hours." }),
      })
      .openapi({ description: "The submitted photos." }),
  })
  .openapi("Certificate");

export const CertificateNumberParams = z.object({
  number: z
    .string()
    .refine(isCertificateNumber, "must be 10 digits with a valid check digit")
    .openapi({ param: { name: "number", in: "path" }, description: "Certificate number.", example: "1234567897" }),
});
