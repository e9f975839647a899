import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { KeyQuota } from "../../src/quota/key-quota";
import { consumeLeased, LEASE_TTL_MS, maxLeaseUnits } from "../../src/quota/lease";

const HOUR_S = 3600;
const HOUR = HOUR_S * 1000;
// Ten minutes into the current hour: every test stays inside one window unless it moves on.
const T0 = Math.floor(Date.now() / HOUR) * HOUR + 10 * 60_000;

/** The real namespace, counting the calls that reach a Durable Object. */
function countingNamespace() {
  const counter = { calls: 0 };
  const namespace = {
    idFromName: (name: string) => env.QUOTA.idFromName(name),
    get: (id: DurableObjectId) => {
      const stub = env.QUOTA.get(id);
      return {
        lease: (args: Parameters<KeyQuota["lease"]>[0]) => {
          counter.calls++;
          return stub.lease(args);
        },
      };
    },
  } as unknown as DurableObjectNamespace<KeyQuota>;
  return { namespace, counter };
}

/** The count the key's Durable Object holds (units granted, spent or leased). */
async function storedCount(key: string): Promise<number | undefined> {
  const stub = env.QUOTA.get(env.QUOTA.idFromName(key));
  const stored = await runInDurableObject(stub, (_instance: KeyQuota, state) =>
    state.storage.kv.get<{ count: number }>("window"),
  );
  return stored?.count;
}

const freshKey = () => `lease-${crypto.randomUUID()}`;

describe("quota leases", () => {
  it("calls the object on every request of a key used now and then, counting exactly", async () => {
    const { namespace, counter } = countingNamespace();
    const key = freshKey();
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const decision = await consumeLeased(namespace, key, 1000, HOUR_S, T0 + i * (LEASE_TTL_MS + 1000));
      remaining.push(decision.remaining);
      expect(await storedCount(key)).toBe(i + 1);
    }
    expect(remaining).toEqual([999, 998, 997, 996, 995]);
    expect(counter.calls).toBe(5);
  });

  it("leases units to a busy key: few object calls, and the same count as one call per request", async () => {
    const { namespace, counter } = countingNamespace();
    const key = freshKey();
    const limit = 100_000;
    const remaining: number[] = [];
    for (let i = 0; i < 300; i++) remaining.push((await consumeLeased(namespace, key, limit, HOUR_S, T0)).remaining);
    expect(remaining).toEqual(Array.from({ length: 300 }, (_, i) => limit - 1 - i));
    // Leases of 1, 2, 4, … 256 units: nine calls cover 300 requests (one per request without leases).
    expect(counter.calls).toBeLessThanOrEqual(10);
    const stored = (await storedCount(key)) ?? 0;
    expect(stored).toBeGreaterThanOrEqual(300);
    expect(stored).toBeLessThan(300 + maxLeaseUnits(limit));
  });

  it("never lets more requests through than the limit, nor past it once spent", async () => {
    const { namespace } = countingNamespace();
    const key = freshKey();
    const decisions = [];
    for (let i = 0; i < 400; i++) decisions.push(await consumeLeased(namespace, key, 300, HOUR_S, T0));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(300);
    expect(decisions.slice(300).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
    expect(decisions.at(-1)?.resetSeconds).toBe(50 * 60);
  });

  it("lets exactly the limit through when requests arrive all at once", async () => {
    const { namespace } = countingNamespace();
    const key = freshKey();
    const decisions = await Promise.all(
      Array.from({ length: 200 }, () => consumeLeased(namespace, key, 150, HOUR_S, T0)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(150);
  });

  it("counts concurrent requests of a busy key exactly, and keeps every lease's units", async () => {
    const { namespace, counter } = countingNamespace();
    const key = freshKey();
    const limit = 100_000;
    const decisions = await Promise.all(
      Array.from({ length: 64 }, () => consumeLeased(namespace, key, limit, HOUR_S, T0)),
    );
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(decisions.map((d) => d.remaining).sort((a, b) => b - a)).toEqual(
      Array.from({ length: 64 }, (_, i) => limit - 1 - i),
    );
    // All 64 found no lease and called (for 1 unit each; none waits on another's call).
    expect(counter.calls).toBe(64);
    // The next 64 come mostly from leases, doubling again.
    for (let i = 0; i < 64; i++) await consumeLeased(namespace, key, limit, HOUR_S, T0);
    expect(counter.calls).toBeLessThanOrEqual(64 + 8);
    expect(await storedCount(key)).toBeLessThan(128 + maxLeaseUnits(limit));
  });

  it("gives an idle lease's unspent units back with the next lease", async () => {
    const { namespace } = countingNamespace();
    const key = freshKey();
    for (let i = 0; i < 10; i++) await consumeLeased(namespace, key, 100_000, HOUR_S, T0);
    // Leases of 1, 2, 4 and 8 units: 15 counted for 10 spent.
    expect(await storedCount(key)).toBe(15);
    const later = await consumeLeased(namespace, key, 100_000, HOUR_S, T0 + LEASE_TTL_MS + 1);
    expect(later.remaining).toBe(100_000 - 11);
    expect(await storedCount(key)).toBe(11);
  });

  it("gives a lease's unspent units back when the key's limit changes", async () => {
    const { namespace } = countingNamespace();
    const key = freshKey();
    for (let i = 0; i < 10; i++) await consumeLeased(namespace, key, 100_000, HOUR_S, T0);
    expect(await storedCount(key)).toBe(15);
    const lowered = await consumeLeased(namespace, key, 50_000, HOUR_S, T0);
    expect(lowered).toMatchObject({ allowed: true, limit: 50_000, remaining: 50_000 - 11 });
    expect(await storedCount(key)).toBe(11);
  });

  it("starts afresh in the next window, leaving the old window's units behind", async () => {
    const { namespace } = countingNamespace();
    const key = freshKey();
    for (let i = 0; i < 10; i++) await consumeLeased(namespace, key, 100_000, HOUR_S, T0);
    const next = await consumeLeased(namespace, key, 100_000, HOUR_S, T0 + HOUR);
    expect(next).toMatchObject({ allowed: true, remaining: 100_000 - 1, windowStart: T0 - 10 * 60_000 + HOUR });
    expect(await storedCount(key)).toBe(1);
  });

  it("sizes leases to at most 1 % of the limit, so the default public quota of 120 is never leased ahead", () => {
    expect(maxLeaseUnits(120)).toBe(1);
    expect(maxLeaseUnits(3600)).toBe(36);
    expect(maxLeaseUnits(100_000_000)).toBe(256);
  });
});
