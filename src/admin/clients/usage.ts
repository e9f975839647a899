// What a client's submissions cost, for the operator: how many were billed, how many rejections got
// their quota unit back within the hourly allowance, and how many counted past it.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, eq, gte, lt, sql } from "drizzle-orm";
import { submissions } from "../../db/schema";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../errors/openapi";
import { invalidField } from "../../errors/validation";
import { adminSecurity, IdParams, isoDateTime } from "../schemas";
import { requireClient } from "./require-client";
import { UsageSchema } from "./schemas";

export const usageRoute = createRoute({
  method: "get",
  path: "/clients/{id}/usage",
  operationId: "getClientUsage",
  tags: ["Operator"],
  summary: "A client's submissions by billing, over a time range",
  description:
    "Counts the client's submissions made in `[since, until)` (default: the last 24 hours) by their `billing`: `billed`, `refunded` (a rejection within `REJECTION_REFUND_HOURLY_ALLOWANCE` per hour) or `counted` (a rejection past it).",
  security: adminSecurity,
  request: {
    params: IdParams,
    query: z.object({
      since: isoDateTime
        .optional()
        .openapi({ description: "Made at or after (ISO 8601).", example: "2026-11-22T00:00:00Z" }),
      until: isoDateTime
        .optional()
        .openapi({ description: "Made before (ISO 8601).", example: "2026-11-23T00:00:00Z" }),
    }),
  },
  responses: {
    200: { description: "The counts.", content: { "application/json": { schema: UsageSchema } } },
    ...errorResponses,
  },
});

export function registerClientUsage(app: OpenAPIHono<AppEnv>) {
  app.openapi(usageRoute, async (c) => {
    const { id } = c.req.valid("param");
    const query = c.req.valid("query");
    const until = query.until ?? new Date().toISOString();
    const since = query.since ?? new Date(Date.parse(until) - 24 * 3600 * 1000).toISOString();
    if (since > until) {
      throw invalidField("query.since", "must not be after until");
    }
    await requireClient(c.var.db, id);
    const rows = await c.var.db
      .select({ billing: submissions.billing, count: sql<number>`count(*)` })
      .from(submissions)
      .where(and(eq(submissions.clientId, id), gte(submissions.createdAt, since), lt(submissions.createdAt, until)))
      .groupBy(submissions.billing);
    const counts = { billed: 0, refunded: 0, counted: 0 };
    for (const row of rows) counts[row.billing] = row.count;
    return c.json({ client_id: id, since, until, ...counts }, 200);
  });
}
