import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, desc, eq } from "drizzle-orm";
import { catalogCards, catalogCategories, gradeRuns, gradingSessions, userCards } from "../../db/schema";
import { type AppEnv, requireSurface } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponses, quotaHeaders } from "../../errors/openapi";
import { presignOptional } from "../../storage/presign";
import { catalogCardColumns, toCatalogCard, toModelGrade } from "../cards/serialize";
import { GradingDetailSchema, GradingIdParams } from "./schemas";

export const getGradingRoute = createRoute({
  method: "get",
  path: "/gradings/{id}",
  operationId: "getGrading",
  tags: ["Gradings"],
  summary: "Get one grading with its card and grades",
  description:
    "The grading, the graded card's catalog metadata and the latest grade run with presigned image URLs (fresh on every request). Ids of other users' gradings answer 404.",
  security: [{ partnerKey: [] }],
  request: { params: GradingIdParams },
  responses: {
    200: {
      description: "The grading.",
      headers: quotaHeaders,
      content: { "application/json": { schema: GradingDetailSchema } },
    },
    ...errorResponses,
  },
});

export function registerGetGrading(app: OpenAPIHono<AppEnv>) {
  app.openapi(getGradingRoute, async (c) => {
    // Its answer carries signed image URLs: off (403, naming the secret) without a signing key.
    requireSurface(c.var.config, "image URLs");
    const { id } = c.req.valid("param");
    const { userId } = c.var.partner;
    const db = c.var.db;
    // One D1 round trip: session with its card, and its latest grade run, both scoped to the user.
    const [sessionRows, runRows] = await db.batch([
      db
        .select({ session: gradingSessions, ...catalogCardColumns, category: catalogCategories.name })
        .from(gradingSessions)
        .innerJoin(userCards, eq(userCards.id, gradingSessions.userCardId))
        .innerJoin(catalogCards, eq(catalogCards.id, userCards.cardId))
        .innerJoin(catalogCategories, eq(catalogCategories.id, catalogCards.categoryId))
        .where(and(eq(gradingSessions.id, id), eq(gradingSessions.userId, userId)))
        .limit(1),
      db
        .select({ run: gradeRuns })
        .from(gradeRuns)
        .innerJoin(gradingSessions, eq(gradingSessions.id, gradeRuns.gradingSessionId))
        .where(and(eq(gradeRuns.gradingSessionId, id), eq(gradingSessions.userId, userId)))
        .orderBy(desc(gradeRuns.createdAt), desc(gradeRuns.id))
        .limit(1),
    ]);
    const row = sessionRows[0];
    if (!row) throw new ApiError("not_found", `No grading ${id} in this account.`);

    const run = runRows[0]?.run;
    let userCardGrade = null;
    if (run) {
      const origin = new URL(c.req.url).origin;
      const now = Date.now();
      const sign = (key: string | null) => presignOptional(c.var.config, origin, key, now);
      const [damageFront, damageBack, slabFront, slabBack] = await Promise.all([
        sign(run.damageReportFrontKey),
        sign(run.damageReportBackKey),
        sign(run.slabFrontKey),
        sign(run.slabBackKey),
      ]);
      userCardGrade = {
        grade_run_id: run.id,
        centering_overall_grade: run.centeringOverallGrade,
        corners_overall_grade: run.cornersOverallGrade,
        edges_overall_grade: run.edgesOverallGrade,
        surface_overall_grade: run.surfaceOverallGrade,
        full_overall_grade: run.fullOverallGrade,
        damage_report_front_url: damageFront,
        damage_report_back_url: damageBack,
        slab_front_url: slabFront,
        slab_back_url: slabBack,
        model_grade: toModelGrade(run.modelGrade),
        graded_at: run.createdAt,
      };
    }

    return c.json(
      {
        grading: {
          id: row.session.id,
          user_card_id: row.session.userCardId,
          unique_identifier: row.session.uniqueIdentifier,
          outcome: row.session.outcome,
          created_at: row.session.createdAt,
          updated_at: row.session.updatedAt,
        },
        // An unverified entry (built from declared hints) is not an identification: card is null.
        card: row.verified ? toCatalogCard(row) : null,
        user_card_grade: userCardGrade,
      },
      200,
    );
  });
}
