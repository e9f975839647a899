import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { countingD1 } from "../helpers/counting-d1";
import { createCertificate, createPartner, createPublicClient } from "../helpers/factories";
import { BASE, call } from "../helpers/request";

const HEADER = "x-d1-bookmark";

/** Calls the Worker with a D1 binding that records which session each request opened. */
async function withRecordedSessions(path: string, init: RequestInit) {
  const counter = countingD1(env.DB);
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${BASE}${path}`, init), { ...env, DB: counter.db }, ctx);
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  return { status: response.status, headers: response.headers, text, sessions: counter.sessions, counter };
}

describe("D1 sessions and the x-d1-bookmark header", () => {
  it("returns a bookmark on reads and writes, and a later read sent with it sees the write", async () => {
    const partner = await createPartner();
    const before = await call("/v1/webhook-targets", { key: partner.key });
    expect(before.status).toBe(200);
    expect(before.headers.get(HEADER)).toMatch(/^[0-9A-Za-z-]+$/);

    const created = await call("/v1/webhook-targets", {
      key: partner.key,
      method: "POST",
      headers: { "content-type": "application/json", [HEADER]: before.headers.get(HEADER) ?? "" },
      body: JSON.stringify({ outcome: "success", url: "https://example.com/hooks/ryw" }),
    });
    expect(created.status).toBe(201);
    const afterWrite = created.headers.get(HEADER) ?? "";
    expect(afterWrite).toMatch(/^[0-9A-Za-z-]+$/);
    // Bookmarks sort oldest to newest: the write's is not older than the read's before it.
    expect(afterWrite >= (before.headers.get(HEADER) ?? "")).toBe(true);

    const read = await call("/v1/webhook-targets", { key: partner.key, headers: { [HEADER]: afterWrite } });
    expect(read.status).toBe(200);
    expect(read.body.webhook_targets.map((t: { url: string }) => t.url)).toEqual(["https://example.com/hooks/ryw"]);
    expect((read.headers.get(HEADER) ?? "") >= afterWrite).toBe(true);
  });

  it("starts a read at the client's bookmark, a read without one anywhere, and a write on the primary", async () => {
    const partner = await createPartner();
    const auth = { authorization: `Bearer ${partner.key}` };
    const first = await withRecordedSessions("/v1/gradings", { headers: auth });
    expect(first.status).toBe(200);
    expect(first.sessions).toEqual(["first-unconstrained"]);
    const bookmark = first.headers.get(HEADER) ?? "";

    const again = await withRecordedSessions("/v1/gradings", { headers: { ...auth, [HEADER]: bookmark } });
    expect(again.status).toBe(200);
    expect(again.sessions).toEqual([bookmark]);

    const write = await withRecordedSessions("/v1/webhook-targets", {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", [HEADER]: bookmark },
      body: JSON.stringify({ outcome: "failure", url: "https://example.com/hooks/primary" }),
    });
    expect(write.status).toBe(201);
    expect(write.sessions).toEqual(["first-primary"]);
    // The insert went through the session (so its bookmark covers it), not around it.
    expect(write.counter.statements.some((sql) => sql.startsWith("INSERT INTO webhook_targets"))).toBe(true);
  });

  it("answers 400 invalid_request for a malformed bookmark, before any database access", async () => {
    const partner = await createPartner();
    for (const bad of ["not a bookmark", "x".repeat(257), "abc;drop", "abc.def"]) {
      const res = await withRecordedSessions("/v1/account", {
        headers: { authorization: `Bearer ${partner.key}`, [HEADER]: bad },
      });
      expect(res.status, bad).toBe(400);
      const body = JSON.parse(res.text);
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.details).toEqual([
        { path: "header.x-d1-bookmark", message: "Expected the header's value from an earlier response." },
      ]);
      expect(res.sessions).toEqual([]);
      expect(res.counter.roundTrips()).toBe(0);
    }
  });

  it("still requires a valid key when a bookmark is sent (401), and a bookmark reveals no other tenant's rows", async () => {
    const owner = await createPartner();
    const other = await createPartner();
    const created = await call("/v1/webhook-targets", {
      key: owner.key,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ outcome: "success", url: "https://example.com/hooks/owner" }),
    });
    const bookmark = created.headers.get(HEADER) ?? "";
    expect((await call("/v1/webhook-targets", { headers: { [HEADER]: bookmark } })).status).toBe(401);
    expect(
      (await call("/v1/webhook-targets", { key: "svcp_revoked-or-unknown", headers: { [HEADER]: bookmark } })).status,
    ).toBe(401);
    const foreign = await call("/v1/webhook-targets", { key: other.key, headers: { [HEADER]: bookmark } });
    expect(foreign.status).toBe(200);
    expect(foreign.body.webhook_targets).toEqual([]);
  });

  it("uses sessions on the Public API too: a certificate lookup returns a bookmark and accepts one", async () => {
    const client = await createPublicClient();
    const certificate = await createCertificate();
    const headers = { "x-api-key": client.key };
    const first = await call(`/api/public/v1/certificates/${certificate.number}`, { headers });
    expect(first.status).toBe(200);
    const bookmark = first.headers.get(HEADER) ?? "";
    expect(bookmark).toMatch(/^[0-9A-Za-z-]+$/);
    const second = await withRecordedSessions(`/api/public/v1/certificates/${certificate.number}`, {
      headers: { ...headers, [HEADER]: bookmark },
    });
    expect(second.status).toBe(200);
    expect(second.sessions).toEqual([bookmark]);
    const malformed = await call(`/api/public/v1/certificates/${certificate.number}`, {
      headers: { ...headers, [HEADER]: "bad bookmark" },
    });
    expect(malformed.status).toBe(400);
  });
});
