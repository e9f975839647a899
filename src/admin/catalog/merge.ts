// Merging an unverified catalog entry (built from a submitter's declared hints when a card could
// not be identified) into a verified catalog card: the users' cards that point at the entry point
// at the real card instead, so their gradings show it, and the entry is removed. One D1 batch.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, eq, sql } from "drizzle-orm";
import { catalogCards, userCards } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { bodyErrorResponses, errorResponses } from "../../errors/openapi";
import { forgetCatalogReferences } from "../../grading/references";
import { adminSecurity, IdParams, jsonBody } from "../schemas";
import { MergeSchema } from "./schemas";

export const mergeRoute = createRoute({
  method: "post",
  path: "/catalog-cards/{id}/merge",
  operationId: "mergeCatalogCard",
  tags: ["Operator"],
  summary: "Merge an unverified catalog entry into a verified card",
  description:
    "`{id}` must be an unverified entry (`source: submitter`); `into` a verified catalog card. Every user card pointing at the entry points at `into` afterwards (its gradings then show that card), and the entry is deleted.",
  security: adminSecurity,
  request: { params: IdParams, ...jsonBody(MergeSchema) },
  responses: {
    200: {
      description: "The merge.",
      content: {
        "application/json": {
          schema: z
            .object({
              merged: z.number().int().openapi({ description: "The deleted unverified entry.", example: 52 }),
              into: z.number().int().openapi({ example: 3 }),
              user_cards: z.number().int().openapi({ description: "User cards moved to `into`.", example: 1 }),
            })
            .openapi("CatalogMerged"),
        },
      },
    },
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

export function registerMergeCatalogCard(app: OpenAPIHono<AppEnv>) {
  app.openapi(mergeRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { into } = c.req.valid("json");
    const db = c.var.db;
    if (id === into) throw new ApiError("invalid_request", "An entry cannot be merged into itself.");
    const [[entry], [target]] = await db.batch([
      db.select().from(catalogCards).where(eq(catalogCards.id, id)).limit(1),
      db.select().from(catalogCards).where(eq(catalogCards.id, into)).limit(1),
    ]);
    if (!entry) throw new ApiError("not_found", `No catalog card ${id}.`);
    if (!target) throw new ApiError("not_found", `No catalog card ${into}.`);
    if (entry.verified)
      throw new ApiError("invalid_request", `Catalog card ${id} is verified; only unverified entries merge.`);
    if (!target.verified)
      throw new ApiError("invalid_request", `Catalog card ${into} is unverified; merge into a verified card.`);
    const now = new Date().toISOString();
    const [moved] = await db.batch([
      db
        .update(userCards)
        .set({ cardId: into, updatedAt: now })
        .where(eq(userCards.cardId, id))
        .returning({ id: userCards.id }),
      // Deleted only while no user card points at it (the update above moved them all).
      db
        .delete(catalogCards)
        .where(
          and(
            eq(catalogCards.id, id),
            eq(catalogCards.verified, false),
            sql`NOT EXISTS (SELECT 1 FROM user_cards WHERE card_id = ${id})`,
          ),
        ),
    ]);
    forgetCatalogReferences();
    return c.json({ merged: id, into, user_cards: moved.length }, 200);
  });
}
