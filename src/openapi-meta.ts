// What both OpenAPI documents share besides their operations: the licence and contact in `info`
// (integrators' tools expect both) and a description for every tag the operations use.
import type { Config } from "./env";

export function documentLicence() {
  // The API is offered under each partner's agreement, not an open licence.
  // An SPDX "LicenseRef-" id: SPDX's form for a licence of one's own.
  return { name: "Proprietary: use is governed by your partner agreement", identifier: "LicenseRef-Proprietary" };
}

export function documentContact(config: Config, origin: string) {
  return { name: `${config.GRADED_BY} API support`, url: `${origin}/docs` };
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  Health: "Liveness of the service, without authentication.",
  Account: "The account and key behind a partner API key.",
  Gradings:
    "Partner API: the grading sessions of the key's user. Public API: submissions of the key's client and their grades.",
  Cards: "The cards the key's user owns, with their catalog metadata, images and grade history.",
  "Webhook targets": "The URLs the service notifies when a grading session of the key's user settles.",
  Certificates: "Live certificates, looked up by number.",
  Webhooks: "The signed events the service POSTs to a public client's webhook URL.",
  "Public pages": "The certificate's public page and badge, for people and embedding; no key.",
  Population: "Live counts of certificates per grade for catalog cards, served from the edge cache.",
  Verification:
    "What a verifier needs without a key: the public keys that sign certificate attestations and a certificate's live or revoked status.",
  Operator: "The operator's API (ADMIN_TOKEN): users, keys, clients, catalog, gradings, deliveries.",
};

interface RegistryDefinition {
  type: string;
  route?: { tags?: string[] };
  webhook?: { tags?: string[] };
}

/** The `tags` list of a document: the tags its operations and webhooks use, each described. */
export function documentTags(definitions: readonly RegistryDefinition[]) {
  const used = definitions.flatMap((definition) => definition.route?.tags ?? definition.webhook?.tags ?? []);
  return [...new Set(used)].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
}
