// Catalog import: a card with its reference image, whose perceptual hash identification uses.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { catalogCards, catalogCategories } from "../db/schema";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { bodyErrorResponses, errorResponses } from "../errors/openapi";
import { invalidField } from "../errors/validation";
import { DecodeError } from "../grading/engine/decode";
import { referenceHash } from "../grading/engine/reference";
import { forgetCatalogReferences } from "../grading/references";
import { imageExtension, writeWithStagedImages } from "../storage/images";
import { IdParams, jsonBody, readBase64Image } from "./schemas";

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
  operationId: "importCatalogCard",
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

const ReferenceImageSchema = z
  .object({
    reference_image: CatalogImportSchema.shape.reference_image,
  })
  .strict()
  .openapi("CatalogReferenceImage");

const replaceReferenceRoute = createRoute({
  method: "put",
  path: "/catalog-cards/{id}/reference-image",
  operationId: "putCatalogReferenceImage",
  tags: ["Operator"],
  summary: "Set or replace a catalog card's reference image",
  description: "Stores the image, recomputes the perceptual hash identification uses, and removes the previous image.",
  security: [{ adminToken: [] }],
  request: { params: IdParams, ...jsonBody(ReferenceImageSchema) },
  responses: {
    200: {
      description: "The catalog card's new reference image and hash.",
      content: {
        "application/json": {
          schema: z
            .object({
              id: z.number().int().openapi({ example: 1 }),
              reference_image_key: z.string().openapi({ example: "catalog/6f1c2a.jpg" }),
              reference_hash: z.string().openapi({ example: "c3a1f0e07c3e1f08" }),
            })
            .openapi("CatalogReference"),
        },
      },
    },
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

/** The reference image's bytes, format and perceptual hash; 400/413 for anything unusable. */
function readReferenceImage(base64: string) {
  const path = "json.reference_image.base64";
  const { bytes, format } = readBase64Image(base64, path);
  try {
    return {
      bytes,
      format,
      hash: referenceHash(bytes),
      key: `catalog/${crypto.randomUUID()}.${imageExtension(format)}`,
    };
  } catch (error) {
    if (error instanceof DecodeError) {
      throw invalidField(path, error.message);
    }
    throw error;
  }
}

const staged = (image: ReturnType<typeof readReferenceImage>) => ({
  key: image.key,
  bytes: image.bytes,
  contentType: `image/${image.format}`,
});

export function registerCatalogRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(replaceReferenceRoute, async (c) => {
    const { id } = c.req.valid("param");
    const image = readReferenceImage(c.req.valid("json").reference_image.base64);
    const db = c.var.db;
    const [card] = await db
      .select({ key: catalogCards.referenceImageKey })
      .from(catalogCards)
      .where(eq(catalogCards.id, id))
      .limit(1);
    if (!card) throw new ApiError("not_found", `No catalog card ${id}.`);
    await writeWithStagedImages(c.env.IMAGES, [staged(image)], {
      write: () =>
        db
          .update(catalogCards)
          .set({ referenceImageKey: image.key, referenceHash: image.hash })
          .where(eq(catalogCards.id, id)),
    });
    if (card.key) await c.env.IMAGES.delete(card.key);
    forgetCatalogReferences();
    return c.json({ id, reference_image_key: image.key, reference_hash: image.hash }, 200);
  });

  app.openapi(importRoute, async (c) => {
    const body = c.req.valid("json");
    const image = readReferenceImage(body.reference_image.base64);
    const { hash, key } = image;
    const db = c.var.db;
    let [category] = await db
      .select()
      .from(catalogCategories)
      .where(eq(catalogCategories.name, body.category))
      .limit(1);
    if (!category) [category] = await db.insert(catalogCategories).values({ name: body.category }).returning();
    if (!category) throw new Error("category insert returned nothing");

    // The image first, then the row; if the row cannot be written the image is removed again.
    const card = await writeWithStagedImages(c.env.IMAGES, [staged(image)], {
      write: async () => {
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
        return card;
      },
    });
    forgetCatalogReferences();
    return c.json({ id: card.id, category_id: category.id, reference_image_key: key, reference_hash: hash }, 201);
  });
}
