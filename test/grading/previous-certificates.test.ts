import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { certificates } from "../../src/db/schema";
import type { CardFingerprint } from "../../src/grading/engine/fingerprint";
import { candidatesQuery, findPreviousCertificates } from "../../src/grading/previous-certificates";
import { createCertificate, db } from "../helpers/factories";

const fingerprint = (left: number, hash = "0f0f0f0f0f0f0f0f"): CardFingerprint => ({
  version: 1,
  front_hash: hash,
  back_hash: "00ff00ff00ff00ff",
  front_borders_mm: { left, right: 2.5, top: 2.8, bottom: 3.4 },
  back_borders_mm: null,
  wear: null,
});

function certificateWith(print: CardFingerprint, issuedAt: string, fingerprintFrontLeftMm: number | null) {
  return createCertificate({ cardId: null, issuedAt, fingerprint: print, fingerprintFrontLeftMm });
}

describe("finding earlier certificates of the same card", () => {
  it("reads the certificates whose front left border is within the same-cut tolerance, edges included", async () => {
    const left = 7.31;
    const at = (l: number, day: number, hash?: string) =>
      certificateWith(fingerprint(l, hash), `2026-01-0${day}T00:00:00.000Z`, l);
    const lowerEdge = await at(left - 0.05, 1);
    const inside = await at(left + 0.03, 2);
    const upperEdge = await at(left + 0.05, 3);
    await at(left + 0.06, 4);
    await at(left - 0.07, 5);
    // In range, but another design: read, compared, not a match.
    await at(left, 6, "f0f0f0f0f0f0f0f0");
    const revoked = await at(left, 7);
    await db()
      .update(certificates)
      .set({ revokedAt: "2026-02-01T00:00:00.000Z" })
      .where(eq(certificates.number, revoked.number));

    const found = await findPreviousCertificates(db(), fingerprint(left), null);
    expect(found.map((p) => p.number)).toEqual([lowerEdge.number, inside.number, upperEdge.number]);
  });

  it.each([null, 1])("asks D1 through the fingerprint index (card %s)", async (cardId) => {
    const { sql, params } = candidatesQuery(db(), fingerprint(3), cardId).toSQL();
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    expect(plan.results.map((row) => row.detail).join("\n")).toContain("USING INDEX certificates_fingerprint_idx");
  });

  it("fills the border column of certificates issued before it existed (migration 0009)", async () => {
    const old = await certificateWith(fingerprint(4.2), "2026-01-08T00:00:00.000Z", null);
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0009_"));
    const backfill = migration?.queries.find((query) => query.includes("UPDATE"));
    expect(backfill).toBeDefined();
    await env.DB.prepare(backfill ?? "").run();
    const [row] = await db().select().from(certificates).where(eq(certificates.number, old.number));
    expect(row?.fingerprintFrontLeftMm).toBe(4.2);
  });
});
