// Users, partner dashboard accounts and their keys.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import { generatePartnerKey, KEY_START_LENGTH, sha256Hex } from "../auth/api-keys";
import { dashboardAccounts, partnerApiKeys, users } from "../db/schema";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { bodyErrorResponses, errorResponses } from "../errors/openapi";
import { invalidField } from "../errors/validation";
import { IdParams, IssuedKeySchema, jsonBody, RevokedSchema } from "./schemas";

const security = [{ adminToken: [] }];

const createUserRoute = createRoute({
  method: "post",
  path: "/users",
  operationId: "createUser",
  tags: ["Operator"],
  summary: "Create a user (an owner of cards and gradings)",
  security,
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

const createAccountRoute = createRoute({
  method: "post",
  path: "/partner-accounts",
  operationId: "createPartnerAccount",
  tags: ["Operator"],
  summary: "Create a partner dashboard account for a user",
  security,
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

const issuePartnerKeyRoute = createRoute({
  method: "post",
  path: "/partner-accounts/{id}/keys",
  operationId: "issuePartnerKey",
  tags: ["Operator"],
  summary: "Issue a partner API key (shown once)",
  security,
  request: {
    params: IdParams,
    ...jsonBody(z.object({ name: z.string().trim().min(1).max(100).openapi({ example: "production" }) }).strict()),
  },
  responses: {
    201: { description: "The new key.", content: { "application/json": { schema: IssuedKeySchema } } },
    ...errorResponses,
    ...bodyErrorResponses,
  },
});

const revokePartnerKeyRoute = createRoute({
  method: "post",
  path: "/partner-keys/{id}/revoke",
  operationId: "revokePartnerKey",
  tags: ["Operator"],
  summary: "Revoke a partner API key (effective within KEY_CACHE_TTL_SECONDS)",
  security,
  request: { params: IdParams },
  responses: {
    200: { description: "Revoked.", content: { "application/json": { schema: RevokedSchema } } },
    ...errorResponses,
  },
});

export function registerAccountRoutes(app: OpenAPIHono<AppEnv>) {
  app.openapi(createUserRoute, async (c) => {
    const [user] = await c.var.db.insert(users).values({ createdAt: new Date().toISOString() }).returning();
    if (!user) throw new Error("user insert returned nothing");
    return c.json({ id: user.id, created_at: user.createdAt }, 201);
  });

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

  app.openapi(issuePartnerKeyRoute, async (c) => {
    const { id } = c.req.valid("param");
    const { name } = c.req.valid("json");
    const [account] = await c.var.db
      .select({ id: dashboardAccounts.id })
      .from(dashboardAccounts)
      .where(eq(dashboardAccounts.id, id))
      .limit(1);
    if (!account) throw new ApiError("not_found", `No partner account ${id}.`);
    const key = generatePartnerKey();
    const [row] = await c.var.db
      .insert(partnerApiKeys)
      .values({
        accountId: id,
        name,
        start: key.slice(0, KEY_START_LENGTH),
        keyHash: await sha256Hex(key),
        createdAt: new Date().toISOString(),
      })
      .returning();
    if (!row) throw new Error("key insert returned nothing");
    return c.json({ id: row.id, name: row.name, start: row.start, key, created_at: row.createdAt }, 201);
  });

  app.openapi(revokePartnerKeyRoute, async (c) => {
    const { id } = c.req.valid("param");
    const revokedAt = new Date().toISOString();
    const [row] = await c.var.db
      .update(partnerApiKeys)
      .set({ revokedAt })
      .where(and(eq(partnerApiKeys.id, id), isNull(partnerApiKeys.revokedAt)))
      .returning({ id: partnerApiKeys.id, revokedAt: partnerApiKeys.revokedAt });
    if (!row) throw new ApiError("not_found", `No live partner key ${id}.`);
    return c.json({ id: row.id, revoked_at: revokedAt }, 200);
  });
}
