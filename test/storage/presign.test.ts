import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/env";
import { presignImageUrl, verifyFilesUrl } from "../../src/storage/presign";
import { createPartner, createUserCard, putImage } from "../helpers/factories";
import { call, callWithEnv } from "../helpers/request";

const config = () => loadConfig(env);
const ORIGIN = "https://api.test";
const path = (url: string) => url.replace(ORIGIN, "");

describe("presigned image URLs", () => {
  it("signs a /files URL with SigV4 query parameters that verifies for the TTL", async () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const url = await presignImageUrl(config(), ORIGIN, "cards/1/front image.png", now);
    const params = new URL(url).searchParams;
    expect(new URL(url).pathname).toBe("/files/cards/1/front%20image.png");
    expect(params.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
    expect(params.get("X-Amz-Expires")).toBe("300");
    expect(params.get("X-Amz-Date")).toBe("20261122T120000Z");
    expect(params.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    expect(await verifyFilesUrl(config(), url, now + 299_000)).toEqual({ ok: true, key: "cards/1/front image.png" });
    expect(await verifyFilesUrl(config(), url, now + 301_000)).toEqual({ ok: false, reason: "expired" });
  });

  it("rejects a URL whose key, expiry, date or signature was changed", async () => {
    const now = Date.now();
    const url = new URL(await presignImageUrl(config(), ORIGIN, "cards/1/front.png", now));
    const tamper = (edit: (u: URL) => void) => {
      const copy = new URL(url.toString());
      edit(copy);
      return copy.toString();
    };
    const cases = [
      tamper((u) => {
        u.pathname = "/files/cards/2/front.png";
      }),
      tamper((u) => u.searchParams.set("X-Amz-Expires", "604800")),
      tamper((u) => u.searchParams.set("X-Amz-Date", "20991231T000000Z")),
      tamper((u) => u.searchParams.set("X-Amz-Signature", "0".repeat(64))),
      tamper((u) => u.searchParams.append("extra", "1")),
      tamper((u) => u.searchParams.delete("X-Amz-Signature")),
    ];
    for (const tampered of cases) expect((await verifyFilesUrl(config(), tampered, now)).ok, tampered).toBe(false);
  });

  it("does not verify a URL signed with another secret", async () => {
    const other = { ...config(), FILES_SIGNING_SECRET: "another-secret-0123456789abcdef" };
    const url = await presignImageUrl(other, ORIGIN, "cards/1/front.png");
    expect((await verifyFilesUrl(config(), url)).ok).toBe(false);
  });

  it("points at R2's S3 endpoint when R2 credentials are configured", async () => {
    const r2 = {
      ...config(),
      R2_ACCOUNT_ID: "acc123",
      R2_ACCESS_KEY_ID: "AKIDEXAMPLE",
      R2_SECRET_ACCESS_KEY: "secret",
    };
    const url = new URL(await presignImageUrl(r2, ORIGIN, "cards/1/front.png"));
    expect(url.origin).toBe("https://acc123.r2.cloudflarestorage.com");
    expect(url.pathname).toBe("/card-grading-images/cards/1/front.png");
    expect(url.searchParams.get("X-Amz-Credential")).toMatch(/^AKIDEXAMPLE\/\d{8}\/auto\/s3\/aws4_request$/);
  });
});

describe("GET /files/{key}", () => {
  it("streams the object for a valid URL, with its content type", async () => {
    await putImage("files-route/a.png", "a-bytes", "image/png");
    const url = await presignImageUrl(config(), ORIGIN, "files-route/a.png");
    const res = await call(path(url));
    expect(res.status).toBe(200);
    expect(res.text).toBe("a-bytes");
    expect(res.headers.get("content-type")).toBe("image/png");
    const head = await call(path(url), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
  });

  it("answers 403 access_denied for a tampered or expired URL", async () => {
    await putImage("files-route/b.png");
    await putImage("files-route/c.png");
    const url = await presignImageUrl(config(), ORIGIN, "files-route/b.png");
    const tampered = await call(path(url.replace("b.png", "c.png")));
    expect(tampered.status).toBe(403);
    expect(tampered.body.error.code).toBe("access_denied");
    const old = await presignImageUrl(config(), ORIGIN, "files-route/b.png", Date.now() - 301_000);
    const expired = await call(path(old));
    expect(expired.status).toBe(403);
    expect(expired.body.error.message).toContain("expired");
    expect((await call("/files/files-route/b.png")).status).toBe(403);
  });

  it("honours PRESIGNED_URL_TTL_SECONDS", async () => {
    const partner = await createPartner();
    await createUserCard(partner.userId, { frontImageKey: await putImage("files-route/ttl.png") });
    const listed = await callWithEnv("/v1/cards", { PRESIGNED_URL_TTL_SECONDS: "60" }, { key: partner.key });
    expect(new URL(listed.body.cards[0].images.front).searchParams.get("X-Amz-Expires")).toBe("60");
    const short = await presignImageUrl(
      { ...config(), PRESIGNED_URL_TTL_SECONDS: 60 },
      ORIGIN,
      "files-route/b.png",
      Date.now() - 61_000,
    );
    expect((await call(path(short))).status).toBe(403);
  });

  it("answers 404 for a valid URL to a missing object", async () => {
    const url = await presignImageUrl(config(), ORIGIN, "files-route/missing.png");
    expect((await call(path(url))).status).toBe(404);
  });
});
