import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { validationHook } from "../errors/handler";
import { bodyLimit } from "../middleware/body-limit";
import { databaseSession } from "../middleware/database-session";
import { partnerAuth } from "../middleware/partner-auth";
import { partnerQuota } from "../middleware/quota";
import { registerGetAccount } from "./account/get";
import { registerGetCard } from "./cards/get";
import { registerListCards } from "./cards/list";
import { registerGetGrading } from "./gradings/get";
import { registerListGradings } from "./gradings/list";
import { registerCreateWebhookTarget } from "./webhook-targets/create";
import { registerDeleteWebhookTarget } from "./webhook-targets/delete";
import { registerListWebhookTargets } from "./webhook-targets/list";

const MAX_BODY_BYTES = 16 * 1024;

/**
 * The Partner Read API, mounted at /v1: a D1 session (replica reads, bookmark), Bearer key, then
 * the key's hourly quota, then the route.
 */
export function createPartnerApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  app.use("*", databaseSession, partnerAuth, partnerQuota);
  // The only request body here is a webhook target: a few hundred bytes.
  app.use("*", bodyLimit(MAX_BODY_BYTES));
  registerGetAccount(app);
  registerListGradings(app);
  registerGetGrading(app);
  registerListCards(app);
  registerGetCard(app);
  registerListWebhookTargets(app);
  registerCreateWebhookTarget(app);
  registerDeleteWebhookTarget(app);
  return app;
}
