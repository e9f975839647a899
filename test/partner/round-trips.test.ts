import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { countingD1 } from "../helpers/counting-d1";
import { createGradeRun, createGradingSession, createPartner, createUserCard, putImage } from "../helpers/factories";
import { BASE } from "../helpers/request";

// docs/decisions.md §7: an authenticated read makes at most 2 D1 round trips with a cold key cache and 1
// once the key is cached. The key cache lives per isolate, so each case uses a fresh key.

async function measure(path: string, key: string) {
  const counter = countingD1(env.DB);
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${BASE}${path}`, { headers: { authorization: `Bearer ${key}` } }),
    { ...env, DB: counter.db },
    ctx,
  );
  await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  // The last_used_at write runs in waitUntil: the response does not wait for it.
  const background = counter.statements.filter((sql) =>
    sql.startsWith("UPDATE partner_api_keys SET last_used_at"),
  ).length;
  return {
    status: response.status,
    inRequest: counter.roundTrips() - background,
    afterResponse: background,
    log: counter.statements,
  };
}

describe("D1 round trips per authenticated read", () => {
  async function seeded() {
    const partner = await createPartner();
    const userCard = await createUserCard(partner.userId, {
      frontImageKey: await putImage(`rt/${partner.userId}/front.png`),
    });
    const session = await createGradingSession(partner.userId, userCard.id);
    await createGradeRun(session.id, userCard.id);
    return { partner, userCard, session };
  }

  // [path, round trips with a cold key cache, with a warm one]
  const expectations = (s: Awaited<ReturnType<typeof seeded>>): [string, number, number][] => [
    ["/v1/gradings", 2, 1],
    [`/v1/gradings/${s.session.id}`, 2, 1],
    ["/v1/cards?q=ohtani&graded=all", 2, 1],
    [`/v1/cards/${s.userCard.id}`, 2, 1],
    ["/v1/webhook-targets", 2, 1],
    ["/v1/account", 1, 0],
  ];

  it("makes at most 2 round trips cold and at most 1 warm on every read endpoint", async () => {
    const s = await seeded();
    for (const [path, coldTrips, warmTrips] of expectations(s)) {
      // A key never used in this isolate has a cold cache; the owner's key is warm after one call.
      const cold = await measure(path, (await createPartner()).key);
      expect(cold.status, path).toBeLessThan(500);
      expect(cold.inRequest, `${path} cold`).toBe(coldTrips);

      await measure(path, s.partner.key);
      const warm = await measure(path, s.partner.key);
      expect(warm.status, path).toBe(200);
      expect(warm.inRequest, `${path} warm`).toBe(warmTrips);
    }
  });

  it("writes last_used_at after the response, at most once a minute per key", async () => {
    const s = await seeded();
    const first = await measure("/v1/gradings", s.partner.key);
    const second = await measure("/v1/gradings", s.partner.key);
    expect(first.status).toBe(200);
    expect(first.afterResponse, first.log.join("\n")).toBe(1);
    expect(second.afterResponse).toBe(0);
    const row = await env.DB.prepare("SELECT last_used_at FROM partner_api_keys WHERE id = ?")
      .bind(s.partner.keyId)
      .first<{ last_used_at: string | null }>();
    expect(row?.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });
});
