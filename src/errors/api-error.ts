import type { ContentfulStatusCode } from "hono/utils/http-status";

// The closed list of error codes (docs/decisions.md §4). Each maps to exactly one HTTP status.
export const errorCodes = [
  "invalid_request",
  "invalid_token",
  "missing_api_key",
  "invalid_api_key",
  "key_revoked",
  "access_denied",
  "not_found",
  "payload_too_large",
  "rate_limited",
  "idempotency_key_in_use",
  "idempotency_key_reused",
  "grading_failed",
  "internal_error",
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export interface ErrorDetail {
  path: string;
  message: string;
}

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  switch (code) {
    case "invalid_request":
      return 400;
    case "invalid_token":
    case "missing_api_key":
    case "invalid_api_key":
    case "key_revoked":
      return 401;
    case "access_denied":
      return 403;
    case "not_found":
      return 404;
    case "idempotency_key_in_use":
      return 409;
    case "payload_too_large":
      return 413;
    case "idempotency_key_reused":
    case "grading_failed":
      return 422;
    case "rate_limited":
      return 429;
    case "internal_error":
      return 500;
  }
}

/** The one error type handlers throw; `onError` turns it into the documented envelope. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;
  /** Fields beside `error` in the body (a rejected submission's grading_id, status and reason). */
  readonly extra: Record<string, unknown>;
  readonly #status: ContentfulStatusCode | undefined;

  /**
   * `status` overrides the code's usual status; only the Partner API's missing or malformed
   * `Authorization` header uses it (401 with code `invalid_request`, as RFC 6750 §3.1 names it).
   */
  constructor(
    code: ErrorCode,
    message: string,
    options: {
      details?: ErrorDetail[];
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
      status?: 401;
    } = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
    this.#status = options.status;
  }

  get status(): ContentfulStatusCode {
    return this.#status ?? statusOf(this.code);
  }
}
