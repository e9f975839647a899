import { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { validationHook } from "../errors/handler";
import { databaseSession } from "../middleware/database-session";
import { publicAuth } from "../middleware/public-auth";
import { publicQuota } from "../middleware/quota";
import { documentContact, documentLicence, documentTags } from "../openapi-meta";
import { registerGetAttestation } from "./certificates/attestation";
import { registerGetCertificate } from "./certificates/get";
import { registerCreateGrading } from "./gradings/create";
import { registerGetGrading } from "./gradings/get";
import { registerGetPopulation } from "./population/get";
import { registerPublicWebhooks } from "./webhooks";

export const PUBLIC_API_PREFIX = "/api/public/v1";

/** The Public Grading Submission API, mounted at /api/public/v1: `x-api-key`, then the key's quota. */
export function createPublicApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // Its own OpenAPI document comes first, so the key middleware below does not guard it.
  app.openAPIRegistry.registerComponent("securitySchemes", "publicKey", {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: "A public API key `svck_<id>_<secret>`, issued by the operator.",
  });
  app.doc31("/openapi.json", (c) => ({
    openapi: "3.1.0",
    info: {
      title: "Card grading: Public Grading Submission API",
      version: "1.0.0",
      license: documentLicence(),
      contact: documentContact(c.var.config, new URL(c.req.url).origin),
      description:
        "Submit a raw card for grading, poll the submission, look up certificates by number. Every error is `{ error: { code, message, request_id, details? } }`; every response carries `x-request-id`, `RateLimit-Policy`, `RateLimit` and `x-d1-bookmark`. Reads go to the nearest D1 read replica; for read-your-writes, send the `x-d1-bookmark` response header of your last request back as a request header (a malformed one is 400 `invalid_request`).",
    },
    servers: [{ url: `${new URL(c.req.url).origin}${PUBLIC_API_PREFIX}` }],
    tags: documentTags(app.openAPIRegistry.definitions),
  }));
  registerPublicWebhooks(app);
  app.use("*", databaseSession, publicAuth, publicQuota);
  registerCreateGrading(app);
  registerGetGrading(app);
  registerGetCertificate(app);
  registerGetAttestation(app);
  registerGetPopulation(app);
  return app;
}
