// The Idempotency-Key protocol of POST /gradings (docs/decisions.md §4): a key is scoped to the
// client and honoured for 24 hours. Looking a key up gives a verdict the route maps to a status:
// unused (grade the request), the same request again (replay the first answer), a different request
// (422), or the first request still running (409). A key stays "in flight" until its request has
// answered, or until that request has surely died.
import { and, eq } from "drizzle-orm";
import type { Database } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { type CertificateRow, certificates, type SubmissionRow, submissions } from "../db/schema";

/** Idempotency records are honoured this long (docs/decisions.md §4). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/** A request still running this long after its wait has answered or died; its key is no longer in flight. */
const IN_FLIGHT_GRACE_MS = 30_000;

export type IdempotencyVerdict =
  /** No live record: the request is graded (an expired record's key has just been freed). */
  | { kind: "unused" }
  /** The key came with a different request. */
  | { kind: "reused" }
  /** The first request with this key has not answered yet. */
  | { kind: "in_flight" }
  /** The same request again: answer with the submission's current state. */
  | { kind: "replay"; submission: SubmissionRow; certificate: CertificateRow | null };

export interface IdempotencyLookup {
  clientId: number;
  key: string;
  /** SHA-256 of the canonical request (src/public/gradings/input.ts). */
  fingerprint: string;
  /** How long a request waits for its grade (`SUBMISSION_WAIT_SECONDS`). */
  waitSeconds: number;
  now?: number;
}

export async function idempotencyVerdict(db: Database, lookup: IdempotencyLookup): Promise<IdempotencyVerdict> {
  const [row] = await db
    .select({ submission: submissions, certificate: certificates })
    .from(submissions)
    .leftJoin(certificates, eq(certificates.gradingId, submissions.gradingId))
    .where(and(eq(submissions.clientId, lookup.clientId), eq(submissions.idempotencyKey, lookup.key)))
    .limit(1);
  if (!row) return { kind: "unused" };
  const { submission, certificate } = row;
  const age = (lookup.now ?? Date.now()) - Date.parse(submission.createdAt);
  if (age > IDEMPOTENCY_TTL_MS) {
    await db.update(submissions).set({ idempotencyKey: null }).where(eq(submissions.gradingId, submission.gradingId));
    return { kind: "unused" };
  }
  if (submission.requestFingerprint !== lookup.fingerprint) return { kind: "reused" };
  if (submission.answeredAt === null && age < lookup.waitSeconds * 1000 + IN_FLIGHT_GRACE_MS) {
    return { kind: "in_flight" };
  }
  return { kind: "replay", submission, certificate };
}

/**
 * Whether storing a submission failed because another request with the same key got its row in
 * first (the unique index on client and key); the caller looks the key up again.
 */
export function keyTakenMeanwhile(error: unknown): boolean {
  return isUniqueViolation(error, "submissions", ["client_id", "idempotency_key"]);
}

/** Records that the request holding a key has answered, so a retry replays rather than waits. */
export async function markAnswered(db: Database, gradingId: string, answeredAt: string): Promise<void> {
  await db.update(submissions).set({ answeredAt }).where(eq(submissions.gradingId, gradingId));
}
