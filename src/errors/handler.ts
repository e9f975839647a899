import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ZodError } from "zod";
import type { AppEnv } from "../env";
import { ApiError } from "./api-error";
import { logEvent } from "./log";
import { fromZod } from "./validation";

export function errorBody(error: ApiError, requestId: string) {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      ...(error.details ? { details: error.details } : {}),
    },
    ...error.extra,
  };
}

export function errorResponse(c: Context<AppEnv>, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(errorBody(error, c.get("requestId") ?? "unknown"), error.status);
}

/** The app's one `onError`: ApiError → its envelope; anything else → a generic 500, detail to the log. */
export function handleError(err: Error, c: Context<AppEnv>): Response {
  if (err instanceof ApiError) return errorResponse(c, err);
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own body parsing (malformed JSON, wrong content type) reports 400s this way.
    if (err.status === 413) return errorResponse(c, new ApiError("payload_too_large", err.message));
    return errorResponse(c, new ApiError("invalid_request", err.message || "Malformed request."));
  }
  logEvent("error", { request_id: c.get("requestId"), method: c.req.method, path: new URL(c.req.url).pathname }, err);
  return errorResponse(c, new ApiError("internal_error", "An internal error occurred."));
}

/** `defaultHook` for every OpenAPIHono instance: validation failures use the one envelope. */
export function validationHook(
  result: { success: boolean; error?: ZodError; target: string },
  c: Context<AppEnv>,
): Response | undefined {
  if (result.success || !result.error) return undefined;
  return errorResponse(c, fromZod(result.error, result.target));
}
