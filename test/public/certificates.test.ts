import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { purgeCertificate } from "../../src/cache/certificate-cache";
import { certificates } from "../../src/db/schema";
import { generateCertificateNumber, isCertificateNumber, luhnCheckDigit } from "../../src/grading/certificate-number";
import { countingD1 } from "../helpers/counting-d1";
import { createCertificate, createPublicClient, db } from "../helpers/factories";
import { call, callWithEnv } from "../helpers/request";
import { clearOfWindowEnd } from "../helpers/windows";

const path = (number: string) => `/api/public/v1/certificates/${number}`;
const get = (number: string, key?: string, headers: Record<string, string> = {}) =>
  call(path(number), { headers: { ...(key ? { "x-api-key": key } : {}), ...headers } });

// Tests here fill or read hourly quota windows: keep each clear of the end of the hour.
beforeEach(() => clearOfWindowEnd(3600, 20), 30_000);

describe("certificate numbers", () => {
  it("carry a Luhn check digit", () => {
    // The textbook vector: 7992739871 takes check digit 3 (79927398713).
    expect(luhnCheckDigit("7992739871")).toBe(3);
    // Independent check: the classic validation (double every second digit from the right).
    const luhnValid = (digits: string) =>
      [...digits].reverse().reduce((sum, ch, i) => {
        const d = Number(ch) * (i % 2 ? 2 : 1);
        return sum + (d > 9 ? d - 9 : d);
      }, 0) %
        10 ===
      0;
    expect(luhnValid("79927398713")).toBe(true);
    for (let i = 0; i < 50; i++) {
      const number = generateCertificateNumber();
      expect(number).toMatch(/^[1-9]\d{9}$/);
      expect(isCertificateNumber(number)).toBe(true);
      expect(luhnValid(number)).toBe(true);
      const wrong = `${number.slice(0, 9)}${(Number(number[9]) + 1) % 10}`;
      expect(isCertificateNumber(wrong)).toBe(false);
    }
  });
});

describe("GET /api/public/v1/certificates/{number}", () => {
  it("returns the certificate with every documented field, cacheable for an hour", async () => {
    const client = await createPublicClient();
    const certificate = await createCertificate();
    const res = await get(certificate.number, client.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=3600");
    expect(res.headers.get("etag")).toMatch(/^W\/"[0-9a-f]{24}"$/);
    expect(res.headers.get("ratelimit-policy")).toBe('"hourly";q=120;w=3600');
    expect(res.body.certificate).toEqual({
      certificate_number: certificate.number,
      certificate_url: `https://api.test/c/${certificate.number}`,
      issued_at: certificate.issuedAt,
      revoked: false,
      grade: {
        overall: 9,
        centering: 9.5,
        corners: 9,
        edges: 9,
        surface: 8.5,
        centering_offset: { horizontal: 3.2, vertical: -1.5 },
        model_version: "svc-edge-1.0",
        graded_at: certificate.gradedAt,
        evidence: null,
      },
      pipeline: { engine: "builtin@svc-edge-1.0", graded_by: "SVC Grading", hosted_by: "Cloudflare Workers" },
      previous_certificates: [],
      card: {
        player: "Shohei Ohtani",
        year: "2018",
        brand: "Topps",
        set: "Topps Update",
        card_number: "US285",
        variant: null,
        category: "Baseball",
        verified: true,
        source: "catalog",
      },
      estimated_value: {
        currency: "USD",
        low: 127.5,
        mid: 150,
        high: 172.5,
        confidence: "high",
        basis: "catalog_match",
      },
      images: {
        front: expect.stringContaining("/files/certificates/"),
        back: expect.stringContaining("/files/certificates/"),
      },
    });
    expect(new URL(res.body.certificate.images.front).searchParams.get("X-Amz-Expires")).toBe("7200");
    const image = await call(res.body.certificate.images.front.replace("https://api.test", ""));
    expect(image.text).toBe("front-bytes");
  });

  it("serves a cached certificate without reading D1, and 304 for a matching If-None-Match", async () => {
    const client = await createPublicClient();
    const certificate = await createCertificate();
    // callWithEnv waits for the response's background work, here the cache write.
    const first = await callWithEnv(path(certificate.number), {}, { headers: { "x-api-key": client.key } });
    const counter = countingD1(env.DB);
    const second = await callWithEnv(
      path(certificate.number),
      { DB: counter.db },
      { headers: { "x-api-key": client.key } },
    );
    expect(second.status).toBe(200);
    expect([first.headers.get("x-cache"), second.headers.get("x-cache")]).toEqual(["MISS", "HIT"]);
    expect(counter.roundTrips()).toBe(0);
    expect(second.body.certificate.certificate_number).toBe(certificate.number);
    const conditional = await get(certificate.number, client.key, { "if-none-match": first.headers.get("etag") ?? "" });
    expect(conditional.status).toBe(304);
    expect(conditional.text).toBe("");
  });

  it("answers 404 for an unknown number and for a revoked certificate once purged", async () => {
    const client = await createPublicClient();
    expect((await get(generateCertificateNumber(), client.key)).status).toBe(404);
    const revoked = await createCertificate({ revokedAt: new Date().toISOString() });
    const res = await get(revoked.number, client.key);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");

    const live = await createCertificate();
    expect((await callWithEnv(path(live.number), {}, { headers: { "x-api-key": client.key } })).status).toBe(200);
    await db()
      .update(certificates)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(certificates.number, live.number));
    await purgeCertificate({}, live.number);
    expect((await get(live.number, client.key)).status).toBe(404);
  });

  it.each(["123", "abcdefghij", "12345678901", "1234567890"])(
    "answers 400 for the malformed number %s without touching D1",
    async (number) => {
      const client = await createPublicClient();
      await get(generateCertificateNumber(), client.key); // warms the key cache
      const counter = countingD1(env.DB);
      const res = await callWithEnv(path(number), { DB: counter.db }, { headers: { "x-api-key": client.key } });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe("param.number");
      expect(counter.roundTrips()).toBe(0);
    },
  );

  it("answers 401 missing_api_key, invalid_api_key and key_revoked", async () => {
    const certificate = await createCertificate();
    const revoked = await createPublicClient({ revoked: true });
    const live = await createPublicClient();
    const cases: [string | undefined, string][] = [
      [undefined, "missing_api_key"],
      ["not-a-key", "invalid_api_key"],
      ["svck_unknownid123_abcdefghijklmnopqrstuvwxyz012345", "invalid_api_key"],
      [`${live.key.slice(0, -1)}${live.key.endsWith("x") ? "y" : "x"}`, "invalid_api_key"],
      [revoked.key, "key_revoked"],
    ];
    for (const [key, code] of cases) {
      const res = await get(certificate.number, key);
      expect(res.status, code).toBe(401);
      expect(res.body.error.code).toBe(code);
      if (key) expect(res.text).not.toContain(key);
    }
  });

  it("applies the client's hourly quota exactly: 200 parallel requests against 120 let 120 through", async () => {
    const client = await createPublicClient();
    const certificate = await createCertificate();
    const results = await Promise.all(Array.from({ length: 200 }, () => get(certificate.number, client.key)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(120);
    const limited = results.filter((r) => r.status === 429);
    expect(limited).toHaveLength(80);
    expect(limited[0]?.body.error.code).toBe("rate_limited");
    expect(Number(limited[0]?.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("honours a per-client quota override", async () => {
    const client = await createPublicClient({ hourlyQuota: 2 });
    const certificate = await createCertificate();
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(certificate.number, client.key)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});

describe("GET /api/public/v1/openapi.json", () => {
  it("documents the public API without a key", async () => {
    const res = await call("/api/public/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe("3.1.0");
    expect(res.body.paths["/certificates/{number}"].get.security).toEqual([{ publicKey: [] }]);
    expect(res.body.components.securitySchemes.publicKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "x-api-key",
    });
    // Submissions in both body forms, and the events the service sends.
    expect(Object.keys(res.body.paths["/gradings"].post.requestBody.content).sort()).toEqual([
      "application/json",
      "multipart/form-data",
    ]);
    expect(Object.keys(res.body.webhooks).sort()).toEqual(["grading.completed", "grading.failed"]);
    expect(Object.keys(res.body.webhooks["grading.completed"].post.responses)).toEqual(["200", "410", "500"]);
  });
});
