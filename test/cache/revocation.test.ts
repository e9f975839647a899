import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  certificateCacheKey,
  EDGE_TRUST_SECONDS,
  readCertificate,
  writeCertificate,
  writePage,
} from "../../src/cache/certificate-cache";
import { certificates } from "../../src/db/schema";
import { createCertificate, createPublicClient, db } from "../helpers/factories";
import { call, callWithEnv } from "../helpers/request";

const ADMIN = { authorization: "Bearer test-admin-token-0123456789" };
const ZONE = "0123456789abcdef0123456789abcdef";
const PURGE_TOKEN = "purge-token-0123456789abcdef";
const purgeConfigured = {
  CLOUDFLARE_ZONE_ID: ZONE,
  CLOUDFLARE_API_TOKEN: PURGE_TOKEN,
  PUBLIC_BASE_URL: "https://grading.example.com",
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe("cache keys", () => {
  it("are built only from a 10-digit number", () => {
    expect(certificateCacheKey({}, "1234567897", "page")).toBe(
      "https://certificate-cache.internal/_certificate-cache/v2/page/1234567897",
    );
    expect(certificateCacheKey(purgeConfigured, "1234567897", "api")).toBe(
      "https://grading.example.com/_certificate-cache/v2/api/1234567897",
    );
    for (const bad of ["../v1/certificates/1234567897", "12345678970", "123456789x", ""]) {
      expect(() => certificateCacheKey({}, bad, "api")).toThrow("validated certificate numbers");
    }
  });
});

describe("cache-key traversal through the public page", () => {
  it.each([
    (n: string) => `/c/..%2Fv1%2Fcertificates%2F${n}`,
    (n: string) => `/c/..%2Fapi%2F${n}`,
    (n: string) => `/c/..%2F..%2F_certificate-cache%2Fv2%2Fapi%2F${n}/badge.svg`,
  ])("does not read the keyed API's cache entry without a key (%#)", async (pathOf) => {
    const certificate = await createCertificate({ player: "Traversal Target" });
    const client = await createPublicClient();
    const warmed = await callWithEnv(
      `/api/public/v1/certificates/${certificate.number}`,
      {},
      { headers: { "x-api-key": client.key } },
    );
    expect(warmed.status).toBe(200);
    const res = await call(pathOf(certificate.number));
    expect(res.status).toBe(404);
    expect(res.text).not.toContain("Traversal Target");
    expect(res.text).not.toContain("frontImageKey");
  });
});

describe("revocation everywhere", () => {
  it("purges the three entries by URL through the purge API with the configured zone and token", async () => {
    const certificate = await createCertificate();
    const calls: { url: string; method: string; authorization: string | null; body: unknown }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
      const request = new Request(input, init);
      calls.push({
        url: request.url,
        method: request.method,
        authorization: request.headers.get("authorization"),
        body: await request.json(),
      });
      return Response.json({ success: true, errors: [], messages: [], result: { id: ZONE } });
    });
    const res = await callWithEnv(
      `/admin/v1/certificates/${certificate.number}/revoke`,
      purgeConfigured as Partial<Env>,
      {
        method: "POST",
        headers: ADMIN,
      },
    );
    expect(res.status).toBe(200);
    // Once at the revocation and once more after CACHE_REPURGE_SECONDS (0 in tests).
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual(calls[0]);
    expect(calls[0]).toEqual({
      url: `https://api.cloudflare.com/client/v4/zones/${ZONE}/purge_cache`,
      method: "POST",
      authorization: `Bearer ${PURGE_TOKEN}`,
      body: {
        files: ["api", "page", "badge"].map(
          (kind) => `https://grading.example.com/_certificate-cache/v2/${kind}/${certificate.number}`,
        ),
      },
    });
  });

  it("skips the purge API with one log line (no token in it) when it is not configured", async () => {
    const certificate = await createCertificate();
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await callWithEnv(
      `/admin/v1/certificates/${certificate.number}/revoke`,
      {},
      {
        method: "POST",
        headers: ADMIN,
      },
    );
    expect(res.status).toBe(200);
    expect(fetchSpy).not.toHaveBeenCalled();
    const lines = logged.mock.calls.map((args) => String(args[0])).filter((line) => line.includes("cache purge"));
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines[0]).toContain(`within ${EDGE_TRUST_SECONDS} s`);
  });

  it("still revokes, and logs without the token, when the purge API refuses", async () => {
    const certificate = await createCertificate();
    vi.spyOn(globalThis, "fetch").mockResolvedValue(Response.json({ success: false }, { status: 403 }));
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await callWithEnv(
      `/admin/v1/certificates/${certificate.number}/revoke`,
      purgeConfigured as Partial<Env>,
      {
        method: "POST",
        headers: ADMIN,
      },
    );
    expect(res.status).toBe(200);
    const text = logged.mock.calls.map((args) => String(args[0])).join("\n");
    expect(text).toContain("purge API refused");
    expect(text).not.toContain(PURGE_TOKEN);
  });

  it("never serves a revoked certificate as live from an entry older than the trust bound", async () => {
    // A data centre the purge did not reach still holds entries written before the revocation.
    const certificate = await createCertificate({ player: "Stale Entry" });
    const client = await createPublicClient();
    const writtenAt = Date.now() - (EDGE_TRUST_SECONDS + 1) * 1000;
    await (await writeCertificate({}, certificate.number, certificate, writtenAt)).stored;
    await writePage(
      {},
      certificate.number,
      "page",
      new Response("<p>Status</dt><dd>Valid</p>", { headers: { "content-type": "text/html; charset=utf-8" } }),
      writtenAt,
    );
    await db()
      .update(certificates)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(certificates.number, certificate.number));

    const api = await call(`/api/public/v1/certificates/${certificate.number}`, {
      headers: { "x-api-key": client.key },
    });
    expect(api.status).toBe(404);
    const page = await call(`/c/${certificate.number}`);
    expect(page.headers.get("x-cache")).toBe("MISS");
    expect(page.text).toContain("Status</dt><dd>Revoked");
    expect(await readCertificate({}, certificate.number)).toBeNull();
  });

  it("serves an entry younger than the bound from the cache", async () => {
    const certificate = await createCertificate();
    const client = await createPublicClient();
    const writtenAt = Date.now() - (EDGE_TRUST_SECONDS - 30) * 1000;
    await (await writeCertificate({}, certificate.number, certificate, writtenAt)).stored;
    const res = await call(`/api/public/v1/certificates/${certificate.number}`, {
      headers: { "x-api-key": client.key },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-cache")).toBe("HIT");
    expect(res.body.certificate.certificate_number).toBe(certificate.number);
  });
});

describe("browser-facing response headers", () => {
  it("the page: request id, nosniff, a script-free CSP, no referrer, not framable", async () => {
    const certificate = await createCertificate();
    for (const res of [await callWithEnv(`/c/${certificate.number}`, {}), await call(`/c/${certificate.number}`)]) {
      expect(res.status).toBe(200);
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("referrer-policy")).toBe("no-referrer");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      const csp = res.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("img-src 'self'");
      expect(csp).not.toContain("script-src");
      expect(res.headers.get("x-cached-at")).toBeNull();
    }
  });

  it("the page's CSP allows R2's S3 endpoint for photos when R2 credentials are set", async () => {
    const certificate = await createCertificate();
    const res = await callWithEnv(`/c/${certificate.number}`, {
      R2_ACCOUNT_ID: "acct123",
      R2_ACCESS_KEY_ID: "AKIDEXAMPLE",
      R2_SECRET_ACCESS_KEY: "secret-access-key-example",
    } as Partial<Env>);
    expect(res.headers.get("content-security-policy")).toContain(
      "img-src 'self' https://acct123.r2.cloudflarestorage.com",
    );
  });

  it("the badge: embeddable as an image, no scripts, nosniff", async () => {
    const certificate = await createCertificate();
    const res = await callWithEnv(`/c/${certificate.number}/badge.svg`, {});
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("x-frame-options")).toBeNull();
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a 404 page and a refused /files URL carry the same headers", async () => {
    const missing = await call("/c/1234567897");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("x-content-type-options")).toBe("nosniff");
    expect(missing.headers.get("content-security-policy")).toContain("default-src 'none'");
    const file = await call("/files/certificates/x/front.jpg?X-Amz-Signature=00");
    expect(file.status).toBe(403);
    expect(file.headers.get("x-request-id")).toBe(file.body.error.request_id);
    expect(file.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox; frame-ancestors 'none'");
    expect(file.headers.get("x-content-type-options")).toBe("nosniff");
    expect(file.headers.get("referrer-policy")).toBe("no-referrer");
  });
});
