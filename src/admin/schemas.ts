// Schemas and readers shared by the operator API's resources.
import { z } from "@hono/zod-openapi";
import { ApiError } from "../errors/api-error";
import { invalidField } from "../errors/validation";
import { WORKING_MAX_SIDE } from "../grading/engine/builtin";
import { checkDecodeBudget, DecodeBudgetError, DecodeError, type ImageFormat } from "../grading/engine/decode";
import { decodeBase64 } from "../net/body";
import { MAX_IMAGE_BYTES } from "../storage/images";

/** Every operator route's security requirement: the ADMIN_TOKEN as a Bearer token. */
export const adminSecurity = [{ adminToken: [] }];

/** An ISO 8601 date-time query value, normalised to UTC with milliseconds (as stored). */
export const isoDateTime = z
  .string()
  .datetime({ offset: true })
  .transform((value) => new Date(value).toISOString());

export const IdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, "must be a positive integer")
    .transform(Number)
    .openapi({ param: { name: "id", in: "path" }, type: "integer", example: 1 }),
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

/** An image sent as base64 at `path`: its bytes and format; 400 naming the field, or 413 over 12 MB. */
export function readBase64Image(base64: string, path: string): { bytes: Uint8Array; format: ImageFormat } {
  const invalid = (message: string) => invalidField(path, message);
  const bytes = decodeBase64(base64);
  if (!bytes || bytes.length === 0) throw invalid("not valid base64");
  if (bytes.length > MAX_IMAGE_BYTES) throw new ApiError("payload_too_large", `The image at ${path} is over 12 MB.`);
  try {
    return { bytes, format: checkDecodeBudget(bytes, WORKING_MAX_SIDE).format };
  } catch (error) {
    if (error instanceof DecodeBudgetError) {
      throw new ApiError(
        "payload_too_large",
        `The image at ${path} cannot be decoded within limits: ${error.message}.`,
      );
    }
    if (error instanceof DecodeError) throw invalid(error.message);
    throw error;
  }
}
