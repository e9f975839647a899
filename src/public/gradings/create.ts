import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { Context } from "hono";
import { isUniqueViolation } from "../../db/errors";
import type { SubmissionRow } from "../../db/schema";
import { certificates, submissions } from "../../db/schema";
import { type AppEnv, requireSurface } from "../../env";
import { ApiError } from "../../errors/api-error";
import { logEvent } from "../../errors/log";
import { bodyErrorResponses, publicErrorResponses } from "../../errors/openapi";
import { invalidField } from "../../errors/validation";
import { createGradingEngine } from "../../grading/engines";
/** Idempotency records are honoured this long (docs/decisions.md §4). */
import { IDEMPOTENCY_TTL_MS } from "../../grading/housekeeping";
import { StepTimings, timedEngine } from "../../grading/step-timings";
import { settleSubmission, storeSubmission } from "../../grading/submit";
import { readSubmission, resolveImages } from "./input";
import { GradingSchema, RejectionSchema, SubmissionJsonSchema, SubmissionMultipartSchema } from "./schemas";
import { rejectionError, serializeGrading } from "./serialize";

// A request still running after this long has answered or died; its key is no longer "in flight".
const IN_FLIGHT_GRACE_MS = 30_000;

const IdempotencyKeyHeader = z.object({
  "idempotency-key": z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
    .optional()
    .openapi({
      description:
        "Makes retries safe: the same key and body within 24 h answers the first submission again (`Idempotent-Replayed: true`) instead of grading twice.",
      example: "order-1042-attempt",
    }),
});

export const createGradingRoute = createRoute({
  method: "post",
  path: "/gradings",
  operationId: "submitGrading",
  tags: ["Gradings"],
  summary: "Submit a raw card for grading",
  description:
    'Two photos of a raw card (front and back; all four edges and a sliver of background visible). Send JSON with each image as `{ url }` or `{ base64 }`, or `multipart/form-data` with `front_image` and `back_image` files (no base64 overhead). JPEG, PNG or WebP, at most 12 MB each. Synchronous: waits for the grade up to `SUBMISSION_WAIT_SECONDS` (60 s by default) and answers 201 with the certificate or 422 `grading_failed`; past that, 202 with `status: "processing"` while grading continues (poll `GET /gradings/{id}` or wait for the webhook). Images are checked before anything is stored: over 12 MB, or over the decode budget read from the header (50 MP; about 64 MiB to decode, so 16-bit or large PNG, lossless WebP and progressive JPEG reach it sooner; 100 JPEG scans), is 413 naming the limit. Rejections are not billed, and up to `REJECTION_REFUND_HOURLY_ALLOWANCE` (20) per client and hour give their quota unit back; past that they count against the quota.',
  security: [{ publicKey: [] }],
  request: {
    headers: IdempotencyKeyHeader,
    body: {
      required: true,
      content: {
        "application/json": { schema: SubmissionJsonSchema },
        "multipart/form-data": { schema: SubmissionMultipartSchema },
      },
    },
  },
  responses: {
    201: {
      description: "Graded: the Grading with its certificate.",
      content: { "application/json": { schema: GradingSchema } },
    },
    202: {
      description:
        'Still grading after `SUBMISSION_WAIT_SECONDS`, or waiting for a retry after the engine failed transiently: the Grading with `status: "processing"`.',
      content: { "application/json": { schema: GradingSchema } },
    },
    ...publicErrorResponses,
    409: {
      description: "`idempotency_key_in_use`: a request with this Idempotency-Key is still running.",
      content: { "application/json": { schema: publicErrorResponses[400].content["application/json"].schema } },
    },
    ...bodyErrorResponses,
    422: {
      description:
        "`grading_failed` (the submission was rejected, with `grading_id`, `status` and `reason` beside `error`), or `idempotency_key_reused` (the key came with a different body).",
      content: { "application/json": { schema: RejectionSchema } },
    },
  },
});

export function registerCreateGrading(app: OpenAPIHono<AppEnv>) {
  // The body is read by the handler, not by a validator: it streams in under a size cap, and the
  // same route takes multipart. The route is still described in the OpenAPI document.
  app.openAPIRegistry.registerPath(createGradingRoute);
  app.post("/gradings", async (c) => {
    // The certificate it issues carries signed image URLs: off (403, naming the secret) without a signing key.
    requireSurface(c.var.config, "image URLs");
    const idempotencyKey = readIdempotencyKey(c);
    const timings = new StepTimings();
    const input = await timings.measure("read", () => readSubmission(c));
    if (idempotencyKey !== null) {
      const replay = await replayIdempotent(c, idempotencyKey, input.fingerprint);
      if (replay) return replay;
    }
    const images = await timings.measure("images", () => resolveImages(c, input));
    const engine = timedEngine(createGradingEngine(c.var.config), timings);
    const deps = { env: c.env, config: c.var.config, db: c.var.db, engine };
    let submission: SubmissionRow;
    try {
      submission = await timings.measure("store", () =>
        storeSubmission(deps, {
          clientId: c.var.client.clientId,
          apiKeyId: c.var.client.apiKeyId,
          quotaWindowStart: c.var.quota.windowStart,
          externalRef: input.externalRef,
          hints: input.hints,
          images,
          requestOrigin: new URL(c.req.url).origin,
          idempotencyKey,
          fingerprint: input.fingerprint,
        }),
      );
    } catch (error) {
      // Another request with the same key got its row in first.
      if (idempotencyKey !== null && isUniqueViolation(error, "submissions", ["client_id", "idempotency_key"])) {
        const replay = await replayIdempotent(c, idempotencyKey, input.fingerprint);
        if (replay) return replay;
      }
      throw error;
    }

    const settleStart = performance.now();
    const settling = settleSubmission(deps, submission, images, { clientUserId: c.var.client.userId });
    // Grading goes on after the response (and after a client hangs up) until it settles.
    c.executionCtx.waitUntil(
      settling.catch((error) =>
        logEvent("error", { grading_id: submission.gradingId, step: "background settle" }, error),
      ),
    );
    const waited = await Promise.race([
      settling,
      new Promise<"timeout">((resolve) =>
        setTimeout(() => resolve("timeout"), deps.config.SUBMISSION_WAIT_SECONDS * 1000),
      ),
    ]);
    // `settle` is grading plus recording the outcome (D1 batch, report images, deliveries).
    timings.record("settle", performance.now() - settleStart);
    c.header("Server-Timing", timings.header());
    const answeredAt = new Date().toISOString();
    if (idempotencyKey !== null) {
      await c.var.db.update(submissions).set({ answeredAt }).where(eq(submissions.gradingId, submission.gradingId));
    }
    if (waited === "timeout" || waited.status === "retry") {
      return c.json(await serializeGrading(c, submission, null), 202);
    }
    if (waited.status === "rejected") {
      throw rejectionError({ gradingId: submission.gradingId, reason: waited.reason, message: waited.message });
    }
    const settled: SubmissionRow = {
      ...submission,
      status: "complete",
      certificateNumber: waited.certificate.number,
      settledAt: waited.certificate.issuedAt,
    };
    return c.json(await serializeGrading(c, settled, waited.certificate), 201);
  });
}

function readIdempotencyKey(c: Context<AppEnv>): string | null {
  const raw = c.req.header("idempotency-key");
  if (raw === undefined) return null;
  const result = IdempotencyKeyHeader.safeParse({ "idempotency-key": raw });
  if (!result.success) {
    const message = result.error.issues[0]?.message ?? "is invalid";
    throw invalidField("header.idempotency-key", message);
  }
  return raw;
}

/**
 * The answer to a repeated Idempotency-Key: the submission's current state (201, 422 or 202) when
 * the body is the same, 422 when it is not, 409 while the first request is still running. Null when
 * the key is unused (or its record is older than 24 h, which frees the key).
 */
async function replayIdempotent(c: Context<AppEnv>, key: string, fingerprint: string): Promise<Response | null> {
  const clientId = c.var.client.clientId;
  const [row] = await c.var.db
    .select({ submission: submissions, certificate: certificates })
    .from(submissions)
    .leftJoin(certificates, eq(certificates.gradingId, submissions.gradingId))
    .where(and(eq(submissions.clientId, clientId), eq(submissions.idempotencyKey, key)))
    .limit(1);
  if (!row) return null;
  const { submission, certificate } = row;
  const age = Date.now() - Date.parse(submission.createdAt);
  if (age > IDEMPOTENCY_TTL_MS) {
    await c.var.db
      .update(submissions)
      .set({ idempotencyKey: null })
      .where(eq(submissions.gradingId, submission.gradingId));
    return null;
  }
  if (submission.requestFingerprint !== fingerprint) {
    throw new ApiError(
      "idempotency_key_reused",
      "This Idempotency-Key was used with a different request; use a new key for a new submission.",
    );
  }
  const waitMs = c.var.config.SUBMISSION_WAIT_SECONDS * 1000 + IN_FLIGHT_GRACE_MS;
  if (submission.answeredAt === null && age < waitMs) {
    throw new ApiError(
      "idempotency_key_in_use",
      "A request with this Idempotency-Key is still running; retry shortly.",
      {
        headers: { "Retry-After": "2" },
      },
    );
  }
  c.header("Idempotent-Replayed", "true");
  if (submission.status === "rejected") throw rejectionError(submission);
  const status = submission.status === "complete" ? 201 : 202;
  return c.json(await serializeGrading(c, submission, certificate), status);
}
