// The same card seen twice: a new certificate's fingerprint against the live certificates it could
// be a copy of. Candidates are the live certificates of the same catalog card (or, for an
// unidentified card, the newest unidentified ones), read in one indexed query.
import { z } from "@hono/zod-openapi";
import { and, desc, eq, isNotNull, isNull } from "drizzle-orm";
import type { Database } from "../db/client";
import { certificates } from "../db/schema";
import { type CardFingerprint, compareFingerprints } from "./engine/fingerprint";

/** At most this many candidates are compared (newest first); comparing one costs microseconds. */
export const FINGERPRINT_CANDIDATES = 2000;

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

export async function findPreviousCertificates(
  db: Database,
  fingerprint: CardFingerprint,
  cardId: number | null,
): Promise<PreviousCertificate[]> {
  const candidates = await db
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
        isNotNull(certificates.fingerprint),
      ),
    )
    .orderBy(desc(certificates.issuedAt))
    .limit(FINGERPRINT_CANDIDATES);
  const matches: PreviousCertificate[] = [];
  for (const candidate of candidates) {
    const stored = StoredFingerprint.safeParse(candidate.fingerprint);
    if (stored.success && compareFingerprints(fingerprint, stored.data).match) {
      matches.push({ number: candidate.number, overall: candidate.overall, issued_at: candidate.issuedAt });
    }
  }
  return matches.reverse();
}
