// The same card seen twice: a new certificate's fingerprint against the live certificates it could
// be a copy of. Candidates are the live certificates of the same catalog card (or, for an
// unidentified card, the unidentified ones) whose front left border is within SAME_CUT_MM of this
// card's, found through an index in one query: a match needs every border within SAME_CUT_MM, so
// no certificate outside that range can match, and a card's other copies are not read at all.
import { z } from "@hono/zod-openapi";
import { and, between, desc, eq, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { certificates } from "../db/schema";
import { type CardFingerprint, compareFingerprints, SAME_CUT_MM } from "./engine/fingerprint";

/** At most this many candidates are compared (newest first); comparing one costs microseconds. */
export const FINGERPRINT_CANDIDATES = 2000;

/** Widens the border range a little, so a stored value that rounds onto its edge is still read. */
const RANGE_SLACK_MM = 0.001;

const borders = z.object({ left: z.number(), right: z.number(), top: z.number(), bottom: z.number() });
/** A stored fingerprint column, parsed where it enters (an unreadable one is skipped, not trusted). */
export const StoredFingerprint = z.object({
  version: z.literal(1),
  front_hash: z.string().regex(/^[0-9a-f]{16}$/),
  back_hash: z.string().regex(/^[0-9a-f]{16}$/),
  front_borders_mm: borders,
  back_borders_mm: borders.nullable(),
  wear: z.object({ corners: z.array(z.number()), edges: z.array(z.number()) }).nullable(),
});

export interface PreviousCertificate {
  number: string;
  overall: number;
  issued_at: string;
}

/** The candidates' query: live certificates of the card with about the same front left border. */
export function candidatesQuery(db: Database, fingerprint: CardFingerprint, cardId: number | null) {
  return db
    .select({
      number: certificates.number,
      overall: certificates.overall,
      issuedAt: certificates.issuedAt,
      fingerprint: certificates.fingerprint,
    })
    .from(certificates)
    .where(
      and(
        cardId === null ? isNull(certificates.cardId) : eq(certificates.cardId, cardId),
        isNull(certificates.revokedAt),
        between(
          certificates.fingerprintFrontLeftMm,
          fingerprint.front_borders_mm.left - SAME_CUT_MM - RANGE_SLACK_MM,
          fingerprint.front_borders_mm.left + SAME_CUT_MM + RANGE_SLACK_MM,
        ),
      ),
    )
    .orderBy(desc(certificates.issuedAt))
    .limit(FINGERPRINT_CANDIDATES);
}

export async function findPreviousCertificates(
  db: Database,
  fingerprint: CardFingerprint,
  cardId: number | null,
): Promise<PreviousCertificate[]> {
  const candidates = await candidatesQuery(db, fingerprint, cardId);
  const matches: PreviousCertificate[] = [];
  for (const candidate of candidates) {
    const stored = StoredFingerprint.safeParse(candidate.fingerprint);
    if (stored.success && compareFingerprints(fingerprint, stored.data).match) {
      matches.push({ number: candidate.number, overall: candidate.overall, issued_at: candidate.issuedAt });
    }
  }
  return matches.reverse();
}
