import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { errorResponses, quotaHeaders } from "../../errors/openapi";

export const AccountResponseSchema = z
  .object({
    account: z.object({
      id: z.number().int().openapi({ description: "Dashboard account id.", example: 3 }),
      user_id: z.number().int().openapi({ description: "The user whose data this key reads.", example: 1 }),
      email: z.string().openapi({ example: "integrations@partner.example.com" }),
      role: z
        .literal("partner")
        .openapi({ description: "Always `partner`: other roles cannot use the API.", example: "partner" }),
      created_at: z.string().openapi({ example: "2026-10-01T09:00:00.000Z" }),
    }),
    api_key: z.object({
      id: z.number().int().openapi({ example: 5 }),
      name: z.string().openapi({ description: "Name given to the key at creation.", example: "production" }),
      start: z.string().openapi({
        description: "First characters of the key, for recognising it; never the whole key.",
        example: "svcp_Ab3x",
      }),
      created_at: z.string().openapi({ example: "2026-10-01T09:05:00.000Z" }),
      last_used_at: z.string().nullable().openapi({
        description: "Last successful use, recorded at most once a minute; null if never used.",
        example: "2026-11-20T14:03:11.482Z",
      }),
    }),
  })
  .openapi("Account");

export const getAccountRoute = createRoute({
  method: "get",
  path: "/account",
  operationId: "getAccount",
  tags: ["Account"],
  summary: "The account and key making the request",
  description:
    "The dashboard account the key belongs to (its user, whose gradings and cards the key reads) and the key itself: its name, its first characters and when it was last used. Useful to check which key a deployment holds without exposing the key.",
  security: [{ partnerKey: [] }],
  responses: {
    200: {
      description: "The key's account.",
      headers: quotaHeaders,
      content: { "application/json": { schema: AccountResponseSchema } },
    },
    ...errorResponses,
  },
});

export function registerGetAccount(app: OpenAPIHono<AppEnv>) {
  app.openapi(getAccountRoute, (c) => {
    const partner = c.var.partner;
    return c.json(
      {
        account: {
          id: partner.accountId,
          user_id: partner.userId,
          email: partner.accountEmail,
          role: partner.accountRole,
          created_at: partner.accountCreatedAt,
        },
        api_key: {
          id: partner.keyId,
          name: partner.keyName,
          start: partner.keyStart,
          created_at: partner.keyCreatedAt,
          last_used_at: partner.keyLastUsedAt,
        },
      },
      200,
    );
  });
}
