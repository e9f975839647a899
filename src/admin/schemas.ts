import { z } from "@hono/zod-openapi";

export const IdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "must be a positive integer")
    .transform(Number)
    .openapi({ param: { name: "id", in: "path" }, type: "integer", example: "1" }),
});

export const IssuedKeySchema = z
  .object({
    id: z.number().int().openapi({ example: 5 }),
    name: z.string().nullable().openapi({ example: "production" }),
    start: z
      .string()
      .openapi({ description: "First characters, for recognising the key later.", example: "svcp_Ab3x" }),
    key: z
      .string()
      .openapi({ description: "The whole key. Shown this once; only its SHA-256 is stored.", example: "svcp_Ab3x…" }),
    created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
  })
  .openapi("IssuedKey");

export const RevokedSchema = z
  .object({
    id: z.union([z.number().int(), z.string()]).openapi({ example: 5 }),
    revoked_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
  })
  .openapi("Revoked");

export const jsonBody = <T extends z.ZodTypeAny>(schema: T) => ({
  body: { required: true, content: { "application/json": { schema } } },
});
