import { describe, expect, it } from "vitest";
import { createCertificate, createPublicClient } from "../helpers/factories";
import { call } from "../helpers/request";
import { inOneWindow } from "../helpers/windows";

// wrangler.toml: AUTH_FAILURE_LIMITER 20 per 60 s, PAGE_MISS_LIMITER 60 per 60 s, per address.
const AUTH_LIMIT = 20;
const PAGE_MISS_LIMIT = 60;
const LIMITER_PERIOD_SECONDS = 60;

function from(address: string, headers: Record<string, string> = {}) {
  return { headers: { "cf-connecting-ip": address, ...headers } };
}

describe("failed authentication throttle", () => {
  it("answers 429 rate_limited once an address has failed authentication 20 times in a minute", async () => {
    const { statuses, last } = await inOneWindow(
      LIMITER_PERIOD_SECONDS,
      ["198.51.100.21", "198.51.100.121"],
      async (address) => {
        const statuses: number[] = [];
        for (let i = 0; i <= AUTH_LIMIT; i++) {
          statuses.push((await call("/v1/account", from(address, { authorization: `Bearer svcp_wrong_${i}` }))).status);
        }
        const last = await call(
          "/api/public/v1/certificates/1234567897",
          from(address, { "x-api-key": "svck_1_nope" }),
        );
        return { statuses, last };
      },
    );
    expect(statuses.slice(0, AUTH_LIMIT)).toEqual(Array(AUTH_LIMIT).fill(401));
    expect(last.status).toBe(429);
    expect(last.body.error.code).toBe("rate_limited");
    expect(last.body.error.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("refuses even a valid key from a throttled address, and leaves other addresses alone", async () => {
    const client = await createPublicClient();
    const certificate = await createCertificate();
    const path = `/api/public/v1/certificates/${certificate.number}`;
    const throttled = await inOneWindow(
      LIMITER_PERIOD_SECONDS,
      ["198.51.100.22", "198.51.100.122"],
      async (address) => {
        for (let i = 0; i <= AUTH_LIMIT; i++) await call("/api/public/v1/certificates/1234567897", from(address));
        return (await call(path, from(address, { "x-api-key": client.key }))).status;
      },
    );
    expect(throttled).toBe(429);
    expect((await call(path, from("198.51.100.23", { "x-api-key": client.key }))).status).toBe(200);
  });

  it("does not count successful requests", async () => {
    const address = "198.51.100.24";
    const client = await createPublicClient({ hourlyQuota: 1000 });
    const certificate = await createCertificate();
    const path = `/api/public/v1/certificates/${certificate.number}`;
    const statuses = new Set<number>();
    for (let i = 0; i < AUTH_LIMIT + 5; i++)
      statuses.add((await call(path, from(address, { "x-api-key": client.key }))).status);
    expect([...statuses]).toEqual([200]);
  });
});

describe("certificate-page miss throttle", () => {
  it("answers 429 once an address has asked for 60 unknown certificates in a minute; known ones from others still render", async () => {
    const certificate = await createCertificate();
    const { statuses, blocked } = await inOneWindow(
      LIMITER_PERIOD_SECONDS,
      ["198.51.100.31", "198.51.100.131"],
      async (address) => {
        const statuses: number[] = [];
        for (let i = 0; i <= PAGE_MISS_LIMIT; i++)
          statuses.push((await call(`/c/00000000${String(i).padStart(2, "0")}`, from(address))).status);
        const blocked = await call(`/c/${certificate.number}/badge.svg`, from(address));
        return { statuses, blocked };
      },
    );
    expect(statuses.slice(0, PAGE_MISS_LIMIT).every((status) => status === 404)).toBe(true);
    expect(statuses[PAGE_MISS_LIMIT]).toBe(429);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe("rate_limited");
    expect((await call(`/c/${certificate.number}/badge.svg`, from("198.51.100.32"))).status).toBe(200);
  });
});
