import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { base64url, createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { verifyAttestation } from "../../scripts/lib/verify-attestation";
import { digestHex } from "../../src/attestation/digest";
import { attestationKeys, certificates } from "../../src/db/schema";
import { luhnCheckDigit } from "../../src/grading/certificate-number";
import { decryptSecret } from "../../src/webhooks/secret-box";
import { backOf } from "../helpers/card-images";
import { createCertificate, createPublicClient, db, putImage } from "../helpers/factories";
import { call } from "../helpers/request";
import { callPublic, jsonSubmission, photo, RAW_CARD, rawPair } from "../helpers/submissions";

const ADMIN = { authorization: `Bearer ${env.ADMIN_TOKEN}` };
const attestationOf = (number: string, key: string | null) => callPublic(`/certificates/${number}/attestation`, key);

type PublishedJwk = JSONWebKeySet["keys"][number] & { kid: string; status: string };

async function jwks(): Promise<{ keys: PublishedJwk[] }> {
  const res = await call("/.well-known/jwks.json");
  expect(res.status).toBe(200);
  return res.body;
}

/** Verifies offline: the JWS and the JWK Set only, as the README's example does. */
async function verify(jws: string, keys: JSONWebKeySet) {
  const { payload, protectedHeader } = await jwtVerify(jws, createLocalJWKSet(keys), { algorithms: ["EdDSA"] });
  return { payload: payload as Record<string, unknown> & { certificate: Record<string, never> }, protectedHeader };
}

async function gradedCertificate(key: string, pair = rawPair()) {
  const res = await callPublic("/gradings", key, { body: jsonSubmission(pair, { card: { player: "Ada Lovelace" } }) });
  expect(res.status === 201 ? null : res.body).toBeNull();
  return res.body.certificate as { certificate_number: string; previous_certificates: unknown[] };
}

describe("certificate attestations", { timeout: 60_000 }, () => {
  it("signs an issued certificate: it verifies offline against the JWKS and carries the stored images' digests", async () => {
    const client = await createPublicClient();
    const pair = rawPair();
    const certificate = await gradedCertificate(client.key, pair);
    const number = certificate.certificate_number;

    const res = await attestationOf(number, client.key);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/jose");
    const jws = res.text;
    expect(jws.split(".")).toHaveLength(3);

    const keys = await jwks();
    expect(keys.keys.every((k) => !("d" in k))).toBe(true);
    const { payload, protectedHeader } = await verify(jws, keys);
    expect(protectedHeader).toMatchObject({ alg: "EdDSA", typ: "svc-certificate+jwt" });
    expect(keys.keys.find((k) => k.kid === protectedHeader.kid)?.status).toBe("current");
    expect(payload.sub).toBe(number);
    expect(payload.iss).toBe("https://api.test");
    const [row] = await db().select().from(certificates).where(eq(certificates.number, number));
    if (!row) throw new Error("no certificate row");
    expect(payload.iat).toBe(Math.floor(Date.parse(row.issuedAt) / 1000));
    expect(payload.certificate).toMatchObject({
      number,
      url: `https://api.test/c/${number}`,
      issued_at: row.issuedAt,
      grade: {
        overall: row.overall,
        centering: row.centering,
        corners: row.corners,
        edges: row.edges,
        surface: row.surface,
        centering_offset: { horizontal: row.centeringHorizontal, vertical: row.centeringVertical },
      },
      engine: { id: row.pipelineEngine, model_version: row.modelVersion },
      // No catalog reference: the player came from a hint, so it is declared, not verified.
      card: { catalog_id: null, source: "hints", fields: { player: { value: "Ada Lovelace", status: "declared" } } },
    });
    // The digests are of the bytes sent, which are the bytes stored in R2.
    const front = await env.IMAGES.get(row.frontImageKey);
    const back = await env.IMAGES.get(row.backImageKey);
    if (!front || !back) throw new Error("images not stored");
    const images = {
      front: await digestHex(await front.arrayBuffer()),
      back: await digestHex(await back.arrayBuffer()),
    };
    expect(images.front).toBe(await digestHex(pair.front));
    expect(payload.certificate).toMatchObject({
      images: { front: { sha256: images.front }, back: { sha256: images.back } },
    });
    // One changed byte of the photo no longer matches its digest.
    const altered = pair.front.slice();
    altered[altered.length - 10] = (altered[altered.length - 10] ?? 0) ^ 1;
    expect(await digestHex(altered)).not.toBe(images.front);
    // The same JWS on every request (signed once, at issue).
    expect((await attestationOf(number, client.key)).text).toBe(jws);
  });

  it("fails verification when one byte of the payload or the signature changes", async () => {
    const client = await createPublicClient();
    const { certificate_number: number } = await gradedCertificate(client.key);
    const jws = (await attestationOf(number, client.key)).text;
    const keys = await jwks();
    const [header, payload, signature] = jws.split(".") as [string, string, string];
    const json = new TextDecoder().decode(base64url.decode(payload));
    const forged = json.replace(/"overall":(\d+(\.\d+)?)/, (_m, grade) => `"overall":${Number(grade) === 10 ? 9 : 10}`);
    expect(forged).not.toBe(json);
    const forgedPayload = base64url.encode(forged);
    await expect(verify(`${header}.${forgedPayload}.${signature}`, keys)).rejects.toThrow(/signature/i);
    const flipped = `${signature.slice(0, 5)}${signature[5] === "A" ? "B" : "A"}${signature.slice(6)}`;
    await expect(verify(`${header}.${payload}.${flipped}`, keys)).rejects.toThrow(/signature/i);
  });

  it("keeps old certificates verifiable after a key rotation; new ones are signed with the new key", async () => {
    const client = await createPublicClient();
    const before = await gradedCertificate(client.key);
    const oldJws = (await attestationOf(before.certificate_number, client.key)).text;
    const oldKid = decodeProtectedHeader(oldJws).kid;

    const rotated = await call("/admin/v1/attestation-keys/rotate", { method: "POST", headers: ADMIN });
    expect(rotated.status).toBe(201);
    expect(rotated.body.retired_kid).toBe(oldKid);
    expect(rotated.body.kid).not.toBe(oldKid);
    expect(JSON.stringify(rotated.body)).not.toMatch(/"d"/);

    const keys = await jwks();
    expect(keys.keys.find((k) => k.kid === oldKid)?.status).toBe("retired");
    expect(keys.keys[0]).toMatchObject({ kid: rotated.body.kid, status: "current" });
    expect((await verify(oldJws, keys)).payload.sub).toBe(before.certificate_number);

    const after = await gradedCertificate(client.key, rawPair({ ...RAW_CARD, seed: 99 }));
    const newJws = (await attestationOf(after.certificate_number, client.key)).text;
    expect(decodeProtectedHeader(newJws).kid).toBe(rotated.body.kid);
    expect((await verify(newJws, keys)).payload.sub).toBe(after.certificate_number);
    // Against the JWKS as it was before the rotation, the new certificate does not verify.
    const oldSet = { keys: keys.keys.filter((k) => k.kid === oldKid) };
    await expect(verify(newJws, oldSet)).rejects.toThrow();

    const listed = await call("/admin/v1/attestation-keys", { headers: ADMIN });
    expect(listed.status).toBe(200);
    expect(listed.body.keys.find((k: { kid: string }) => k.kid === rotated.body.kid)).toMatchObject({
      status: "current",
      source: "rotation",
    });
    expect(listed.text).not.toMatch(/"d"|private/);
  });

  it("signs a certificate issued before attestations existed on its first request, over its stored photos", async () => {
    const client = await createPublicClient();
    const row = await createCertificate();
    await putImage(row.frontImageKey, "front-bytes");
    await putImage(row.backImageKey, "back-bytes");
    const res = await attestationOf(row.number, client.key);
    expect(res.status).toBe(200);
    const { payload } = await verify(res.text, await jwks());
    expect(payload.certificate).toMatchObject({
      number: row.number,
      images: {
        front: { sha256: await digestHex(new TextEncoder().encode("front-bytes")) },
        back: { sha256: await digestHex(new TextEncoder().encode("back-bytes")) },
      },
    });
    const [stored] = await db().select().from(certificates).where(eq(certificates.number, row.number));
    expect(stored?.attestation).toBe(res.text);
  });

  it("answers 404 not_found for a revoked certificate's attestation, and its status says revoked", async () => {
    const client = await createPublicClient();
    const { certificate_number: number } = await gradedCertificate(client.key, rawPair({ ...RAW_CARD, seed: 123 }));
    expect((await call(`/c/${number}/status`)).body).toMatchObject({
      certificate_number: number,
      status: "live",
      revoked_at: null,
    });
    const revoked = await call(`/admin/v1/certificates/${number}/revoke`, { method: "POST", headers: ADMIN });
    expect(revoked.status).toBe(200);
    const res = await attestationOf(number, client.key);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    const status = await call(`/c/${number}/status`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: "revoked", revoked_at: revoked.body.revoked_at });
  });

  it("answers 404 for an unknown number and 400 for a wrong check digit, on the attestation and the status", async () => {
    const client = await createPublicClient();
    const unknown = `100000000${luhnCheckDigit("100000000")}`;
    expect((await attestationOf(unknown, client.key)).body.error.code).toBe("not_found");
    expect((await call(`/c/${unknown}/status`)).status).toBe(404);
    const wrongDigit = `100000000${(luhnCheckDigit("100000000") + 1) % 10}`;
    const bad = await attestationOf(wrongDigit, client.key);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe("invalid_request");
    expect((await call(`/c/${wrongDigit}/status`)).status).toBe(400);
  });

  it("needs a live public key for the attestation (401 without one or with a revoked one)", async () => {
    const row = await createCertificate();
    const none = await attestationOf(row.number, null);
    expect(none.status).toBe(401);
    expect(none.body.error.code).toBe("missing_api_key");
    const revoked = await createPublicClient({ revoked: true });
    const res = await attestationOf(row.number, revoked.key);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("key_revoked");
  });

  it("refuses key rotation and listing without the operator token", async () => {
    expect((await call("/admin/v1/attestation-keys/rotate", { method: "POST" })).status).toBe(401);
    const wrong = await call("/admin/v1/attestation-keys", {
      headers: { authorization: "Bearer wrong-token-0123456789" },
    });
    expect(wrong.status).toBe(401);
  });
});

describe("the CLI's offline verifier (npm run admin -- verify)", { timeout: 60_000 }, () => {
  it("verifies with the JWK Set alone and checks each photo against its attested digest", async () => {
    const client = await createPublicClient();
    const pair = rawPair({ ...RAW_CARD, seed: 321 });
    const { certificate_number: number } = await gradedCertificate(client.key, pair);
    const jws = (await attestationOf(number, client.key)).text;
    const keys = await jwks();

    const verified = await verifyAttestation(jws, keys, { front: pair.front, back: pair.back });
    expect(verified.certificate.number).toBe(number);
    expect(verified.kid).toBe(keys.keys[0]?.kid);
    expect(verified.images).toEqual([
      { face: "front", sha256: await digestHex(pair.front), matches: true },
      { face: "back", sha256: await digestHex(pair.back), matches: true },
    ]);

    // One changed byte of a photo: the signature still holds, the photo no longer matches.
    const altered = pair.back.slice();
    altered[100] = (altered[100] ?? 0) ^ 0x40;
    const checked = await verifyAttestation(jws, keys, { back: altered });
    expect(checked.images).toEqual([{ face: "back", sha256: await digestHex(altered), matches: false }]);

    // One changed byte of the payload, a key that is not in the set, or another typ: not verified.
    const [header, payload, signature] = jws.split(".") as [string, string, string];
    const json = new TextDecoder().decode(base64url.decode(payload));
    const otherNumber = `${number.slice(0, -1)}${(Number(number.at(-1)) + 1) % 10}`;
    const forged = base64url.encode(json.replace(`"number":"${number}"`, `"number":"${otherNumber}"`));
    expect(forged).not.toBe(payload);
    await expect(verifyAttestation(`${header}.${forged}.${signature}`, keys)).rejects.toThrow(/signature/i);
    await expect(verifyAttestation(jws, { keys: [] })).rejects.toThrow();
    const otherTyp = base64url.encode(JSON.stringify({ ...decodeProtectedHeader(jws), typ: "JWT" }));
    await expect(verifyAttestation(`${otherTyp}.${payload}.${signature}`, keys)).rejects.toThrow();
  });
});

describe("private keys", { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("never appear in a response or a log line, for the configured key or a rotated one", async () => {
    const lines: string[] = [];
    for (const level of ["log", "info", "warn", "error", "debug"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        lines.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" "));
      });
    }
    const bodies: string[] = [];
    const client = await createPublicClient();
    const first = await gradedCertificate(client.key, rawPair({ ...RAW_CARD, seed: 654 }));
    bodies.push((await attestationOf(first.certificate_number, client.key)).text);
    const rotated = await call("/admin/v1/attestation-keys/rotate", { method: "POST", headers: ADMIN });
    expect(rotated.status).toBe(201);
    bodies.push(rotated.text);
    const second = await gradedCertificate(client.key, rawPair({ ...RAW_CARD, seed: 655 }));
    bodies.push(JSON.stringify(second));
    bodies.push((await attestationOf(second.certificate_number, client.key)).text);
    bodies.push((await call("/admin/v1/attestation-keys", { headers: ADMIN })).text);
    bodies.push((await call("/.well-known/jwks.json")).text);
    bodies.push((await call(`/c/${second.certificate_number}`)).text);

    const configured = JSON.parse(env.ATTESTATION_SIGNING_KEY ?? "{}") as { d?: string };
    const [row] = await db().select().from(attestationKeys).where(eq(attestationKeys.kid, rotated.body.kid));
    if (!configured.d || !row?.privateJwkEncrypted) throw new Error("no private keys to look for");
    const rotatedD = (JSON.parse(await decryptSecret(env.SECRETS_KEY ?? "", row.privateJwkEncrypted)) as { d: string })
      .d;
    for (const secret of [configured.d, rotatedD, row.privateJwkEncrypted]) {
      for (const text of [...bodies, ...lines]) expect(text).not.toContain(secret);
    }
    expect(bodies.join("\n")).not.toMatch(/"d"\s*:/);
  });
});

describe("the same card seen twice", { timeout: 60_000 }, () => {
  it("lists a live earlier certificate of the same physical card, and the operator sees the streak", async () => {
    const client = await createPublicClient();
    const card = { ...RAW_CARD, seed: 4242, borders: { left: 3.6, right: 2.5, top: 2.8, bottom: 3.4 } };
    const first = await gradedCertificate(client.key, rawPair(card));
    expect(first.previous_certificates).toEqual([]);
    // The same card on another table, turned the other way, under other light.
    const again = {
      ...card,
      background: [40, 60, 110] as const,
      texture: "cloth" as const,
      rotation: -2,
      lightFalloff: 0.2,
      cardWidth: 420,
    };
    const second = await gradedCertificate(client.key, { front: photo(again, 80), back: photo(backOf(again), 80) });
    const [firstRow] = await db().select().from(certificates).where(eq(certificates.number, first.certificate_number));
    expect(second.previous_certificates).toEqual([
      { number: first.certificate_number, overall: firstRow?.overall, issued_at: firstRow?.issuedAt },
    ]);
    // Another copy of the same design (cut elsewhere) is not the same card.
    const otherCopy = { ...card, borders: { left: 3.1, right: 3.0, top: 3.3, bottom: 2.9 } };
    const third = await gradedCertificate(client.key, rawPair(otherCopy));
    expect(third.previous_certificates).toEqual([]);
    // The attestation signs the link too.
    const jws = (await attestationOf(second.certificate_number, client.key)).text;
    const { payload } = await verify(jws, await jwks());
    expect(payload.certificate).toMatchObject({
      previous_certificates: [{ number: first.certificate_number, overall: firstRow?.overall }],
    });

    const streaks = await call(`/admin/v1/clients/${client.clientId}/resubmissions`, { headers: ADMIN });
    expect(streaks.status).toBe(200);
    expect(streaks.body).toMatchObject({
      client_id: client.clientId,
      resubmitted_certificates: 1,
      streaks: [
        {
          first: { number: first.certificate_number },
          resubmissions: [{ number: second.certificate_number }],
          length: 2,
        },
      ],
    });
    // A revoked earlier certificate is no longer a match.
    await call(`/admin/v1/certificates/${first.certificate_number}/revoke`, { method: "POST", headers: ADMIN });
    const fourth = await gradedCertificate(client.key, rawPair(card));
    expect(fourth.previous_certificates.map((p) => (p as { number: string }).number)).toEqual([
      second.certificate_number,
    ]);
  });

  it("answers 404 for another client's id and 401 without the operator token", async () => {
    expect((await call("/admin/v1/clients/999999/resubmissions", { headers: ADMIN })).status).toBe(404);
    expect((await call("/admin/v1/clients/1/resubmissions")).status).toBe(401);
  });
});
