import { describe, expect, it } from "vitest";
import {
  createCatalogCard,
  createCategory,
  createGradeRun,
  createGradingSession,
  createPartner,
  createUserCard,
  putImage,
} from "../helpers/factories";
import { call, type Json, walkPages } from "../helpers/request";

const ids = (body: Json) => body.cards.map((c: { user_card_id: number }) => c.user_card_id);

/** A user with cards that differ in every field the list filters or sorts on. */
async function collection() {
  const partner = await createPartner();
  const baseball = await createCategory("Baseball");
  const pokemon = await createCategory("Pokémon");
  const ohtani = await createCatalogCard({
    categoryId: baseball.id,
    playerName: "Shohei Ohtani",
    brand: "Topps",
    year: "2018",
    cardNumber: "US285",
    teamName: "Los Angeles Angels",
  });
  const griffey = await createCatalogCard({
    categoryId: baseball.id,
    playerName: "Ken Griffey Jr.",
    brand: "Upper Deck",
    year: "1989",
    cardNumber: "1",
    teamName: "Seattle Mariners",
    variant: "Error",
  });
  const pikachu = await createCatalogCard({
    categoryId: pokemon.id,
    playerName: "Pikachu",
    brand: "Pokémon TCG",
    year: "1999",
    cardNumber: "58/102",
    teamName: null,
    setName: "Base Set",
  });
  const cards = {
    ohtani: await createUserCard(partner.userId, {
      cardId: ohtani.id,
      grade: "10",
      grader: "SVC",
      addedAt: "2026-01-03T00:00:00.000Z",
    }),
    griffey: await createUserCard(partner.userId, {
      cardId: griffey.id,
      grade: "9.5",
      grader: "SVC",
      addedAt: "2026-01-01T00:00:00.000Z",
    }),
    pikachu: await createUserCard(partner.userId, { cardId: pikachu.id, addedAt: "2026-01-02T00:00:00.000Z" }),
  };
  return { partner, categories: { baseball, pokemon }, cards };
}

describe("GET /v1/cards", () => {
  it("lists the user's cards newest first with every documented field", async () => {
    const { partner, cards } = await collection();
    await putImage(`u/${cards.ohtani.id}/front.png`);
    const withImage = await createUserCard(partner.userId, {
      frontImageKey: `u/${cards.ohtani.id}/front.png`,
      addedAt: "2026-01-04T00:00:00.000Z",
    });
    const other = await createPartner();
    await createUserCard(other.userId);

    const res = await call("/v1/cards", { key: partner.key });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([withImage.id, cards.ohtani.id, cards.pikachu.id, cards.griffey.id]);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.cards[1]).toEqual({
      user_card_id: cards.ohtani.id,
      card_id: cards.ohtani.cardId,
      brand: "Topps",
      year: "2018",
      card_number: "US285",
      variant: null,
      player_name: "Shohei Ohtani",
      team_name: "Los Angeles Angels",
      category: "Baseball",
      grade: "10",
      grader: "SVC",
      svc_value: 12500,
      card_verified: true,
      added_at: "2026-01-03T00:00:00.000Z",
      images: { front: null, back: null },
    });
    expect(res.body.cards[0].images.front).toMatch(/^https:\/\/api\.test\/files\/u\/\d+\/front\.png\?/);
    expect(res.body.cards[0].images.back).toBeNull();
    const image = await call(res.body.cards[0].images.front.replace("https://api.test", ""));
    expect(image.status).toBe(200);
  });

  it.each([
    ["player", "ohtani", ["ohtani"]],
    ["brand", "upper deck", ["griffey"]],
    ["year", "1999", ["pikachu"]],
    ["card number", "58/102", ["pikachu"]],
    ["team", "mariners", ["griffey"]],
  ])("q searches the %s", async (_field, q, expected) => {
    const { partner, cards } = await collection();
    const res = await call(`/v1/cards?q=${encodeURIComponent(q)}`, { key: partner.key });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected.map((name) => cards[name as keyof typeof cards].id));
  });

  it("treats % and _ in q as plain characters", async () => {
    const { partner } = await collection();
    const percent = await call("/v1/cards?q=%25", { key: partner.key });
    const underscore = await call("/v1/cards?q=_", { key: partner.key });
    expect(percent.body.cards).toEqual([]);
    expect(underscore.body.cards).toEqual([]);
  });

  it("filters graded and raw cards", async () => {
    const { partner, cards } = await collection();
    const graded = await call("/v1/cards?graded=graded", { key: partner.key });
    const raw = await call("/v1/cards?graded=raw", { key: partner.key });
    const all = await call("/v1/cards?graded=all", { key: partner.key });
    expect(ids(graded.body)).toEqual([cards.ohtani.id, cards.griffey.id]);
    expect(ids(raw.body)).toEqual([cards.pikachu.id]);
    expect(ids(all.body)).toHaveLength(3);
  });

  it("filters by category id", async () => {
    const { partner, categories, cards } = await collection();
    const res = await call(`/v1/cards?category_id=${categories.pokemon.id}`, { key: partner.key });
    expect(ids(res.body)).toEqual([cards.pikachu.id]);
  });

  it.each([
    ["player", "asc", ["griffey", "pikachu", "ohtani"]],
    ["player", "desc", ["ohtani", "pikachu", "griffey"]],
    ["year", "asc", ["griffey", "pikachu", "ohtani"]],
    ["brand", "desc", ["griffey", "ohtani", "pikachu"]],
    ["grade", "desc", ["ohtani", "griffey", "pikachu"]],
    ["grade", "asc", ["pikachu", "griffey", "ohtani"]],
    ["added", "asc", ["griffey", "pikachu", "ohtani"]],
  ])("sorts by %s %s", async (sort, dir, expected) => {
    const { partner, cards } = await collection();
    const res = await call(`/v1/cards?sort=${sort}&dir=${dir}`, { key: partner.key });
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(expected.map((name) => cards[name as keyof typeof cards].id));
    expect(res.body.next_cursor).toBeNull();
  });

  it("orders by added_at descending whenever a cursor is supplied, whatever sort and dir say", async () => {
    const { partner, cards } = await collection();
    const res = await call(`/v1/cards?sort=player&dir=asc&cursor=2026-12-01T00:00:00.000Z`, { key: partner.key });
    expect(ids(res.body)).toEqual([cards.ohtani.id, cards.pikachu.id, cards.griffey.id]);
  });

  it("pages 60 cards that share one added_at in pages of 25 without a skip or a repeat", async () => {
    const partner = await createPartner();
    const catalog = await createCatalogCard();
    const addedAt = "2026-04-04T04:04:04.444Z";
    const all = new Set<number>();
    for (let i = 0; i < 60; i++) all.add((await createUserCard(partner.userId, { cardId: catalog.id, addedAt })).id);
    const { items, sizes } = await walkPages<{ user_card_id: number }>("/v1/cards?limit=25", partner.key, "cards");
    const seen = items.map((c) => c.user_card_id);
    expect(sizes).toEqual([25, 25, 10]);
    expect(new Set(seen)).toEqual(all);
  });

  it.each([
    ["limit=0", "query.limit"],
    ["limit=101", "query.limit"],
    ["limit=abc", "query.limit"],
    ["cursor=not-a-date", "query.cursor"],
    ["sort=price", "query.sort"],
    ["dir=up", "query.dir"],
    ["graded=yes", "query.graded"],
    ["category_id=abc", "query.category_id"],
    ["category_id=-1", "query.category_id"],
    [`q=${"x".repeat(101)}`, "query.q"],
  ])("answers 400 invalid_request for %s", async (query, path) => {
    const partner = await createPartner();
    const res = await call(`/v1/cards?${query}`, { key: partner.key });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });
});

describe("GET /v1/cards/{user_card_id}", () => {
  it("returns every section filled from the card's rows", async () => {
    const partner = await createPartner();
    const userCard = await createUserCard(partner.userId, {
      grade: "9",
      grader: "SVC",
      frontImageKey: await putImage(`detail/${partner.userId}/front.png`),
      backImageKey: await putImage(`detail/${partner.userId}/back.png`),
    });
    const first = await createGradingSession(partner.userId, userCard.id, { createdAt: "2026-01-01T00:00:00.000Z" });
    const second = await createGradingSession(partner.userId, userCard.id, { createdAt: "2026-02-01T00:00:00.000Z" });
    const oldRun = await createGradeRun(first.id, userCard.id, {
      createdAt: "2026-01-01T00:01:00.000Z",
      fullOverallGrade: 8,
    });
    const newRun = await createGradeRun(second.id, userCard.id, {
      createdAt: "2026-02-01T00:01:00.000Z",
      slabFrontKey: await putImage(`detail/${second.id}/slab.png`),
      modelGrade: { model_version: "m-2", corners: { grade: 9 } },
    });

    const res = await call(`/v1/cards/${userCard.id}`, { key: partner.key });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual([
      "card",
      "grade_runs",
      "gradings",
      "images",
      "model_grade",
      "user_card",
    ]);
    expect(res.body.user_card).toEqual({
      id: userCard.id,
      card_id: userCard.cardId,
      grade: "9",
      grader: "SVC",
      share_slug: userCard.shareSlug,
      added_at: userCard.addedAt,
      updated_at: userCard.updatedAt,
    });
    expect(res.body.card).toMatchObject({
      id: userCard.cardId,
      player_name: "Shohei Ohtani",
      team_name: "Los Angeles Angels",
      set_name: "Topps Update",
      external_ids: { tcdb: "6954321" },
      category: "Baseball",
    });
    expect(res.body.gradings).toEqual([second.id, first.id]);
    expect(res.body.grade_runs.map((r: { id: number }) => r.id)).toEqual([newRun.id, oldRun.id]);
    expect(res.body.grade_runs[1]).toEqual({
      id: oldRun.id,
      grading_session_id: first.id,
      centering_overall_grade: 9.5,
      corners_overall_grade: 9,
      edges_overall_grade: 9,
      surface_overall_grade: 8.5,
      full_overall_grade: 8,
      created_at: "2026-01-01T00:01:00.000Z",
    });
    expect(res.body.model_grade).toEqual({ model_version: "m-2", corners: { grade: 9 } });
    const images = res.body.images;
    expect(images.slab_back).toBeNull();
    expect(images.damage_report_front).toBeNull();
    for (const url of [images.front, images.back, images.slab_front]) {
      expect((await call(url.replace("https://api.test", ""))).status).toBe(200);
    }
  });

  it("returns empty history and null images for a raw card without photos", async () => {
    const partner = await createPartner();
    const userCard = await createUserCard(partner.userId);
    const res = await call(`/v1/cards/${userCard.id}`, { key: partner.key });
    expect(res.status).toBe(200);
    expect(res.body.gradings).toEqual([]);
    expect(res.body.grade_runs).toEqual([]);
    expect(res.body.model_grade).toBeNull();
    expect(Object.values(res.body.images)).toEqual([null, null, null, null, null, null]);
  });

  it("answers 404 for another user's card, without its data", async () => {
    const owner = await createPartner();
    const userCard = await createUserCard(owner.userId);
    const stranger = await createPartner();
    const res = await call(`/v1/cards/${userCard.id}`, { key: stranger.key });
    expect(res.status).toBe(404);
    expect(Object.keys(res.body)).toEqual(["error"]);
    expect(res.text).not.toContain(userCard.shareSlug);
  });

  it("answers 404 for an unknown id", async () => {
    const partner = await createPartner();
    expect((await call("/v1/cards/999999999", { key: partner.key })).status).toBe(404);
  });

  it.each(["abc", "1.5", "-3", "0", "1e3", "99999999999999999999"])(
    "answers 400 for the non-integer id %s",
    async (id) => {
      const partner = await createPartner();
      const res = await call(`/v1/cards/${id}`, { key: partner.key });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe("param.user_card_id");
    },
  );
});
