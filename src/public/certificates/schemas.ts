import { z } from "@hono/zod-openapi";
import { isCertificateNumber } from "../../grading/certificate-number";
import { GradeEvidenceSchema } from "./evidence-schema";

const halfPoint = (what: string, example: number) =>
  z.number().openapi({ description: `${what}, 1–10 in half points.`, example });

export const PreviousCertificateSchema = z
  .object({
    number: z.string().openapi({ example: "3141592658" }),
    overall: halfPoint("Its overall grade", 8.5),
    issued_at: z.string().openapi({ example: "2026-10-02T09:12:00.000Z" }),
  })
  .openapi("PreviousCertificate");

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
        verified: z.boolean().openapi({
          description:
            "True when the fields come from identifying the card (the catalog, or a hosted model that read it); false when they are what the submitter declared, not verified.",
          example: true,
        }),
        source: z.enum(["catalog", "model", "hints", "none"]).openapi({
          description:
            "Where the card fields come from: `catalog` (identified in the catalog), `model` (read by a hosted grading model), `hints` (declared by the submitter, not verified), `none` (neither; every field null).",
          example: "catalog",
        }),
      })
      .openapi({ description: "The card: identified, or as declared by the submitter (see `verified`)." }),
    estimated_value: z
      .object({
        currency: z.string().openapi({ example: "USD" }),
        low: z.number().openapi({ description: "Low end of the estimate.", example: 127.5 }),
        mid: z.number().openapi({ description: "The estimate.", example: 150 }),
        high: z.number().openapi({ description: "High end of the estimate.", example: 172.5 }),
        confidence: z.enum(["high", "medium", "low", "none"]).openapi({
          description:
            "How far to trust the numbers: `high`/`medium` for a catalog match (by how close the photo is to the catalog's reference), `low` for comparables, `none` for the catalog-wide estimate.",
          example: "high",
        }),
        basis: z.enum(["catalog_match", "comparables", "catalog_wide"]).openapi({
          description:
            "How the value was reached: `catalog_match` (the identified card's catalog value times the grade multiple), `comparables` (the nearest catalog cards by declared category, brand, year, set and player: median, with low/high from their spread), `catalog_wide` (nothing comparable: the whole catalog's median and quartiles at this grade).",
          example: "catalog_match",
        }),
      })
      .openapi({ description: "Estimated market value of this copy at this grade; always numbers." }),
    images: z
      .object({
        front: z.string().url().openapi({
          description:
            "Presigned URL of the front photo, valid for 2 hours (longer than the 1 hour a response may be cached).",
        }),
        back: z.string().url().openapi({ description: "Presigned URL of the back photo, valid for 2 hours." }),
      })
      .openapi({ description: "The submitted photos." }),
    previous_certificates: z.array(PreviousCertificateSchema).openapi({
      description:
        "Additive. Live certificates issued earlier for the same physical card (its fingerprint: face, border geometry on both faces), oldest first; empty when this card was not seen before.",
    }),
  })
  .openapi("Certificate");

export const AttestationSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
  .openapi({
    description: "A compact JWS: base64url(header).base64url(payload).base64url(signature).",
    example:
      "eyJhbGciOiJFZERTQSIsImtpZCI6Ii4uLiIsInR5cCI6InN2Yy1jZXJ0aWZpY2F0ZStqd3QifQ.eyJzdWIiOiIxMjM0NTY3ODk3In0.c2lnbmF0dXJl",
  });

export const CertificateNumberParams = z.object({
  number: z
    .string()
    .refine(isCertificateNumber, "must be 10 digits with a valid check digit")
    .openapi({ param: { name: "number", in: "path" }, description: "Certificate number.", example: "1234567897" }),
});
