import { env } from "cloudflare:workers";
import { AwsV4Signer } from "aws4fetch";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/env";
import { presignImageUrl, presignUrl, verifyFilesUrl } from "../../src/storage/presign";
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

// Computed independently with Node's crypto (createHmac / createHash) from the SigV4 steps for the
// first input below at 20261122T120000Z, 300 s.
const KNOWN_SIGNATURE = "917fddeb9d095aa3b12a498ee67c917f6aad937e0a169b9903858a95367d0cc6";

// aws4fetch is the reference SigV4 implementation here: the narrow signer must agree with it.
async function aws4fetchSignature(url: string, secretAccessKey: string, datetime: string, ttl: number) {
  const withExpiry = new URL(url);
  withExpiry.searchParams.set("X-Amz-Expires", String(ttl));
  const signed = await new AwsV4Signer({
    url: withExpiry.toString(),
    method: "GET",
    accessKeyId: "AKIDEXAMPLE",
    secretAccessKey,
    service: "s3",
    region: "auto",
    signQuery: true,
    datetime,
  }).sign();
  return signed.url.searchParams.get("X-Amz-Signature");
}

describe("the SigV4 signer", () => {
  const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
  const sign = (url: string, datetime = "20261122T120000Z") =>
    presignUrl({ url, accessKeyId: "AKIDEXAMPLE", secretAccessKey: secret, datetime, ttlSeconds: 300 });

  it("produces aws4fetch's signature for the same inputs (known answer)", async () => {
    const inputs = [
      "https://acc.r2.cloudflarestorage.com/card-grading-images/cards/1/front.png",
      "https://acc.r2.cloudflarestorage.com/bucket/cards/7/front%20image%20(1).jpg",
      "https://api.test:8443/files/a/b%2Bc/d.png",
      "https://api.test/files/x.png?response-content-disposition=inline%3B%20filename%3D%22a%20b.png%22",
      "https://api.test/files/x.png?b=2&a=1&c=(x)",
    ];
    for (const input of inputs) {
      for (const datetime of ["20261122T120000Z", "20270101T000001Z"]) {
        const ours = new URL(await sign(input, datetime)).searchParams.get("X-Amz-Signature");
        expect(ours, input).toBe(await aws4fetchSignature(input, secret, datetime, 300));
      }
    }
    // A fixed value, so a change shared by both implementations is caught too.
    expect(new URL(await sign(inputs[0] ?? "")).searchParams.get("X-Amz-Signature")).toBe(KNOWN_SIGNATURE);
  });

  it("signs image keys as aws4fetch would sign the URL it returns, for /files and for R2", async () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const local = config();
    const r2 = { ...local, R2_ACCOUNT_ID: "acc123", R2_ACCESS_KEY_ID: "AKIDEXAMPLE", R2_SECRET_ACCESS_KEY: secret };
    const keys = ["cards/1/front.png", "cards/7/front image (1).jpg", "a/b+c/d.png", "cards/9/é ü.png", "x/it's*!.png"];
    for (const key of keys) {
      for (const [settings, secretKey] of [
        [r2, secret],
        [local, local.FILES_SIGNING_SECRET ?? ""],
      ] as const) {
        const url = new URL(await presignImageUrl(settings, "https://api.test:8443", key, now));
        const signature = url.searchParams.get("X-Amz-Signature");
        url.searchParams.delete("X-Amz-Signature");
        const credential = url.searchParams.get("X-Amz-Credential") ?? "";
        const unsigned = new URL(`${url.origin}${url.pathname}`).toString();
        const reference = await new AwsV4Signer({
          url: `${unsigned}?X-Amz-Expires=300`,
          method: "GET",
          accessKeyId: credential.split("/")[0] ?? "",
          secretAccessKey: secretKey,
          service: "s3",
          region: "auto",
          signQuery: true,
          datetime: "20261122T120000Z",
        }).sign();
        expect(signature, key).toBe(reference.url.searchParams.get("X-Amz-Signature"));
      }
    }
    // The local ones verify, and name the key they were made for.
    const url = await presignImageUrl(local, ORIGIN, "cards/9/é ü.png", now);
    expect(await verifyFilesUrl(local, url, now)).toEqual({ ok: true, key: "cards/9/é ü.png" });
  });

  it("writes a URL whose query holds no bare + and decodes a + as a space on both sides", async () => {
    const url = await sign("https://api.test/files/x.png?note=a+b%2Bc");
    expect(url).not.toMatch(/\?.*\+/);
    expect(new URL(url).search).toContain("note=a%20b%2Bc");
    // Same signature as the input spelled without the +: the signer decoded it as a space.
    const spelledOut = await sign("https://api.test/files/x.png?note=a%20b%2Bc");
    expect(new URL(url).searchParams.get("X-Amz-Signature")).toBe(
      new URL(spelledOut).searchParams.get("X-Amz-Signature"),
    );
    expect(new URL(url).searchParams.get("X-Amz-Signature")).toBe(
      await aws4fetchSignature("https://api.test/files/x.png?note=a+b%2Bc", secret, "20261122T120000Z", 300),
    );
  });

  it("verifies a /files URL whose %20 a proxy rewrote to +, and refuses one whose + became %2B", async () => {
    const now = Date.UTC(2026, 10, 22, 12, 0, 0);
    const local = config();
    const secretKey = local.FILES_SIGNING_SECRET ?? "";
    const signed = await presignUrl({
      url: `${ORIGIN}/files/plus/x.png?note=a+b`,
      accessKeyId: "svc-files",
      secretAccessKey: secretKey,
      datetime: "20261122T120000Z",
      ttlSeconds: 300,
    });
    expect(await verifyFilesUrl(local, signed, now)).toEqual({ ok: true, key: "plus/x.png" });
    const rewritten = signed.replace("note=a%20b", "note=a+b");
    expect(rewritten).not.toBe(signed);
    expect(await verifyFilesUrl(local, rewritten, now)).toEqual({ ok: true, key: "plus/x.png" });
    const asPlus = signed.replace("note=a%20b", "note=a%2Bb");
    expect(await verifyFilesUrl(local, asPlus, now)).toEqual({ ok: false, reason: "signature mismatch" });
  });

  it("keeps a + in an image key a plus, in the URL and in the verified key", async () => {
    const now = Date.now();
    const url = await presignImageUrl(config(), ORIGIN, "cards/1/a+b.png", now);
    expect(new URL(url).pathname).toBe("/files/cards/1/a%2Bb.png");
    expect(await verifyFilesUrl(config(), url, now)).toEqual({ ok: true, key: "cards/1/a+b.png" });
    // Spelled with a bare +, it is still the same key: no other object is reachable.
    expect(await verifyFilesUrl(config(), url.replace("a%2Bb", "a+b"), now)).toEqual({
      ok: true,
      key: "cards/1/a+b.png",
    });
  });

  it("does not let a URL signed for a key with a space reach the key with a + instead", async () => {
    const now = Date.now();
    const url = await presignImageUrl(config(), ORIGIN, "cards/1/a b.png", now);
    expect(await verifyFilesUrl(config(), url, now)).toEqual({ ok: true, key: "cards/1/a b.png" });
    expect(await verifyFilesUrl(config(), url.replace("a%20b", "a+b"), now)).toEqual({
      ok: false,
      reason: "signature mismatch",
    });
  });

  it("refuses a repeated or malformed signature parameter", async () => {
    const now = Date.now();
    const url = await presignImageUrl(config(), ORIGIN, "cards/1/front.png", now);
    expect(await verifyFilesUrl(config(), `${url}&X-Amz-Date=20261122T120000Z`, now)).toEqual({
      ok: false,
      reason: "malformed signature parameters",
    });
    expect(await verifyFilesUrl(config(), `${url}&x=%E0%A4%A`, now)).toEqual({
      ok: false,
      reason: "malformed signature parameters",
    });
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
