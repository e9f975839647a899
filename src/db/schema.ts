// Over 300 lines on purpose: drizzle.config.ts reads the whole model from this one file, and the
// tables refer to each other; one file keeps every relation in view.
// The relational model (docs/decisions.md §2). Timestamps are ISO 8601 UTC strings with milliseconds, so
// lexical order is time order. Every list endpoint has an index that serves its filter and order;
// test/db/query-plans.test.ts fails on a full scan.
import { sql } from "drizzle-orm";
import { index, integer, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { GradeEvidence } from "../grading/engine/evidence";

export const users = sqliteTable("users", {
  id: integer("id").primaryKey(),
  createdAt: text("created_at").notNull(),
});

export const dashboardAccounts = sqliteTable(
  "dashboard_accounts",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id").references(() => users.id),
    role: text("role", { enum: ["partner", "member"] }).notNull(),
    email: text("email").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("dashboard_accounts_email_idx").on(t.email)],
);

export const partnerApiKeys = sqliteTable(
  "partner_api_keys",
  {
    id: integer("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => dashboardAccounts.id),
    name: text("name").notNull(),
    // The first characters of the key, for display ("svcp_AbCd"); never enough to use it.
    start: text("start").notNull(),
    keyHash: text("key_hash").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [uniqueIndex("partner_api_keys_hash_idx").on(t.keyHash)],
);

export const catalogCategories = sqliteTable("catalog_categories", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
});

export const catalogCards = sqliteTable(
  "catalog_cards",
  {
    id: integer("id").primaryKey(),
    categoryId: integer("category_id")
      .notNull()
      .references(() => catalogCategories.id),
    brand: text("brand").notNull(),
    year: text("year").notNull(),
    setName: text("set_name").notNull(),
    cardNumber: text("card_number").notNull(),
    variant: text("variant"),
    playerName: text("player_name").notNull(),
    teamName: text("team_name"),
    // Catalog value of a raw copy, in US cents.
    svcValue: integer("svc_value").notNull(),
    externalIds: text("external_ids", { mode: "json" }).$type<Record<string, string>>(),
    referenceImageKey: text("reference_image_key"),
    // 64-bit perceptual hash of the reference front, 16 hex digits (used by identification).
    referenceHash: text("reference_hash"),
    // An entry built from a submitter's declared hints when the engine could not identify the card
    // (verified false, source "submitter"); the operator merges it into a real card later.
    verified: integer("verified", { mode: "boolean" }).notNull().default(true),
    source: text("source", { enum: ["catalog", "submitter"] })
      .notNull()
      .default("catalog"),
  },
  (t) => [index("catalog_cards_category_idx").on(t.categoryId)],
);

export const userCards = sqliteTable(
  "user_cards",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    cardId: integer("card_id")
      .notNull()
      .references(() => catalogCards.id),
    // Grade as text ("9.5", "10"); null for a raw card.
    grade: text("grade"),
    // Numeric form of `grade` so that sort=grade orders 10 after 9.5; kept by SQLite itself.
    gradeValue: real("grade_value").generatedAlwaysAs(sql`CAST(grade AS REAL)`, { mode: "virtual" }),
    grader: text("grader"),
    shareSlug: text("share_slug").notNull(),
    frontImageKey: text("front_image_key"),
    backImageKey: text("back_image_key"),
    addedAt: text("added_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    // Serves the default order and the cursor walk: (user_id = ?) ORDER BY added_at, id.
    index("user_cards_user_added_idx").on(t.userId, t.addedAt),
    index("user_cards_user_grade_idx").on(t.userId, t.gradeValue),
    uniqueIndex("user_cards_share_slug_idx").on(t.shareSlug),
    // The operator's merge of an unverified catalog entry moves the user cards that point at it.
    index("user_cards_card_idx").on(t.cardId),
  ],
);

export const gradingSessions = sqliteTable(
  "grading_sessions",
  {
    // Internal row order; breaks ties between sessions created in the same millisecond.
    seq: integer("seq").primaryKey(),
    id: text("id").notNull(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    userCardId: integer("user_card_id")
      .notNull()
      .references(() => userCards.id),
    uniqueIdentifier: integer("unique_identifier").notNull(),
    outcome: text("outcome", { enum: ["success", "failure"] }).notNull(),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("grading_sessions_id_idx").on(t.id),
    index("grading_sessions_user_created_idx").on(t.userId, t.createdAt),
    index("grading_sessions_user_card_idx").on(t.userCardId),
  ],
);

export const gradeRuns = sqliteTable(
  "grade_runs",
  {
    id: integer("id").primaryKey(),
    gradingSessionId: text("grading_session_id")
      .notNull()
      .references(() => gradingSessions.id),
    userCardId: integer("user_card_id")
      .notNull()
      .references(() => userCards.id),
    centeringOverallGrade: real("centering_overall_grade"),
    cornersOverallGrade: real("corners_overall_grade"),
    edgesOverallGrade: real("edges_overall_grade"),
    surfaceOverallGrade: real("surface_overall_grade"),
    fullOverallGrade: real("full_overall_grade"),
    modelGrade: text("model_grade", { mode: "json" }).$type<unknown>(),
    slabFrontKey: text("slab_front_key"),
    slabBackKey: text("slab_back_key"),
    damageReportFrontKey: text("damage_report_front_key"),
    damageReportBackKey: text("damage_report_back_key"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    index("grade_runs_session_idx").on(t.gradingSessionId, t.createdAt),
    index("grade_runs_user_card_idx").on(t.userCardId, t.createdAt),
  ],
);

export const webhookTargets = sqliteTable(
  "webhook_targets",
  {
    id: integer("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    outcome: text("outcome", { enum: ["success", "failure"] }).notNull(),
    url: text("url").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("webhook_targets_user_idx").on(t.userId, t.outcome)],
);

// Public Grading Submission API (docs/decisions.md §2, §4).

export const apiClients = sqliteTable("api_clients", {
  id: integer("id").primaryKey(),
  name: text("name").notNull(),
  // Submissions by a client linked to a user also appear in that user's Partner Read API.
  userId: integer("user_id").references(() => users.id),
  hourlyQuota: integer("hourly_quota").notNull().default(120),
  webhookUrl: text("webhook_url"),
  // AES-GCM ciphertext (base64) of the webhook signing secret, keyed by SECRETS_KEY.
  webhookSecretEncrypted: text("webhook_secret_encrypted"),
  // Secrets rotated out, each still signing deliveries until its own `valid_until` (24 h after it was
  // replaced), so two rotations within a day keep every secret of that day live.
  webhookSecretsRetired: text("webhook_secrets_retired", { mode: "json" }).$type<RetiredSecret[]>(),
  createdAt: text("created_at").notNull(),
});

export const apiKeys = sqliteTable(
  "api_keys",
  {
    id: integer("id").primaryKey(),
    clientId: integer("client_id")
      .notNull()
      .references(() => apiClients.id),
    // The public id segment of `svck_<key_id>_<secret>`: the lookup key.
    keyId: text("key_id").notNull(),
    keyHash: text("key_hash").notNull(),
    start: text("start").notNull(),
    createdAt: text("created_at").notNull(),
    revokedAt: text("revoked_at"),
    lastUsedAt: text("last_used_at"),
  },
  (t) => [uniqueIndex("api_keys_key_id_idx").on(t.keyId)],
);

export const certificates = sqliteTable(
  "certificates",
  {
    // 10 digits, the last a Luhn check digit.
    number: text("number").primaryKey(),
    gradingId: text("grading_id").notNull(),
    clientId: integer("client_id").references(() => apiClients.id),
    issuedAt: text("issued_at").notNull(),
    revokedAt: text("revoked_at"),
    overall: real("overall").notNull(),
    centering: real("centering").notNull(),
    corners: real("corners").notNull(),
    edges: real("edges").notNull(),
    surface: real("surface").notNull(),
    centeringHorizontal: real("centering_horizontal").notNull(),
    centeringVertical: real("centering_vertical").notNull(),
    modelVersion: text("model_version").notNull(),
    gradedAt: text("graded_at").notNull(),
    player: text("player"),
    year: text("year"),
    brand: text("brand"),
    setName: text("set_name"),
    cardNumber: text("card_number"),
    variant: text("variant"),
    category: text("category"),
    valueCurrency: text("value_currency").notNull().default("USD"),
    valueLow: real("value_low"),
    valueMid: real("value_mid"),
    valueHigh: real("value_high"),
    valueConfidence: text("value_confidence", { enum: ["high", "medium", "low", "none"] }).notNull(),
    // How the value was reached (src/grading/value.ts); null only on rows settled before it existed.
    valueBasis: text("value_basis", { enum: ["catalog_match", "comparables", "catalog_wide"] }),
    // Where the card fields come from: identification ("catalog", "model") or the submitter's
    // declared hints ("hints"); "none" when neither gave any.
    cardSource: text("card_source", { enum: ["catalog", "model", "hints", "none"] })
      .notNull()
      .default("catalog"),
    frontImageKey: text("front_image_key").notNull(),
    backImageKey: text("back_image_key").notNull(),
    pipelineEngine: text("pipeline_engine").notNull(),
    pipelineGradedBy: text("pipeline_graded_by").notNull(),
    pipelineHostedBy: text("pipeline_hosted_by").notNull(),
    // The catalog card the engine identified (null when unidentified); `cardSource` above says
    // whether the card fields are verified (`catalog`) or declared.
    cardId: integer("card_id").references(() => catalogCards.id),
    // SHA-256 (hex) of the front and back images as stored in R2, signed in the attestation.
    frontImageSha256: text("front_image_sha256"),
    backImageSha256: text("back_image_sha256"),
    // The compact JWS signed at issue (see src/attestation/sign.ts) and the key that signed it.
    attestation: text("attestation"),
    attestationKid: text("attestation_kid"),
    // The physical card's fingerprint (src/grading/engine/fingerprint.ts); null from engines without one.
    fingerprint: text("fingerprint", { mode: "json" }).$type<unknown>(),
    // The fingerprint's front left border (mm), so the candidates for a match are found by index
    // (src/grading/previous-certificates.ts) instead of by reading every fingerprint of a card.
    fingerprintFrontLeftMm: real("fingerprint_front_left_mm"),
    // Live certificates whose fingerprint matched this card's when it was issued, oldest first.
    previousCertificates: text("previous_certificates", { mode: "json" })
      .$type<{ number: string; overall: number; issued_at: string }[]>()
      .notNull()
      .default(sql`'[]'`),
    // What the engine measured (src/grading/engine/evidence.ts); null for engines that give none.
    evidence: text("evidence", { mode: "json" }).$type<GradeEvidence>(),
  },
  (t) => [
    uniqueIndex("certificates_grading_idx").on(t.gradingId),
    // Population counts (per catalog card and grade, live only) and fingerprint candidates.
    index("certificates_card_grade_idx").on(t.cardId, t.revokedAt, t.overall),
    index("certificates_client_issued_idx").on(t.clientId, t.issuedAt),
    // The same card seen twice: live certificates of one catalog card with about the same border.
    index("certificates_fingerprint_idx").on(t.cardId, t.fingerprintFrontLeftMm).where(sql`revoked_at IS NULL`),
  ],
);

/**
 * Ed25519 keys that sign certificate attestations. Public keys stay here for good (the JWKS serves
 * current and retired ones). A key generated by the operator API keeps its private JWK encrypted
 * with SECRETS_KEY; the key bootstrapped from the ATTESTATION_SIGNING_KEY secret keeps none.
 */
export const attestationKeys = sqliteTable(
  "attestation_keys",
  {
    kid: text("kid").primaryKey(),
    publicJwk: text("public_jwk", { mode: "json" }).$type<{ kty: string; crv: string; x: string }>().notNull(),
    privateJwkEncrypted: text("private_jwk_encrypted"),
    status: text("status", { enum: ["current", "retired"] }).notNull(),
    createdAt: text("created_at").notNull(),
    retiredAt: text("retired_at"),
  },
  (t) => [uniqueIndex("attestation_keys_current_idx").on(t.status).where(sql`status = 'current'`)],
);

/** A rotated-out webhook signing secret: its AES-GCM ciphertext and the end of its grace period (ISO). */
export interface RetiredSecret {
  secret: string;
  valid_until: string;
}

export const submissions = sqliteTable(
  "submissions",
  {
    // Also the grading session's id when the client is linked to a user (docs/decisions.md §3).
    gradingId: text("grading_id").primaryKey(),
    clientId: integer("client_id")
      .notNull()
      .references(() => apiClients.id),
    // The key that submitted it, and the quota window its unit was counted in (refunded on rejection).
    apiKeyId: integer("api_key_id").notNull(),
    quotaWindowStart: integer("quota_window_start"),
    externalRef: text("external_ref"),
    status: text("status", { enum: ["processing", "complete", "rejected"] }).notNull(),
    reason: text("reason", { enum: ["holder_detected", "face_check_failed", "grading_failed"] }),
    message: text("message"),
    hints: text("hints", { mode: "json" }).$type<Record<string, string>>(),
    frontImageKey: text("front_image_key").notNull(),
    backImageKey: text("back_image_key").notNull(),
    // Origin of the submitting request: presigned URLs made later (queue retries) point at it.
    requestOrigin: text("request_origin").notNull(),
    idempotencyKey: text("idempotency_key"),
    // SHA-256 of the canonical request (fields, image hashes or URLs), to tell a replay from a reuse.
    requestFingerprint: text("request_fingerprint"),
    // Set once the submitting request has answered; before that a repeat of its key is in flight (409).
    answeredAt: text("answered_at"),
    engine: text("engine"),
    attempts: integer("attempts").notNull().default(0),
    certificateNumber: text("certificate_number"),
    // A random id per settlement attempt, written by the conditional update that settles the
    // submission: the rows of that settlement's batch are inserted only where it matches, so two
    // settlements in the same millisecond cannot both write their deliveries.
    settledBy: text("settled_by"),
    // What the submission cost its client: `billed` (graded, or still processing: its quota unit is
    // used), `refunded` (rejected within the hourly allowance: not billed, quota unit given back) or
    // `counted` (rejected past the allowance: not billed, but its quota unit stays used).
    billing: text("billing", { enum: ["billed", "refunded", "counted"] })
      .notNull()
      .default("billed"),
    // A rejected submission's photos are deleted after REJECTED_IMAGE_RETENTION_DAYS; set when they were.
    imagesDeletedAt: text("images_deleted_at"),
    createdAt: text("created_at").notNull(),
    settledAt: text("settled_at"),
  },
  (t) => [
    uniqueIndex("submissions_client_idempotency_idx").on(t.clientId, t.idempotencyKey),
    index("submissions_client_ref_idx").on(t.clientId, t.externalRef, t.createdAt),
    index("submissions_status_created_idx").on(t.status, t.createdAt),
    // Housekeeping frees Idempotency-Keys older than 24 h.
    index("submissions_created_idx").on(t.createdAt),
    // …walking only the rows that still hold one, so a drained backlog is not scanned again.
    index("submissions_idempotency_created_idx").on(t.createdAt).where(sql`idempotency_key IS NOT NULL`),
    // Refunded rejections per client and quota window (the hourly allowance).
    index("submissions_client_window_billing_idx").on(t.clientId, t.quotaWindowStart, t.billing),
    // Housekeeping's retention: rejected submissions whose photos are still stored, oldest first.
    index("submissions_retention_idx").on(t.status, t.imagesDeletedAt, t.createdAt),
  ],
);

// Webhook deliveries (docs/decisions.md §2, §4): one row per delivery (a public event to a client's URL, or a
// partner notification to one webhook target), written in the same D1 batch that settles the
// grading (the outbox), then sent to the `webhooks` queue. `id` is the svc-delivery-id.
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    kind: text("kind", { enum: ["public", "partner"] }).notNull(),
    clientId: integer("client_id").references(() => apiClients.id),
    userId: integer("user_id").references(() => users.id),
    targetId: integer("target_id"),
    gradingId: text("grading_id").notNull(),
    event: text("event", {
      enum: ["grading.completed", "grading.failed", "grading_session.success", "grading_session.failure"],
    }).notNull(),
    url: text("url").notNull(),
    // The body without `sent_at` (added per attempt), as JSON.
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["pending", "delivered", "failed"] }).notNull(),
    attempts: integer("attempts").notNull().default(0),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    nextAttemptAt: text("next_attempt_at"),
    // Null until the delivery's message is on the queue; housekeeping sends any left behind.
    enqueuedAt: text("enqueued_at"),
    createdAt: text("created_at").notNull(),
    deliveredAt: text("delivered_at"),
  },
  (t) => [
    // The operator's unfiltered list walks this newest first and stops at its limit.
    index("webhook_deliveries_created_idx").on(t.createdAt),
    index("webhook_deliveries_status_created_idx").on(t.status, t.createdAt),
    index("webhook_deliveries_client_created_idx").on(t.clientId, t.createdAt),
    index("webhook_deliveries_user_created_idx").on(t.userId, t.createdAt),
    index("webhook_deliveries_grading_idx").on(t.gradingId),
    index("webhook_deliveries_outbox_idx").on(t.enqueuedAt, t.createdAt),
  ],
);

/** Every delivery attempt: when, the answer's status (null on a network error or timeout), latency, error. */
export const webhookAttempts = sqliteTable(
  "webhook_attempts",
  {
    id: integer("id").primaryKey(),
    deliveryId: text("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id),
    attempt: integer("attempt").notNull(),
    startedAt: text("started_at").notNull(),
    status: integer("status"),
    latencyMs: integer("latency_ms").notNull(),
    error: text("error"),
  },
  (t) => [index("webhook_attempts_delivery_idx").on(t.deliveryId, t.attempt)],
);

// Row types shared by the pipeline and the surfaces.
export type CertificateRow = typeof certificates.$inferSelect;
export type SubmissionRow = typeof submissions.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttestationKeyRow = typeof attestationKeys.$inferSelect;
