// API clients of the Public Grading Submission API, their keys, and certificate revocation.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import { generatePublicKey, sha256Hex } from "../auth/api-keys";
import { purgeCertificate } from "../cache/certificate-cache";
import { apiClients, apiKeys, certificates, users } from "../db/schema";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { bodyErrorResponses, errorResponses } from "../errors/openapi";
import { CertificateNumberParams } from "../public/certificates/schemas";
import { IdParams, IssuedKeySchema, jsonBody, RevokedSchema } from "./schemas";

const security = [{ adminToken: [] }];

const ClientSchema = z
  .object({
    id: z.number().int().openapi({ example: 3 }),
    name: z.string().openapi({ example: "Acme Cards" }),
    user_id: z
      .number()
      .int()
      .nullable()
      .openapi({ description: "Submissions also appear in this user's Partner API.", example: 1 }),
    hourly_quota: z.number().int().openapi({ example: 120 }),
    created_at: z.string().openapi({ example: "2026-11-22T10:00:00.000Z" }),
  })
  .openapi("AdminClient");

const createClientRoute = createRoute({
  method: "post",
  path: "/clients",
  operationId: "createClient",
  tags: ["Operator"],
  summary: "Create an API client of the public API",
  security,
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

const issueClientKeyRoute = createRoute({
  method: "post",
  path: "/clients/{id}/keys",
  operationId: "issueClientKey",
  tags: ["Operator"],
  summary: "Issue a public API key for a client (shown once)",
  security,
  request: { params: IdParams },
  responses: {
    201: { description: "The new key.", content: { "application/json": { schema: IssuedKeySchema } } },
    ...errorResponses,
  },
});

const revokeClientKeyRoute = createRoute({
  method: "post",
  path: "/api-keys/{id}/revoke",
  operationId: "revokeClientKey",
  tags: ["Operator"],
  summary: "Revoke a public API key (effective within KEY_CACHE_TTL_SECONDS)",
  security,
  request: { params: IdParams },
  responses: {
    200: { description: "Revoked.", content: { "application/json": { schema: RevokedSchema } } },
    ...errorResponses,
  },
});

const revokeCertificateRoute = createRoute({
  method: "post",
  path: "/certificates/{number}/revoke",
  operationId: "revokeCertificate",
  tags: ["Operator"],
  summary: "Revoke a certificate and purge it from the edge cache",
  security,
  request: { params: CertificateNumberParams },
  responses: {
    200: { description: "Revoked.", content: { "application/json": { schema: RevokedSchema } } },
    ...errorResponses,
  },
});

export function registerClientRoutes(app: OpenAPIHono<AppEnv>) {
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

  app.openapi(issueClientKeyRoute, async (c) => {
    const { id } = c.req.valid("param");
    const [client] = await c.var.db
      .select({ id: apiClients.id })
      .from(apiClients)
      .where(eq(apiClients.id, id))
      .limit(1);
    if (!client) throw new ApiError("not_found", `No client ${id}.`);
    const { key, keyId } = generatePublicKey();
    const [row] = await c.var.db
      .insert(apiKeys)
      .values({
        clientId: id,
        keyId,
        keyHash: await sha256Hex(key),
        start: key.slice(0, 9),
        createdAt: new Date().toISOString(),
      })
      .returning();
    if (!row) throw new Error("key insert returned nothing");
    return c.json({ id: row.id, name: null, start: row.start, key, created_at: row.createdAt }, 201);
  });

  app.openapi(revokeClientKeyRoute, async (c) => {
    const { id } = c.req.valid("param");
    const revokedAt = new Date().toISOString();
    const [row] = await c.var.db
      .update(apiKeys)
      .set({ revokedAt })
      .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .returning({ id: apiKeys.id });
    if (!row) throw new ApiError("not_found", `No live API key ${id}.`);
    return c.json({ id: row.id, revoked_at: revokedAt }, 200);
  });

  app.openapi(revokeCertificateRoute, async (c) => {
    const { number } = c.req.valid("param");
    const revokedAt = new Date().toISOString();
    const [row] = await c.var.db
      .update(certificates)
      .set({ revokedAt })
      .where(and(eq(certificates.number, number), isNull(certificates.revokedAt)))
      .returning({ number: certificates.number });
    if (!row) throw new ApiError("not_found", `No live certificate ${number}.`);
    const config = c.var.config;
    await purgeCertificate(config, number);
    // A lookup that read the row just before the revocation may still be writing it to the cache
    // (cache-aside); purging once more a few seconds later closes that window.
    const delayMs = config.CACHE_REPURGE_SECONDS * 1000;
    c.executionCtx.waitUntil(
      new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => purgeCertificate(config, number)),
    );
    return c.json({ id: row.number, revoked_at: revokedAt }, 200);
  });
}
