import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, eq, isNull } from "drizzle-orm";
import { CERTIFICATE_MAX_AGE_SECONDS, readCertificate, writeCertificate } from "../../cache/certificate-cache";
import { certificates } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { publicErrorResponses } from "../../errors/openapi";
import { presignImageUrl } from "../../storage/presign";
import { CertificateNumberParams, CertificateSchema } from "./schemas";

/** Image URLs in a certificate outlive the hour a client may cache the response. */
const CERTIFICATE_IMAGE_TTL_SECONDS = 2 * CERTIFICATE_MAX_AGE_SECONDS;

type CertificateRow = typeof certificates.$inferSelect;

export const getCertificateRoute = createRoute({
  method: "get",
  path: "/certificates/{number}",
  tags: ["Certificates"],
  summary: "Look up a live certificate",
  description:
    "Any live certificate by its number. Edge-cached for an hour (`Cache-Control: public, max-age=3600`, weak `ETag`, `304` on `If-None-Match`); a cache hit reads no database. Revoked and unknown numbers answer 404. A number whose check digit is wrong answers 400. Authentication and quota apply to every request.",
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
  },
});

export function registerGetCertificate(app: OpenAPIHono<AppEnv>) {
  app.openapi(getCertificateRoute, async (c) => {
    const { number } = c.req.valid("param");
    let entry = await readCertificate<CertificateRow>(number);
    if (!entry) {
      const [row] = await c.var.db
        .select()
        .from(certificates)
        .where(and(eq(certificates.number, number), isNull(certificates.revokedAt)))
        .limit(1);
      if (!row) throw new ApiError("not_found", `No live certificate ${number}.`);
      const written = await writeCertificate(number, row);
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
    const row = entry.value;
    const origin = new URL(c.req.url).origin;
    const now = Date.now();
    const sign = (key: string) => presignImageUrl(c.var.config, origin, key, now, CERTIFICATE_IMAGE_TTL_SECONDS);
    const [front, back] = await Promise.all([sign(row.frontImageKey), sign(row.backImageKey)]);
    const base = c.var.config.PUBLIC_BASE_URL ?? origin;
    return c.json(
      {
        certificate: {
          certificate_number: row.number,
          certificate_url: `${base.replace(/\/$/, "")}/c/${row.number}`,
          issued_at: row.issuedAt,
          revoked: false,
          grade: {
            overall: row.overall,
            centering: row.centering,
            corners: row.corners,
            edges: row.edges,
            surface: row.surface,
            centering_offset: { horizontal: row.centeringHorizontal, vertical: row.centeringVertical },
            model_version: row.modelVersion,
            graded_at: row.gradedAt,
          },
          pipeline: { engine: row.pipelineEngine, graded_by: row.pipelineGradedBy, hosted_by: row.pipelineHostedBy },
          card: {
            player: row.player,
            year: row.year,
            brand: row.brand,
            set: row.setName,
            card_number: row.cardNumber,
            variant: row.variant,
            category: row.category,
          },
          estimated_value: {
            currency: row.valueCurrency,
            low: row.valueLow,
            mid: row.valueMid,
            high: row.valueHigh,
            confidence: row.valueConfidence,
          },
          images: { front, back },
        },
      },
      200,
    );
  });
}
