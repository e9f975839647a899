import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { certificates, submissions } from "../../src/db/schema";
import { gradeMultiple } from "../../src/grading/engine/identify";
import { referenceHash } from "../../src/grading/engine/reference";
import { forgetCatalogReferences } from "../../src/grading/references";
import { encodeBase64 } from "../../src/net/body";
import { backOf, type CardScene, referenceScan } from "../helpers/card-images";
import { jpegClaiming, pngClaiming } from "../helpers/crafted-headers";
import { createCatalogCard, createPartner, createPublicClient, db } from "../helpers/factories";
import { call, callWithEnv } from "../helpers/request";
import { callPublic, jsonSubmission, photo, RAW_CARD, rawPair } from "../helpers/submissions";
import { clearOfWindowEnd } from "../helpers/windows";

const SLAB = { ...RAW_CARD, cardWidth: 280, holder: true };

async function storedObjects(prefix: string): Promise<string[]> {
  const listed = await env.IMAGES.list({ prefix });
  return listed.objects.map((object) => object.key);
}

async function submissionsOf(clientId: number) {
  return db().select().from(submissions).where(eq(submissions.clientId, clientId));
}

// Tests here fill or read hourly quota windows: keep each clear of the end of the hour.
beforeEach(() => clearOfWindowEnd(3600, 20), 30_000);

describe("POST /gradings: graded", { timeout: 30_000 }, () => {
  it("answers 201 with the grading and a complete certificate, and stores the photos", async () => {
    const client = await createPublicClient();
    // The one catalog card with the declared player (no reference image, so not an identification).
    await createCatalogCard({
      playerName: "Nobody Known",
      brand: "Obscure Prints",
      setName: "Obscure",
      svcValue: 8000,
    });
    forgetCatalogReferences();
    const res = await callPublic("/gradings", client.key, {
      body: jsonSubmission(rawPair(), { external_ref: "order-1", card: { player: "Nobody Known" } }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(res.headers.get("ratelimit")).toMatch(/^"hourly";r=119;t=\d+$/);
    const grading = res.body;
    expect(grading).toMatchObject({ external_ref: "order-1", status: "complete", settled_at: expect.any(String) });
    expect(grading.grading_id).toMatch(/^[0-9a-f-]{36}$/);
    const certificate = grading.certificate;
    expect(certificate.certificate_number).toMatch(/^\d{10}$/);
    expect(certificate.certificate_url).toBe(`https://api.test/c/${certificate.certificate_number}`);
    expect(certificate.revoked).toBe(false);
    // The photo is drawn 55/45 left-right and 48.4/51.6 top-bottom.
    expect(certificate.grade.centering_offset.horizontal).toBeCloseTo(5, 0);
    expect(certificate.grade.centering_offset.vertical).toBeCloseTo(-1.6, 0);
    for (const field of ["overall", "centering", "corners", "edges", "surface"]) {
      expect(Number.isInteger(certificate.grade[field] * 2)).toBe(true);
    }
    expect(certificate.pipeline).toEqual({
      engine: "builtin@svc-edge-1.1",
      graded_by: "SVC Grading",
      hosted_by: "Cloudflare Workers",
    });
    // The evidence: where the card and its frame are in the photo, and what each subgrade examined.
    const evidence = certificate.grade.evidence;
    expect(evidence).toMatchObject({
      version: 1,
      faces: { front: { orientation: "portrait", format: { id: "standard", width_mm: 63, height_mm: 88 } } },
      centering: { face: "front", horizontal_offset: certificate.grade.centering_offset.horizontal },
    });
    expect(evidence.faces.front.corners).toHaveLength(4);
    expect(Object.keys(evidence.faces.front.frame_lines).sort()).toEqual(["bottom", "left", "right", "top"]);
    expect(evidence.faces.front.borders_mm.left).toBeGreaterThan(evidence.faces.front.borders_mm.right);
    for (const subgrade of ["corners", "edges", "surface"]) {
      expect(evidence[subgrade].examined_share).toBeGreaterThan(0);
      expect(Array.isArray(evidence[subgrade].defects)).toBe(true);
    }
    const fetched = await callPublic(`/certificates/${certificate.certificate_number}`, client.key);
    expect(fetched.body.certificate.grade.evidence).toEqual(evidence);
    // Not identified: the hint names the player (declared, not verified), and the one comparable
    // catalog card values it: $80 raw at the grade's multiple, ±50 % for a single comparable.
    expect(certificate.card).toMatchObject({ player: "Nobody Known", verified: false, source: "hints" });
    const multiple = gradeMultiple(certificate.grade.overall);
    const round = (value: number) => Math.round(value * 100) / 100;
    expect(certificate.estimated_value).toEqual({
      currency: "USD",
      low: round(40 * multiple),
      mid: round(80 * multiple),
      high: round(120 * multiple),
      confidence: "low",
      basis: "comparables",
    });

    const front = await call(new URL(certificate.images.front).pathname + new URL(certificate.images.front).search);
    expect(front.status).toBe(200);
    expect(front.headers.get("content-type")).toBe("image/jpeg");
    // No damage reports: they are drawn only for a grade run in a linked user's Partner API.
    expect((await storedObjects(`submissions/${grading.grading_id}/`)).sort()).toEqual([
      `submissions/${grading.grading_id}/back.jpg`,
      `submissions/${grading.grading_id}/front.jpg`,
    ]);

    const polled = await callPublic(`/gradings/${grading.grading_id}`, client.key);
    expect(polled.status).toBe(200);
    expect(polled.body.certificate.certificate_number).toBe(certificate.certificate_number);
    const lookup = await callPublic(`/certificates/${certificate.certificate_number}`, client.key);
    expect(lookup.status).toBe(200);
    expect(lookup.body.certificate.grade).toEqual(certificate.grade);
  });

  it("accepts multipart/form-data with files and hints, and a data: URL in base64", async () => {
    const client = await createPublicClient();
    const pair = rawPair();
    const form = new FormData();
    form.set("front_image", new File([pair.front], "front.jpg", { type: "image/jpeg" }));
    form.set("back_image", new File([pair.back], "back.jpg", { type: "image/jpeg" }));
    form.set("external_ref", "multipart-1");
    form.set("card", JSON.stringify({ player: "Form Player" }));
    const multipart = await callPublic("/gradings", client.key, { body: form });
    expect(multipart.status).toBe(201);
    expect(multipart.body).toMatchObject({ external_ref: "multipart-1", status: "complete" });
    expect(multipart.body.certificate.card.player).toBe("Form Player");

    const dataUrl = await callPublic("/gradings", client.key, {
      body: {
        front_image: { base64: `data:image/jpeg;base64,${encodeBase64(pair.front)}`, content_type: "image/jpeg" },
        back_image: { base64: encodeBase64(pair.back) },
      },
    });
    expect(dataUrl.status).toBe(201);
    expect(dataUrl.body.external_ref).toBeNull();
  });

  it("identifies a catalog card by its reference image and values it", async () => {
    const client = await createPublicClient();
    const pair = rawPair();
    const card = await createCatalogCard({ referenceHash: referenceHash(pair.front), svcValue: 10_000 });
    forgetCatalogReferences();
    const res = await callPublic("/gradings", client.key, { body: jsonSubmission(pair) });
    expect(res.status).toBe(201);
    expect(res.body.certificate.card).toEqual({
      player: card.playerName,
      year: card.year,
      brand: card.brand,
      set: card.setName,
      card_number: card.cardNumber,
      variant: null,
      category: "Baseball",
      verified: true,
      source: "catalog",
    });
    expect(res.body.certificate.estimated_value.confidence).toBe("high");
    expect(res.body.certificate.estimated_value.basis).toBe("catalog_match");
    expect(res.body.certificate.estimated_value.mid).toBeGreaterThan(100);
  });

  it("identifies a card as soon as the operator sets its reference image (the isolate's catalog cache is dropped)", async () => {
    const client = await createPublicClient();
    const pair = rawPair({ ...RAW_CARD, seed: 57 });
    const card = await createCatalogCard({ playerName: "Cache Test" });
    // The first submission loads (and caches) the catalog without this card's reference.
    const before = await callPublic("/gradings", client.key, { body: jsonSubmission(pair) });
    expect(before.body.certificate.card.player).not.toBe("Cache Test");
    const put = await callWithEnv(
      `/admin/v1/catalog-cards/${card.id}/reference-image`,
      {},
      {
        method: "PUT",
        headers: { authorization: "Bearer test-admin-token-0123456789", "content-type": "application/json" },
        body: JSON.stringify({ reference_image: { base64: encodeBase64(pair.front) } }),
      },
    );
    expect(put.status).toBe(200);
    const after = await callPublic("/gradings", client.key, { body: jsonSubmission(pair) });
    expect(after.body.certificate.card.player).toBe("Cache Test");
  });

  it("judges a line inside the art against the identified card's reference image in R2", async () => {
    const client = await createPublicClient();
    // A light line printed across the art (or scratched there: the photo alone cannot say which).
    const lined = { ...RAW_CARD, seed: 71, printedLines: [{ x0: 12, y0: 30, x1: 37, y1: 42 }] };
    const pair = rawPair(lined);
    const card = await createCatalogCard({ playerName: "Reference Lines" });
    const setReference = async (scene: CardScene) => {
      const put = await callWithEnv(
        `/admin/v1/catalog-cards/${card.id}/reference-image`,
        {},
        {
          method: "PUT",
          headers: { authorization: "Bearer test-admin-token-0123456789", "content-type": "application/json" },
          body: JSON.stringify({ reference_image: { base64: encodeBase64(photo(referenceScan(scene))) } }),
        },
      );
      expect(put.status).toBe(200);
    };
    const surfaceOf = (res: {
      body: { certificate: { card: { player: string }; grade: Record<string, unknown> } };
    }) => {
      expect(res.body.certificate.card.player).toBe("Reference Lines");
      const grade = res.body.certificate.grade as {
        surface: number;
        evidence: { surface: { defects: { type: string }[] } };
      };
      return { grade: grade.surface, types: grade.evidence.surface.defects.map((d) => d.type) };
    };

    // The catalog's copy lacks the line: it is damage.
    await setReference({ ...lined, printedLines: [] });
    const lacking = surfaceOf(await callPublic("/gradings", client.key, { body: jsonSubmission(pair) }));
    expect(lacking.types).toEqual(["reference_difference"]);
    expect(lacking.grade).toBeLessThan(10);

    // The catalog's copy shows it: it is print.
    await setReference(lined);
    const printed = surfaceOf(await callPublic("/gradings", client.key, { body: jsonSubmission(pair) }));
    expect(printed.types).toEqual([]);
    expect(printed.grade).toBe(10);
  });

  it("also shows a linked user's submission in that user's Partner API, under the same id", async () => {
    const partner = await createPartner();
    const client = await createPublicClient({ userId: partner.userId });
    const pair = rawPair({ ...RAW_CARD, seed: 12 });
    const card = await createCatalogCard({ referenceHash: referenceHash(pair.front) });
    forgetCatalogReferences();
    const res = await callPublic("/gradings", client.key, { body: jsonSubmission(pair) });
    expect(res.status).toBe(201);
    const id = res.body.grading_id;
    const session = await call(`/v1/gradings/${id}`, { key: partner.key });
    expect(session.status).toBe(200);
    expect(JSON.stringify(session.body)).toContain(res.body.certificate.certificate_number);
    // The partner view's model_grade carries the same evidence as the Public API grade.
    expect(session.body.user_card_grade.model_grade.evidence).toEqual(res.body.certificate.grade.evidence);
    const cards = await call("/v1/cards", { key: partner.key });
    expect(cards.status).toBe(200);
    const owned = cards.body.cards.find((c: { card_id?: number }) => JSON.stringify(c).includes(card.playerName));
    expect(owned).toBeTruthy();
    expect(JSON.stringify(owned)).toContain(String(res.body.certificate.grade.overall));
    // Another partner user sees none of it.
    const other = await createPartner();
    expect((await call(`/v1/gradings/${id}`, { key: other.key })).status).toBe(404);

    // The damage reports are drawn after the response; the grade run names them once both are
    // stored (a URL is never handed out for an image that is not there).
    let reports: { front: string | null; back: string | null } = { front: null, back: null };
    for (let attempt = 0; attempt < 200 && !(reports.front && reports.back); attempt++) {
      const grade = (await call(`/v1/gradings/${id}`, { key: partner.key })).body.user_card_grade;
      reports = { front: grade.damage_report_front_url, back: grade.damage_report_back_url };
      // Both named in one update.
      expect(reports.front === null).toBe(reports.back === null);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const url of [reports.front, reports.back]) {
      if (!url) throw new Error("the damage reports were not stored within 10 s");
      const image = await call(new URL(url).pathname + new URL(url).search);
      expect(image.status).toBe(200);
      expect(image.headers.get("content-type")).toBe("image/png");
    }
  });
});

describe("POST /gradings: rejected", { timeout: 30_000 }, () => {
  it("answers 422 grading_failed with holder_detected for a slabbed card, and refunds the quota unit", async () => {
    const client = await createPublicClient({ hourlyQuota: 5 });
    const res = await callPublic("/gradings", client.key, {
      body: jsonSubmission({ front: photo(SLAB), back: photo({ ...backOf(SLAB), holder: true }) }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      error: { code: "grading_failed", message: expect.any(String), request_id: expect.any(String) },
      grading_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: "rejected",
      reason: "holder_detected",
    });
    expect(res.headers.get("ratelimit")).toMatch(/r=4;/);
    // The refund: the next request counts from 5 again.
    const next = await callPublic(`/gradings/${res.body.grading_id}`, client.key);
    expect(next.headers.get("ratelimit")).toMatch(/r=4;/);
    expect(next.body).toMatchObject({ status: "rejected", reason: "holder_detected", settled_at: expect.any(String) });
    expect(next.body.certificate).toBeUndefined();
    const rows = await db().select().from(certificates).where(eq(certificates.gradingId, res.body.grading_id));
    expect(rows).toHaveLength(0);
  });

  it("answers 422 face_check_failed when front and back are the same photo", async () => {
    const client = await createPublicClient();
    const front = photo(RAW_CARD);
    const res = await callPublic("/gradings", client.key, { body: jsonSubmission({ front, back: front }) });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: "rejected", reason: "face_check_failed" });
  });

  it("answers 422 grading_failed for an image that is too dark to read", async () => {
    const client = await createPublicClient();
    const dark = { ...RAW_CARD, exposure: 0.12 };
    const res = await callPublic("/gradings", client.key, {
      body: jsonSubmission({ front: photo(dark), back: photo(backOf(dark)) }),
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: "rejected", reason: "grading_failed" });
  });
});

/** The first bytes of an iPhone's HEIC photo: its ftyp box (brand heic, compatible mif1 and heic). */
const HEIC_SIGNATURE = new Uint8Array(
  [0, 0, 0, 24, ..."ftypheic", 0, 0, 0, 0, ..."mif1heic"].map((c) => (typeof c === "string" ? c.charCodeAt(0) : c)),
);

describe("POST /gradings: bad input never grades, stores or answers 500", { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const pair = () => rawPair();
  const b64 = () => encodeBase64(pair().front);

  const badBodies: [string, () => unknown, number, string][] = [
    ["a body that is not JSON", () => "{not json", 400, "json"],
    [
      "both url and base64",
      () => ({ front_image: { url: "https://x.test/a.jpg", base64: b64() }, back_image: { base64: b64() } }),
      400,
      "json.front_image",
    ],
    ["neither url nor base64", () => ({ front_image: {}, back_image: { base64: b64() } }), 400, "json.front_image"],
    ["a missing back image", () => ({ front_image: { base64: b64() } }), 400, "json.back_image"],
    [
      "invalid base64",
      () => ({ front_image: { base64: "@@not base64@@" }, back_image: { base64: b64() } }),
      400,
      "json.front_image.base64",
    ],
    [
      "an empty image",
      () => ({ front_image: { base64: "" }, back_image: { base64: b64() } }),
      400,
      "json.front_image.base64",
    ],
    [
      "a non-image",
      () => ({ front_image: { base64: btoa("just some text, not a photo") }, back_image: { base64: b64() } }),
      400,
      "json.front_image.base64",
    ],
    [
      "a HEIC photo",
      () => ({ front_image: { base64: encodeBase64(HEIC_SIGNATURE) }, back_image: { base64: b64() } }),
      400,
      "json.front_image.base64",
    ],
    [
      "a content_type that does not match",
      () => ({ front_image: { base64: b64(), content_type: "image/png" }, back_image: { base64: b64() } }),
      400,
      "json.front_image.content_type",
    ],
    ["an unknown field", () => ({ ...jsonSubmission(pair()), priority: "high" }), 400, "json"],
    [
      "an external_ref over 200 characters",
      () => jsonSubmission(pair(), { external_ref: "x".repeat(201) }),
      400,
      "json.external_ref",
    ],
    [
      "a http:// URL",
      () => ({ front_image: { url: "http://images.example.com/a.jpg" }, back_image: { base64: b64() } }),
      400,
      "json.front_image.url",
    ],
    [
      "a URL to 127.0.0.1",
      () => ({ front_image: { url: "https://127.0.0.1/a.jpg" }, back_image: { base64: b64() } }),
      400,
      "json.front_image.url",
    ],
    [
      "a URL to the metadata address",
      () => ({ front_image: { url: "https://169.254.169.254/latest" }, back_image: { base64: b64() } }),
      400,
      "json.front_image.url",
    ],
  ];

  it("names a HEIC photo's format when it refuses one, and asks for JPEG", async () => {
    const client = await createPublicClient();
    const res = await callPublic("/gradings", client.key, {
      body: { front_image: { base64: encodeBase64(HEIC_SIGNATURE) }, back_image: { base64: b64() } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("a HEIC (HEIF) photo");
    expect(res.body.error.message).toContain("send the photo as JPEG");
  });

  for (const [name, body, status, path] of badBodies) {
    it(`refuses ${name} with ${status} and leaves nothing behind`, async () => {
      const client = await createPublicClient();
      const fetchSpy = vi.spyOn(globalThis, "fetch");
      const objectsBefore = (await storedObjects("submissions/")).length;
      const res = await callPublic("/gradings", client.key, {
        body: body(),
        headers: { "content-type": "application/json" },
      });
      expect(res.status).toBe(status);
      expect(res.body.error.code).toBe("invalid_request");
      expect(res.body.error.request_id).toBeTruthy();
      expect(res.body.error.details[0].path.startsWith(path)).toBe(true);
      expect(fetchSpy).not.toHaveBeenCalled();
      expect(await submissionsOf(client.clientId)).toHaveLength(0);
      expect(await storedObjects("submissions/")).toHaveLength(objectsBefore);
    });
  }

  it("refuses an image over 12 MB with 413 payload_too_large", async () => {
    const client = await createPublicClient();
    const big = new Uint8Array(12 * 1024 * 1024 + 1);
    big.set(pair().front);
    const res = await callPublic("/gradings", client.key, {
      body: { front_image: { base64: encodeBase64(big) }, back_image: { base64: b64() } },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    expect(await submissionsOf(client.clientId)).toHaveLength(0);
  });

  it("refuses a decompression bomb (a JPEG claiming 65000 × 65000) with 413 naming the limit, storing nothing", async () => {
    const client = await createPublicClient();
    const objectsBefore = (await storedObjects("submissions/")).length;
    const res = await callPublic("/gradings", client.key, {
      body: { front_image: { base64: encodeBase64(jpegClaiming(65000, 65000)) }, back_image: { base64: b64() } },
    });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    expect(res.body.error.message).toBe(
      "The front_image cannot be decoded within limits: the JPEG is 65000 × 65000 pixels (4225 MP); the limit is 64 MP.",
    );
    const form = new FormData();
    form.set("front_image", new File([pair().front], "front.jpg"));
    form.set("back_image", new File([pngClaiming(2500, 2000, { bitDepth: 16 })], "back.png"));
    const png = await callPublic("/gradings", client.key, { body: form });
    expect(png.status).toBe(413);
    expect(png.body.error.message).toMatch(/^The back_image cannot be decoded within limits: decoding this 16-bit PNG/);
    expect(await submissionsOf(client.clientId)).toHaveLength(0);
    expect(await storedObjects("submissions/")).toHaveLength(objectsBefore);
  });

  it("refuses a body over the limit while it streams in (no Content-Length), with 413", async () => {
    const client = await createPublicClient();
    const chunk = new Uint8Array(1024 * 1024).fill(65);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 40) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const { exports } = await import("cloudflare:workers");
    const response = await exports.default.fetch("https://api.test/api/public/v1/gradings", {
      method: "POST",
      headers: { "x-api-key": client.key, "content-type": "application/json" },
      body: stream,
      // @ts-expect-error: workerd needs duplex for a streamed request body
      duplex: "half",
    });
    expect(response.status).toBe(413);
    expect(sent).toBeLessThan(40);
  });

  it("refuses a multipart file over 12 MB with 413, and a multipart body over the cap", async () => {
    const client = await createPublicClient();
    const big = new Uint8Array(12 * 1024 * 1024 + 1);
    big.set(pair().front);
    const form = new FormData();
    form.set("front_image", new File([big], "front.jpg"));
    form.set("back_image", new File([pair().back], "back.jpg"));
    const res = await callPublic("/gradings", client.key, { body: form });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe("payload_too_large");
    const huge = new FormData();
    huge.set("front_image", new File([big], "front.jpg"));
    huge.set("back_image", new File([big, big], "back.jpg"));
    expect((await callPublic("/gradings", client.key, { body: huge })).status).toBe(413);
    expect(await submissionsOf(client.clientId)).toHaveLength(0);
  });

  it("refuses a multipart body without the back file", async () => {
    const client = await createPublicClient();
    const form = new FormData();
    form.set("front_image", new File([pair().front], "front.jpg"));
    const res = await callPublic("/gradings", client.key, { body: form });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("form.back_image");
  });

  it("refuses another content type with 400", async () => {
    const client = await createPublicClient();
    const res = await callPublic("/gradings", client.key, { body: "a=b", headers: { "content-type": "text/plain" } });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("header.content-type");
  });
});

describe("POST /gradings: image URLs", { timeout: 30_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** Stands in for the internet: image hosts answered by path. */
  function imageHost(routes: Record<string, () => Response>) {
    const seen: string[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      seen.push(url.toString());
      const route = routes[url.pathname];
      return route ? route() : new Response("not found", { status: 404 });
    });
    return seen;
  }

  const jpegResponse = (bytes: Uint8Array) =>
    new Response(bytes, { headers: { "content-type": "image/jpeg", "content-length": String(bytes.length) } });
  const redirect = (to: string) => new Response(null, { status: 302, headers: { location: to } });

  it("fetches https images, following up to 3 redirects, and grades them", async () => {
    const client = await createPublicClient();
    const pair = rawPair();
    const seen = imageHost({
      "/front.jpg": () => jpegResponse(pair.front),
      "/r1": () => redirect("/r2"),
      "/r2": () => redirect("https://cdn.images.test/r3"),
      "/r3": () => redirect("https://cdn.images.test/back.jpg"),
      "/back.jpg": () => jpegResponse(pair.back),
    });
    const res = await callPublic("/gradings", client.key, {
      body: { front_image: { url: "https://images.test/front.jpg" }, back_image: { url: "https://images.test/r1" } },
    });
    expect(res.status).toBe(201);
    expect(seen).toContain("https://cdn.images.test/back.jpg");
    const stored = await env.IMAGES.get(`submissions/${res.body.grading_id}/back.jpg`);
    expect(new Uint8Array((await stored?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(pair.back);
  });

  it("refuses a host that redirects 4 times", async () => {
    const client = await createPublicClient();
    imageHost({
      "/a": () => redirect("/b"),
      "/b": () => redirect("/c"),
      "/c": () => redirect("/d"),
      "/d": () => redirect("/e"),
      "/e": () => jpegResponse(photo(RAW_CARD)),
    });
    const res = await callPublic("/gradings", client.key, {
      body: { front_image: { url: "https://images.test/a" }, back_image: { base64: encodeBase64(photo(RAW_CARD)) } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("redirects more than 3 times");
    expect(await submissionsOf(client.clientId)).toHaveLength(0);
  });

  it("refuses a redirect to a private address on any hop", async () => {
    const client = await createPublicClient();
    const seen = imageHost({ "/a": () => redirect("https://10.0.0.7/secret.jpg") });
    const res = await callPublic("/gradings", client.key, {
      body: { front_image: { url: "https://images.test/a" }, back_image: { base64: encodeBase64(photo(RAW_CARD)) } },
    });
    expect(res.status).toBe(400);
    // The category only: where the redirect pointed (an internal address) is not echoed back.
    expect(res.body.error.message).toContain("redirects to a URL that is not allowed");
    expect(res.text).not.toContain("10.0.0.7");
    expect(res.text).not.toContain("private");
    expect(seen).toEqual(["https://images.test/a"]);
  });

  it("stops reading a 20 MB file at 12 MB and answers 413, with or without a declared length", async () => {
    const client = await createPublicClient();
    let pulled = 0;
    imageHost({
      "/declared.jpg": () =>
        new Response(new Uint8Array(16), { headers: { "content-length": String(20 * 1024 * 1024) } }),
      "/streamed.jpg": () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              if (pulled >= 20) return controller.close();
              pulled++;
              controller.enqueue(new Uint8Array(1024 * 1024));
            },
          }),
        ),
    });
    for (const path of ["/declared.jpg", "/streamed.jpg"]) {
      const res = await callPublic("/gradings", client.key, {
        body: {
          front_image: { url: `https://images.test${path}` },
          back_image: { base64: encodeBase64(photo(RAW_CARD)) },
        },
      });
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe("payload_too_large");
    }
    expect(pulled).toBeLessThanOrEqual(14);
    expect(await submissionsOf(client.clientId)).toHaveLength(0);
  });

  it("gives up on a URL that does not answer in time, with 400", async () => {
    const client = await createPublicClient();
    vi.spyOn(globalThis, "fetch").mockImplementation(
      (_input, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
        }),
    );
    const { callWithEnv } = await import("../helpers/request");
    const res = await callWithEnv(
      "/api/public/v1/gradings",
      { IMAGE_FETCH_TIMEOUT_SECONDS: "0.2" },
      {
        method: "POST",
        headers: { "x-api-key": client.key, "content-type": "application/json" },
        body: JSON.stringify({
          front_image: { url: "https://slow.images.test/a.jpg" },
          back_image: { base64: encodeBase64(photo(RAW_CARD)) },
        }),
      },
    );
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain("did not answer within 0.2 s");
  });

  it("refuses a URL whose answer is not an image, or an error status", async () => {
    const client = await createPublicClient();
    imageHost({ "/page.html": () => new Response("<html></html>", { headers: { "content-type": "text/html" } }) });
    for (const [path, message] of [
      ["/page.html", "a web page (HTML), not a JPEG, PNG or WebP image"],
      ["/missing.jpg", "answered HTTP 404"],
    ]) {
      const res = await callPublic("/gradings", client.key, {
        body: {
          front_image: { url: `https://images.test${path}` },
          back_image: { base64: encodeBase64(photo(RAW_CARD)) },
        },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(message);
    }
  });
});

describe("POST /gradings: security", { timeout: 30_000 }, () => {
  it("answers 401 missing_api_key, invalid_api_key and key_revoked before reading the body", async () => {
    const revoked = await createPublicClient({ revoked: true });
    const body = { front_image: { base64: "AAAA" }, back_image: { base64: "AAAA" } };
    expect((await callPublic("/gradings", null, { body })).body.error.code).toBe("missing_api_key");
    expect((await callPublic("/gradings", "svck_nope_nope", { body })).body.error.code).toBe("invalid_api_key");
    const res = await callPublic("/gradings", revoked.key, { body });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe("key_revoked");
  });
});
