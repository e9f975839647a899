import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { referenceHash } from "../../src/grading/engine/reference";
import { forgetCatalogReferences } from "../../src/grading/references";
import { createCatalogCard, createCertificate, createPublicClient } from "../helpers/factories";
import { call } from "../helpers/request";
import { callPublic, jsonSubmission, RAW_CARD, rawPair } from "../helpers/submissions";

const ADMIN = { authorization: `Bearer ${env.ADMIN_TOKEN}` };
const population = (query: string, key: string | null) => callPublic(`/population?${query}`, key);

/** A catalog card of its own (a unique player, so brand/player queries see only this test's cards). */
async function cardWithCertificates(grades: number[], overrides: Parameters<typeof createCatalogCard>[0] = {}) {
  const player = `Player ${crypto.randomUUID().slice(0, 8)}`;
  const card = await createCatalogCard({ playerName: player, ...overrides });
  const numbers: string[] = [];
  for (const overall of grades) numbers.push((await createCertificate({ cardId: card.id, overall, player })).number);
  return { card, player, numbers };
}

describe("GET /api/public/v1/population", () => {
  it("counts live certificates per grade for one catalog card, highest grade first", async () => {
    const client = await createPublicClient();
    const { card } = await cardWithCertificates([9, 9.5, 9, 8, 10]);
    const res = await population(`card_id=${card.id}`, client.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=60");
    expect(res.headers.get("x-cache")).toBe("MISS");
    expect(res.body.truncated).toBe(false);
    expect(res.body.cards).toEqual([
      {
        card: {
          id: card.id,
          brand: "Topps",
          year: "2018",
          set: "Topps Update",
          card_number: "US285",
          variant: null,
          player: card.playerName,
        },
        total: 5,
        grades: [
          { grade: 10, count: 1 },
          { grade: 9.5, count: 1 },
          { grade: 9, count: 2 },
          { grade: 8, count: 1 },
        ],
      },
    ]);
  });

  it("serves the report from the edge cache, and a revocation through the operator API purges it", async () => {
    const client = await createPublicClient();
    const { card, numbers } = await cardWithCertificates([9, 9]);
    expect((await population(`card_id=${card.id}`, client.key)).body.cards[0].total).toBe(2);
    const again = await population(`card_id=${card.id}`, client.key);
    expect(again.headers.get("x-cache")).toBe("HIT");

    const revoked = await call(`/admin/v1/certificates/${numbers[0]}/revoke`, { method: "POST", headers: ADMIN });
    expect(revoked.status).toBe(200);
    const after = await population(`card_id=${card.id}`, client.key);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.body.cards[0]).toMatchObject({ total: 1, grades: [{ grade: 9, count: 1 }] });
    // The include_unverified spelling of the same report was purged too.
    const spelled = await population(`card_id=${card.id}&include_unverified=false`, client.key);
    expect(spelled.body.cards[0].total).toBe(1);
  });

  it("counts a certificate as soon as it is issued: the card's cached report is purged", {
    timeout: 60_000,
  }, async () => {
    const client = await createPublicClient();
    const pair = rawPair({ ...RAW_CARD, seed: 91 });
    const { card } = await cardWithCertificates([8], { referenceHash: referenceHash(pair.front) });
    forgetCatalogReferences();
    expect((await population(`card_id=${card.id}`, client.key)).body.cards[0].total).toBe(1);
    expect((await population(`card_id=${card.id}`, client.key)).headers.get("x-cache")).toBe("HIT");

    const graded = await callPublic("/gradings", client.key, { body: jsonSubmission(pair) });
    expect(graded.status).toBe(201);
    expect(graded.body.certificate.card.source).toBe("catalog");
    const after = await population(`card_id=${card.id}`, client.key);
    expect(after.headers.get("x-cache")).toBe("MISS");
    expect(after.body.cards[0].total).toBe(2);
  });

  it("does not count revoked certificates or certificates of other cards", async () => {
    const client = await createPublicClient();
    const { card } = await cardWithCertificates([8.5]);
    await createCertificate({ cardId: card.id, overall: 10, revokedAt: new Date().toISOString() });
    await cardWithCertificates([10]);
    const res = await population(`card_id=${card.id}`, client.key);
    expect(res.body.cards[0]).toMatchObject({ total: 1, grades: [{ grade: 8.5, count: 1 }] });
  });

  it("finds cards by brand and player, case-insensitively", async () => {
    const client = await createPublicClient();
    const { card, player } = await cardWithCertificates([7]);
    const res = await population(`brand=TOPPS&player=${encodeURIComponent(player.toLowerCase())}`, client.key);
    expect(res.status).toBe(200);
    expect(res.body.cards.map((entry: { card: { id: number } }) => entry.card.id)).toEqual([card.id]);
    expect(res.body.cards[0].total).toBe(1);
  });

  it("leaves out unverified catalog entries unless include_unverified=true", async () => {
    const client = await createPublicClient();
    const { card } = await cardWithCertificates([6], { verified: false });
    const hidden = await population(`card_id=${card.id}`, client.key);
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.code).toBe("not_found");
    const shown = await population(`card_id=${card.id}&include_unverified=true`, client.key);
    expect(shown.status).toBe(200);
    expect(shown.body.cards[0]).toMatchObject({ total: 1, grades: [{ grade: 6, count: 1 }] });
  });

  it("answers 400 for a query without a card, a card_id mixed with fields, or a malformed card_id", async () => {
    const client = await createPublicClient();
    for (const query of ["", "card_id=12&brand=Topps", "card_id=abc", "card_id=0", "include_unverified=yes&brand=x"]) {
      const res = await population(query, client.key);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code, query).toBe("invalid_request");
    }
  });

  it("answers 404 for an unknown catalog card", async () => {
    const client = await createPublicClient();
    const res = await population("card_id=999999999", client.key);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("needs a live public key (401 without one or with a revoked one)", async () => {
    const { card } = await cardWithCertificates([9]);
    const missing = await population(`card_id=${card.id}`, null);
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe("missing_api_key");
    const revoked = await createPublicClient({ revoked: true });
    const res = await population(`card_id=${card.id}`, revoked.key);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("key_revoked");
  });
});
