import { z } from "@hono/zod-openapi";

const text = (name: string, example: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .openapi({
      param: { name, in: "query" },
      description: `Catalog cards whose ${name} is this (case-insensitive).`,
      example,
    });

export const PopulationQuery = z
  .object({
    card_id: z
      .string()
      .regex(/^[1-9]\d{0,15}$/, "must be a positive integer")
      .transform(Number)
      .optional()
      .openapi({
        param: { name: "card_id", in: "query" },
        type: "integer",
        description: "One catalog card.",
        example: 12,
      }),
    brand: text("brand", "Topps"),
    year: text("year", "2018"),
    set: text("set", "Topps Update"),
    player: text("player", "Shohei Ohtani"),
    include_unverified: z
      .enum(["true", "false"])
      .optional()
      .openapi({
        param: { name: "include_unverified", in: "query" },
        description:
          "`true` also lists catalog entries built from submitters' declared fields (`verified: false`); by default only verified catalog cards are counted.",
        example: "false",
      }),
  })
  .refine((q) => [q.card_id, q.brand, q.year, q.set, q.player].some((value) => value !== undefined), {
    message: "give card_id, or at least one of brand, year, set, player",
    path: ["card_id"],
  })
  .refine((q) => q.card_id === undefined || [q.brand, q.year, q.set, q.player].every((v) => v === undefined), {
    message: "card_id cannot be combined with brand, year, set or player",
    path: ["card_id"],
  });

export const GradeCountSchema = z
  .object({
    grade: z.number().openapi({ description: "Overall grade, 1–10 in half points.", example: 9.5 }),
    count: z.number().int().openapi({ example: 14 }),
  })
  .openapi("GradeCount");

export const CardPopulationSchema = z
  .object({
    card: z
      .object({
        id: z.number().int().openapi({ example: 12 }),
        brand: z.string().openapi({ example: "Topps" }),
        year: z.string().openapi({ example: "2018" }),
        set: z.string().openapi({ example: "Topps Update" }),
        card_number: z.string().openapi({ example: "US285" }),
        variant: z.string().nullable().openapi({ example: null }),
        player: z.string().openapi({ example: "Shohei Ohtani" }),
      })
      .openapi({ description: "The catalog card." }),
    total: z.number().int().openapi({ description: "Live certificates of this card.", example: 31 }),
    grades: z.array(GradeCountSchema).openapi({
      description: "Live certificates per overall grade, highest grade first; grades with none are left out.",
    }),
  })
  .openapi("CardPopulation");

export const PopulationSchema = z
  .object({
    cards: z.array(CardPopulationSchema).openapi({ description: "One entry per matching catalog card, by id." }),
    truncated: z
      .boolean()
      .openapi({ description: "True when more cards matched than the 50 listed; narrow the query.", example: false }),
    as_of: z.string().openapi({ description: "When the counts were read.", example: "2026-11-23T03:00:00.000Z" }),
  })
  .openapi("Population");
