// Every settled submission of a client linked to a user shows up in that user's Partner Read API
// and notifies the targets of its outcome once: identified or not, graded or rejected.
import { env } from "cloudflare:workers";
import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import { catalogCards, submissions, webhookDeliveries } from "../../src/db/schema";
import { runHousekeeping } from "../../src/grading/housekeeping";
import { recordRejected } from "../../src/grading/settle";
import { settleDeps } from "../../src/grading/settle-deps";
import { createCatalogCard, createPartner, createPublicClient, createWebhookTarget, db } from "../helpers/factories";
import { capturingQueue } from "../helpers/queues";
import { call, callWithEnv } from "../helpers/request";
import { jsonSubmission, photo, RAW_CARD, rawPair } from "../helpers/submissions";

const SECRET = "whsec_every_outcome_secret";

async function linkedClient() {
  const partner = await createPartner();
  await createWebhookTarget(partner.userId, { outcome: "success", url: "https://partner.test/ok" });
  await createWebhookTarget(partner.userId, { outcome: "failure", url: "https://partner.test/failed" });
  const client = await createPublicClient({
    userId: partner.userId,
    webhook: { url: "https://client.test/hooks", secret: SECRET },
  });
  return { partner, client };
}

function submit(client: { key: string }, body: unknown, overrides: Partial<Record<keyof Env, unknown>> = {}) {
  const { queue } = capturingQueue();
  return callWithEnv(
    "/api/public/v1/gradings",
    { WEBHOOKS: queue, ...overrides },
    {
      method: "POST",
      headers: { "x-api-key": client.key, "content-type": "application/json" },
      body: JSON.stringify(body),
    },
  );
}

const deliveriesOf = (gradingId: string) =>
  db().select().from(webhookDeliveries).where(eq(webhookDeliveries.gradingId, gradingId));

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("an unidentified card of a linked client", { timeout: 30_000 }, () => {
  it("becomes a success session with card null, an unverified catalog entry from the hints, and one success notification", async () => {
    const { partner, client } = await linkedClient();
    // A comparable in the catalog (same brand and category), so the value has a basis.
    await createCatalogCard({ brand: "Bowman", playerName: "Someone Else", svcValue: 4000 });
    const hints = { player: "Rookie Nobody", brand: "Bowman", year: "2019", category: "Baseball" };
    const res = await submit(client, jsonSubmission(rawPair(), { card: hints }));
    expect(res.status).toBe(201);
    const gradingId: string = res.body.grading_id;
    expect(res.body.certificate.estimated_value).toMatchObject({ basis: "comparables", confidence: "low" });

    const list = await call("/v1/gradings?limit=100", { key: partner.key });
    expect(list.status).toBe(200);
    expect(list.body.gradings.map((g: { id: string }) => g.id)).toEqual([gradingId]);
    expect(list.body.gradings[0].outcome).toBe("success");

    const detail = await call(`/v1/gradings/${gradingId}`, { key: partner.key });
    expect(detail.status).toBe(200);
    expect(detail.body.card).toBeNull();
    expect(detail.body.grading).toMatchObject({
      id: gradingId,
      outcome: "success",
      unique_identifier: Number(res.body.certificate.certificate_number),
    });
    expect(detail.body.user_card_grade.full_overall_grade).toBe(res.body.certificate.grade.overall);

    const card = await call(`/v1/cards/${detail.body.grading.user_card_id}`, { key: partner.key });
    expect(card.status).toBe(200);
    expect(card.body.card).toMatchObject({
      player_name: "Rookie Nobody",
      brand: "Bowman",
      year: "2019",
      set_name: "",
      card_number: "",
      category: "Baseball",
      verified: false,
      source: "submitter",
      external_ids: { svc_submission: gradingId },
    });
    expect(card.body.user_card.grade).toBe(String(res.body.certificate.grade.overall));
    // The unverified entry's raw value is the comparable's.
    expect(card.body.card.svc_value).toBe(4000);
    const cards = await call("/v1/cards", { key: partner.key });
    expect(cards.body.cards).toHaveLength(1);
    expect(cards.body.cards[0]).toMatchObject({ player_name: "Rookie Nobody", card_verified: false });

    const rows = await deliveriesOf(gradingId);
    expect(rows.map((row) => [row.kind, row.event, row.url]).sort()).toEqual([
      ["partner", "grading_session.success", "https://partner.test/ok"],
      ["public", "grading.completed", "https://client.test/hooks"],
    ]);
  });

  it("is invisible to another partner: not listed, 404 on its detail", async () => {
    const { client } = await linkedClient();
    const other = await createPartner();
    const res = await submit(client, jsonSubmission(rawPair(), { card: { player: "Hidden Player" } }));
    expect(res.status).toBe(201);
    const list = await call("/v1/gradings", { key: other.key });
    expect(list.body.gradings).toEqual([]);
    const detail = await call(`/v1/gradings/${res.body.grading_id}`, { key: other.key });
    expect(detail.status).toBe(404);
    expect(detail.body.error.code).toBe("not_found");
  });

  it("with no hints at all: player `Unidentified card` in the `Unidentified` category, valued catalog-wide", async () => {
    const { partner, client } = await linkedClient();
    await createCatalogCard({ svcValue: 10000 });
    const res = await submit(client, jsonSubmission(rawPair()));
    expect(res.status).toBe(201);
    expect(res.body.certificate.estimated_value).toMatchObject({ basis: "catalog_wide", confidence: "none" });
    const detail = await call(`/v1/gradings/${res.body.grading_id}`, { key: partner.key });
    const card = await call(`/v1/cards/${detail.body.grading.user_card_id}`, { key: partner.key });
    expect(card.body.card).toMatchObject({
      player_name: "Unidentified card",
      category: "Unidentified",
      brand: "",
      verified: false,
    });
  });
});

describe("a rejected submission of a linked client", { timeout: 30_000 }, () => {
  it("is a failure session with user_card_grade null, keeps its photos on the user's card, and notifies the failure target once", async () => {
    const { partner, client } = await linkedClient();
    const front = photo(RAW_CARD);
    const res = await submit(client, jsonSubmission({ front, back: front }, { card: { player: "Twin Faces" } }));
    expect(res.status).toBe(422);
    const gradingId: string = res.body.grading_id;

    const list = await call("/v1/gradings", { key: partner.key });
    expect(list.body.gradings).toMatchObject([{ id: gradingId, outcome: "failure" }]);
    const detail = await call(`/v1/gradings/${gradingId}`, { key: partner.key });
    expect(detail.status).toBe(200);
    expect(detail.body.card).toBeNull();
    expect(detail.body.user_card_grade).toBeNull();
    expect(Number.isInteger(detail.body.grading.unique_identifier)).toBe(true);

    const card = await call(`/v1/cards/${detail.body.grading.user_card_id}`, { key: partner.key });
    expect(card.body.user_card).toMatchObject({ grade: null, grader: null });
    expect(card.body.card).toMatchObject({ player_name: "Twin Faces", verified: false });
    expect(card.body.images.front).toMatch(/^https:\/\/api\.test\/files\//);
    expect(card.body.images.back).toMatch(/^https:\/\/api\.test\/files\//);
    expect(card.body.grade_runs).toEqual([]);

    const rows = await deliveriesOf(gradingId);
    expect(rows.map((row) => [row.kind, row.event, row.url]).sort()).toEqual([
      ["partner", "grading_session.failure", "https://partner.test/failed"],
      ["public", "grading.failed", "https://client.test/hooks"],
    ]);

    const other = await createPartner();
    expect((await call(`/v1/gradings/${gradingId}`, { key: other.key })).status).toBe(404);
  });

  it("shows no photos on the user's card once retention has deleted the rejected submission's photos", async () => {
    const { partner, client } = await linkedClient();
    const front = photo(RAW_CARD);
    const res = await submit(client, jsonSubmission({ front, back: front }, { card: { player: "Twin Faces" } }));
    expect(res.status).toBe(422);
    const gradingId: string = res.body.grading_id;
    const detail = await call(`/v1/gradings/${gradingId}`, { key: partner.key });
    const cardPath = `/v1/cards/${detail.body.grading.user_card_id}`;
    expect((await call(cardPath, { key: partner.key })).body.images.front).not.toBeNull();

    const past = Date.now() + (settleDeps(env).config.REJECTED_IMAGE_RETENTION_DAYS + 1) * 24 * 3600 * 1000;
    const result = await runHousekeeping(env, past);
    expect(result.rejectedImagesDeleted).toBeGreaterThanOrEqual(1);
    const [row] = await db().select().from(submissions).where(eq(submissions.gradingId, gradingId));
    expect(row?.imagesDeletedAt).not.toBeNull();
    expect(await env.IMAGES.head(row?.frontImageKey ?? "")).toBeNull();
    const card = await call(cardPath, { key: partner.key });
    expect(card.body.images).toMatchObject({ front: null, back: null });
  });
});

describe("racing rejections", { timeout: 30_000 }, () => {
  /** A submission still processing: the hosted model was busy, so the request answered 202. */
  async function processingSubmission(userId: number | null) {
    const client = await createPublicClient({ userId, webhook: { url: "https://client.test/hooks", secret: SECRET } });
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("busy", { status: 503 }));
    const engine = { GRADING_ENGINE: "http", GRADING_ENGINE_URL: "https://model.test/grade" };
    const res = await submit(client, jsonSubmission(rawPair()), engine);
    expect(res.status).toBe(202);
    const [row] = await db().select().from(submissions).where(eq(submissions.gradingId, res.body.grading_id));
    if (!row) throw new Error("no submission");
    return { row, deps: settleDeps({ ...env, ...engine } as Env) };
  }

  it("two rejections in the same millisecond send grading.failed once", async () => {
    const { row, deps } = await processingSubmission(null);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T02:00:00.000Z"));
    // Both settlers hold the row read while it was processing; the clock does not move between them.
    const [first, second] = await Promise.all([
      recordRejected(deps, row, "grading_failed", "gave up"),
      recordRejected(deps, row, "grading_failed", "gave up too"),
    ]);
    expect([first.status, second.status]).toEqual(["rejected", "rejected"]);
    const failed = await db()
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.gradingId, row.gradingId), eq(webhookDeliveries.event, "grading.failed")));
    expect(failed).toHaveLength(1);
  });

  it("two rejections of a linked client's submission write one failure session and one notification", async () => {
    const partner = await createPartner();
    await createWebhookTarget(partner.userId, { outcome: "failure", url: "https://partner.test/failed" });
    const { row, deps } = await processingSubmission(partner.userId);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-11-23T02:00:00.000Z"));
    await recordRejected(deps, row, "grading_failed", "gave up");
    const late = await recordRejected(deps, row, "grading_failed", "gave up again");
    expect(late).toMatchObject({ status: "rejected", message: "gave up" });
    const rows = await deliveriesOf(row.gradingId);
    expect(rows.map((r) => r.event).sort()).toEqual(["grading.failed", "grading_session.failure"]);
    const list = await call("/v1/gradings", { key: partner.key });
    expect(list.body.gradings.map((g: { id: string }) => g.id)).toEqual([row.gradingId]);
    const unverified = await db().select().from(catalogCards).where(eq(catalogCards.verified, false));
    expect(unverified.filter((c) => c.externalIds?.svc_submission === row.gradingId)).toHaveLength(1);
  });
});
