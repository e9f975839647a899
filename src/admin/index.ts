import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { validationHook } from "../errors/handler";
import { adminAuth } from "../middleware/admin-auth";
import { registerAccountRoutes } from "./accounts";
import { registerCatalogRoutes } from "./catalog";
import { registerClientRoutes } from "./clients";

/** A 12 MB reference image is about 16 MB of base64. */
const MAX_BODY_BYTES = 17 * 1024 * 1024;

/** The operator API, mounted at /admin/v1: only with ADMIN_TOKEN set, and only with that token. */
export function createAdminApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use(
    "*",
    adminAuth,
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError("payload_too_large", "Request bodies are limited to 17 MB.");
      },
    }),
  );
  registerAccountRoutes(app);
  registerClientRoutes(app);
  registerCatalogRoutes(app);
  return app;
}
