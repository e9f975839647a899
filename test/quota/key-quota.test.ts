import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import type { KeyQuota } from "../../src/quota/key-quota";
import { createPartner } from "../helpers/factories";
import { callWithEnv } from "../helpers/request";
import { clearOfWindowEnd } from "../helpers/windows";

const stubFor = (name: string) => env.QUOTA.get(env.QUOTA.idFromName(name));
const HOUR = 3_600_000;

// Tests here fill or read hourly quota windows: keep each clear of the end of the hour.
beforeEach(() => clearOfWindowEnd(3600, 20), 30_000);

describe("KeyQuota Durable Object", () => {
  it("counts down within a window, refuses past the limit and resets on the next window", async () => {
    const stub = stubFor(`unit-${crypto.randomUUID()}`);
    const start = Math.floor(Date.now() / HOUR) * HOUR;
    const at = start + 10 * 60_000;
    const first = await stub.consume({ limit: 2, windowSeconds: 3600, now: at });
    const second = await stub.consume({ limit: 2, windowSeconds: 3600, now: at });
    const third = await stub.consume({ limit: 2, windowSeconds: 3600, now: at });
    expect([first.allowed, second.allowed, third.allowed]).toEqual([true, true, false]);
    expect([first.remaining, second.remaining, third.remaining]).toEqual([1, 0, 0]);
    expect(third.resetSeconds).toBe(50 * 60);
    const nextHour = await stub.consume({ limit: 2, windowSeconds: 3600, now: start + HOUR + 1 });
    expect(nextHour).toMatchObject({ allowed: true, remaining: 1 });
  });

  it("is exact under concurrency: 200 parallel requests against 120 let exactly 120 through", async () => {
    const stub = stubFor(`concurrent-${crypto.randomUUID()}`);
    const decisions = await Promise.all(
      Array.from({ length: 200 }, () => stub.consume({ limit: 120, windowSeconds: 3600 })),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(120);
    const remaining = decisions
      .filter((d) => d.allowed)
      .map((d) => d.remaining)
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => i));
  });

  it("refunds a unit of the same window only", async () => {
    const stub = stubFor(`refund-${crypto.randomUUID()}`);
    const used = await stub.consume({ limit: 1, windowSeconds: 3600 });
    expect((await stub.consume({ limit: 1, windowSeconds: 3600 })).allowed).toBe(false);
    await stub.refund(used.windowStart - HOUR);
    expect((await stub.consume({ limit: 1, windowSeconds: 3600 })).allowed).toBe(false);
    await stub.refund(used.windowStart);
    expect((await stub.consume({ limit: 1, windowSeconds: 3600 })).allowed).toBe(true);
  });

  it("keeps its count in Durable Object storage", async () => {
    const stub = stubFor(`storage-${crypto.randomUUID()}`);
    await stub.consume({ limit: 5, windowSeconds: 3600 });
    const stored = await runInDurableObject(stub, (_instance: KeyQuota, state) =>
      state.storage.kv.get<{ count: number }>("window"),
    );
    expect(stored?.count).toBe(1);
  });

  it("rejects malformed arguments", async () => {
    const stub = stubFor(`bad-${crypto.randomUUID()}`);
    await runInDurableObject(stub, (instance: KeyQuota) => {
      expect(() => instance.consume({ limit: 0, windowSeconds: 3600 })).toThrow(/Too small/);
      expect(() => instance.consume({ limit: 1.5, windowSeconds: 3600 })).toThrow();
    });
  });
});

describe("partner quota on /v1/*", () => {
  it("sends RateLimit headers and answers 429 rate_limited with Retry-After past the quota", async () => {
    const partner = await createPartner();
    const quota = { PARTNER_HOURLY_QUOTA: "3" };
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof callWithEnv>> | undefined;
    for (let i = 0; i < 4; i++) {
      last = await callWithEnv("/v1/gradings", quota, { key: partner.key });
      statuses.push(last.status);
      expect(last.headers.get("ratelimit-policy")).toBe('"hourly";q=3;w=3600');
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last?.body.error.code).toBe("rate_limited");
    expect(last?.headers.get("ratelimit")).toMatch(/^"hourly";r=0;t=\d+$/);
    const retryAfter = Number(last?.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
  });

  it("counts each key separately", async () => {
    const a = await createPartner();
    const b = await createPartner();
    const quota = { PARTNER_HOURLY_QUOTA: "1" };
    expect((await callWithEnv("/v1/account", quota, { key: a.key })).status).toBe(200);
    expect((await callWithEnv("/v1/account", quota, { key: a.key })).status).toBe(429);
    expect((await callWithEnv("/v1/account", quota, { key: b.key })).status).toBe(200);
  });

  it("puts the headers on error responses too", async () => {
    const partner = await createPartner();
    const res = await callWithEnv("/v1/cards/999999", {}, { key: partner.key });
    expect(res.status).toBe(404);
    expect(res.headers.get("ratelimit")).toMatch(/^"hourly";r=\d+;t=\d+$/);
  });
});
