// The outbox: deliveries are rows written by the same D1 batch that settles a grading, so a
// settlement and its deliveries exist together or not at all. After the batch commits, the pending
// rows are put on the `webhooks` queue; any that miss it (the isolate died in between) are sent by
// housekeeping. A delivery is never queued for something that did not settle.
import { and, eq, inArray, isNotNull, type SQL, sql } from "drizzle-orm";
import type { Database } from "../db/client";
import type { CertificateRow } from "../db/schema";
import { apiClients, webhookDeliveries, webhookTargets } from "../db/schema";
import { logEvent } from "../errors/log";

export const API_VERSION = "v1";

/** `grading.completed`: the body without `sent_at` (added per attempt). */
export function completedEventPayload(args: {
  gradingId: string;
  externalRef: string | null;
  certificate: CertificateRow;
  certificateUrl: string;
}): Record<string, unknown> {
  const c = args.certificate;
  return {
    event: "grading.completed",
    api_version: API_VERSION,
    external_ref: args.externalRef,
    data: {
      grading_id: args.gradingId,
      status: "complete",
      certificate: {
        certificate_number: c.number,
        certificate_url: args.certificateUrl,
        issued_at: c.issuedAt,
        grade: {
          overall: c.overall,
          centering: c.centering,
          corners: c.corners,
          edges: c.edges,
          surface: c.surface,
          centering_offset: { horizontal: c.centeringHorizontal, vertical: c.centeringVertical },
          model_version: c.modelVersion,
          graded_at: c.gradedAt,
        },
        card: certificateCard(c),
        estimated_value: certificateEstimatedValue(c),
      },
    },
  };
}

/**
 * A certificate's card as the API, the webhook and the page show it: `verified` false and `source`
 * "hints" when the fields are what the submitter declared rather than an identification.
 */
export function certificateCard(c: CertificateRow) {
  return {
    player: c.player,
    year: c.year,
    brand: c.brand,
    set: c.setName,
    card_number: c.cardNumber,
    variant: c.variant,
    category: c.category,
    verified: c.cardSource === "catalog" || c.cardSource === "model",
    source: c.cardSource,
  };
}

/** A certificate's estimated value with the basis it was reached on (src/grading/engine/value.ts). */
export function certificateEstimatedValue(c: CertificateRow) {
  return {
    currency: c.valueCurrency,
    // Migration 0004 valued every certificate issued without numbers; settlements always write them.
    low: c.valueLow ?? 0,
    mid: c.valueMid ?? 0,
    high: c.valueHigh ?? 0,
    confidence: c.valueConfidence,
    basis: c.valueBasis ?? "catalog_match",
  };
}

/** `grading.failed`: `data` is `{ grading_id, status: "rejected", reason }` (docs/decisions.md §4). */
export function failedEventPayload(args: { gradingId: string; externalRef: string | null; reason: string }) {
  return {
    event: "grading.failed",
    api_version: API_VERSION,
    external_ref: args.externalRef,
    data: { grading_id: args.gradingId, status: "rejected", reason: args.reason },
  };
}

export interface WebhookMessage {
  delivery_id: string;
}

// A random UUID made by SQLite, for rows inserted by INSERT … SELECT.
const sqlUuid = sql<string>`lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;

/** The columns every new delivery row starts with, for INSERT … SELECT (the caller adds who and where). */
// Drizzle wants the selected fields in the table's column order.
function newDeliveryColumns(args: {
  gradingId: string;
  event: string;
  url: SQL.Aliased<string>;
  payload: string;
  now: string;
}) {
  return {
    gradingId: sql<string>`${args.gradingId}`.as("grading_id"),
    event: sql<string>`${args.event}`.as("event"),
    url: args.url,
    payload: sql<string>`${args.payload}`.as("payload"),
    status: sql<"pending">`'pending'`.as("status"),
    attempts: sql<number>`0`.as("attempts"),
    lastStatus: sql<null>`NULL`.as("last_status"),
    lastError: sql<null>`NULL`.as("last_error"),
    nextAttemptAt: sql<null>`NULL`.as("next_attempt_at"),
    enqueuedAt: sql<null>`NULL`.as("enqueued_at"),
    createdAt: sql<string>`${args.now}`.as("created_at"),
    deliveredAt: sql<null>`NULL`.as("delivered_at"),
  };
}

/**
 * The public event for a client's webhook URL, if the client has one (INSERT … SELECT, so it goes in
 * the settling batch). `condition` must also hold, e.g. that this batch's conditional update won.
 */
export function publicEventInsert(
  db: Database,
  args: {
    clientId: number;
    gradingId: string;
    event: "grading.completed" | "grading.failed";
    payload: Record<string, unknown>;
    now: string;
    condition?: SQL;
  },
) {
  return db
    .insert(webhookDeliveries)
    .select(
      db
        .select({
          id: sql<string>`${crypto.randomUUID()}`.as("id"),
          kind: sql<"public">`'public'`.as("kind"),
          clientId: apiClients.id,
          userId: sql<null>`NULL`.as("user_id"),
          targetId: sql<null>`NULL`.as("target_id"),
          ...newDeliveryColumns({
            ...args,
            url: sql<string>`${apiClients.webhookUrl}`.as("url"),
            payload: JSON.stringify(args.payload),
          }),
        })
        .from(apiClients)
        .where(
          and(
            eq(apiClients.id, args.clientId),
            isNotNull(apiClients.webhookUrl),
            isNotNull(apiClients.webhookSecretEncrypted),
            args.condition,
          ),
        ),
    )
    .returning({ id: webhookDeliveries.id });
}

/** One partner notification per webhook target of the user whose outcome matches (INSERT … SELECT). */
export function partnerNotificationsInsert(
  db: Database,
  args: { userId: number; gradingSessionId: string; outcome: "success" | "failure"; now: string },
) {
  const payload = JSON.stringify({ grading_session_id: args.gradingSessionId, outcome: args.outcome });
  return db
    .insert(webhookDeliveries)
    .select(
      db
        .select({
          id: sqlUuid.as("id"),
          kind: sql<"partner">`'partner'`.as("kind"),
          clientId: sql<null>`NULL`.as("client_id"),
          userId: webhookTargets.userId,
          targetId: webhookTargets.id,
          ...newDeliveryColumns({
            gradingId: args.gradingSessionId,
            event: `grading_session.${args.outcome}`,
            url: sql<string>`${webhookTargets.url}`.as("url"),
            payload,
            now: args.now,
          }),
        })
        .from(webhookTargets)
        .where(and(eq(webhookTargets.userId, args.userId), eq(webhookTargets.outcome, args.outcome))),
    )
    .returning({ id: webhookDeliveries.id });
}

/**
 * Queues the deliveries a settlement wrote (the ids its INSERTs returned). A failure here is logged
 * and left to housekeeping, which queues rows still unqueued a minute later.
 */
export async function dispatchDeliveries(env: Env, db: Database, gradingId: string, ids: string[]): Promise<number> {
  try {
    return await enqueueDeliveries(env, db, ids);
  } catch (error) {
    logEvent("error", { grading_id: gradingId, step: "dispatch deliveries" }, error);
    return 0;
  }
}

export async function enqueueDeliveries(env: Env, db: Database, ids: string[], delaySeconds = 0): Promise<number> {
  if (ids.length === 0) return 0;
  // sendBatch takes at most 100 messages, and the update below binds each id plus its timestamp
  // under D1's 100 parameters a statement: 90 a chunk.
  for (let i = 0; i < ids.length; i += 90) {
    const chunk = ids.slice(i, i + 90);
    await env.WEBHOOKS.sendBatch(
      chunk.map((id) => ({
        body: { delivery_id: id } satisfies WebhookMessage,
        contentType: "json" as const,
        delaySeconds,
      })),
    );
    await db
      .update(webhookDeliveries)
      .set({ enqueuedAt: new Date().toISOString() })
      .where(inArray(webhookDeliveries.id, chunk));
  }
  return ids.length;
}
