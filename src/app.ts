import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import { createAdminApp } from "./admin";
import type { AppEnv } from "./env";
import { ApiError } from "./errors/api-error";
import { errorResponse, handleError, validationHook } from "./errors/handler";
import { failedAuthThrottle, pageMissThrottle } from "./middleware/abuse-throttle";
import { bodyLimit } from "./middleware/body-limit";
import { requestContext } from "./middleware/request-context";
import { securityHeaders } from "./middleware/security-headers";
import { MAX_REQUEST_BODY_BYTES } from "./net/body";
import { documentContact, documentLicence, documentTags } from "./openapi-meta";
import { registerPages } from "./pages";
import { registerCertificateStatus } from "./pages/status";
import { createPartnerApp } from "./partner";
import { createPublicApp, PUBLIC_API_PREFIX } from "./public";
import { serveSignedFile } from "./storage/files-route";
import { FILES_PREFIX } from "./storage/presign";
import { registerJwks } from "./wellknown/jwks";

const healthRoute = createRoute({
  method: "get",
  path: "/health",
  operationId: "getHealth",
  tags: ["Health"],
  security: [],
  summary: "Liveness check",
  description: "Public, no authentication, touches no storage.",
  responses: {
    200: {
      description: "The Worker is serving.",
      content: {
        "application/json": {
          schema: z.object({ status: z.literal("ok").openapi({ example: "ok" }) }).openapi("Health"),
        },
      },
    },
  },
});

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("*", requestContext, bodyLimit(MAX_REQUEST_BODY_BYTES));
  app.onError(handleError);
  app.notFound((c) =>
    errorResponse(c, new ApiError("not_found", `No route for ${c.req.method} ${new URL(c.req.url).pathname}.`)),
  );

  app.use(
    "/c/*",
    securityHeaders((path) => (path.endsWith("/badge.svg") ? "badge" : "page")),
    pageMissThrottle,
  );
  app.use(
    `${FILES_PREFIX}*`,
    securityHeaders(() => "file"),
  );
  for (const prefix of ["/v1/*", `${PUBLIC_API_PREFIX}/*`, "/admin/v1/*"]) app.use(prefix, failedAuthThrottle);

  app.openapi(healthRoute, (c) => c.json({ status: "ok" as const }, 200));
  app.route("/v1", createPartnerApp());
  app.route(PUBLIC_API_PREFIX, createPublicApp());
  app.route("/admin/v1", createAdminApp());
  registerPages(app);
  registerCertificateStatus(app);
  registerJwks(app);

  // The local stand-in for R2's S3 endpoint (docs/decisions.md §6); its URLs are opaque, so it is not in the spec.
  app.on(["GET", "HEAD"], `${FILES_PREFIX}*`, serveSignedFile);

  app.openAPIRegistry.registerComponent("securitySchemes", "publicKey", {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: "A public API key `svck_<id>_<secret>`.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "adminToken", {
    type: "http",
    scheme: "bearer",
    description: "The operator's ADMIN_TOKEN secret. Without it configured, /admin/v1 answers 404.",
  });
  app.openAPIRegistry.registerComponent("securitySchemes", "partnerKey", {
    type: "http",
    scheme: "bearer",
    description: "A partner API key (`svcp_…`) as `Authorization: Bearer <key>`. The scheme word is case-insensitive.",
  });
  app.doc31("/openapi.json", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Card grading API",
      version: "1.0.0",
      license: documentLicence(),
      contact: documentContact(c.var.config, new URL(c.req.url).origin),
      description:
        "The Partner Read API (`/v1`, Bearer partner key): gradings, owned cards and webhook targets of the key's user. The Public Grading Submission API (`/api/public/v1`, `x-api-key`; its own document is at `/api/public/v1/openapi.json`). Every error is `{ error: { code, message, request_id, details? } }`; every response carries `x-request-id`; every authenticated response carries `RateLimit-Policy`, `RateLimit` and `x-d1-bookmark`. Reads go to the nearest D1 read replica; for read-your-writes, send the `x-d1-bookmark` response header of your last request back as a request header (a malformed one is 400 `invalid_request`).",
    },
    servers: [{ url: new URL(c.req.url).origin }],
    tags: documentTags(app.openAPIRegistry.definitions),
  }));
  app.get("/docs", Scalar({ url: "/openapi.json", pageTitle: "Card grading API reference" }));
  return app;
}
