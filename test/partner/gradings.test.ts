import { describe, expect, it } from "vitest";
import { createGradeRun, createGradingSession, createPartner, createUserCard, putImage } from "../helpers/factories";
import { call, walkPages } from "../helpers/request";

async function gradedCard() {
  const partner = await createPartner();
  const userCard = await createUserCard(partner.userId, { grade: "9", grader: "SVC" });
  const session = await createGradingSession(partner.userId, userCard.id);
  return { partner, userCard, session };
}

describe("GET /v1/gradings", () => {
  it("lists only the key's user's gradings, newest first, with the documented fields", async () => {
    const { partner, userCard } = await gradedCard();
    const older = await createGradingSession(partner.userId, userCard.id, { createdAt: "2026-01-01T00:00:00.000Z" });
    const newer = await createGradingSession(partner.userId, userCard.id, { createdAt: "2026-02-01T00:00:00.000Z" });
    const other = await gradedCard();

    const res = await call("/v1/gradings?limit=100", { key: partner.key });
    expect(res.status).toBe(200);
    const ids = res.body.gradings.map((g: { id: string }) => g.id);
    expect(ids).toHaveLength(3);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(ids).not.toContain(other.session.id);
    const item = res.body.gradings.find((g: { id: string }) => g.id === older.id);
    expect(item).toEqual({
      id: older.id,
      user_card_id: userCard.id,
      unique_identifier: older.uniqueIdentifier,
      outcome: "success",
      created_at: "2026-01-01T00:00:00.000Z",
      updated_at: older.updatedAt,
    });
    expect(res.body.next_cursor).toBeNull();
    expect(res.headers.get("ratelimit-policy")).toBe('"hourly";q=1000;w=3600');
    expect(res.headers.get("ratelimit")).toMatch(/^"hourly";r=\d+;t=\d+$/);
  });

  it("defaults to 25 per page", async () => {
    const partner = await createPartner();
    const userCard = await createUserCard(partner.userId);
    for (let i = 0; i < 27; i++) await createGradingSession(partner.userId, userCard.id);
    const res = await call("/v1/gradings", { key: partner.key });
    expect(res.body.gradings).toHaveLength(25);
    expect(res.body.next_cursor).not.toBeNull();
  });

  it("pages 60 gradings that share one timestamp in pages of 25 without a skip or a repeat", async () => {
    const partner = await createPartner();
    const userCard = await createUserCard(partner.userId);
    const createdAt = "2026-03-03T03:03:03.333Z";
    const all = new Set<string>();
    for (let i = 0; i < 60; i++) all.add((await createGradingSession(partner.userId, userCard.id, { createdAt })).id);

    const { items, sizes } = await walkPages<{ id: string }>("/v1/gradings?limit=25", partner.key, "gradings");
    const seen = items.map((g) => g.id);
    expect(sizes).toEqual([25, 25, 10]);
    expect(new Set(seen).size).toBe(60);
    expect(new Set(seen)).toEqual(all);
  });

  it("treats a plain ISO timestamp cursor as 'created before this instant', in any offset", async () => {
    const partner = await createPartner();
    const userCard = await createUserCard(partner.userId);
    const early = await createGradingSession(partner.userId, userCard.id, { createdAt: "2026-01-01T10:00:00.000Z" });
    await createGradingSession(partner.userId, userCard.id, { createdAt: "2026-01-01T12:00:00.000Z" });
    const res = await call(`/v1/gradings?cursor=${encodeURIComponent("2026-01-01T13:00:00+01:00")}`, {
      key: partner.key,
    });
    expect(res.status).toBe(200);
    expect(res.body.gradings.map((g: { id: string }) => g.id)).toEqual([early.id]);
  });

  it.each([
    ["limit=0", "query.limit"],
    ["limit=101", "query.limit"],
    ["limit=abc", "query.limit"],
    ["limit=2.5", "query.limit"],
    ["cursor=yesterday", "query.cursor"],
    ["cursor=2026-13-01T00:00:00Z", "query.cursor"],
    ["cursor=2026-02-30T00:00:00Z", "query.cursor"],
  ])("answers 400 invalid_request for %s", async (query, path) => {
    const partner = await createPartner();
    const res = await call(`/v1/gradings?${query}`, { key: partner.key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.details[0].path).toBe(path);
  });
});

describe("GET /v1/gradings/{id}", () => {
  it("returns the grading, its catalog card and the latest grade run with working presigned URLs", async () => {
    const { partner, userCard, session } = await gradedCard();
    await createGradeRun(session.id, userCard.id, { createdAt: "2026-01-01T00:00:00.000Z", fullOverallGrade: 7 });
    const slabKey = await putImage(`gradings/${session.id}/slab-front.png`, "slab-front-bytes");
    const latest = await createGradeRun(session.id, userCard.id, {
      createdAt: "2026-01-02T00:00:00.000Z",
      slabFrontKey: slabKey,
      damageReportFrontKey: await putImage(`gradings/${session.id}/damage-front.png`, "damage"),
    });

    const res = await call(`/v1/gradings/${session.id}`, { key: partner.key });
    expect(res.status).toBe(200);
    expect(res.body.grading).toEqual({
      id: session.id,
      user_card_id: userCard.id,
      unique_identifier: session.uniqueIdentifier,
      outcome: "success",
      created_at: session.createdAt,
      updated_at: session.updatedAt,
    });
    expect(res.body.card).toMatchObject({
      id: userCard.cardId,
      player_name: "Shohei Ohtani",
      brand: "Topps",
      year: "2018",
      category: "Baseball",
      svc_value: 12500,
      external_ids: { tcdb: "6954321" },
      verified: true,
      source: "catalog",
    });
    const grade = res.body.user_card_grade;
    expect(grade).toMatchObject({
      grade_run_id: latest.id,
      centering_overall_grade: 9.5,
      corners_overall_grade: 9,
      edges_overall_grade: 9,
      surface_overall_grade: 8.5,
      full_overall_grade: 9,
      slab_back_url: null,
      damage_report_back_url: null,
      graded_at: "2026-01-02T00:00:00.000Z",
    });
    expect(grade.model_grade).toEqual({
      model_version: "test-1",
      centering: { front: { left_right: "52/48", top_bottom: "51/49" } },
    });

    const image = await call(grade.slab_front_url.replace("https://api.test", ""));
    expect(image.status).toBe(200);
    expect(image.text).toBe("slab-front-bytes");
    expect(image.headers.get("content-type")).toBe("image/png");
  });

  it("signs fresh URLs on every request", async () => {
    const { partner, userCard, session } = await gradedCard();
    await createGradeRun(session.id, userCard.id, { slabFrontKey: await putImage(`g/${session.id}/s.png`) });
    const first = await call(`/v1/gradings/${session.id}`, { key: partner.key });
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await call(`/v1/gradings/${session.id}`, { key: partner.key });
    const dateOf = (url: string) => new URL(url).searchParams.get("X-Amz-Date");
    expect(dateOf(second.body.user_card_grade.slab_front_url)).not.toBe(
      dateOf(first.body.user_card_grade.slab_front_url),
    );
  });

  it("gives null subgrades other than centering for a centering-only run", async () => {
    const { partner, userCard, session } = await gradedCard();
    await createGradeRun(session.id, userCard.id, {
      cornersOverallGrade: null,
      edgesOverallGrade: null,
      surfaceOverallGrade: null,
      fullOverallGrade: null,
    });
    const res = await call(`/v1/gradings/${session.id}`, { key: partner.key });
    expect(res.body.user_card_grade).toMatchObject({
      centering_overall_grade: 9.5,
      corners_overall_grade: null,
      edges_overall_grade: null,
      surface_overall_grade: null,
    });
  });

  it("answers user_card_grade null when the grading has no grade run", async () => {
    const { partner, session } = await gradedCard();
    const res = await call(`/v1/gradings/${session.id}`, { key: partner.key });
    expect(res.status).toBe(200);
    expect(res.body.user_card_grade).toBeNull();
  });

  it("accepts an upper-case UUID", async () => {
    const { partner, session } = await gradedCard();
    const res = await call(`/v1/gradings/${session.id.toUpperCase()}`, { key: partner.key });
    expect(res.status).toBe(200);
    expect(res.body.grading.id).toBe(session.id);
  });

  it("answers 404 for another user's grading, without its data", async () => {
    const owner = await gradedCard();
    const stranger = await createPartner();
    const res = await call(`/v1/gradings/${owner.session.id}`, { key: stranger.key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect(Object.keys(res.body)).toEqual(["error"]);
    expect(res.text).not.toContain(owner.session.createdAt);
  });

  it("answers 404 for an unknown UUID", async () => {
    const partner = await createPartner();
    const res = await call(`/v1/gradings/${crypto.randomUUID()}`, { key: partner.key });
    expect(res.status).toBe(404);
  });

  it.each(["not-a-uuid", "123", "0b5f8a3c-2d7e-4c1a-9f6b-3e8d2a1c7b9"])(
    "answers 400 for the non-UUID id %s",
    async (id) => {
      const partner = await createPartner();
      const res = await call(`/v1/gradings/${id}`, { key: partner.key });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe("param.id");
    },
  );
});
