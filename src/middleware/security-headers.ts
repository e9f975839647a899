import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";

// Response headers for what a browser renders: the certificate page (HTML), the badge (SVG) and
// the /files images. README "Security" lists them. The page is not framable; the badge and images
// are meant to be embedded as <img> on partners' sites, which frame-ancestors does not govern, so
// they say Cross-Origin-Resource-Policy: cross-origin instead.

export type BrowserSurface = "page" | "badge" | "file";

function contentSecurityPolicy(surface: BrowserSurface, imageOrigins: readonly string[]): string {
  switch (surface) {
    case "page":
      // Inline <style> only; photos from this origin (/files) or R2's S3 endpoint; no scripts at all.
      return [
        "default-src 'none'",
        `img-src 'self' ${imageOrigins.join(" ")}`.trim(),
        "style-src 'unsafe-inline'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].join("; ");
    case "badge":
      // An SVG opened directly is a document: nothing it says may run or load.
      return "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";
    case "file":
      return "default-src 'none'; sandbox; frame-ancestors 'none'";
  }
}

export function securityHeaders(surfaceOf: (path: string) => BrowserSurface): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    const surface = surfaceOf(new URL(c.req.url).pathname);
    const config = c.var.config;
    const imageOrigins = config.R2_ACCOUNT_ID ? [`https://${config.R2_ACCOUNT_ID}.r2.cloudflarestorage.com`] : [];
    // A response taken from the cache has immutable headers; copy it before adding ours.
    const response = new Response(c.res.body, c.res);
    const headers = response.headers;
    headers.set("x-request-id", c.var.requestId);
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Referrer-Policy", "no-referrer");
    headers.set("Content-Security-Policy", contentSecurityPolicy(surface, imageOrigins));
    headers.set("Cross-Origin-Resource-Policy", surface === "page" ? "same-origin" : "cross-origin");
    if (surface === "page") headers.set("X-Frame-Options", "DENY");
    c.res = response;
  };
}
