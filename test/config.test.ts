import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { loadConfig } from "../src/env";
import { createCertificate, createPartner, createPublicClient } from "./helpers/factories";
import { callWithEnv } from "./helpers/request";

const ADMIN = { authorization: "Bearer test-admin-token-0123456789" };

function captureLog() {
  const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
  return () => spy.mock.calls.map((args) => String(args[0]));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a missing or too-short secret turns off only its surface", () => {
  it("ADMIN_TOKEN too short: the operator API answers 404, everything else works, one log line without the value", async () => {
    const lines = captureLog();
    const weak = "tiny-admin";
    const overrides = { ADMIN_TOKEN: weak };
    expect((await callWithEnv("/health", overrides)).status).toBe(200);
    const adminRes = await callWithEnv("/admin/v1/clients", overrides, {
      method: "POST",
      headers: { authorization: `Bearer ${weak}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "x" }),
    });
    expect(adminRes.status).toBe(404);
    const certificate = await createCertificate();
    expect((await callWithEnv(`/c/${certificate.number}`, overrides)).status).toBe(200);
    const relevant = lines().filter((line) => line.includes("ADMIN_TOKEN"));
    expect(relevant.length).toBeGreaterThanOrEqual(1);
    expect(relevant[0]).toContain(
      "ADMIN_TOKEN is shorter than 16 characters: the operator API (/admin/v1) answers 404",
    );
    expect(lines().join("\n")).not.toContain(weak);
  });

  it("logs each disabled surface once per configuration, not per request", () => {
    const lines = captureLog();
    const configured = { ...env, SECRETS_KEY: undefined, CLOUDFLARE_API_TOKEN: "too-short" } as unknown as Env;
    loadConfig(configured);
    loadConfig(configured);
    const relevant = lines().filter((line) => line.includes("SECRETS_KEY") || line.includes("CLOUDFLARE_API_TOKEN"));
    expect(relevant).toHaveLength(2);
    expect(relevant.join("\n")).toContain("SECRETS_KEY is not set: webhook secrets cannot be stored");
    expect(relevant.join("\n")).toContain("CLOUDFLARE_API_TOKEN is shorter than 20 characters");
    expect(relevant.join("\n")).not.toContain("too-short");
  });

  it("SECRETS_KEY too short: giving a client a webhook answers 403 access_denied naming it; the rest of the operator API works", async () => {
    captureLog();
    const overrides = { SECRETS_KEY: "short-key" };
    const client = await createPublicClient();
    const res = await callWithEnv(`/admin/v1/clients/${client.clientId}/webhook`, overrides, {
      method: "PUT",
      headers: { ...ADMIN, "content-type": "application/json" },
      body: JSON.stringify({ url: "https://client.example.com/hooks" }),
    });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe("access_denied");
    expect(res.body.error.message).toContain("SECRETS_KEY");
    const created = await callWithEnv("/admin/v1/clients", overrides, {
      method: "POST",
      headers: { ...ADMIN, "content-type": "application/json" },
      body: JSON.stringify({ name: "Still works" }),
    });
    expect(created.status).toBe(201);
  });

  it("FILES_SIGNING_SECRET missing (no R2 credentials): image URLs answer 403 naming it; health and the badge work", async () => {
    captureLog();
    const overrides = { FILES_SIGNING_SECRET: undefined };
    const certificate = await createCertificate();
    const client = await createPublicClient();
    const api = await callWithEnv(`/api/public/v1/certificates/${certificate.number}`, overrides, {
      headers: { "x-api-key": client.key },
    });
    expect(api.status).toBe(403);
    expect(api.body.error.code).toBe("access_denied");
    expect(api.body.error.message).toContain("FILES_SIGNING_SECRET");
    expect((await callWithEnv(`/c/${certificate.number}`, overrides)).status).toBe(403);
    const partner = await createPartner();
    const cards = await callWithEnv("/v1/cards", overrides, { key: partner.key });
    expect(cards.status).toBe(403);
    expect(cards.body.error.message).toContain("FILES_SIGNING_SECRET");
    const submitted = await callWithEnv("/api/public/v1/gradings", overrides, {
      method: "POST",
      headers: { "x-api-key": client.key, "content-type": "application/json" },
      body: "{}",
    });
    expect(submitted.status).toBe(403);
    expect((await callWithEnv("/v1/account", overrides, { key: partner.key })).status).toBe(200);
    expect((await callWithEnv(`/c/${certificate.number}/badge.svg`, overrides)).status).toBe(200);
    expect((await callWithEnv("/health", overrides)).status).toBe(200);
  });
});
