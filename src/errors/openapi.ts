import { z } from "@hono/zod-openapi";
import { errorCodes } from "./api-error";

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(errorCodes).openapi({ description: "Machine-readable error code.", example: "invalid_request" }),
      message: z.string().openapi({
        description: "Human-readable explanation.",
        example: "Invalid query.limit: Too big: expected number to be <=100",
      }),
      request_id: z.string().openapi({
        description: "Same as the `x-request-id` response header; quote it to support.",
        example: "7d0c5a2e-1f7b-4b7e-9c8a-2b9f1e0d3c4a",
      }),
      details: z
        .array(
          z.object({
            path: z.string().openapi({ example: "query.limit" }),
            message: z.string().openapi({ example: "Too big: expected number to be <=100" }),
          }),
        )
        .optional()
        .openapi({ description: "Present on validation errors: one entry per offending field." }),
    }),
  })
  .openapi("Error");

const rateLimitHeaders = {
  "RateLimit-Policy": {
    description: 'The key\'s quota, e.g. `"hourly";q=3600;w=3600`.',
    schema: { type: "string" as const },
  },
  RateLimit: {
    description: 'Requests left in the current window and seconds until it resets, e.g. `"hourly";r=3599;t=1800`.',
    schema: { type: "string" as const },
  },
  "x-d1-bookmark": {
    description:
      "The database bookmark after this request. Send it back as the `x-d1-bookmark` request header and the next read sees at least this state (read-your-writes when reads go to a replica). Opaque; a malformed one is 400 `invalid_request`.",
    schema: { type: "string" as const },
  },
};

export function errorResponse(
  description: string,
  headers?: Record<string, { description: string; schema: { type: "string" } }>,
) {
  return {
    description,
    content: { "application/json": { schema: ErrorSchema } },
    ...(headers ? { headers } : {}),
  };
}

export const errorResponses = {
  400: errorResponse("`invalid_request`: a query, path or body field is malformed; `details` lists each."),
  401: errorResponse(
    "`invalid_request` (no or malformed `Authorization` header) or `invalid_token` (unknown or revoked key, or an account that is not a partner). Carries `WWW-Authenticate`.",
    {
      "WWW-Authenticate": {
        description: 'e.g. `Bearer realm="svc", error="invalid_token"`',
        schema: { type: "string" },
      },
    },
  ),
  404: errorResponse("`not_found`: no such id for the key's user (ids of other users are never revealed)."),
  429: errorResponse(
    "`rate_limited`: the key's hourly quota is used up, or this address failed authentication too often (20 a minute); retry after `Retry-After` seconds.",
    { "Retry-After": { description: "Seconds until the window resets.", schema: { type: "string" } } },
  ),
  500: errorResponse("`internal_error`: an unexpected failure; the message is generic and the detail is logged."),
} as const;

/** The Public Grading Submission API's errors (no WWW-Authenticate: its key is not a Bearer token). */
export const publicErrorResponses = {
  400: errorResponses[400],
  401: errorResponse(
    "`missing_api_key` (no `x-api-key`), `invalid_api_key` (malformed or unknown key) or `key_revoked`.",
  ),
  404: errorResponse("`not_found`: unknown or revoked certificate, or an id that is not the client's."),
  429: errorResponses[429],
  500: errorResponses[500],
} as const;

/** For the unauthenticated /c/* routes, throttled per address on unknown numbers (middleware/abuse-throttle.ts). */
export const pageThrottleResponse = {
  429: errorResponse(
    "`rate_limited`: this address asked for too many unknown certificate numbers (60 a minute); retry after `Retry-After` seconds.",
    { "Retry-After": { description: "Seconds until the window resets.", schema: { type: "string" } } },
  ),
} as const;

/** For routes whose surface needs a secret that may be unset (README "Configuration"). */
export const surfaceOffResponse = {
  403: errorResponse(
    "`access_denied`: this surface is off because a secret it needs is not configured; the message names it.",
  ),
} as const;

/** For routes that take a body: too large a body is refused before it is parsed. */
export const bodyErrorResponses = {
  413: errorResponse(
    "`payload_too_large`: the request body is over the route's limit (every route: 33619968 bytes, two 12 MB images as base64 plus 64 KiB; the Partner API: 16 KiB), refused as soon as the limit is crossed, with or without Content-Length; or an image is over 12 MB or over the decode budget read from its header (64 megapixels, 64 MiB of decoding memory, 100 JPEG scans; the message names the limit).",
  ),
} as const;

/** Rate-limit headers documented on every successful `/v1/*` response. */
export const quotaHeaders = rateLimitHeaders;
