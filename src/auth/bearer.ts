// `Authorization: Bearer <token>` (RFC 6750), read the same way by the Partner API and the operator API.
import { ApiError } from "../errors/api-error";

const REALM = "svc";

/** A 401 with the RFC 6750 challenge: `invalid_request` for a missing or malformed header, else `invalid_token`. */
export function bearerChallenge(error: "invalid_request" | "invalid_token", message: string): ApiError {
  return new ApiError(error, message, {
    status: 401,
    headers: { "WWW-Authenticate": `Bearer realm="${REALM}", error="${error}"` },
  });
}

/** Extracts the token from `Authorization: Bearer <token>`; the scheme word is case-insensitive. */
export function parseBearer(header: string | undefined): string {
  if (header === undefined || header.trim() === "") {
    throw bearerChallenge("invalid_request", "Missing Authorization header; send `Authorization: Bearer <API key>`.");
  }
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (match?.[1]?.toLowerCase() !== "bearer" || !match[2]) {
    throw bearerChallenge("invalid_request", "Malformed Authorization header; expected `Bearer <API key>`.");
  }
  return match[2];
}
