// Resubmission streaks: the same physical card submitted again by a client (its fingerprint matched
// a live certificate's; src/grading/previous-certificates.ts). One streak per first certificate of
// the card, with this client's later certificates of it in order, so an operator sees a client
// resubmitting a card until it grades higher.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, asc, eq, sql } from "drizzle-orm";
import { apiClients, certificates } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponses } from "../../errors/openapi";
import { adminSecurity, IdParams } from "../schemas";
import { MAX_RESUBMISSIONS, StreakSchema } from "./schemas";

export const streaksRoute = createRoute({
  method: "get",
  path: "/clients/{id}/resubmissions",
  operationId: "listClientResubmissions",
  tags: ["Operator"],
  summary: "A client's resubmission streaks (same physical card graded again)",
  description:
    "Certificates of the same physical card, told by its fingerprint, that this client submitted again after a live certificate of it existed: one streak per card, with the client's certificates of it in order with their overall grades, so an operator sees a card resubmitted until it grades higher. An unknown client is 404 `not_found`.",
  security: adminSecurity,
  request: { params: IdParams },
  responses: {
    200: {
      description: "Streaks, longest first.",
      content: {
        "application/json": {
          schema: z
            .object({
              client_id: z.number().int().openapi({ description: "The client.", example: 7 }),
              resubmitted_certificates: z.number().int().openapi({
                description: "This client's certificates of cards that already had a live certificate.",
                example: 2,
              }),
              streaks: z.array(StreakSchema).openapi({ description: "One per physical card, longest first." }),
            })
            .openapi("AdminResubmissions"),
        },
      },
    },
    ...errorResponses,
  },
});

export function registerClientResubmissions(app: OpenAPIHono<AppEnv>) {
  app.openapi(streaksRoute, async (c) => {
    const { id } = c.req.valid("param");
    const client = await c.var.db.query.apiClients.findFirst({ where: eq(apiClients.id, id), columns: { id: true } });
    if (!client) throw new ApiError("not_found", `No client ${id}.`);
    const rows = await c.var.db
      .select({
        number: certificates.number,
        overall: certificates.overall,
        issuedAt: certificates.issuedAt,
        previous: certificates.previousCertificates,
      })
      .from(certificates)
      .where(and(eq(certificates.clientId, id), sql`json_array_length(${certificates.previousCertificates}) > 0`))
      .orderBy(asc(certificates.issuedAt))
      .limit(MAX_RESUBMISSIONS);
    const streaks = new Map<string, z.infer<typeof StreakSchema>>();
    for (const row of rows) {
      const first = row.previous[0];
      if (!first) continue;
      const streak = streaks.get(first.number) ?? {
        first: { number: first.number, overall: first.overall, issued_at: first.issued_at },
        resubmissions: [],
        length: 1,
        best_overall: first.overall,
      };
      streak.resubmissions.push({ number: row.number, overall: row.overall, issued_at: row.issuedAt });
      streak.length = streak.resubmissions.length + 1;
      streak.best_overall = Math.max(streak.best_overall, row.overall);
      streaks.set(first.number, streak);
    }
    const list = [...streaks.values()].sort((a, b) => b.length - a.length);
    return c.json({ client_id: id, resubmitted_certificates: rows.length, streaks: list }, 200);
  });
}
