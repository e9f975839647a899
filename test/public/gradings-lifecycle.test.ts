import { createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { certificates, submissions } from "../../src/db/schema";
import { runHousekeeping } from "../../src/grading/housekeeping";
import { consumeGradingBatch, consumeGradingDeadLetters } from "../../src/grading/queue";
import { gradeSubmission, recordRejected } from "../../src/grading/settle";
import { settleDeps } from "../../src/grading/settle-deps";
import { encodeBase64 } from "../../src/net/body";
import { createPublicClient, db } from "../helpers/factories";
import { HOSTED_MODEL_GRADE } from "../helpers/fixtures";
import { callWithEnv } from "../helpers/request";
import { callPublic, jsonSubmission, photo, RAW_CARD, rawPair } from "../helpers/submissions";
import { clearOfWindowEnd } from "../helpers/windows";

async function submission(gradingId: string) {
  const [row] = await db().select().from(submissions).where(eq(submissions.gradingId, gradingId));
  if (!row) throw new Error(`no submission ${gradingId}`);
  return row;
}

const submit = (key: string, body: unknown, overrides: Partial<Record<keyof Env, unknown>>, headers = {}) =>
  callWithEnv("/api/public/v1/gradings", overrides, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const HTTP_ENGINE = { GRADING_ENGINE: "http", GRADING_ENGINE_URL: "https://model.test/grade" };
const modelAnswer = HOSTED_MODEL_GRADE;

/** The hosted model, answering each call with the next response. */
function hostedModel(...answers: (() => Response)[]) {
  let calls = 0;
  vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
    const answer = answers[Math.min(calls, answers.length - 1)];
    calls++;
    if (!answer) throw new Error("no answer");
    return answer();
  });
  return { calls: () => calls };
}

afterEach(() => {
  vi.restoreAllMocks();
});

// Tests here fill or read hourly quota windows: keep each clear of the end of the hour.
beforeEach(() => clearOfWindowEnd(3600, 20), 30_000);

describe("POST /gradings: waiting and retrying", { timeout: 30_000 }, () => {
  it("answers 202 processing past SUBMISSION_WAIT_SECONDS and completes afterwards", async () => {
    const client = await createPublicClient();
    // A hosted model that takes longer than the submission waits.
    vi.spyOn(globalThis, "fetch").mockImplementation(
      () => new Promise((resolve) => setTimeout(() => resolve(Response.json(modelAnswer)), 400)),
    );
    const res = await submit(client.key, jsonSubmission(rawPair(), { external_ref: "slow-1" }), {
      ...HTTP_ENGINE,
      SUBMISSION_WAIT_SECONDS: "0.1",
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: "processing", external_ref: "slow-1", settled_at: null });
    expect(res.body.certificate).toBeUndefined();
    // callWithEnv waited for the work the Worker kept going after answering.
    const polled = await callPublic(`/gradings/${res.body.grading_id}`, client.key);
    expect(polled.status).toBe(200);
    expect(polled.body.status).toBe("complete");
    expect(polled.body.certificate.certificate_number).toMatch(/^\d{10}$/);
  });

  it("answers 202 when the engine fails transiently, and the grading queue completes it", async () => {
    const client = await createPublicClient();
    const model = hostedModel(() => new Response("busy", { status: 503 }));
    const res = await submit(client.key, jsonSubmission(rawPair()), HTTP_ENGINE);
    expect(res.status).toBe(202);
    expect(model.calls()).toBe(1);
    const id = res.body.grading_id;
    expect(await submission(id)).toMatchObject({ status: "processing", attempts: 1 });

    hostedModel(() => Response.json(modelAnswer));
    const batch = createMessageBatch("grading", [
      { id: "m1", timestamp: new Date(), attempts: 1, body: { grading_id: id } },
    ]);
    const ctx = (await import("cloudflare:test")).createExecutionContext();
    await consumeGradingBatch(batch, { ...env, ...HTTP_ENGINE } as Env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m1"]);
    const polled = await callPublic(`/gradings/${id}`, client.key);
    expect(polled.body).toMatchObject({ status: "complete", certificate: { grade: { overall: 9 } } });
    expect(polled.body.certificate.pipeline.engine).toBe("http@model.test");
  });

  it("retries with a growing delay, then rejects with grading_failed and refunds the unit", async () => {
    const client = await createPublicClient({ hourlyQuota: 10 });
    hostedModel(() => new Response("busy", { status: 503 }));
    const res = await submit(client.key, jsonSubmission(rawPair()), HTTP_ENGINE);
    expect(res.status).toBe(202);
    const id = res.body.grading_id;
    const ctx = (await import("cloudflare:test")).createExecutionContext();

    const early = createMessageBatch("grading", [
      { id: "a2", timestamp: new Date(), attempts: 2, body: { grading_id: id } },
    ]);
    await consumeGradingBatch(early, { ...env, ...HTTP_ENGINE } as Env);
    expect((await getQueueResult(early, ctx)).retryMessages).toEqual([{ msgId: "a2" }]);
    expect(await submission(id)).toMatchObject({ status: "processing", attempts: 2 });

    const last = createMessageBatch("grading", [
      { id: "a5", timestamp: new Date(), attempts: 5, body: { grading_id: id } },
    ]);
    await consumeGradingBatch(last, { ...env, ...HTTP_ENGINE } as Env);
    expect((await getQueueResult(last, ctx)).explicitAcks).toEqual(["a5"]);
    expect(await submission(id)).toMatchObject({ status: "rejected", reason: "grading_failed", attempts: 3 });
    const polled = await callPublic(`/gradings/${id}`, client.key);
    expect(polled.body).toMatchObject({ status: "rejected", reason: "grading_failed" });
    // 10 − the submission (refunded) − this poll = 9 left.
    expect(polled.headers.get("ratelimit")).toMatch(/r=9;/);
  });

  it("acks a message for a submission that already settled, without grading again", async () => {
    const client = await createPublicClient();
    const res = await callPublic("/gradings", client.key, { body: jsonSubmission(rawPair()) });
    expect(res.status).toBe(201);
    const model = hostedModel(() => Response.json(modelAnswer));
    const batch = createMessageBatch("grading", [
      { id: "dup", timestamp: new Date(), attempts: 1, body: { grading_id: res.body.grading_id } },
    ]);
    await consumeGradingBatch(batch, { ...env, ...HTTP_ENGINE } as Env);
    const ctx = (await import("cloudflare:test")).createExecutionContext();
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["dup"]);
    expect(model.calls()).toBe(0);
    expect((await submission(res.body.grading_id)).certificateNumber).toBe(res.body.certificate.certificate_number);
  });

  it("settles a dead-lettered submission as grading_failed", async () => {
    const client = await createPublicClient();
    hostedModel(() => new Response("busy", { status: 503 }));
    const res = await submit(client.key, jsonSubmission(rawPair()), HTTP_ENGINE);
    const batch = createMessageBatch("grading-dlq", [
      { id: "d1", timestamp: new Date(), attempts: 1, body: { grading_id: res.body.grading_id } },
    ]);
    vi.spyOn(console, "error").mockImplementation(() => {});
    await consumeGradingDeadLetters(batch, env);
    expect(await submission(res.body.grading_id)).toMatchObject({ status: "rejected", reason: "grading_failed" });
  });
});

describe("racing settlements", { timeout: 30_000 }, () => {
  it("a settlement that lost the race changes nothing: one certificate, the first result stands", async () => {
    const client = await createPublicClient();
    hostedModel(() => new Response("busy", { status: 503 }));
    const res = await submit(client.key, jsonSubmission(rawPair()), HTTP_ENGINE);
    expect(res.status).toBe(202);
    // Both settlers hold the same row, read while it was still processing.
    const stale = await submission(res.body.grading_id);
    const deps = settleDeps({ ...env, ...HTTP_ENGINE } as Env);
    hostedModel(() => Response.json(modelAnswer));
    const pair = rawPair();
    const images = {
      front: { bytes: pair.front, contentType: "image/jpeg" },
      back: { bytes: pair.back, contentType: "image/jpeg" },
    };
    const first = await gradeSubmission(deps, stale, images);
    const second = await gradeSubmission(deps, stale, images);
    if (first.status !== "complete" || second.status !== "complete") throw new Error("expected two completes");
    expect(second.certificate.number).toBe(first.certificate.number);
    const issued = await db().select().from(certificates).where(eq(certificates.gradingId, stale.gradingId));
    expect(issued.map((c) => c.number)).toEqual([first.certificate.number]);
    const late = await recordRejected(deps, stale, "grading_failed", "too late");
    expect(late.status).toBe("complete");
    expect(await submission(stale.gradingId)).toMatchObject({
      status: "complete",
      certificateNumber: first.certificate.number,
    });
  });

  it("a grade that arrives after the submission was rejected issues no certificate", async () => {
    const client = await createPublicClient();
    hostedModel(() => new Response("busy", { status: 503 }));
    const res = await submit(client.key, jsonSubmission(rawPair()), HTTP_ENGINE);
    const stale = await submission(res.body.grading_id);
    const deps = settleDeps({ ...env, ...HTTP_ENGINE } as Env);
    expect((await recordRejected(deps, stale, "grading_failed", "gave up")).status).toBe("rejected");
    hostedModel(() => Response.json(modelAnswer));
    const pair = rawPair();
    const late = await gradeSubmission(deps, stale, {
      front: { bytes: pair.front, contentType: "image/jpeg" },
      back: { bytes: pair.back, contentType: "image/jpeg" },
    });
    expect(late).toMatchObject({ status: "rejected", reason: "grading_failed" });
    expect(await db().select().from(certificates).where(eq(certificates.gradingId, stale.gradingId))).toEqual([]);
    expect(await env.IMAGES.head(`submissions/${stale.gradingId}/damage-report-front.png`)).toBeNull();
  });
});

describe("Idempotency-Key", { timeout: 30_000 }, () => {
  it("replays the first answer for the same key and body, and grades once", async () => {
    const client = await createPublicClient();
    const body = jsonSubmission(rawPair(), { external_ref: "idem-1" });
    const headers = { "idempotency-key": "order-1-try" };
    const first = await callPublic("/gradings", client.key, { body, headers });
    const second = await callPublic("/gradings", client.key, { body, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.grading_id).toBe(first.body.grading_id);
    expect(second.body.certificate.certificate_number).toBe(first.body.certificate.certificate_number);
    const rows = await db().select().from(submissions).where(eq(submissions.clientId, client.clientId));
    expect(rows).toHaveLength(1);
  });

  it("replays a rejection as the same 422", async () => {
    const client = await createPublicClient();
    const front = photo(RAW_CARD);
    const body = jsonSubmission({ front, back: front });
    const headers = { "idempotency-key": "dup-faces" };
    const first = await callPublic("/gradings", client.key, { body, headers });
    const second = await callPublic("/gradings", client.key, { body, headers });
    expect([first.status, second.status]).toEqual([422, 422]);
    expect(second.body).toMatchObject({ grading_id: first.body.grading_id, reason: "face_check_failed" });
  });

  it("answers 422 idempotency_key_reused for the same key with another body", async () => {
    const client = await createPublicClient();
    const headers = { "idempotency-key": "reused" };
    const first = await callPublic("/gradings", client.key, { body: jsonSubmission(rawPair()), headers });
    expect(first.status).toBe(201);
    const other = await callPublic("/gradings", client.key, {
      body: jsonSubmission(rawPair(), { external_ref: "different" }),
      headers,
    });
    expect(other.status).toBe(422);
    expect(other.body.error.code).toBe("idempotency_key_reused");
  });

  it("answers 409 idempotency_key_in_use while the first request with the key is running", async () => {
    const client = await createPublicClient();
    const body = jsonSubmission(rawPair());
    const headers = { "idempotency-key": "concurrent" };
    const results = await Promise.all([
      callPublic("/gradings", client.key, { body, headers }),
      callPublic("/gradings", client.key, { body, headers }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
    const conflict = results.find((r) => r.status === 409);
    expect(conflict?.body.error.code).toBe("idempotency_key_in_use");
    expect(conflict?.headers.get("retry-after")).toBe("2");
  });

  it("scopes keys to the client, and frees a key after 24 hours", async () => {
    const a = await createPublicClient();
    const b = await createPublicClient();
    const headers = { "idempotency-key": "shared-name" };
    const fromA = await callPublic("/gradings", a.key, { body: jsonSubmission(rawPair()), headers });
    const fromB = await callPublic("/gradings", b.key, { body: jsonSubmission(rawPair()), headers });
    expect([fromA.status, fromB.status]).toEqual([201, 201]);
    expect(fromB.body.grading_id).not.toBe(fromA.body.grading_id);

    await db()
      .update(submissions)
      .set({ createdAt: new Date(Date.now() - 25 * 3600 * 1000).toISOString() })
      .where(eq(submissions.gradingId, fromA.body.grading_id));
    const later = await callPublic("/gradings", a.key, {
      body: jsonSubmission(rawPair(), { external_ref: "new" }),
      headers,
    });
    expect(later.status).toBe(201);
    expect(later.body.grading_id).not.toBe(fromA.body.grading_id);
  });

  it("refuses a key longer than 255 characters with 400", async () => {
    const client = await createPublicClient();
    const res = await callPublic("/gradings", client.key, {
      body: jsonSubmission(rawPair()),
      headers: { "idempotency-key": "k".repeat(256) },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe("header.idempotency-key");
  });
});

describe("GET /gradings/{id} and GET /gradings?external_ref=", { timeout: 30_000 }, () => {
  it("finds this client's submissions by external_ref, newest first, and no one else's", async () => {
    const client = await createPublicClient();
    const other = await createPublicClient();
    const first = await callPublic("/gradings", client.key, {
      body: jsonSubmission(rawPair(), { external_ref: "ref-9" }),
    });
    const second = await callPublic("/gradings", client.key, {
      body: jsonSubmission({ front: photo(RAW_CARD), back: photo(RAW_CARD) }, { external_ref: "ref-9" }),
    });
    await callPublic("/gradings", other.key, { body: jsonSubmission(rawPair(), { external_ref: "ref-9" }) });
    const res = await callPublic("/gradings?external_ref=ref-9", client.key);
    expect(res.status).toBe(200);
    expect(res.body.gradings.map((g: { grading_id: string }) => g.grading_id)).toEqual([
      second.body.grading_id,
      first.body.grading_id,
    ]);
    expect(res.body.gradings.map((g: { status: string }) => g.status)).toEqual(["rejected", "complete"]);
    expect((await callPublic("/gradings?external_ref=nothing-here", client.key)).body).toEqual({ gradings: [] });
  });

  it("answers 400 without external_ref, and for a malformed id", async () => {
    const client = await createPublicClient();
    expect((await callPublic("/gradings", client.key)).status).toBe(400);
    const res = await callPublic("/gradings/not-a-uuid", client.key);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe("invalid_request");
  });

  it("answers 404 for another client's grading id and 401 without a live key", async () => {
    const owner = await createPublicClient();
    const stranger = await createPublicClient();
    const revoked = await createPublicClient({ revoked: true });
    const created = await callPublic("/gradings", owner.key, { body: jsonSubmission(rawPair()) });
    const id = created.body.grading_id;
    const res = await callPublic(`/gradings/${id}`, stranger.key);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe("not_found");
    expect((await callPublic(`/gradings/${crypto.randomUUID()}`, owner.key)).status).toBe(404);
    expect((await callPublic(`/gradings/${id}`, null)).body.error.code).toBe("missing_api_key");
    expect((await callPublic(`/gradings/${id}`, revoked.key)).body.error.code).toBe("key_revoked");
    expect((await callPublic("/gradings?external_ref=x", revoked.key)).status).toBe(401);
  });
});

describe("housekeeping (cron)", { timeout: 30_000 }, () => {
  it("frees day-old Idempotency-Keys, re-drives stuck submissions and gives up on day-old ones", async () => {
    const client = await createPublicClient();
    hostedModel(() => new Response("busy", { status: 503 }));
    const made = await Promise.all(
      ["fresh", "stuck", "ancient"].map(async (name) => {
        const res = await submit(client.key, jsonSubmission(rawPair(), { external_ref: name }), HTTP_ENGINE, {
          "idempotency-key": `hk-${name}`,
        });
        return res.body.grading_id as string;
      }),
    );
    const [fresh, stuck, ancient] = made as [string, string, string];
    const hoursAgo = (h: number) => new Date(Date.now() - h * 3600 * 1000).toISOString();
    await db()
      .update(submissions)
      .set({ createdAt: hoursAgo(2) })
      .where(eq(submissions.gradingId, stuck));
    await db()
      .update(submissions)
      .set({ createdAt: hoursAgo(25) })
      .where(eq(submissions.gradingId, ancient));

    const sent: unknown[] = [];
    const result = await runHousekeeping({
      ...env,
      GRADING: { send: async (body: unknown) => void sent.push(body) },
    } as unknown as Env);
    expect(result).toEqual({
      freedKeys: 1,
      redriven: 1,
      abandoned: 1,
      deliveriesQueued: 0,
      deliveriesPruned: 0,
      rejectedImagesDeleted: 0,
      backlogLeft: false,
    });
    expect(sent).toEqual([{ grading_id: stuck }]);
    expect(await submission(ancient)).toMatchObject({
      status: "rejected",
      reason: "grading_failed",
      idempotencyKey: null,
    });
    expect(await submission(fresh)).toMatchObject({ status: "processing", idempotencyKey: "hk-fresh" });
  });
});

// Keep the base64 helper honest: the server decodes what the tests encode.
describe("test helper", () => {
  it("encodes base64 the way atob reads it", () => {
    const bytes = new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]);
    expect(Uint8Array.from(atob(encodeBase64(bytes)), (c) => c.charCodeAt(0))).toEqual(bytes);
  });
});
