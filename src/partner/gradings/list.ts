import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, desc, eq, sql } from "drizzle-orm";
import { gradingSessions } from "../../db/schema";
import type { AppEnv } from "../../env";
import { errorResponses, quotaHeaders } from "../../errors/openapi";
import { CursorParam, encodeCursor, LimitParam, NextCursorSchema } from "../cursor";
import { GradingListItemSchema } from "./schemas";

export const listGradingsRoute = createRoute({
  method: "get",
  path: "/gradings",
  operationId: "listGradings",
  tags: ["Gradings"],
  summary: "List the user's gradings, newest first",
  description: "Pages through grading sessions by `created_at` descending. Use it to backfill or reconcile.",
  security: [{ partnerKey: [] }],
  request: { query: z.object({ limit: LimitParam, cursor: CursorParam }) },
  responses: {
    200: {
      description: "A page of gradings.",
      headers: quotaHeaders,
      content: {
        "application/json": {
          schema: z
            .object({
              gradings: z.array(GradingListItemSchema).openapi({ description: "The page of gradings, newest first." }),
              next_cursor: NextCursorSchema,
            })
            .openapi("GradingList"),
        },
      },
    },
    ...errorResponses,
  },
});

export function registerListGradings(app: OpenAPIHono<AppEnv>) {
  app.openapi(listGradingsRoute, async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const rows = await c.var.db
      .select({
        seq: gradingSessions.seq,
        id: gradingSessions.id,
        userCardId: gradingSessions.userCardId,
        uniqueIdentifier: gradingSessions.uniqueIdentifier,
        outcome: gradingSessions.outcome,
        createdAt: gradingSessions.createdAt,
        updatedAt: gradingSessions.updatedAt,
      })
      .from(gradingSessions)
      .where(
        and(
          eq(gradingSessions.userId, c.var.partner.userId),
          cursor
            ? sql`(${gradingSessions.createdAt}, ${gradingSessions.seq}) < (${cursor.timestamp}, ${cursor.tiebreak})`
            : undefined,
        ),
      )
      .orderBy(desc(gradingSessions.createdAt), desc(gradingSessions.seq))
      .limit(limit + 1);

    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return c.json(
      {
        gradings: page.map((row) => ({
          id: row.id,
          user_card_id: row.userCardId,
          unique_identifier: row.uniqueIdentifier,
          outcome: row.outcome,
          created_at: row.createdAt,
          updated_at: row.updatedAt,
        })),
        next_cursor: rows.length > limit && last ? encodeCursor(last.createdAt, last.seq) : null,
      },
      200,
    );
  });
}
