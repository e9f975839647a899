import { describe, expect, it } from "vitest";
import { createPartner, createWebhookTarget } from "../helpers/factories";
import { call, callWithEnv } from "../helpers/request";

const post = (key: string, body: unknown, contentType = "application/json") =>
  call("/v1/webhook-targets", {
    method: "POST",
    key,
    headers: { "content-type": contentType },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe("POST /v1/webhook-targets", () => {
  it("creates a target and answers 201 with the camelCase row", async () => {
    const partner = await createPartner();
    const res = await post(partner.key, { outcome: "success", url: "https://partner.example.com/hooks/ok" });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      userId: partner.userId,
      outcome: "success",
      url: "https://partner.example.com/hooks/ok",
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    const list = await call("/v1/webhook-targets", { key: partner.key });
    expect(list.body.webhook_targets).toEqual([
      {
        id: res.body.id,
        outcome: "success",
        url: "https://partner.example.com/hooks/ok",
        created_at: res.body.createdAt,
      },
    ]);
  });

  it("refuses an 11th target with 400 and stores nothing", async () => {
    const partner = await createPartner();
    for (let i = 0; i < 10; i++) await createWebhookTarget(partner.userId, { url: `https://h.example.com/${i}` });
    const res = await post(partner.key, { outcome: "failure", url: "https://h.example.com/11" });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    const list = await call("/v1/webhook-targets", { key: partner.key });
    expect(list.body.webhook_targets).toHaveLength(10);
  });

  it("lets at most 10 of 15 concurrent creates through", async () => {
    const partner = await createPartner();
    const results = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        post(partner.key, { outcome: "success", url: `https://h.example.com/c${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 400)).toHaveLength(5);
  });

  it.each([
    ["ftp://files.example.com/hook", "must use https"],
    ["http://partner.example.com/hook", "must use https"],
    ["http://10.0.0.1/hook", "must use https"],
    ["https://10.0.0.1/hook", "private address"],
    ["https://169.254.169.254/latest/meta-data", "link-local"],
    ["https://localhost/hook", "localhost"],
    ["https://127.0.0.1:8443/hook", "loopback"],
    ["https://[::1]/hook", "loopback"],
    ["https://[fd00::1]/hook", "unique local"],
    ["https://user:pass@partner.example.com/hook", "credentials"],
    ["not a url", "absolute URL"],
  ])("refuses the target URL %s with 400 invalid_request", async (url, reason) => {
    const partner = await createPartner();
    const res = await post(partner.key, { outcome: "success", url });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
    expect(res.body.error.details).toEqual([{ path: "json.url", message: expect.stringContaining(reason) }]);
  });

  it("allows http and listed private hosts only when configured to (local development)", async () => {
    const partner = await createPartner();
    const init = {
      method: "POST",
      key: partner.key,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ outcome: "success", url: "http://127.0.0.1:4900/hook" }),
    };
    const local = await callWithEnv(
      "/v1/webhook-targets",
      { ALLOW_HTTP_WEBHOOKS: "true", PRIVATE_HOSTS_ALLOWED: "127.0.0.1,localhost" },
      init,
    );
    expect(local.status).toBe(201);
    const stillPrivate = await callWithEnv(
      "/v1/webhook-targets",
      { ALLOW_HTTP_WEBHOOKS: "true", PRIVATE_HOSTS_ALLOWED: "127.0.0.1,localhost" },
      { ...init, body: JSON.stringify({ outcome: "success", url: "http://10.0.0.1/hook" }) },
    );
    expect(stillPrivate.status).toBe(400);
  });

  it("answers 413 payload_too_large for a body over 16 KiB", async () => {
    const partner = await createPartner();
    const res = await post(partner.key, { outcome: "success", url: `https://h.example.com/${"a".repeat(20_000)}` });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
  });

  it.each([
    ["a body that is not JSON", "{outcome: success", "application/json"],
    ["a form body", "outcome=success&url=https://h.example.com", "application/x-www-form-urlencoded"],
    ["an empty body", "", "application/json"],
    ["a JSON array", "[]", "application/json"],
  ])("answers 400 invalid_request for %s", async (_name, body, contentType) => {
    const partner = await createPartner();
    const res = await post(partner.key, body, contentType);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it.each([
    [{ url: "https://h.example.com/x" }, "json.outcome"],
    [{ outcome: "success" }, "json.url"],
    [{ outcome: "pending", url: "https://h.example.com/x" }, "json.outcome"],
    [{ outcome: "success", url: 42 }, "json.url"],
    [{ outcome: "success", url: "https://h.example.com/x", user_id: 1 }, "json"],
  ])("answers 400 with details for the body %j", async (body, path) => {
    const partner = await createPartner();
    const res = await post(partner.key, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });
});

describe("GET /v1/webhook-targets", () => {
  it("lists only the key's user's targets, oldest first, in snake_case", async () => {
    const partner = await createPartner();
    const first = await createWebhookTarget(partner.userId, { outcome: "success" });
    const second = await createWebhookTarget(partner.userId, { outcome: "failure", url: "https://h.example.com/f" });
    const other = await createPartner();
    await createWebhookTarget(other.userId);
    const res = await call("/v1/webhook-targets", { key: partner.key });
    expect(res.status).toBe(200);
    expect(res.body.webhook_targets).toEqual([
      { id: first.id, outcome: "success", url: first.url, created_at: first.createdAt },
      { id: second.id, outcome: "failure", url: "https://h.example.com/f", created_at: second.createdAt },
    ]);
  });

  it("answers an empty list for a user without targets", async () => {
    const partner = await createPartner();
    const res = await call("/v1/webhook-targets", { key: partner.key });
    expect(res.body).toEqual({ webhook_targets: [] });
  });
});

describe("DELETE /v1/webhook-targets/{id}", () => {
  it("removes the caller's target with 204 and no body", async () => {
    const partner = await createPartner();
    const target = await createWebhookTarget(partner.userId);
    const res = await call(`/v1/webhook-targets/${target.id}`, { method: "DELETE", key: partner.key });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await call("/v1/webhook-targets", { key: partner.key })).body.webhook_targets).toEqual([]);
  });

  it("answers 404 for another user's target and leaves it in place", async () => {
    const owner = await createPartner();
    const target = await createWebhookTarget(owner.userId);
    const stranger = await createPartner();
    const res = await call(`/v1/webhook-targets/${target.id}`, { method: "DELETE", key: stranger.key });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect((await call("/v1/webhook-targets", { key: owner.key })).body.webhook_targets).toHaveLength(1);
  });

  it("answers 404 for an unknown id and 400 for a non-integer id", async () => {
    const partner = await createPartner();
    expect((await call("/v1/webhook-targets/987654321", { method: "DELETE", key: partner.key })).status).toBe(404);
    const bad = await call("/v1/webhook-targets/abc", { method: "DELETE", key: partner.key });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe("param.id");
  });
});
