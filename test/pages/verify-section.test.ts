import { eq } from "drizzle-orm";
import { createLocalJWKSet, type JSONWebKeySet, jwtVerify } from "jose";
import { encode } from "uqr";
import { describe, expect, it } from "vitest";
import { certificates } from "../../src/db/schema";
import { qrCode } from "../../src/pages/qr";
import { createCatalogCard, createCertificate, createPublicClient, db } from "../helpers/factories";
import { call, callWithEnv } from "../helpers/request";

const ADMIN = { authorization: "Bearer test-admin-token-0123456789" };

/** The dark modules a QR path draws, as rows of booleans (the inverse of qrCode's run encoding). */
function rasterise(path: string, size: number): boolean[][] {
  const grid = Array.from({ length: size }, () => Array<boolean>(size).fill(false));
  for (const [, x, y, run] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let i = 0; i < Number(run); i++) {
      const row = grid[Number(y)];
      if (row) row[Number(x) + i] = true;
    }
  }
  return grid;
}

/** The QR code inside an SVG (page or badge): its module count from the white square and its path. */
function qrIn(svg: string, quiet: number): boolean[][] {
  const match = svg.match(
    /<rect width="(\d+)" height="\1" fill="#fff"\/><path transform="translate\(\d+ \d+\)" fill="#000" d="([^"]+)"/,
  );
  if (!match?.[1] || !match[2]) throw new Error("no QR code in the SVG");
  return rasterise(match[2], Number(match[1]) - 2 * quiet);
}

describe("QR codes", () => {
  it("draws exactly the modules uqr encodes, for short and long addresses", () => {
    for (const text of [
      "https://api.test/c/1234567897",
      `https://grading.example.com/c/${"9".repeat(10)}?a=${"x".repeat(120)}`,
    ]) {
      const code = qrCode(text);
      expect(rasterise(code.path, code.size)).toEqual(encode(text, { ecc: "M", border: 0 }).data);
    }
  });
});

describe("the certificate page's verify section", () => {
  it("embeds the signed attestation, which verifies offline against the JWKS, and a QR code of the page", async () => {
    const cert = await createCertificate();
    const res = await callWithEnv(`/c/${cert.number}`, {});
    expect(res.status).toBe(200);
    const jws = res.text.match(/<textarea class="jws"[^>]*>([^<]+)<\/textarea>/)?.[1];
    if (!jws) throw new Error("no attestation on the page");

    const keys: JSONWebKeySet = (await call("/.well-known/jwks.json")).body;
    const { payload } = await jwtVerify(jws, createLocalJWKSet(keys), { algorithms: ["EdDSA"] });
    expect(payload.sub).toBe(cert.number);
    expect(payload).toMatchObject({ certificate: { number: cert.number, grade: { overall: 9 } } });
    // The page shows the stored attestation: the one the API serves and every later page shows.
    const [row] = await db().select().from(certificates).where(eq(certificates.number, cert.number));
    expect(row?.attestation).toBe(jws);
    expect(res.text).toContain(`href="/c/${cert.number}/status"`);
    expect(res.text).toContain('href="/.well-known/jwks.json"');

    const url = `https://api.test/c/${cert.number}`;
    expect(res.text).toContain(`aria-label="QR code of ${url}"`);
    expect(qrIn(res.text, 4)).toEqual(encode(url, { ecc: "M", border: 0 }).data);
  });

  it("still renders without a signing key, saying the attestation is unavailable", async () => {
    const cert = await createCertificate();
    const page = await callWithEnv(`/c/${cert.number}`, { ATTESTATION_SIGNING_KEY: undefined });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<div class="overall">9</div>');
    expect(page.text).not.toContain('class="jws"');
    expect(page.text).toContain("The signed attestation of this certificate is not available right now.");
  });

  it("the attestation endpoint answers 403 access_denied naming the missing secret, not a 500", async () => {
    const cert = await createCertificate();
    const client = await createPublicClient();
    const res = await callWithEnv(
      `/api/public/v1/certificates/${cert.number}/attestation`,
      { ATTESTATION_SIGNING_KEY: undefined, SECRETS_KEY: undefined },
      { headers: { "x-api-key": client.key } },
    );
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: "access_denied" });
    expect(res.body.error.message).toContain("ATTESTATION_SIGNING_KEY");
  });

  it("withholds the attestation of a revoked certificate and points to its status", async () => {
    const cert = await createCertificate();
    const revoked = await callWithEnv(
      `/admin/v1/certificates/${cert.number}/revoke`,
      {},
      { method: "POST", headers: ADMIN },
    );
    expect(revoked.status).toBe(200);
    const page = await callWithEnv(`/c/${cert.number}`, {});
    expect(page.text).not.toContain('class="jws"');
    expect(page.text).toContain("its signed attestation is withdrawn");
    expect(page.text).toContain(`href="/c/${cert.number}/status"`);
  });
});

describe("the certificate page's population line", () => {
  it("counts the live certificates of the catalog card, and those at this grade or higher", async () => {
    const card = await createCatalogCard();
    const mine = await createCertificate({ cardId: card.id, overall: 9 });
    await createCertificate({ cardId: card.id, overall: 8 });
    await createCertificate({ cardId: card.id, overall: 9.5 });
    // Revoked: not counted, although graded higher.
    await createCertificate({ cardId: card.id, overall: 10, revokedAt: new Date().toISOString() });
    // Another card's certificate: not counted.
    await createCertificate({ cardId: (await createCatalogCard()).id, overall: 10 });

    const page = await callWithEnv(`/c/${mine.number}`, {});
    expect(page.text).toContain("<span>Population of this card</span> 3 graded, 2 at 9 or higher");
  });

  it("is left out for an unverified catalog entry and for a certificate without a catalog card", async () => {
    const unverified = await createCatalogCard({ verified: false });
    const declared = await createCertificate({ cardId: unverified.id, cardSource: "hints" });
    const unidentified = await createCertificate({ cardId: null });
    for (const cert of [declared, unidentified]) {
      const page = await callWithEnv(`/c/${cert.number}`, {});
      expect(page.status).toBe(200);
      expect(page.text).not.toContain("Population of this card");
    }
  });
});

describe("the badge", () => {
  it("shows the certificate number and a QR code of the certificate page", async () => {
    const cert = await createCertificate({ overall: 9.5 });
    const badge = await callWithEnv(`/c/${cert.number}/badge.svg`, {});
    expect(badge.status).toBe(200);
    expect(badge.text).toContain(`>No. ${cert.number}</text>`);
    expect(badge.text).toContain(">9.5 MINT+</text>");
    expect(qrIn(badge.text, 2)).toEqual(encode(`https://api.test/c/${cert.number}`, { ecc: "M", border: 0 }).data);
  });
});
