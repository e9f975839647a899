import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { countingD1 } from "../helpers/counting-d1";
import { createGradeRun, createGradingSession, createPartner, createUserCard, putImage } from "../helpers/factories";
import { BASE } from "../helpers/request";

// DESIGN §7: an authenticated read makes at most 2 D1 round trips with a cold key cache and 1
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

  const paths = (s: Awaited<ReturnType<typeof seeded>>) => [
    "/v1/gradings",
    `/v1/gradings/${s.session.id}`,
    "/v1/cards?q=ohtani&graded=all",
    `/v1/cards/${s.userCard.id}`,
    "/v1/webhook-targets",
    "/v1/account",
  ];

  it("makes at most 2 round trips cold and at most 1 warm on every read endpoint", async () => {
    const s = await seeded();
    for (const path of paths(s)) {
      const fresh = await createPartner();
      // Same data owner is not needed for counting; a fresh key guarantees a cold cache.
      const cold = await measure(path.replace(String(s.userCard.id), String(s.userCard.id)), fresh.key);
      expect(cold.status, path).toBeLessThan(500);
      expect(cold.inRequest, `${path} cold`).toBeLessThanOrEqual(2);

      const warm = await measure(path, s.partner.key);
      const warmAgain = await measure(path, s.partner.key);
      expect(warmAgain.status, path).toBe(200);
      expect(warmAgain.inRequest, `${path} warm`).toBeLessThanOrEqual(1);
      expect(warm.inRequest, `${path} warm`).toBeLessThanOrEqual(2);
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
