// POST /clients: an API client of the Public Grading Submission API (its keys are issued by POST /clients/{id}/keys).
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { apiClients, users } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { bodyErrorResponses, errorResponses } from "../../errors/openapi";
import { adminSecurity, jsonBody } from "../schemas";
import { ClientSchema } from "./schemas";

export const createClientRoute = createRoute({
  method: "post",
  path: "/clients",
  operationId: "createClient",
  tags: ["Operator"],
  summary: "Create an API client of the public API",
  description:
    "A client of the Public Grading Submission API, optionally tied to a user (whose cards and gradings its submissions then belong to), with its hourly submission quota. It has no key yet: issue one with `POST /admin/v1/clients/{id}/keys`. An unknown `user_id` is 404 `not_found`.",
  security: adminSecurity,
  request: jsonBody(
    z
      .object({
        name: z.string().trim().min(1).max(100).openapi({ example: "Acme Cards" }),
        user_id: z.number().int().positive().nullable().default(null).openapi({ example: 1 }),
        hourly_quota: z.number().int().min(1).max(1_000_000).default(120).openapi({ example: 120 }),
      })
      .strict()
      .openapi("CreateClient"),
  ),
  responses: {
    201: { description: "The client.", content: { "application/json": { schema: ClientSchema } } },
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

export function registerCreateClient(app: OpenAPIHono<AppEnv>) {
  app.openapi(createClientRoute, async (c) => {
    const body = c.req.valid("json");
    if (body.user_id !== null) {
      const [user] = await c.var.db.select({ id: users.id }).from(users).where(eq(users.id, body.user_id)).limit(1);
      if (!user) throw new ApiError("not_found", `No user ${body.user_id}.`);
    }
    const [client] = await c.var.db
      .insert(apiClients)
      .values({
        name: body.name,
        userId: body.user_id,
        hourlyQuota: body.hourly_quota,
        createdAt: new Date().toISOString(),
      })
      .returning();
    if (!client) throw new Error("client insert returned nothing");
    return c.json(
      {
        id: client.id,
        name: client.name,
        user_id: client.userId,
        hourly_quota: client.hourlyQuota,
        created_at: client.createdAt,
      },
      201,
    );
  });
}
