import type { Context } from "hono";
import type { CertificateRow, SubmissionRow } from "../../db/schema";
import type { AppEnv } from "../../env";
import { ApiError } from "../../errors/api-error";
import { serializeCertificate } from "../certificates/serialize";

/** The Grading object of POST and GET /gradings, for any status. */
export async function serializeGrading(
  c: Context<AppEnv>,
  submission: SubmissionRow,
  certificate: CertificateRow | null,
) {
  return {
    grading_id: submission.gradingId,
    external_ref: submission.externalRef,
    status: submission.status,
    ...(submission.status === "rejected"
      ? { reason: submission.reason ?? "grading_failed", message: submission.message ?? "The submission was rejected." }
      : {}),
    ...(submission.status === "complete" && certificate
      ? { certificate: await serializeCertificate(c.var.config, new URL(c.req.url).origin, certificate) }
      : {}),
    submitted_at: submission.createdAt,
    settled_at: submission.settledAt,
  };
}

/** The 422 a rejected submission answers with: the error envelope plus grading_id, status and reason. */
export function rejectionError(submission: Pick<SubmissionRow, "gradingId" | "reason" | "message">): ApiError {
  return new ApiError("grading_failed", submission.message ?? "The submission was rejected.", {
    extra: { grading_id: submission.gradingId, status: "rejected", reason: submission.reason ?? "grading_failed" },
  });
}
