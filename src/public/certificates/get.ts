import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import { CERTIFICATE_MAX_AGE_SECONDS, readCertificate, writeCertificate } from "../../cache/certificate-cache";
import { type CertificateRow, certificates } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { publicErrorResponses, surfaceOffResponse } from "../../errors/openapi";
import { CertificateNumberParams, CertificateSchema } from "./schemas";
import { serializeCertificate } from "./serialize";

export const getCertificateRoute = createRoute({
  method: "get",
  path: "/certificates/{number}",
  operationId: "getCertificate",
  tags: ["Certificates"],
  summary: "Look up a live certificate",
  description:
    "Any live certificate by its number. `Cache-Control: public, max-age=3600`, weak `ETag`, `304` on `If-None-Match`; the edge serves its copy for at most 5 minutes and revocation purges it, and a cache hit reads no database. Revoked and unknown numbers answer 404. A number whose check digit is wrong answers 400. Authentication and quota apply to every request.",
  security: [{ publicKey: [] }],
  request: { params: CertificateNumberParams },
  responses: {
    200: {
      description: "The certificate.",
      headers: {
        ETag: { description: "Weak validator of the certificate.", schema: { type: "string" } },
        "Cache-Control": { description: "`public, max-age=3600`.", schema: { type: "string" } },
      },
      content: {
        "application/json": { schema: z.object({ certificate: CertificateSchema }).openapi("CertificateResponse") },
      },
    },
    304: { description: "Not modified (the `If-None-Match` validator matches)." },
    ...publicErrorResponses,
    ...surfaceOffResponse,
  },
});

export function registerGetCertificate(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCertificateRoute, async (c) => {
    const { number } = c.req.valid("param");
    let entry = await readCertificate<CertificateRow>(c.var.config, number);
    c.header("x-cache", entry ? "HIT" : "MISS");
    if (!entry) {
      const [row] = await c.var.db
        .select()
        .from(certificates)
        .where(and(eq(certificates.number, number), isNull(certificates.revokedAt)))
        .limit(1);
      if (!row) throw new ApiError("not_found", `No live certificate ${number}.`);
      const written = await writeCertificate(c.var.config, number, row);
      // The response need not wait for the cache write.
      c.executionCtx.waitUntil(written.stored);
      entry = written;
    }
    c.header("ETag", entry.etag);
    c.header("Cache-Control", `public, max-age=${CERTIFICATE_MAX_AGE_SECONDS}`);
    const inm = c.req.header("if-none-match");
    if (inm?.split(",").some((tag) => tag.trim() === entry.etag || tag.trim() === "*")) {
      return c.body(null, 304);
    }
    const certificate = await serializeCertificate(c.var.config, new URL(c.req.url).origin, entry.value);
    return c.json({ certificate }, 200);
  });
}
