import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { validationHook } from "../errors/handler";
import { adminAuth } from "../middleware/admin-auth";
import { registerAccountRoutes } from "./accounts";
import { registerAttestationKeyRoutes } from "./attestation-keys";
import { registerBackfillRoute } from "./backfill";
import { registerCatalogRoutes } from "./catalog";
import { registerCatalogMergeRoute } from "./catalog-merge";
import { registerClientRoutes } from "./clients";
import { registerGradingSessionRoutes } from "./grading-sessions";
import { registerResubmissionRoutes } from "./resubmissions";
import { registerUsageRoutes } from "./usage";
import { registerWebhookRoutes } from "./webhooks";

/** The operator API, mounted at /admin/v1: only with ADMIN_TOKEN set, and only with that token. */
export function createAdminApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // Bodies are held to the app-wide cap (an ingested grading may carry two 12 MB images as base64).
  app.use("*", adminAuth);
  registerAccountRoutes(app);
  registerClientRoutes(app);
  registerCatalogRoutes(app);
  registerCatalogMergeRoute(app);
  registerWebhookRoutes(app);
  registerGradingSessionRoutes(app);
  registerBackfillRoute(app);
  registerUsageRoutes(app);
  registerAttestationKeyRoutes(app);
  registerResubmissionRoutes(app);
  return app;
}
