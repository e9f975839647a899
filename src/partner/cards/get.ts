import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, desc, eq } from "drizzle-orm";
import { catalogCards, catalogCategories, gradeRuns, gradingSessions, userCards } from "../../db/schema";
import { type AppEnv, requireSurface } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponses, quotaHeaders } from "../../errors/openapi";
import { presignOptional } from "../../storage/presign";
import { CardDetailSchema, CardIdParams } from "./schemas";
import { catalogCardColumns, toCatalogCard, toGradeRun, toModelGrade } from "./serialize";

export const getCardRoute = createRoute({
  method: "get",
  path: "/cards/{user_card_id}",
  operationId: "getCard",
  tags: ["Cards"],
  summary: "Get one owned card in full",
  description:
    "Everything known about one owned card: ownership, catalog metadata, presigned images, linked gradings, every grade run and the latest model payload. Ids of other users' cards answer 404.",
  security: [{ partnerKey: [] }],
  request: { params: CardIdParams },
  responses: {
    200: {
      description: "The card.",
      headers: quotaHeaders,
      content: { "application/json": { schema: CardDetailSchema } },
    },
    ...errorResponses,
  },
});

export function registerGetCard(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCardRoute, async (c) => {
    // Its answer carries signed image URLs: off (403, naming the secret) without a signing key.
    requireSurface(c.var.config, "image URLs");
    const { user_card_id: userCardId } = c.req.valid("param");
    const { userId } = c.var.partner;
    const db = c.var.db;
    // One D1 round trip: the three reads go in one batch, each scoped to the key's user.
    const [cardRows, sessionRows, runRows] = await db.batch([
      db
        .select({ userCard: userCards, ...catalogCardColumns, category: catalogCategories.name })
        .from(userCards)
        .innerJoin(catalogCards, eq(catalogCards.id, userCards.cardId))
        .innerJoin(catalogCategories, eq(catalogCategories.id, catalogCards.categoryId))
        .where(and(eq(userCards.id, userCardId), eq(userCards.userId, userId)))
        .limit(1),
      db
        .select({ id: gradingSessions.id })
        .from(gradingSessions)
        .where(and(eq(gradingSessions.userCardId, userCardId), eq(gradingSessions.userId, userId)))
        .orderBy(desc(gradingSessions.createdAt), desc(gradingSessions.seq)),
      db
        .select({ run: gradeRuns })
        .from(gradeRuns)
        .innerJoin(userCards, eq(userCards.id, gradeRuns.userCardId))
        .where(and(eq(gradeRuns.userCardId, userCardId), eq(userCards.userId, userId)))
        .orderBy(desc(gradeRuns.createdAt), desc(gradeRuns.id)),
    ]);
    const row = cardRows[0];
    if (!row) throw new ApiError("not_found", `No card ${userCardId} in this account.`);

    const latest = runRows[0]?.run;
    const origin = new URL(c.req.url).origin;
    const now = Date.now();
    const sign = (key: string | null | undefined) => presignOptional(c.var.config, origin, key, now);
    const [front, back, slabFront, slabBack, damageFront, damageBack] = await Promise.all([
      sign(row.userCard.frontImageKey),
      sign(row.userCard.backImageKey),
      sign(latest?.slabFrontKey),
      sign(latest?.slabBackKey),
      sign(latest?.damageReportFrontKey),
      sign(latest?.damageReportBackKey),
    ]);

    return c.json(
      {
        user_card: {
          id: row.userCard.id,
          card_id: row.userCard.cardId,
          grade: row.userCard.grade,
          grader: row.userCard.grader,
          share_slug: row.userCard.shareSlug,
          added_at: row.userCard.addedAt,
          updated_at: row.userCard.updatedAt,
        },
        card: toCatalogCard(row),
        images: {
          front,
          back,
          slab_front: slabFront,
          slab_back: slabBack,
          damage_report_front: damageFront,
          damage_report_back: damageBack,
        },
        gradings: sessionRows.map((session) => session.id),
        grade_runs: runRows.map(({ run }) => toGradeRun(run)),
        model_grade: toModelGrade(latest?.modelGrade),
      },
      200,
    );
  });
}
