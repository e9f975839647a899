import { describe, expect, it } from "vitest";
import { KEY_START_LENGTH } from "../../src/auth/api-keys";
import { createPartner } from "../helpers/factories";
import { call } from "../helpers/request";

describe("GET /v1/account", () => {
  it("returns the key's account and key, never the key or its hash", async () => {
    const partner = await createPartner();
    const res = await call("/v1/account", { key: partner.key });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      account: {
        id: partner.accountId,
        user_id: partner.userId,
        email: expect.stringMatching(/@example\.com$/),
        role: "partner",
        created_at: expect.any(String),
      },
      api_key: {
        id: partner.keyId,
        name: "test key",
        start: partner.key.slice(0, KEY_START_LENGTH),
        created_at: expect.any(String),
        last_used_at: null,
      },
    });
    expect(res.text).not.toContain(partner.key.slice(KEY_START_LENGTH));
    expect(res.text).not.toContain("key_hash");
  });

  it("shows one account's data only to its own key", async () => {
    const a = await createPartner();
    const b = await createPartner();
    const resA = await call("/v1/account", { key: a.key });
    const resB = await call("/v1/account", { key: b.key });
    expect(resA.body.account.user_id).toBe(a.userId);
    expect(resB.body.account.user_id).toBe(b.userId);
  });
});
