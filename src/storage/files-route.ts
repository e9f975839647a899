import type { Context } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { errorResponse } from "../errors/handler";
import { verifyFilesUrl } from "./presign";

/**
 * GET/HEAD /files/{key}: the local stand-in for R2's S3 endpoint. Serves an object only for a
 * URL presigned by this service and not yet expired; anything else is 403 `access_denied`.
 */
export async function serveSignedFile(c: Context<AppEnv>): Promise<Response> {
  const verdict = await verifyFilesUrl(c.var.config, c.req.url);
  if (!verdict.ok) {
    return errorResponse(c, new ApiError("access_denied", `This image URL is not valid: ${verdict.reason}.`));
  }
  const isHead = c.req.method === "HEAD";
  // HEAD reads only metadata, so no object body is opened and left unread.
  const object = isHead ? await c.env.IMAGES.head(verdict.key) : await c.env.IMAGES.get(verdict.key);
  if (!object) return errorResponse(c, new ApiError("not_found", "No such image."));
  const body = isHead ? null : (object as R2ObjectBody).body;
  const headers = new Headers();
  object.writeHttpMetadata(headers);
  headers.set("ETag", object.httpEtag);
  headers.set("Content-Length", String(object.size));
  headers.set("Cache-Control", "private, max-age=60");
  headers.set("x-request-id", c.var.requestId);
  return new Response(body, { headers });
}
