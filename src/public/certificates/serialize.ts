// A stored certificate row as the API shows it. Image URLs are signed at serialisation time, so a
// cached row still hands out fresh URLs.
import { CERTIFICATE_MAX_AGE_SECONDS } from "../../cache/certificate-cache";
import type { CertificateRow } from "../../db/schema";
import { type Config, requireSurface } from "../../env";
import { certificateUrl } from "../../grading/certificate-number";
import { presignImageUrl } from "../../storage/presign";
import { certificateCard, certificateEstimatedValue } from "../../webhooks/outbox";

/** Image URLs in a certificate outlive the hour a client or the edge may cache it. */
export const CERTIFICATE_IMAGE_TTL_SECONDS = 2 * CERTIFICATE_MAX_AGE_SECONDS;

export async function serializeCertificate(config: Config, origin: string, row: CertificateRow) {
  requireSurface(config, "image URLs");
  const now = Date.now();
  const sign = (key: string) => presignImageUrl(config, origin, key, now, CERTIFICATE_IMAGE_TTL_SECONDS);
  const [front, back] = await Promise.all([sign(row.frontImageKey), sign(row.backImageKey)]);
  return {
    certificate_number: row.number,
    certificate_url: certificateUrl(config, origin, row.number),
    issued_at: row.issuedAt,
    revoked: row.revokedAt !== null,
    grade: {
      overall: row.overall,
      centering: row.centering,
      corners: row.corners,
      edges: row.edges,
      surface: row.surface,
      centering_offset: { horizontal: row.centeringHorizontal, vertical: row.centeringVertical },
      model_version: row.modelVersion,
      graded_at: row.gradedAt,
      evidence: row.evidence ?? null,
    },
    pipeline: { engine: row.pipelineEngine, graded_by: row.pipelineGradedBy, hosted_by: row.pipelineHostedBy },
    card: certificateCard(row),
    estimated_value: certificateEstimatedValue(row),
    images: { front, back },
    previous_certificates: (row.previousCertificates ?? []).map((p) => ({
      number: p.number,
      overall: p.overall,
      issued_at: p.issued_at,
    })),
  };
}
