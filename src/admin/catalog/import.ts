// POST /catalog-cards: a card with its reference image, whose perceptual hash identification uses.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { catalogCards, catalogCategories } from "../../db/schema";
import type { AppEnv } from "../../env";
import { bodyErrorResponses, errorResponses } from "../../errors/openapi";
import { forgetCatalogReferences } from "../../grading/references";
import { writeWithStagedImages } from "../../storage/images";
import { adminSecurity, jsonBody } from "../schemas";
import { readReferenceImage, stagedReferenceImage } from "./reference-image";
import { CatalogImportSchema } from "./schemas";

export const importRoute = createRoute({
  method: "post",
  path: "/catalog-cards",
  operationId: "importCatalogCard",
  tags: ["Operator"],
  summary: "Import a catalog card with its reference image",
  description:
    "The reference image (JPEG, PNG or WebP, base64) is decoded and checked before anything is stored, its 64-bit perceptual hash computed for identifying submitted photos, and the image stored before the row; if the row cannot be written the image is removed again. The category is created when it does not exist yet.",
  security: adminSecurity,
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

export function registerImportCatalogCard(app: OpenAPIHono<AppEnv>) {
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
    const card = await writeWithStagedImages(c.env.IMAGES, [stagedReferenceImage(image)], {
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
