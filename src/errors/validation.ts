// The 400 `invalid_request` errors, built in one place so every surface names the offending field
// the same way: `message` summarises the first problem, `details` lists each as `{ path, message }`.
import type { ZodError } from "zod";
import { ApiError, type ErrorDetail } from "./api-error";

/**
 * One field is wrong: "Invalid <path>: <message>." with the field in `details`. `summary` replaces the
 * message where a sentence reads better than the field path (an email already used, say).
 */
export function invalidField(path: string, message: string, summary?: string): ApiError {
  return new ApiError("invalid_request", summary ?? `Invalid ${path}: ${message}.`, { details: [{ path, message }] });
}

/** Every issue of a zod parse of `target` (`query`, `json`, `header`, …) as details, paths prefixed. */
export function zodDetails(error: ZodError, target: string): ErrorDetail[] {
  return error.issues.map((issue) => ({
    path: [target, ...issue.path.map(String)].join("."),
    message: issue.message,
  }));
}

/**
 * A failed zod parse of `target` as the 400 it answers. The routes' validation hook words the summary
 * without a full stop (as the documented example shows) and the submission reader with one, like
 * `invalidField`; `fullStop` keeps each surface's wording as clients have seen it.
 */
export function fromZod(error: ZodError, target: string, options: { fullStop?: boolean } = {}): ApiError {
  const details = zodDetails(error, target);
  const first = details[0];
  const message = first ? `Invalid ${first.path}: ${first.message}${options.fullStop ? "." : ""}` : "Invalid request.";
  return new ApiError("invalid_request", message, { details });
}
