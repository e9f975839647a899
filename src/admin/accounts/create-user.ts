// POST /users: a user, the owner of cards and gradings.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { users } from "../../db/schema";
import type { AppEnv } from "../../env";
import { errorResponses } from "../../errors/openapi";
import { adminSecurity } from "../schemas";

export const createUserRoute = createRoute({
  method: "post",
  path: "/users",
  operationId: "createUser",
  tags: ["Operator"],
  summary: "Create a user (an owner of cards and gradings)",
  description:
    "A user owns cards and gradings; partner accounts and API clients are tied to one. The request has no body.",
  security: adminSecurity,
  responses: {
    201: {
      description: "The user.",
      content: {
        "application/json": {
          schema: z
            .object({
              id: z.number().int().openapi({ description: "User id.", example: 1 }),
              created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
            })
            .openapi("AdminUser"),
        },
      },
    },
    ...errorResponses,
  },
});

export function registerCreateUser(app: OpenAPIHono<AppEnv>) {
  app.openapi(createUserRoute, async (c) => {
    const [user] = await c.var.db.insert(users).values({ createdAt: new Date().toISOString() }).returning();
    if (!user) throw new Error("user insert returned nothing");
    return c.json({ id: user.id, created_at: user.createdAt }, 201);
  });
}
