// The operator's backfill of the partner view (src/grading/backfill.ts): sessions for linked
// clients' submissions settled before every outcome got one, without notifications.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { bodyErrorResponses, errorResponses } from "../../errors/openapi";
import { backfillPartnerViews, partnerViewsMissing } from "../../grading/backfill";
import { adminSecurity, jsonBody } from "../schemas";
import { BackfillSchema } from "./schemas";

export const backfillRoute = createRoute({
  method: "post",
  path: "/backfill/partner-views",
  operationId: "backfillPartnerViews",
  tags: ["Operator"],
  summary: "Backfill grading sessions for past submissions",
  description:
    "Settled submissions of clients linked to a user that have no grading session get one (success with its grade run, or failure), dated as they were settled. No webhook target is notified. Call again while `more` is true; a repeated call writes nothing twice.",
  security: adminSecurity,
  request: jsonBody(BackfillSchema),
  responses: {
    200: {
      description: "What this call wrote.",
      content: {
        "application/json": {
          schema: z
            .object({
              written: z.number().int().openapi({ description: "Sessions written.", example: 12 }),
              skipped: z
                .number()
                .int()
                .openapi({ description: "Submissions whose session appeared meanwhile.", example: 0 }),
              more: z.boolean().openapi({ description: "True when another call has more to do.", example: false }),
              remaining: z
                .number()
                .int()
                .openapi({ description: "Settled submissions still without a session.", example: 0 }),
            })
            .openapi("PartnerViewBackfillResult"),
        },
      },
    },
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

export function registerBackfillPartnerViews(app: OpenAPIHono<AppEnv>) {
  app.openapi(backfillRoute, async (c) => {
    const { limit } = c.req.valid("json");
    const result = await backfillPartnerViews(c.env, c.var.db, limit);
    const remaining = await partnerViewsMissing(c.var.db);
    return c.json({ ...result, more: remaining > 0, remaining }, 200);
  });
}
