// Request body caps (413 `payload_too_large`). A declared Content-Length over the cap is refused
// before anything is read. A body without one (chunked) is counted as it streams through to
// whichever reader the route uses, never buffered here: the stream fails at the chunk that crosses
// the cap, and whatever the reader made of that failure (a JSON or form parse error) is answered
// as the 413 it is.
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { errorResponse } from "../errors/handler";

export function bodyLimit(maxBytes: number): MiddlewareHandler<AppEnv> {
  const tooLarge = () =>
    new ApiError("payload_too_large", `Request bodies are limited to ${maxBytes} bytes (${describeBytes(maxBytes)}).`);
  return createMiddleware<AppEnv>(async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.header("content-length");
    if (declared !== undefined && !c.req.header("transfer-encoding")) {
      if (Number(declared) > maxBytes) throw tooLarge();
      return next(); // the runtime holds the body to its declared length
    }
    let seen = 0;
    let crossed = false;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) {
            crossed = true;
            controller.error(tooLarge());
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    c.req.raw = new Request(c.req.raw, { body: counted });
    await next();
    if (crossed && c.res.status !== 413) c.res = errorResponse(c, tooLarge());
  });
}

function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB` : `${bytes / 1024} KiB`;
}
