import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { validationHook } from "../errors/handler";
import { adminAuth } from "../middleware/admin-auth";
import { registerCreatePartnerAccount } from "./accounts/create-account";
import { registerCreateUser } from "./accounts/create-user";
import { registerIssuePartnerKey } from "./accounts/issue-key";
import { registerRevokePartnerKey } from "./accounts/revoke-key";
import { registerListAttestationKeys } from "./attestation-keys/list";
import { registerRotateAttestationKey } from "./attestation-keys/rotate";
import { registerImportCatalogCard } from "./catalog/import";
import { registerMergeCatalogCard } from "./catalog/merge";
import { registerReplaceReferenceImage } from "./catalog/replace-reference";
import { registerRevokeCertificate } from "./certificates/revoke";
import { registerCreateClient } from "./clients/create";
import { registerIssueClientKey } from "./clients/issue-key";
import { registerClientResubmissions } from "./clients/resubmissions";
import { registerRevokeClientKey } from "./clients/revoke-key";
import { registerClientUsage } from "./clients/usage";
import { registerBackfillPartnerViews } from "./grading-sessions/backfill";
import { registerIngestGradingSession } from "./grading-sessions/ingest";
import { registerGetDelivery } from "./webhooks/get-delivery";
import { registerListDeliveries } from "./webhooks/list-deliveries";
import { registerReplayClientDeliveries } from "./webhooks/replay-client";
import { registerReplayDelivery } from "./webhooks/replay-delivery";
import { registerRotateWebhookSecret } from "./webhooks/rotate-secret";
import { registerSetClientWebhook } from "./webhooks/set-url";

/** The operator API, mounted at /admin/v1: only with ADMIN_TOKEN set, and only with that token. */
export function createAdminApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // Bodies are held to the app-wide cap (an ingested grading may carry two 12 MB images as base64).
  app.use("*", adminAuth);
  registerCreateUser(app);
  registerCreatePartnerAccount(app);
  registerIssuePartnerKey(app);
  registerRevokePartnerKey(app);
  registerCreateClient(app);
  registerIssueClientKey(app);
  registerRevokeClientKey(app);
  registerRevokeCertificate(app);
  registerReplaceReferenceImage(app);
  registerImportCatalogCard(app);
  registerMergeCatalogCard(app);
  registerSetClientWebhook(app);
  registerRotateWebhookSecret(app);
  registerListDeliveries(app);
  registerGetDelivery(app);
  registerReplayDelivery(app);
  registerReplayClientDeliveries(app);
  registerIngestGradingSession(app);
  registerBackfillPartnerViews(app);
  registerClientUsage(app);
  registerListAttestationKeys(app);
  registerRotateAttestationKey(app);
  registerClientResubmissions(app);
  return app;
}
