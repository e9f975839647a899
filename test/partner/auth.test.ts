import { afterEach, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../../src/auth/api-keys";
import { createGradingSession, createPartner, createUserCard, createWebhookTarget } from "../helpers/factories";
import { call } from "../helpers/request";

// Every Partner API endpoint, for the security matrix. Ids point at real rows of a real user.
async function endpoints() {
  const owner = await createPartner();
  const userCard = await createUserCard(owner.userId);
  const session = await createGradingSession(owner.userId, userCard.id);
  const target = await createWebhookTarget(owner.userId);
  const json = { "content-type": "application/json" };
  return [
    { name: "GET /v1/account", path: "/v1/account", init: {} },
    { name: "GET /v1/gradings", path: "/v1/gradings", init: {} },
    { name: "GET /v1/gradings/{id}", path: `/v1/gradings/${session.id}`, init: {} },
    { name: "GET /v1/cards", path: "/v1/cards", init: {} },
    { name: "GET /v1/cards/{id}", path: `/v1/cards/${userCard.id}`, init: {} },
    { name: "GET /v1/webhook-targets", path: "/v1/webhook-targets", init: {} },
    {
      name: "POST /v1/webhook-targets",
      path: "/v1/webhook-targets",
      init: {
        method: "POST",
        headers: json,
        body: JSON.stringify({ outcome: "success", url: "https://h.example.com/x" }),
      },
    },
    { name: "DELETE /v1/webhook-targets/{id}", path: `/v1/webhook-targets/${target.id}`, init: { method: "DELETE" } },
  ];
}

function expectUnauthorized(res: Awaited<ReturnType<typeof call>>, error: "invalid_request" | "invalid_token") {
  expect(res.status).toBe(401);
  expect(res.body.error.code).toBe(error);
  expect(res.headers.get("www-authenticate")).toBe(`Bearer realm="svc", error="${error}"`);
  expect(res.body.error.request_id).toBe(res.headers.get("x-request-id"));
}

describe("Partner API authentication", () => {
  afterEach(() => vi.restoreAllMocks());

  it("answers 401 invalid_request on every endpoint when the Authorization header is missing", async () => {
    for (const endpoint of await endpoints()) {
      const res = await call(endpoint.path, endpoint.init);
      expectUnauthorized(res, "invalid_request");
    }
  });

  it("answers 401 invalid_request on every endpoint for a malformed Authorization header", async () => {
    const partner = await createPartner();
    const malformed = [`Basic ${partner.key}`, "Bearer", `Bearer ${partner.key} extra`, partner.key, "  "];
    for (const endpoint of await endpoints()) {
      for (const header of malformed) {
        const headers = new Headers(endpoint.init.headers);
        headers.set("authorization", header);
        const res = await call(endpoint.path, { ...endpoint.init, headers });
        expectUnauthorized(res, "invalid_request");
      }
    }
  });

  it("answers 401 invalid_token on every endpoint for unknown, revoked, member and user-less keys", async () => {
    const revoked = await createPartner({ revoked: true });
    const member = await createPartner({ role: "member" });
    const userless = await createPartner({ withUser: false });
    const keys = ["svcp_doesnotexist0000000000000000000", revoked.key, member.key, userless.key];
    for (const endpoint of await endpoints()) {
      for (const key of keys) {
        const res = await call(endpoint.path, { ...endpoint.init, key });
        expectUnauthorized(res, "invalid_token");
      }
    }
  });

  it("accepts the scheme word in any case", async () => {
    const partner = await createPartner();
    for (const scheme of ["Bearer", "bearer", "BEARER", "bEaReR"]) {
      const res = await call("/v1/account", { headers: { authorization: `${scheme} ${partner.key}` } });
      expect(res.status, scheme).toBe(200);
    }
  });

  it("never puts the key or its hash in an error body or a log line", async () => {
    const logged: string[] = [];
    for (const method of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        logged.push(args.map(String).join(" "));
      });
    }
    const revoked = await createPartner({ revoked: true });
    const hash = await sha256Hex(revoked.key);
    const bodies: string[] = [];
    for (const endpoint of await endpoints()) {
      const res = await call(endpoint.path, { ...endpoint.init, key: revoked.key });
      bodies.push(res.text, [...res.headers].join("\n"));
    }
    const secretPart = revoked.key.slice(8);
    for (const text of [...bodies, ...logged]) {
      expect(text).not.toContain(secretPart);
      expect(text).not.toContain(hash);
    }
  });
});

describe("sha256Hex", () => {
  it("is SHA-256 in lowercase hex (FIPS 180-2 test vectors), so stored key hashes stay valid", async () => {
    expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(await sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    // UTF-8, as WebCrypto over TextEncoder hashed it before.
    const utf8 = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode("é-ключ")));
    expect(await sha256Hex("é-ключ")).toBe(Array.from(utf8, (b) => b.toString(16).padStart(2, "0")).join(""));
  });
});
