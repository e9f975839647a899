// POST /partner-accounts: a partner dashboard account for a user.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { dashboardAccounts, users } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { bodyErrorResponses, errorResponses } from "../../errors/openapi";
import { invalidField } from "../../errors/validation";
import { adminSecurity, jsonBody } from "../schemas";

export const createAccountRoute = createRoute({
  method: "post",
  path: "/partner-accounts",
  operationId: "createPartnerAccount",
  tags: ["Operator"],
  summary: "Create a partner dashboard account for a user",
  description:
    "A dashboard account for an existing user. Only accounts of role `partner` may hold keys that read the Partner API; a `member` account's keys are refused. An unknown user is 404 `not_found`.",
  security: adminSecurity,
  request: jsonBody(
    z
      .object({
        user_id: z.number().int().positive().openapi({ example: 1 }),
        email: z.string().email().max(254).openapi({ example: "integrations@partner.example.com" }),
        role: z
          .enum(["partner", "member"])
          .default("partner")
          .openapi({ description: "Only `partner` accounts can use the Partner API." }),
      })
      .strict()
      .openapi("CreatePartnerAccount"),
  ),
  responses: {
    201: {
      description: "The account.",
      content: {
        "application/json": {
          schema: z
            .object({
              id: z.number().int().openapi({ description: "Account id.", example: 3 }),
              user_id: z.number().int().openapi({ example: 1 }),
              email: z.string().openapi({ example: "integrations@partner.example.com" }),
              role: z.string().openapi({ example: "partner" }),
              created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
            })
            .openapi("AdminPartnerAccount"),
        },
      },
    },
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

export function registerCreatePartnerAccount(app: OpenAPIHono<AppEnv>) {
  app.openapi(createAccountRoute, async (c) => {
    const body = c.req.valid("json");
    const db = c.var.db;
    const [user] = await db.select({ id: users.id }).from(users).where(eq(users.id, body.user_id)).limit(1);
    if (!user) throw new ApiError("not_found", `No user ${body.user_id}.`);
    const [existing] = await db
      .select({ id: dashboardAccounts.id })
      .from(dashboardAccounts)
      .where(eq(dashboardAccounts.email, body.email))
      .limit(1);
    if (existing) {
      throw invalidField("json.email", "already used", "That email already has an account.");
    }
    const [account] = await db
      .insert(dashboardAccounts)
      .values({ userId: body.user_id, email: body.email, role: body.role, createdAt: new Date().toISOString() })
      .returning();
    if (!account) throw new Error("account insert returned nothing");
    return c.json(
      {
        id: account.id,
        user_id: body.user_id,
        email: account.email,
        role: account.role,
        created_at: account.createdAt,
      },
      201,
    );
  });
}
