import { env } from "cloudflare:workers";
import { beforeEach, describe, expect, it } from "vitest";
import { PUBLIC_KEY_START_LENGTH } from "../../src/auth/api-keys";
import { readCertificate, writeCertificate } from "../../src/cache/certificate-cache";
import { submissions } from "../../src/db/schema";
import { generateCertificateNumber } from "../../src/grading/certificate-number";
import { encodeBase64 } from "../../src/net/body";
import { drawCardScene, encodeJpeg } from "../helpers/card-images";
import { createCertificate, createPublicClient, createUser, db } from "../helpers/factories";
import { call, callWithEnv, type Json } from "../helpers/request";
import { sceneWith } from "../helpers/submissions";
import { clearOfWindowEnd } from "../helpers/windows";

const TOKEN = "test-admin-token-0123456789";
// A zero key-cache TTL makes revocations visible at once.
const configured = { ADMIN_TOKEN: TOKEN, KEY_CACHE_TTL_SECONDS: "0" };

async function admin(path: string, body?: unknown, init: { token?: string | null; method?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  const token = init.token === undefined ? TOKEN : init.token;
  if (token) headers.authorization = `Bearer ${token}`;
  return callWithEnv(`/admin/v1${path}`, configured, {
    method: init.method ?? "POST",
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const asPartner = (path: string, key: string) => callWithEnv(path, configured, { key });
const asClient = (path: string, key: string) => callWithEnv(path, configured, { headers: { "x-api-key": key } });

// Tests here fill or read hourly quota windows: keep each clear of the end of the hour.
beforeEach(() => clearOfWindowEnd(3600, 20), 30_000);

describe("operator API access", () => {
  it("answers 404 on every path when ADMIN_TOKEN is not set", async () => {
    const res = await callWithEnv(
      "/admin/v1/users",
      { ADMIN_TOKEN: undefined },
      { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } },
    );
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
  });

  it("answers 401 without the token and with a wrong one", async () => {
    const missing = await admin("/users", undefined, { token: null });
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe("invalid_request");
    const wrong = await admin("/users", undefined, { token: "not-the-admin-token" });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe("invalid_token");
    expect(wrong.text).not.toContain(TOKEN);
  });
});

describe("partner accounts and keys", () => {
  it("creates a user, a partner account and a key that works until it is revoked", async () => {
    const user = await admin("/users");
    expect(user.status).toBe(201);
    const account = await admin("/partner-accounts", {
      user_id: user.body.id,
      email: `ops-${crypto.randomUUID()}@example.com`,
    });
    expect(account.status).toBe(201);
    expect(account.body).toMatchObject({ user_id: user.body.id, role: "partner" });
    const key = await admin(`/partner-accounts/${account.body.id}/keys`, { name: "production" });
    expect(key.status).toBe(201);
    expect(key.body.key).toMatch(/^svcp_[A-Za-z0-9]{32}$/);
    expect(key.body.start).toBe(key.body.key.slice(0, PUBLIC_KEY_START_LENGTH));
    expect((await asPartner("/v1/account", key.body.key)).body.account.user_id).toBe(user.body.id);
    const revoked = await admin(`/partner-keys/${key.body.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect((await asPartner("/v1/account", key.body.key)).status).toBe(401);
    expect((await admin(`/partner-keys/${key.body.id}/revoke`)).status).toBe(404);
  });

  it("refuses an unknown user, a taken email and bad bodies", async () => {
    expect((await admin("/partner-accounts", { user_id: 987654, email: "x@example.com" })).status).toBe(404);
    const user = await createUser();
    const email = `taken-${crypto.randomUUID()}@example.com`;
    expect((await admin("/partner-accounts", { user_id: user.id, email })).status).toBe(201);
    const taken = await admin("/partner-accounts", { user_id: user.id, email });
    expect(taken.status).toBe(400);
    expect(taken.body.error.details[0].path).toBe("json.email");
    for (const body of [{ user_id: user.id }, { user_id: "one", email }, { user_id: user.id, email: "not-an-email" }]) {
      expect((await admin("/partner-accounts", body)).status).toBe(400);
    }
    expect((await admin("/partner-accounts/999999/keys", { name: "x" })).status).toBe(404);
  });
});

describe("API clients and keys", () => {
  it("creates a client and a key that works on the public API until it is revoked", async () => {
    const client = await admin("/clients", { name: "Acme Cards", hourly_quota: 50 });
    expect(client.status).toBe(201);
    expect(client.body).toMatchObject({ name: "Acme Cards", user_id: null, hourly_quota: 50 });
    const key = await admin(`/clients/${client.body.id}/keys`);
    expect(key.status).toBe(201);
    expect(key.body.key).toMatch(/^svck_[A-Za-z0-9]{12}_[A-Za-z0-9]{32}$/);
    const certificate = await createCertificate();
    const ok = await asClient(`/api/public/v1/certificates/${certificate.number}`, key.body.key);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("ratelimit-policy")).toBe('"hourly";q=50;w=3600');
    expect((await admin(`/api-keys/${key.body.id}/revoke`)).status).toBe(200);
    const refused = await asClient(`/api/public/v1/certificates/${certificate.number}`, key.body.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe("key_revoked");
  });

  it("refuses a client for an unknown user and keys for an unknown client", async () => {
    expect((await admin("/clients", { name: "Ghost", user_id: 987654 })).status).toBe(404);
    expect((await admin("/clients", { name: "" })).status).toBe(400);
    expect((await admin("/clients", { name: "Q", hourly_quota: 0 })).status).toBe(400);
    expect((await admin("/clients/987654/keys")).status).toBe(404);
    expect((await admin("/api-keys/987654/revoke")).status).toBe(404);
  });
});

describe("certificate revocation", () => {
  it("revokes a certificate and purges it from the edge cache", async () => {
    const client = await admin("/clients", { name: "Viewer" });
    const key = (await admin(`/clients/${client.body.id}/keys`)).body.key as string;
    const certificate = await createCertificate();
    expect((await asClient(`/api/public/v1/certificates/${certificate.number}`, key)).status).toBe(200);
    const revoked = await admin(`/certificates/${certificate.number}/revoke`);
    expect(revoked.body).toEqual({ id: certificate.number, revoked_at: expect.any(String) });
    expect(revoked.status).toBe(200);
    expect((await asClient(`/api/public/v1/certificates/${certificate.number}`, key)).status).toBe(404);
    expect((await admin(`/certificates/${certificate.number}/revoke`)).status).toBe(404);
    expect((await admin(`/certificates/${generateCertificateNumber()}/revoke`)).status).toBe(404);
    expect((await admin("/certificates/1234567890/revoke")).status).toBe(400);
  });
});

describe("certificate revocation racing a lookup", () => {
  it("purges again later, removing an entry a racing lookup cached after the first purge", async () => {
    const certificate = await createCertificate();
    const revoking = callWithEnv(
      `/admin/v1/certificates/${certificate.number}/revoke`,
      { ...configured, CACHE_REPURGE_SECONDS: "1" },
      { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } },
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    // A lookup that read the row before the revocation writes it to the cache only now.
    await (await writeCertificate({}, certificate.number, certificate)).stored;
    expect(await readCertificate({}, certificate.number)).not.toBeNull();
    expect((await revoking).status).toBe(200);
    expect(await readCertificate({}, certificate.number)).toBeNull();
  });
});

describe("catalog import", () => {
  // A centred card, noise-free and evenly lit.
  const photo = sceneWith({
    canvasWidth: 900,
    canvasHeight: 675,
    cardWidth: 330,
    rotation: 1,
    borders: { left: 3, right: 3, top: 3, bottom: 3 },
    noise: 0,
    lightFalloff: 0,
    seed: 4,
  });
  const card = (image: string): Json => ({
    category: `Test ${crypto.randomUUID().slice(0, 8)}`,
    player_name: "Shohei Ohtani",
    brand: "Topps",
    year: "2018",
    set_name: "Topps Update",
    card_number: "US285",
    svc_value: 12500,
    reference_image: { base64: image },
  });

  it("imports a card with its reference image and perceptual hash", async () => {
    const jpeg = encodeJpeg(drawCardScene(photo), 90);
    const res = await admin("/catalog-cards", card(`data:image/jpeg;base64,${encodeBase64(jpeg)}`));
    expect(res.status).toBe(201);
    expect(res.body.reference_hash).toMatch(/^[0-9a-f]{16}$/);
    const stored = await env.IMAGES.get(res.body.reference_image_key);
    expect(stored?.httpMetadata?.contentType).toBe("image/jpeg");
    expect(new Uint8Array(await (stored as R2ObjectBody).arrayBuffer())).toEqual(jpeg);
    const row = await env.DB.prepare("SELECT reference_hash, player_name FROM catalog_cards WHERE id = ?")
      .bind(res.body.id)
      .first();
    expect(row).toEqual({ reference_hash: res.body.reference_hash, player_name: "Shohei Ohtani" });
  });

  it.each([
    ["invalid base64", "!!!not base64!!!"],
    ["bytes that are not an image", btoa("just some text, not an image")],
    ["a truncated JPEG", "/9j/4AAQSkZJRgABAQ=="],
  ])("refuses %s with 400 and stores nothing", async (_name, image) => {
    const before = await env.IMAGES.list({ prefix: "catalog/" });
    const res = await admin("/catalog-cards", card(image));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    const after = await env.IMAGES.list({ prefix: "catalog/" });
    expect(after.objects.length).toBe(before.objects.length);
  });

  it("refuses missing fields with details", async () => {
    const res = await admin("/catalog-cards", { player_name: "Nobody" });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toEqual(
      expect.arrayContaining(["json.brand", "json.reference_image"]),
    );
  });

  it("replaces a card's reference image: new hash, old image removed; 404 for an unknown card", async () => {
    const first = await admin("/catalog-cards", card(encodeBase64(encodeJpeg(drawCardScene(photo), 90))));
    expect(first.status).toBe(201);
    const other = encodeJpeg(drawCardScene({ ...photo, artColor: [200, 40, 60], seed: 77 }), 90);
    const res = await admin(
      `/catalog-cards/${first.body.id}/reference-image`,
      { reference_image: { base64: encodeBase64(other) } },
      { method: "PUT" },
    );
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(first.body.id);
    expect(res.body.reference_hash).toMatch(/^[0-9a-f]{16}$/);
    expect(res.body.reference_hash).not.toBe(first.body.reference_hash);
    expect(await env.IMAGES.head(first.body.reference_image_key)).toBeNull();
    expect(await env.IMAGES.head(res.body.reference_image_key)).not.toBeNull();
    const row = await env.DB.prepare("SELECT reference_hash FROM catalog_cards WHERE id = ?")
      .bind(first.body.id)
      .first();
    expect(row).toEqual({ reference_hash: res.body.reference_hash });

    const missing = await admin(
      "/catalog-cards/999999/reference-image",
      { reference_image: { base64: encodeBase64(other) } },
      { method: "PUT" },
    );
    expect(missing.status).toBe(404);
    const unauthorised = await admin(
      `/catalog-cards/${first.body.id}/reference-image`,
      { reference_image: { base64: encodeBase64(other) } },
      { method: "PUT", token: "wrong-token-0123456789" },
    );
    expect(unauthorised.status).toBe(401);
  });
});

describe("GET /admin/v1/clients/{id}/usage", { timeout: 60_000 }, () => {
  const usage = (path: string, token = "test-admin-token-0123456789") =>
    call(`/admin/v1${path}`, { headers: { authorization: `Bearer ${token}` } });

  it("counts the client's submissions by billing within the range, and no one else's", async () => {
    const client = await createPublicClient();
    const other = await createPublicClient();
    const row = (
      gradingId: string,
      clientId: number,
      billing: "billed" | "refunded" | "counted",
      createdAt: string,
    ) => ({
      gradingId,
      clientId,
      apiKeyId: client.apiKeyId,
      status: billing === "billed" ? ("complete" as const) : ("rejected" as const),
      billing,
      frontImageKey: "f",
      backImageKey: "b",
      requestOrigin: "https://api.test",
      createdAt,
    });
    const now = Date.now();
    const at = (hoursAgo: number) => new Date(now - hoursAgo * 3600_000).toISOString();
    await db()
      .insert(submissions)
      .values([
        row(crypto.randomUUID(), client.clientId, "billed", at(1)),
        row(crypto.randomUUID(), client.clientId, "billed", at(2)),
        row(crypto.randomUUID(), client.clientId, "refunded", at(3)),
        row(crypto.randomUUID(), client.clientId, "counted", at(4)),
        row(crypto.randomUUID(), client.clientId, "billed", at(30)),
        row(crypto.randomUUID(), other.clientId, "counted", at(1)),
      ]);
    const res = await usage(`/clients/${client.clientId}/usage`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ client_id: client.clientId, billed: 2, refunded: 1, counted: 1 });
    const wide = await usage(`/clients/${client.clientId}/usage?since=${encodeURIComponent(at(48))}`);
    expect(wide.body).toMatchObject({ billed: 3, refunded: 1, counted: 1, since: at(48) });
  });

  it("answers 400 for a malformed or inverted range and 404 for an unknown client", async () => {
    const client = await createPublicClient();
    const bad = await usage(`/clients/${client.clientId}/usage?since=yesterday`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("query.since");
    const inverted = await usage(
      `/clients/${client.clientId}/usage?since=2026-11-23T00:00:00Z&until=2026-11-22T00:00:00Z`,
    );
    expect(inverted.status).toBe(400);
    expect((await usage("/clients/999999/usage")).status).toBe(404);
  });

  it("answers 401 with a wrong operator token", async () => {
    const client = await createPublicClient();
    expect((await usage(`/clients/${client.clientId}/usage`, "wrong-token-0123456789")).status).toBe(401);
  });
});
