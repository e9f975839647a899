// Public pages: GET /c/{number} (the certificate as HTML) and GET /c/{number}/badge.svg, no key
// needed. Both are cached whole at the edge for EDGE_TRUST_SECONDS and purged when the certificate
// is revoked; a revoked certificate's page says so rather than disappearing, so a buyer who follows
// an old link learns why. The number is validated before the cache or the database is touched.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { Context } from "hono";
import { ensureAttestation } from "../attestation/sign";
import { EDGE_TRUST_SECONDS, readPage, writePage } from "../cache/certificate-cache";
import { type CertificateRow, certificates } from "../db/schema";
import { type AppEnv, requireSurface } from "../env";
import { logEvent } from "../errors/log";
import { certificateUrl, isCertificateNumber } from "../grading/certificate-number";
import { CERTIFICATE_IMAGE_TTL_SECONDS } from "../public/certificates/serialize";
import { cardPopulation } from "../public/population/get";
import { presignImageUrl } from "../storage/presign";
import { renderBadge, renderCertificatePage, renderNotFoundPage } from "./render";

const PageParams = z.object({
  number: z.string().openapi({ param: { name: "number", in: "path" }, example: "1234567897" }),
});

// Browsers keep a page no longer than the edge trusts it, so a revoked page shows within that bound.
const CACHE_CONTROL = `public, max-age=${EDGE_TRUST_SECONDS}`;

const pageRoute = createRoute({
  method: "get",
  path: "/c/{number}",
  operationId: "getCertificatePage",
  tags: ["Public pages"],
  security: [],
  summary: "Certificate page (HTML)",
  description:
    'The certificate as a page for people: grade and subgrades, centering, card, photos, issue date, the live population of its catalog card ("N graded, M at this grade or higher"), a "Verify this certificate" section with the signed attestation (compact JWS), how to check it offline, and a QR code of the page, and a banner when revoked (the attestation is then withheld). No key needed. Cached at the edge and in browsers for at most 5 minutes (`Cache-Control: public, max-age=300`); revocation purges it. Not framable (`frame-ancestors \'none\'`).',
  request: { params: PageParams },
  responses: {
    200: { description: "The page.", content: { "text/html": { schema: z.string() } } },
    404: { description: "No certificate with this number.", content: { "text/html": { schema: z.string() } } },
  },
});

const badgeRoute = createRoute({
  method: "get",
  path: "/c/{number}/badge.svg",
  operationId: "getCertificateBadge",
  tags: ["Public pages"],
  security: [],
  summary: '"Graded by" badge (SVG)',
  description:
    "A 72 px high SVG badge with the overall grade, the certificate number and a QR code of the certificate page, for partners to embed (`<img src=\".../c/{number}/badge.svg\">`), `REVOKED` once revoked. Cached like the page; embeddable as an image from any site (`Cross-Origin-Resource-Policy: cross-origin`), scripts never run (`Content-Security-Policy: default-src 'none'`).",
  request: { params: PageParams },
  responses: {
    200: { description: "The badge.", content: { "image/svg+xml": { schema: z.string() } } },
    404: { description: "No certificate with this number.", content: { "image/svg+xml": { schema: z.string() } } },
  },
});

async function findCertificate(c: Context<AppEnv>, number: string) {
  const [row] = await c.var.db.select().from(certificates).where(eq(certificates.number, number)).limit(1);
  return row ?? null;
}

/** Serves from the edge cache, or renders, answers and caches after the response. */
async function cachedPage(
  c: Context<AppEnv>,
  number: string,
  kind: "page" | "badge",
  render: (row: CertificateRow) => Promise<string>,
): Promise<Response> {
  const contentType = kind === "page" ? "text/html; charset=utf-8" : "image/svg+xml";
  const notFound = () => {
    const body = kind === "page" ? renderNotFoundPage(number) : "";
    return new Response(body, { status: 404, headers: { "content-type": contentType, "cache-control": "no-store" } });
  };
  // Before any cache or database access: a path like `..%2Fv1%2F…` must not name another cache entry.
  if (!isCertificateNumber(number)) return notFound();
  const hit = await readPage(c.var.config, number, kind);
  if (hit) {
    const response = new Response(hit.body, hit);
    response.headers.delete("x-cached-at");
    response.headers.set("x-cache", "HIT");
    return response;
  }
  const row = await findCertificate(c, number);
  if (!row) return notFound();
  const body = await render(row);
  const headers = { "content-type": contentType, "cache-control": CACHE_CONTROL };
  c.executionCtx.waitUntil(writePage(c.var.config, number, kind, new Response(body, { headers })));
  return new Response(body, { headers: { ...headers, "x-cache": "MISS" } });
}

/** The attestation for the page; without a signing key the page still renders, saying it is unavailable. */
async function pageAttestation(c: Context<AppEnv>, row: CertificateRow, origin: string): Promise<string | null> {
  try {
    return await ensureAttestation({ env: c.env, config: c.var.config, db: c.var.db }, row, origin);
  } catch (error) {
    logEvent("error", { certificate: row.number, step: "page_attestation" }, error);
    return null;
  }
}

export function registerPages(app: OpenAPIHono<AppEnv>) {
  app.openapi(pageRoute, (c) => {
    const { number } = c.req.valid("param");
    return cachedPage(c, number, "page", async (row) => {
      requireSurface(c.var.config, "image URLs");
      const origin = new URL(c.req.url).origin;
      const now = Date.now();
      // The page may be served from the cache for an hour; its photo URLs stay valid for two.
      const sign = (key: string) => presignImageUrl(c.var.config, origin, key, now, CERTIFICATE_IMAGE_TTL_SECONDS);
      const revoked = row.revokedAt !== null;
      const [front, back, attestation, population] = await Promise.all([
        sign(row.frontImageKey),
        sign(row.backImageKey),
        // A revoked certificate's attestation is withdrawn here as at its API endpoint.
        revoked ? null : pageAttestation(c, row, origin),
        revoked || row.cardId === null ? null : cardPopulation(c.var.db, row.cardId, row.overall),
      ]);
      const url = certificateUrl(c.var.config, origin, row.number);
      return renderCertificatePage(
        row,
        { images: { front, back }, verify: { certificateUrl: url, attestation }, population },
        c.var.config.GRADED_BY,
      );
    });
  });
  app.openapi(badgeRoute, (c) => {
    const { number } = c.req.valid("param");
    const url = certificateUrl(c.var.config, new URL(c.req.url).origin, number);
    return cachedPage(c, number, "badge", async (row) => renderBadge(row, c.var.config.GRADED_BY, url));
  });
}
