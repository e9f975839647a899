// The operator's tools for the partner view: merging an unverified catalog entry into a real card
// (the user's card and gradings follow), and backfilling sessions for past submissions.
import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { catalogCards, submissions, webhookDeliveries } from "../../src/db/schema";
import { generateCertificateNumber } from "../../src/grading/certificate-number";
import {
  createCatalogCard,
  createCertificate,
  createPartner,
  createPublicClient,
  createWebhookTarget,
  db,
} from "../helpers/factories";
import { capturingQueue } from "../helpers/queues";
import { call, callWithEnv } from "../helpers/request";
import { jsonSubmission, rawPair } from "../helpers/submissions";

const TOKEN = "test-admin-token-0123456789";

async function admin(path: string, body: unknown, token: string | null = TOKEN) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  return callWithEnv(
    `/admin/v1${path}`,
    { ADMIN_TOKEN: TOKEN },
    { method: "POST", headers, body: JSON.stringify(body) },
  );
}

/** A linked client's unidentified submission: its grading id and the unverified entry's id. */
async function unidentifiedGrading() {
  const partner = await createPartner();
  const client = await createPublicClient({ userId: partner.userId });
  const { queue } = capturingQueue();
  const res = await callWithEnv(
    "/api/public/v1/gradings",
    { WEBHOOKS: queue },
    {
      method: "POST",
      headers: { "x-api-key": client.key, "content-type": "application/json" },
      body: JSON.stringify(jsonSubmission(rawPair(), { card: { player: "Mystery Rookie" } })),
    },
  );
  expect(res.status).toBe(201);
  const gradingId: string = res.body.grading_id;
  const detail = await call(`/v1/gradings/${gradingId}`, { key: partner.key });
  const card = await call(`/v1/cards/${detail.body.grading.user_card_id}`, { key: partner.key });
  expect(card.body.card.verified).toBe(false);
  return { partner, gradingId, entryId: card.body.card.id as number, userCardId: detail.body.grading.user_card_id };
}

describe("POST /admin/v1/catalog-cards/{id}/merge", { timeout: 30_000 }, () => {
  it("moves the user's card to the verified card, so the grading shows it (200), and deletes the entry", async () => {
    const { partner, gradingId, entryId, userCardId } = await unidentifiedGrading();
    const real = await createCatalogCard({ playerName: "Mystery Rookie", brand: "Bowman" });
    const res = await admin(`/catalog-cards/${entryId}/merge`, { into: real.id });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ merged: entryId, into: real.id, user_cards: 1 });
    const detail = await call(`/v1/gradings/${gradingId}`, { key: partner.key });
    expect(detail.body.card).toMatchObject({ id: real.id, player_name: "Mystery Rookie", verified: true });
    const card = await call(`/v1/cards/${userCardId}`, { key: partner.key });
    expect(card.body.user_card.card_id).toBe(real.id);
    expect(await db().select().from(catalogCards).where(eq(catalogCards.id, entryId))).toEqual([]);
  });

  it("refuses a verified card as the entry and an unverified one as the target (400), unknown ids (404)", async () => {
    const { entryId } = await unidentifiedGrading();
    const real = await createCatalogCard();
    const other = await unidentifiedGrading();
    const verifiedAsEntry = await admin(`/catalog-cards/${real.id}/merge`, { into: entryId });
    expect(verifiedAsEntry.status).toBe(400);
    const intoUnverified = await admin(`/catalog-cards/${entryId}/merge`, { into: other.entryId });
    expect(intoUnverified.status).toBe(400);
    expect(intoUnverified.body.error.code).toBe("invalid_request");
    expect((await admin("/catalog-cards/999999/merge", { into: real.id })).status).toBe(404);
    expect((await admin(`/catalog-cards/${entryId}/merge`, { into: 999999 })).status).toBe(404);
    expect((await admin(`/catalog-cards/${entryId}/merge`, { into: "x" })).status).toBe(400);
  });

  it("answers 401 without the admin token and leaves the entry alone", async () => {
    const { entryId } = await unidentifiedGrading();
    const real = await createCatalogCard();
    const res = await admin(`/catalog-cards/${entryId}/merge`, { into: real.id }, null);
    expect(res.status).toBe(401);
    expect(await db().select().from(catalogCards).where(eq(catalogCards.id, entryId))).toHaveLength(1);
  });
});

describe("POST /admin/v1/backfill/partner-views", { timeout: 30_000 }, () => {
  async function settledWithoutSession(clientId: number, status: "complete" | "rejected") {
    const gradingId = crypto.randomUUID();
    const settledAt = "2026-10-01T10:00:05.000Z";
    const number = status === "complete" ? generateCertificateNumber() : null;
    await db()
      .insert(submissions)
      .values({
        gradingId,
        clientId,
        apiKeyId: 1,
        status,
        reason: status === "rejected" ? "face_check_failed" : null,
        hints: status === "rejected" ? { player: "Old Reject" } : null,
        frontImageKey: `submissions/${gradingId}/front.jpg`,
        backImageKey: `submissions/${gradingId}/back.jpg`,
        requestOrigin: "https://api.test",
        certificateNumber: number,
        createdAt: "2026-10-01T10:00:00.000Z",
        settledAt,
      });
    if (number) await createCertificate({ number, gradingId, clientId, issuedAt: settledAt });
    return gradingId;
  }

  it("writes a session for each past settled submission of a linked client, notifies no one, and is idempotent", async () => {
    const partner = await createPartner();
    await createWebhookTarget(partner.userId, { outcome: "success", url: "https://partner.test/ok" });
    await createWebhookTarget(partner.userId, { outcome: "failure", url: "https://partner.test/failed" });
    // The graded card matches a verified catalog card field by field.
    await createCatalogCard();
    const linked = await createPublicClient({ userId: partner.userId });
    const unlinked = await createPublicClient();
    const graded = await settledWithoutSession(linked.clientId, "complete");
    const rejected = await settledWithoutSession(linked.clientId, "rejected");
    const elsewhere = await settledWithoutSession(unlinked.clientId, "complete");

    const first = await admin("/backfill/partner-views", { limit: 200 });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ skipped: 0, more: false, remaining: 0 });
    expect(first.body.written).toBeGreaterThanOrEqual(2);

    const list = await call("/v1/gradings?limit=100", { key: partner.key });
    expect(list.body.gradings.map((g: { id: string; outcome: string }) => [g.id, g.outcome]).sort()).toEqual(
      [
        [graded, "success"],
        [rejected, "failure"],
      ].sort(),
    );
    const gradedDetail = await call(`/v1/gradings/${graded}`, { key: partner.key });
    expect(gradedDetail.body.card).toMatchObject({ player_name: "Shohei Ohtani", verified: true });
    expect(gradedDetail.body.user_card_grade.full_overall_grade).toBe(9);
    expect(gradedDetail.body.grading.updated_at).toBe("2026-10-01T10:00:05.000Z");
    const rejectedDetail = await call(`/v1/gradings/${rejected}`, { key: partner.key });
    expect(rejectedDetail.body).toMatchObject({ card: null, user_card_grade: null });

    const deliveries = await db()
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.gradingId, [graded, rejected, elsewhere]));
    expect(deliveries).toEqual([]);

    const again = await admin("/backfill/partner-views", {});
    expect(again.body).toEqual({ written: 0, skipped: 0, more: false, remaining: 0 });
  });

  it("answers 401 without the admin token and 400 for a bad limit", async () => {
    expect((await admin("/backfill/partner-views", {}, null)).status).toBe(401);
    const bad = await admin("/backfill/partner-views", { limit: 0 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("json.limit");
  });
});
