// Catalog import: a card with its reference image, whose perceptual hash identification uses.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { catalogCards, catalogCategories } from "../db/schema";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { bodyErrorResponses, errorResponses } from "../errors/openapi";
import { DecodeError, detectFormat } from "../grading/engine/decode";
import { referenceHash } from "../grading/engine/reference";
import { forgetCatalogReferences } from "../grading/references";
import { decodeBase64 } from "../net/body";
import { jsonBody } from "./schemas";

const MAX_IMAGE_BYTES = 12 * 1024 * 1024;

const CatalogImportSchema = z
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
        base64: z
          .string()
          .min(1)
          .openapi({ description: "JPEG, PNG or WebP, base64 (a `data:` URL is accepted); at most 12 MB decoded." }),
      })
      .strict(),
  })
  .strict()
  .openapi("CatalogImport");

const importRoute = createRoute({
  method: "post",
  path: "/catalog-cards",
  tags: ["Operator"],
  summary: "Import a catalog card with its reference image",
  security: [{ adminToken: [] }],
  request: jsonBody(CatalogImportSchema),
  responses: {
    201: {
      description: "The catalog card, with the reference image's perceptual hash.",
      content: {
        "application/json": {
          schema: z
            .object({
              id: z.number().int().openapi({ description: "Catalog card id.", example: 311 }),
              category_id: z.number().int().openapi({ example: 1 }),
              reference_image_key: z
                .string()
                .openapi({ description: "R2 key of the stored reference image.", example: "catalog/6f1c2a.jpg" }),
              reference_hash: z
                .string()
                .openapi({ description: "64-bit perceptual hash, 16 hex digits.", example: "c3a1f0e07c3e1f08" }),
            })
            .openapi("ImportedCatalogCard"),
        },
      },
    },
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

const invalidImage = (message: string) =>
  new ApiError("invalid_request", `Invalid json.reference_image: ${message}.`, {
    details: [{ path: "json.reference_image.base64", message }],
  });

export function registerCatalogRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(importRoute, async (c) => {
    const body = c.req.valid("json");
    const bytes = decodeBase64(body.reference_image.base64);
    if (!bytes || bytes.length === 0) throw invalidImage("not valid base64");
    if (bytes.length > MAX_IMAGE_BYTES) throw new ApiError("payload_too_large", "The reference image is over 12 MB.");
    const format = detectFormat(bytes);
    if (!format) throw invalidImage("not a JPEG, PNG or WebP image");
    let hash: string;
    try {
      hash = referenceHash(bytes);
    } catch (error) {
      if (error instanceof DecodeError) throw invalidImage(error.message);
      throw error;
    }
    const db = c.var.db;
    let [category] = await db
      .select()
      .from(catalogCategories)
      .where(eq(catalogCategories.name, body.category))
      .limit(1);
    if (!category) [category] = await db.insert(catalogCategories).values({ name: body.category }).returning();
    if (!category) throw new Error("category insert returned nothing");

    // The image first, then the row; if the row cannot be written the image is removed again.
    const key = `catalog/${crypto.randomUUID()}.${format === "jpeg" ? "jpg" : format}`;
    await c.env.IMAGES.put(key, bytes, { httpMetadata: { contentType: `image/${format}` } });
    try {
      const [card] = await db
        .insert(catalogCards)
        .values({
          categoryId: category.id,
          brand: body.brand,
          year: body.year,
          setName: body.set_name,
          cardNumber: body.card_number,
          variant: body.variant,
          playerName: body.player_name,
          teamName: body.team_name,
          svcValue: body.svc_value,
          externalIds: body.external_ids,
          referenceImageKey: key,
          referenceHash: hash,
        })
        .returning();
      if (!card) throw new Error("catalog insert returned nothing");
      forgetCatalogReferences();
      return c.json({ id: card.id, category_id: category.id, reference_image_key: key, reference_hash: hash }, 201);
    } catch (error) {
      await c.env.IMAGES.delete(key);
      throw error;
    }
  });
}
