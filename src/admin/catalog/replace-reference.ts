// PUT /catalog-cards/{id}/reference-image: a new reference image (and hash); the old object is deleted.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { catalogCards } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { bodyErrorResponses, errorResponses } from "../../errors/openapi";
import { forgetCatalogReferences } from "../../grading/references";
import { writeWithStagedImages } from "../../storage/images";
import { adminSecurity, IdParams, jsonBody } from "../schemas";
import { readReferenceImage, stagedReferenceImage } from "./reference-image";
import { ReferenceImageSchema } from "./schemas";

export const replaceReferenceRoute = createRoute({
  method: "put",
  path: "/catalog-cards/{id}/reference-image",
  operationId: "putCatalogReferenceImage",
  tags: ["Operator"],
  summary: "Set or replace a catalog card's reference image",
  description: "Stores the image, recomputes the perceptual hash identification uses, and removes the previous image.",
  security: adminSecurity,
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

export function registerReplaceReferenceImage(app: OpenAPIHono<AppEnv>) {
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
    await writeWithStagedImages(c.env.IMAGES, [stagedReferenceImage(image)], {
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
}
