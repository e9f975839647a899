// POST /partner-accounts/{id}/keys: a partner API key, shown once.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { generatePartnerKey, KEY_START_LENGTH, sha256Hex } from "../../auth/api-keys";
import { dashboardAccounts, partnerApiKeys } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { bodyErrorResponses, errorResponses } from "../../errors/openapi";
import { adminSecurity, IdParams, IssuedKeySchema, jsonBody } from "../schemas";

export const issuePartnerKeyRoute = createRoute({
  method: "post",
  path: "/partner-accounts/{id}/keys",
  operationId: "issuePartnerKey",
  tags: ["Operator"],
  summary: "Issue a partner API key (shown once)",
  description:
    "A further Partner API key for the account, alongside its live ones (for rotating without downtime). The whole key is in this response only; the service keeps its SHA-256 digest and its first characters (`start`). An unknown account is 404 `not_found`.",
  security: adminSecurity,
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

export function registerIssuePartnerKey(app: OpenAPIHono<AppEnv>) {
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
}
