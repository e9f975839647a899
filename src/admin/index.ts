import { OpenAPIHono } from "@hono/zod-openapi";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { validationHook } from "../errors/handler";
import { adminAuth } from "../middleware/admin-auth";
import { registerAccountRoutes } from "./accounts";
import { registerAttestationKeyRoutes } from "./attestation-keys";
import { registerCatalogRoutes } from "./catalog";
import { registerClientRoutes } from "./clients";
import { registerGradingSessionRoutes } from "./grading-sessions";
import { registerResubmissionRoutes } from "./resubmissions";
import { registerWebhookRoutes } from "./webhooks";

/** A 12 MB reference image is about 16 MB of base64; an ingested grading may carry two. */
const MAX_BODY_BYTES = 34 * 1024 * 1024;

/** The operator API, mounted at /admin/v1: only with ADMIN_TOKEN set, and only with that token. */
export function createAdminApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use(
    "*",
    adminAuth,
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new ApiError("payload_too_large", "Request bodies are limited to 34 MB.");
      },
    }),
  );
  registerAccountRoutes(app);
  registerClientRoutes(app);
  registerCatalogRoutes(app);
  registerWebhookRoutes(app);
  registerGradingSessionRoutes(app);
  registerAttestationKeyRoutes(app);
  registerResubmissionRoutes(app);
  return app;
}
