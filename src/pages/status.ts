// GET /c/{number}/status: whether a certificate is live or revoked, for a verifier online. No key
// needed, like the certificate page it sits beside: the attestation proves what was certified, and
// this answers whether it still stands (a revoked certificate's attestation endpoint is 404).
// Read from D1 on every request (one primary-key read); browsers may keep it a minute.
import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { certificates } from "../db/schema";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { errorResponses, pageThrottleResponse } from "../errors/openapi";
import { CertificateNumberParams } from "../public/certificates/schemas";

export const STATUS_MAX_AGE_SECONDS = 60;

const StatusSchema = z
  .object({
    certificate_number: z.string().openapi({ example: "1234567897" }),
    status: z.enum(["live", "revoked"]).openapi({ example: "live" }),
    issued_at: z.string().openapi({ example: "2026-11-20T14:05:40.120Z" }),
    revoked_at: z.string().nullable().openapi({ example: null }),
    attestation_kid: z
      .string()
      .nullable()
      .openapi({ description: "The key that signed its attestation; null until it is signed.", example: "3mDbZrLK…" }),
  })
  .openapi("CertificateStatus");

const statusRoute = createRoute({
  method: "get",
  path: "/c/{number}/status",
  operationId: "getCertificateStatus",
  tags: ["Verification"],
  summary: "Whether a certificate is live or revoked",
  description:
    "No key needed. A verifier that checked an attestation offline asks here whether the certificate still stands. `Cache-Control: public, max-age=60`. Unknown numbers answer 404; a wrong check digit 400.",
  security: [],
  request: { params: CertificateNumberParams },
  responses: {
    200: { description: "The status.", content: { "application/json": { schema: StatusSchema } } },
    400: errorResponses[400],
    404: errorResponses[404],
    ...pageThrottleResponse,
    500: errorResponses[500],
  },
});

export function registerCertificateStatus(app: OpenAPIHono<AppEnv>) {
  app.openapi(statusRoute, async (c) => {
    const { number } = c.req.valid("param");
    const [row] = await c.var.db
      .select({
        issuedAt: certificates.issuedAt,
        revokedAt: certificates.revokedAt,
        attestationKid: certificates.attestationKid,
      })
      .from(certificates)
      .where(eq(certificates.number, number))
      .limit(1);
    if (!row) throw new ApiError("not_found", `No certificate ${number}.`);
    c.header("Cache-Control", `public, max-age=${STATUS_MAX_AGE_SECONDS}`);
    return c.json(
      {
        certificate_number: number,
        status: row.revokedAt === null ? ("live" as const) : ("revoked" as const),
        issued_at: row.issuedAt,
        revoked_at: row.revokedAt,
        attestation_kid: row.attestationKid,
      },
      200,
    );
  });
}
