import { createRoute, type OpenAPIHono, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { SubmissionRow } from "../../db/schema";
import { type AppEnv, requireSurface } from "../../env";
import { ApiError } from "../../errors/api-error";
import { bodyErrorResponses, publicErrorResponses } from "../../errors/openapi";
import { invalidField } from "../../errors/validation";
import {
  type IdempotencyLookup,
  type IdempotencyVerdict,
  idempotencyVerdict,
  keyTakenMeanwhile,
} from "../../grading/idempotency";
import { settleDeps } from "../../grading/settle-deps";
import { StepTimings, timedEngine } from "../../grading/step-timings";
import { submitAndWait } from "../../grading/submit";
import { readSubmission, resolveImages } from "./input";
import { GradingSchema, RejectionSchema, SubmissionJsonSchema, SubmissionMultipartSchema } from "./schemas";
import { rejectionError, serializeGrading } from "./serialize";

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
    'Two photos of a raw card (front and back; all four edges and a sliver of background visible). Send JSON with each image as `{ url }` or `{ base64 }`, or `multipart/form-data` with `front_image` and `back_image` files (no base64 overhead). JPEG (four-ink CMYK too), PNG or still WebP, at most 12 MB each; a HEIC, AVIF, JPEG XL, GIF, BMP, TIFF, PDF or SVG file, a web page or an animated WebP is 400 naming what it is. Synchronous: waits for the grade up to `SUBMISSION_WAIT_SECONDS` (60 s by default) and answers 201 with the certificate or 422 `grading_failed`; past that, 202 with `status: "processing"` while grading continues (poll `GET /gradings/{id}` or wait for the webhook). Images are checked before anything is stored: over 12 MB, or over the decode budget read from the header (64 MP; about 64 MiB to decode, so 16-bit or large PNG, lossless WebP and progressive JPEG reach it sooner; 100 JPEG scans), is 413 naming the limit. Rejections are not billed, and up to `REJECTION_REFUND_HOURLY_ALLOWANCE` (20) per client and hour give their quota unit back; past that they count against the quota.',
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
    const lookup = idempotencyKey === null ? null : lookupFor(c, idempotencyKey, input.fingerprint);
    if (lookup) {
      const verdict = await idempotencyVerdict(c.var.db, lookup);
      if (verdict.kind !== "unused") return answerRepeat(c, verdict);
    }
    const images = await timings.measure("images", () => resolveImages(c, input));
    const deps = settleDeps(c.env, {
      config: c.var.config,
      db: c.var.db,
      wrapEngine: (engine) => timedEngine(engine, timings),
      afterResponse: (work) => c.executionCtx.waitUntil(work),
    });
    let submitted: Awaited<ReturnType<typeof submitAndWait>>;
    try {
      submitted = await submitAndWait(
        deps,
        {
          clientId: c.var.client.clientId,
          apiKeyId: c.var.client.apiKeyId,
          quotaWindowStart: c.var.quota.windowStart,
          externalRef: input.externalRef,
          hints: input.hints,
          images,
          requestOrigin: new URL(c.req.url).origin,
          idempotencyKey,
          fingerprint: input.fingerprint,
        },
        { waitUntil: (work) => c.executionCtx.waitUntil(work), clientUserId: c.var.client.userId, timings },
      );
    } catch (error) {
      // Another request with the same key got its row in first.
      if (lookup && keyTakenMeanwhile(error)) {
        const verdict = await idempotencyVerdict(c.var.db, lookup);
        if (verdict.kind !== "unused") return answerRepeat(c, verdict);
      }
      throw error;
    }
    const { submission, settlement } = submitted;
    c.header("Server-Timing", timings.header());
    if (settlement === "timeout" || settlement.status === "retry") {
      return c.json(await serializeGrading(c, submission, null), 202);
    }
    if (settlement.status === "rejected") {
      throw rejectionError({ gradingId: submission.gradingId, reason: settlement.reason, message: settlement.message });
    }
    const settled: SubmissionRow = {
      ...submission,
      status: "complete",
      certificateNumber: settlement.certificate.number,
      settledAt: settlement.certificate.issuedAt,
    };
    return c.json(await serializeGrading(c, settled, settlement.certificate), 201);
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

function lookupFor(c: Context<AppEnv>, key: string, fingerprint: string): IdempotencyLookup {
  return { clientId: c.var.client.clientId, key, fingerprint, waitSeconds: c.var.config.SUBMISSION_WAIT_SECONDS };
}

/**
 * The answer to a repeated Idempotency-Key: the submission's current state (201, 422 or 202) when
 * the body is the same, 422 when it is not, 409 while the first request is still running.
 */
async function answerRepeat(
  c: Context<AppEnv>,
  verdict: Exclude<IdempotencyVerdict, { kind: "unused" }>,
): Promise<Response> {
  switch (verdict.kind) {
    case "reused":
      throw new ApiError(
        "idempotency_key_reused",
        "This Idempotency-Key was used with a different request; use a new key for a new submission.",
      );
    case "in_flight":
      throw new ApiError(
        "idempotency_key_in_use",
        "A request with this Idempotency-Key is still running; retry shortly.",
        {
          headers: { "Retry-After": "2" },
        },
      );
    case "replay": {
      const { submission, certificate } = verdict;
      c.header("Idempotent-Replayed", "true");
      if (submission.status === "rejected") throw rejectionError(submission);
      const status = submission.status === "complete" ? 201 : 202;
      return c.json(await serializeGrading(c, submission, certificate), status);
    }
  }
}
