// Schemas shared by the operator API's clients routes.
import { z } from "@hono/zod-openapi";

export const ClientSchema = z
  .object({
    id: z.number().int().openapi({ example: 3 }),
    name: z.string().openapi({ example: "Acme Cards" }),
    user_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Submissions also appear in this user's Partner API.", example: 1 }),
    hourly_quota: z.number().int().openapi({ example: 120 }),
    created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
  })
  .openapi("AdminClient");

export const UsageSchema = z
  .object({
    client_id: z.number().int().openapi({ example: 3 }),
    since: z.string().openapi({ example: "2026-11-22T00:00:00.000Z" }),
    until: z.string().openapi({ example: "2026-11-23T00:00:00.000Z" }),
    billed: z
      .number()
      .int()
      .openapi({ description: "Graded submissions (and ones still processing): billed.", example: 41 }),
    refunded: z.number().int().openapi({
      description: "Rejected within the hourly allowance: not billed, quota unit given back.",
      example: 6,
    }),
    counted: z.number().int().openapi({
      description: "Rejected past the allowance: not billed, but the quota unit stayed used.",
      example: 0,
    }),
  })
  .openapi("ClientUsage");

/** The newest resubmitted certificates of one client that are grouped (an operator view, not an export). */
export const MAX_RESUBMISSIONS = 1000;

export const EntrySchema = z
  .object({
    number: z.string().openapi({ example: "1234567897" }),
    overall: z.number().openapi({ example: 9 }),
    issued_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
  })
  .openapi("AdminStreakEntry");

export const StreakSchema = z
  .object({
    first: EntrySchema.openapi({ description: "The card's first live certificate (any client's)." }),
    resubmissions: z.array(EntrySchema).openapi({ description: "This client's later certificates of the card." }),
    length: z.number().int().openapi({ description: "Certificates of the card in the streak.", example: 3 }),
    best_overall: z.number().openapi({ example: 9.5 }),
  })
  .openapi("AdminResubmissionStreak");
