// POST /certificates/{number}/revoke: the certificate stops answering, purged from the edge cache.
import { createRoute, type OpenAPIHono } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import { purgeCertificate } from "../../cache/certificate-cache";
import { purgePopulation } from "../../cache/population-cache";
import { certificates } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { errorResponses } from "../../errors/openapi";
import { CertificateNumberParams } from "../../public/certificates/schemas";
import { adminSecurity, RevokedSchema } from "../schemas";

export const revokeCertificateRoute = createRoute({
  method: "post",
  path: "/certificates/{number}/revoke",
  operationId: "revokeCertificate",
  tags: ["Operator"],
  summary: "Revoke a certificate and purge it from the edge cache",
  description:
    "The certificate's lookup answers 404 `not_found` from then on: its cached copy and its card's population are purged from the edge cache at once, and the certificate once more a few seconds later (`CACHE_REPURGE_SECONDS`), in case a lookup was writing the old copy back. A certificate already revoked, or never issued, is 404 `not_found`.",
  security: adminSecurity,
  request: { params: CertificateNumberParams },
  responses: {
    200: { description: "Revoked.", content: { "application/json": { schema: RevokedSchema } } },
    ...errorResponses,
  },
});

export function registerRevokeCertificate(app: OpenAPIHono<AppEnv>) {
  app.openapi(revokeCertificateRoute, async (c) => {
    const { number } = c.req.valid("param");
    const revokedAt = new Date().toISOString();
    const [row] = await c.var.db
      .update(certificates)
      .set({ revokedAt })
      .where(and(eq(certificates.number, number), isNull(certificates.revokedAt)))
      .returning({ number: certificates.number, cardId: certificates.cardId });
    if (!row) throw new ApiError("not_found", `No live certificate ${number}.`);
    const config = c.var.config;
    await Promise.all([purgeCertificate(config, number), purgePopulation(row.cardId)]);
    // A lookup that read the row just before the revocation may still be writing it to the cache
    // (cache-aside); purging once more a few seconds later closes that window.
    const delayMs = config.CACHE_REPURGE_SECONDS * 1000;
    c.executionCtx.waitUntil(
      new Promise((resolve) => setTimeout(resolve, delayMs)).then(() => purgeCertificate(config, number)),
    );
    return c.json({ id: row.number, revoked_at: revokedAt }, 200);
  });
}
