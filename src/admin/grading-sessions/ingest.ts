// Ingesting a grading produced elsewhere: the partner view (src/grading/partner-view.ts, the same
// writer a settled public submission uses) goes in with its notifications in one D1 batch, so the
// Partner Read API serves it and the matching webhook targets are told, as for a public submission.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { catalogCards, userCards, users } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { bodyErrorResponses, errorResponses } from "../../errors/openapi";
import { partnerViewShareSlug, partnerViewWrites } from "../../grading/partner-view";
import { imageExtension, writeWithStagedImages } from "../../storage/images";
import { dispatchDeliveries } from "../../webhooks/outbox";
import { adminSecurity, jsonBody, readBase64Image } from "../schemas";
import { IngestSchema } from "./schemas";

export const ingestRoute = createRoute({
  method: "post",
  path: "/grading-sessions",
  operationId: "ingestGradingSession",
  tags: ["Operator"],
  summary: "Ingest a grading produced elsewhere",
  description:
    "Creates the user's card, the grading session and (on success) its grade run, and notifies the user's webhook targets for that outcome.",
  security: adminSecurity,
  request: jsonBody(IngestSchema),
  responses: {
    201: {
      description: "The new grading session.",
      content: {
        "application/json": {
          schema: z
            .object({
              grading_session_id: z.string().openapi({ example: "5f0c8a5e-3f7a-4d8e-9a51-0b6f1f7c2d11" }),
              user_card_id: z.number().int().openapi({ example: 53 }),
              outcome: z.enum(["success", "failure"]).openapi({ example: "success" }),
              notifications: z.number().int().openapi({ description: "Partner notifications queued.", example: 1 }),
            })
            .openapi("IngestedGradingSession"),
        },
      },
    },
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

export function registerIngestGradingSession(app: OpenAPIHono<AppEnv>) {
  app.openapi(ingestRoute, async (c) => {
    const body = c.req.valid("json");
    const db = c.var.db;
    const image = (face: "front" | "back") => {
      const base64 = body.images?.[face]?.base64;
      return base64 === undefined ? null : readBase64Image(base64, `json.images.${face}.base64`);
    };
    const front = image("front");
    const back = image("back");
    const [[user], [card]] = await db.batch([
      db.select({ id: users.id }).from(users).where(eq(users.id, body.user_id)).limit(1),
      db.select({ id: catalogCards.id }).from(catalogCards).where(eq(catalogCards.id, body.card_id)).limit(1),
    ]);
    if (!user) throw new ApiError("not_found", `No user ${body.user_id}.`);
    if (!card) throw new ApiError("not_found", `No catalog card ${body.card_id}.`);

    const sessionId = crypto.randomUUID();
    const now = new Date().toISOString();
    const keys = {
      front: front ? `gradings/${sessionId}/front.${imageExtension(front.format)}` : null,
      back: back ? `gradings/${sessionId}/back.${imageExtension(back.format)}` : null,
    };
    const stagedReferenceImage = [
      front && keys.front ? { key: keys.front, bytes: front.bytes, contentType: `image/${front.format}` } : null,
      back && keys.back ? { key: keys.back, bytes: back.bytes, contentType: `image/${back.format}` } : null,
    ];
    const grades = body.grades;
    const partner = partnerViewWrites(db, {
      userId: body.user_id,
      sessionId,
      outcome: body.outcome,
      card: { catalogId: body.card_id },
      grade: grades ? { text: String(grades.overall), grader: body.grader } : null,
      images: keys,
      uniqueIdentifier: null,
      createdAt: now,
      updatedAt: now,
      gradeRun: grades
        ? {
            centering: grades.centering,
            corners: grades.corners,
            edges: grades.edges,
            surface: grades.surface,
            overall: grades.overall,
            modelGrade: body.model_grade ?? null,
          }
        : null,
    });
    return writeWithStagedImages(c.env.IMAGES, stagedReferenceImage, {
      write: async () => {
        const [deliveries, ...rest] = await db.batch([
          partner.notifications,
          ...partner.statements,
          db
            .select({ id: userCards.id })
            .from(userCards)
            .where(eq(userCards.shareSlug, partnerViewShareSlug(sessionId))),
        ]);
        const insertedCard = rest.at(-1) as { id: number }[];
        const notifications = await dispatchDeliveries(
          c.env,
          db,
          sessionId,
          deliveries.map((row) => row.id),
        );
        return c.json(
          {
            grading_session_id: sessionId,
            user_card_id: insertedCard[0]?.id ?? 0,
            outcome: body.outcome,
            notifications,
          },
          201,
        );
      },
    });
  });
}
