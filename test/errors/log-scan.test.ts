import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sha256Hex } from "../../src/auth/api-keys";
import { describeError, redactSecrets } from "../../src/errors/log";
import { createPartner, createPublicClient } from "../helpers/factories";
import { call, callWithEnv } from "../helpers/request";

const CONFIGURED_SECRETS = [
  "test-admin-token-0123456789",
  "test-secrets-key-0123456789-0123456789",
  "test-files-signing-secret-0123456789",
];

afterEach(() => {
  vi.restoreAllMocks();
});

/** A D1 whose every statement fails, the way a lost connection or a broken migration would. */
function failingD1(): D1Database {
  const fail = async () => {
    throw new Error("D1_ERROR: no such table: partner_api_keys: SQLITE_ERROR");
  };
  const statement = {
    bind: () => statement,
    all: fail,
    raw: fail,
    first: fail,
    run: fail,
  };
  const database = { ...env.DB, prepare: () => statement, batch: fail } as unknown as D1Database;
  // Reads run on a D1 session (read replicas); the session fails the same way.
  return Object.assign(database, { withSession: () => database });
}

function captureLog() {
  const spy = vi.spyOn(console, "error").mockImplementation(() => undefined);
  return () => spy.mock.calls.map((args) => args.map(String).join(" ")).join("\n");
}

describe("log lines", () => {
  it("log a database error as its SQL without the bound values", async () => {
    const log = captureLog();
    const partner = await createPartner();
    const res = await callWithEnv("/v1/account", { DB: failingD1() }, { key: partner.key });
    expect(res.status).toBe(500);
    expect(res.body.error.message).toBe("An internal error occurred.");
    expect(res.text).not.toContain("partner_api_keys");
    const text = log();
    expect(text).toContain("Failed query: select");
    expect(text).toContain("bound values not logged");
    expect(text).toContain("no such table");
    expect(text).not.toContain("params:");
    expect(text).not.toContain(await sha256Hex(partner.key));
    expect(text).not.toContain(partner.key);
  });

  it("hold no key, secret, signature or email across a run of failing and refused requests", async () => {
    const log = captureLog();
    const partner = await createPartner();
    const client = await createPublicClient();
    const stolen = `${client.key}x`;
    await callWithEnv("/v1/account", { DB: failingD1() }, { key: partner.key });
    await callWithEnv(
      "/api/public/v1/certificates/1234567897",
      { DB: failingD1() },
      {
        headers: { "x-api-key": client.key },
      },
    );
    await call("/v1/gradings", { key: `${partner.key}0` });
    await call("/api/public/v1/gradings", {
      method: "POST",
      headers: { "x-api-key": stolen, "content-type": "application/json" },
      body: "{not json",
    });
    await call("/files/certificates/a/front.jpg?X-Amz-Signature=deadbeefdeadbeefdeadbeefdeadbeef&X-Amz-Expires=60");
    await call("/admin/v1/clients", { method: "POST", headers: { authorization: "Bearer wrong-admin-token-000000" } });
    const text = log();
    expect(text.length).toBeGreaterThan(0);
    for (const secret of [partner.key, client.key, stolen, await sha256Hex(partner.key), ...CONFIGURED_SECRETS]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/svc[kp]_[A-Za-z0-9]{8,}/);
    expect(text).not.toMatch(/X-Amz-Signature=[0-9a-f]/i);
    expect(text).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[a-z]{2,}/i);
  });
});

describe("redactSecrets", () => {
  it("removes keys, tokens, signatures, emails and long hashes from any text", () => {
    const text = redactSecrets(
      "svck_12_abcdef svcp_Zx9 Bearer abc.def X-Amz-Signature=00ff&X-Amz-Expires=60 ana@example.com " +
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(text).toBe(
      "svc?_[redacted] svc?_[redacted] Bearer [redacted] X-Amz-Signature=[redacted]&X-Amz-Expires=60 [email] [hex]",
    );
  });

  it("describes a query error without its params or the message lines of its stack", () => {
    const error = Object.assign(new Error("Failed query: select 1 where key_hash = ?\nparams: 9f86d081884c7d659a2f"), {
      query: "select 1 where key_hash = ?",
      params: ["9f86d081884c7d659a2f"],
    });
    const described = describeError(error);
    expect(described.message).toBe("Failed query: select 1 where key_hash = ? (bound values not logged)");
    expect(JSON.stringify(described)).not.toContain("9f86d081884c7d659a2f");
  });
});
