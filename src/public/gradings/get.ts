import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, desc, eq } from "drizzle-orm";
import { certificates, submissions } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { publicErrorResponses } from "../../errors/openapi";
import { GradingIdParams, GradingSchema, GradingsQuery } from "./schemas";
import { serializeGrading } from "./serialize";

/** Submissions sharing one external_ref are listed newest first, at most this many. */
const MAX_BY_EXTERNAL_REF = 50;

export const getGradingRoute = createRoute({
  method: "get",
  path: "/gradings/{id}",
  operationId: "getSubmission",
  tags: ["Gradings"],
  summary: "Poll a submission",
  description:
    "The same Grading object `POST /gradings` answers with, in any status (`processing`, `complete` with its certificate, `rejected` with `reason`). 404 for an id that is not this client's.",
  security: [{ publicKey: [] }],
  request: { params: GradingIdParams },
  responses: {
    200: { description: "The grading.", content: { "application/json": { schema: GradingSchema } } },
    ...publicErrorResponses,
  },
});

export const listGradingsRoute = createRoute({
  method: "get",
  path: "/gradings",
  operationId: "findSubmissionsByExternalRef",
  tags: ["Gradings"],
  summary: "Find submissions by external_ref",
  description: `This client's submissions with the given \`external_ref\`, newest first (at most ${MAX_BY_EXTERNAL_REF}); an empty list when there are none. For a client whose request timed out before it learnt the grading id.`,
  security: [{ publicKey: [] }],
  request: { query: GradingsQuery },
  responses: {
    200: {
      description: "The matching gradings.",
      content: {
        "application/json": {
          schema: z.object({ gradings: z.array(GradingSchema) }).openapi("GradingList"),
        },
      },
    },
    ...publicErrorResponses,
  },
});

export function registerGetGrading(app: OpenAPIHono<AppEnv>) {
  app.openapi(getGradingRoute, async (c) => {
    const { id } = c.req.valid("param");
    const [row] = await c.var.db
      .select({ submission: submissions, certificate: certificates })
      .from(submissions)
      .leftJoin(certificates, eq(certificates.gradingId, submissions.gradingId))
      .where(and(eq(submissions.gradingId, id), eq(submissions.clientId, c.var.client.clientId)))
      .limit(1);
    if (!row) throw new ApiError("not_found", `No grading ${id}.`);
    return c.json(await serializeGrading(c, row.submission, row.certificate), 200);
  });

  app.openapi(listGradingsRoute, async (c) => {
    const { external_ref } = c.req.valid("query");
    const rows = await c.var.db
      .select({ submission: submissions, certificate: certificates })
      .from(submissions)
      .leftJoin(certificates, eq(certificates.gradingId, submissions.gradingId))
      .where(and(eq(submissions.clientId, c.var.client.clientId), eq(submissions.externalRef, external_ref)))
      .orderBy(desc(submissions.createdAt))
      .limit(MAX_BY_EXTERNAL_REF);
    const gradings = await Promise.all(rows.map((row) => serializeGrading(c, row.submission, row.certificate)));
    return c.json({ gradings }, 200);
  });
}
