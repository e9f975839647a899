import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { countingD1 } from "../helpers/counting-d1";
import {
  createCatalogCard,
  createCategory,
  createGradeRun,
  createGradingSession,
  createPartner,
  createUserCard,
  createWebhookTarget,
  type PartnerFixture,
} from "../helpers/factories";
import { callWithEnv } from "../helpers/request";

// Every list query the API runs is served by an index: each shape (each sort, each filter, with
// and without a cursor) is captured from a real request and explained on seeded data.
const GUARDED_TABLES = ["user_cards", "grading_sessions", "catalog_cards"];

let partner: PartnerFixture;
let categoryId: number;

beforeAll(async () => {
  const categories = [
    await createCategory("Baseball"),
    await createCategory("Basketball"),
    await createCategory("Pokémon"),
  ];
  categoryId = categories[1]?.id ?? 0;
  const catalog = [];
  for (let i = 0; i < 30; i++) {
    catalog.push(
      await createCatalogCard({
        categoryId: categories[i % 3]?.id,
        playerName: `Player ${i}`,
        year: String(1990 + i),
        teamName: i % 4 ? `Team ${i % 5}` : null,
      }),
    );
  }
  const owners = [await createPartner(), await createPartner(), await createPartner()];
  partner = owners[0] as PartnerFixture;
  for (const owner of owners) {
    for (let i = 0; i < 40; i++) {
      const card = await createUserCard(owner.userId, {
        cardId: catalog[i % catalog.length]?.id,
        grade: i % 3 ? String(7 + (i % 4)) : null,
        grader: i % 3 ? "SVC" : null,
        addedAt: new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString(),
      });
      if (i < 20) {
        const session = await createGradingSession(owner.userId, card.id, {
          createdAt: new Date(Date.UTC(2026, 0, 2) + i * 60_000).toISOString(),
        });
        await createGradeRun(session.id, card.id);
      }
    }
    await createWebhookTarget(owner.userId);
  }
});

/** Explains every SELECT a request ran and fails on a SCAN of a guarded table (with allowIndexWalk, on a SCAN that uses no index). */
async function expectNoFullScan(
  path: string,
  executed: { sql: string; params: unknown[] }[],
  tables: string[],
  allowIndexWalk: boolean,
) {
  for (const statement of executed) {
    if (!/^\s*select/i.test(statement.sql)) continue;
    const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
      .bind(...statement.params)
      .all<{ detail: string }>();
    const details = plan.results.map((row) => row.detail);
    for (const detail of details) {
      for (const table of tables) {
        expect(detail, `${path}\n${statement.sql}\n${details.join("\n")}`).not.toMatch(
          new RegExp(allowIndexWalk ? `^SCAN ${table}$` : `^SCAN ${table}\\b`),
        );
      }
    }
  }
}

const cursor = encodeURIComponent("2026-01-02T00:00:00.000000000005Z");
const shapes = () => [
  "/v1/gradings",
  `/v1/gradings?cursor=${cursor}`,
  "/v1/cards",
  `/v1/cards?cursor=${cursor}`,
  ...["added", "player", "year", "brand", "grade"].flatMap((sort) => [
    `/v1/cards?sort=${sort}&dir=asc`,
    `/v1/cards?sort=${sort}&dir=desc`,
  ]),
  "/v1/cards?graded=graded",
  "/v1/cards?graded=raw",
  `/v1/cards?category_id=${categoryId}`,
  "/v1/cards?q=player",
  `/v1/cards?q=team&graded=graded&category_id=${categoryId}&sort=grade&dir=asc`,
  `/v1/cards?q=199&cursor=${cursor}`,
  "/v1/webhook-targets",
  "/v1/cards/1",
  "/v1/gradings/00000000-0000-4000-8000-000000000000",
];

describe("query plans", () => {
  it("never scans user_cards, grading_sessions or catalog_cards in full", async () => {
    for (const path of shapes()) {
      const counter = countingD1(env.DB);
      const res = await callWithEnv(path, { DB: counter.db }, { key: partner.key });
      expect(res.status, path).toBeLessThan(500);
      expect(counter.executed.length, path).toBeGreaterThan(0);
      await expectNoFullScan(path, counter.executed, GUARDED_TABLES, false);
    }
  });
});

describe("query plans of the public and operator lists", () => {
  it("never scans submissions, certificates or webhook_deliveries in full", async () => {
    const { createPublicClient } = await import("../helpers/factories");
    const client = await createPublicClient();
    const id = "00000000-0000-4000-8000-000000000000";
    const since = encodeURIComponent("2026-01-01T00:00:00Z");
    const requests: [string, Record<string, string>][] = [
      ["/api/public/v1/gradings?external_ref=order-1", { "x-api-key": client.key }],
      [`/api/public/v1/gradings/${id}`, { "x-api-key": client.key }],
      ["/api/public/v1/certificates/1234567897", { "x-api-key": client.key }],
      ...[
        "status=failed",
        `client_id=${client.clientId}`,
        "user_id=1",
        `grading_id=${id}`,
        `client_id=${client.clientId}&status=failed&since=${since}`,
        "",
      ].map((query): [string, Record<string, string>] => [
        `/admin/v1/webhook-deliveries?${query}`,
        { authorization: "Bearer test-admin-token-0123456789" },
      ]),
    ];
    for (const [path, headers] of requests) {
      const counter = countingD1(env.DB);
      const res = await callWithEnv(path, { DB: counter.db }, { headers });
      expect(res.status, path).toBeLessThan(500);
      // Only the unfiltered delivery list may walk an index in order (it stops at its limit).
      await expectNoFullScan(
        path,
        counter.executed,
        ["submissions", "certificates", "webhook_deliveries"],
        path.endsWith("webhook-deliveries?"),
      );
    }
  });
});
