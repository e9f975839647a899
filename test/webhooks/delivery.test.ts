import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { webhookAttempts, webhookDeliveries } from "../../src/db/schema";
import { consumeWebhookBatch, consumeWebhookDeadLetters } from "../../src/webhooks/consumer";
import { verifyWebhookSignature } from "../../src/webhooks/signature";
import { createCatalogCard, createPartner, createPublicClient, createWebhookTarget, db } from "../helpers/factories";
import { capturingQueue } from "../helpers/queues";
import { callWithEnv } from "../helpers/request";
import { jsonSubmission, photo, RAW_CARD, rawPair } from "../helpers/submissions";

const SECRET = "whsec_delivery_test_secret";
const ADMIN = { authorization: "Bearer test-admin-token-0123456789", "content-type": "application/json" };

/** A receiver: answers each request with the next status (the last repeats) and keeps what it got. */
function receiver(...statuses: number[]) {
  const received: { url: string; headers: Headers; body: string }[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    received.push({ url: request.url, headers: request.headers, body: await request.text() });
    const status = statuses[Math.min(received.length - 1, statuses.length - 1)] ?? 200;
    return new Response(null, { status });
  }) as typeof fetch;
  return { received, fetcher };
}

async function submitWith(client: { key: string }, queue: unknown, body = jsonSubmission(rawPair())) {
  return callWithEnv(
    "/api/public/v1/gradings",
    { WEBHOOKS: queue },
    {
      method: "POST",
      headers: { "x-api-key": client.key, "content-type": "application/json" },
      body: JSON.stringify(body),
    },
  );
}

async function delivery(id: string) {
  const [row] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  if (!row) throw new Error(`no delivery ${id}`);
  return row;
}

async function consume(id: string, attempts: number, fetcher: typeof fetch) {
  const batch = createMessageBatch("webhooks", [
    { id: `m-${attempts}`, timestamp: new Date(), attempts, body: { delivery_id: id } },
  ]);
  await consumeWebhookBatch(batch, env, fetcher);
  return getQueueResult(batch, createExecutionContext());
}

describe("settling enqueues the deliveries it wrote", { timeout: 30_000 }, () => {
  it("a graded submission: one signed grading.completed for the client, one notification per success target", async () => {
    const partner = await createPartner();
    await createWebhookTarget(partner.userId, { outcome: "success", url: "https://partner.test/ok" });
    await createWebhookTarget(partner.userId, { outcome: "failure", url: "https://partner.test/failed" });
    const client = await createPublicClient({
      userId: partner.userId,
      webhook: { url: "https://client.test/hooks", secret: SECRET },
    });
    const pair = rawPair({ ...RAW_CARD, seed: 31 });
    const { referenceHash } = await import("../../src/grading/engine/reference");
    const { forgetCatalogReferences } = await import("../../src/grading/references");
    await createCatalogCard({ referenceHash: referenceHash(pair.front) });
    forgetCatalogReferences();
    const { sent, queue } = capturingQueue();
    const res = await submitWith(client, queue, jsonSubmission(pair, { external_ref: "hook-1" }));
    expect(res.status).toBe(201);
    const rows = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.gradingId, res.body.grading_id));
    expect(rows.map((r) => [r.kind, r.event, r.url]).sort()).toEqual([
      ["partner", "grading_session.success", "https://partner.test/ok"],
      ["public", "grading.completed", "https://client.test/hooks"],
    ]);
    expect(sent.map((m) => m.delivery_id).sort()).toEqual(rows.map((r) => r.id).sort());
    expect(rows.every((r) => r.status === "pending" && r.enqueuedAt !== null)).toBe(true);

    const publicRow = rows.find((r) => r.kind === "public");
    if (!publicRow) throw new Error("no public delivery");
    const hook = receiver(200);
    expect((await consume(publicRow.id, 1, hook.fetcher)).explicitAcks).toEqual(["m-1"]);
    const [request] = hook.received;
    if (!request) throw new Error("nothing delivered");
    expect(request.url).toBe("https://client.test/hooks");
    expect(request.headers.get("svc-event")).toBe("grading.completed");
    expect(request.headers.get("svc-delivery-id")).toBe(publicRow.id);
    expect(request.headers.get("svc-signature")).toMatch(/^sha256=[0-9a-f]{64}$/);
    const verified = await verifyWebhookSignature({
      secret: SECRET,
      timestamp: request.headers.get("svc-timestamp"),
      signature: request.headers.get("svc-signature"),
      body: request.body,
    });
    expect(verified).toEqual({ ok: true });
    const body = JSON.parse(request.body);
    expect(body).toMatchObject({
      event: "grading.completed",
      api_version: "v1",
      external_ref: "hook-1",
      sent_at: expect.any(String),
      data: {
        grading_id: res.body.grading_id,
        status: "complete",
        certificate: {
          certificate_number: res.body.certificate.certificate_number,
          grade: { overall: res.body.certificate.grade.overall },
        },
      },
    });
    expect(await delivery(publicRow.id)).toMatchObject({ status: "delivered", attempts: 1, lastStatus: 200 });

    const partnerRow = rows.find((r) => r.kind === "partner");
    if (!partnerRow) throw new Error("no partner delivery");
    const target = receiver(204);
    await consume(partnerRow.id, 1, target.fetcher);
    expect(JSON.parse(target.received[0]?.body ?? "{}")).toEqual({
      grading_session_id: res.body.grading_id,
      outcome: "success",
    });
    expect(target.received[0]?.headers.get("svc-signature")).toBeNull();
    expect(await delivery(partnerRow.id)).toMatchObject({ status: "delivered", lastStatus: 204 });
  });

  it("a rejected submission: grading.failed with the reason, and one notification to the failure target", async () => {
    const partner = await createPartner();
    await createWebhookTarget(partner.userId, { outcome: "failure", url: "https://partner.test/failed" });
    const client = await createPublicClient({
      userId: partner.userId,
      webhook: { url: "https://client.test/hooks", secret: SECRET },
    });
    const front = photo(RAW_CARD);
    const { queue } = capturingQueue();
    const res = await submitWith(client, queue, jsonSubmission({ front, back: front }));
    expect(res.status).toBe(422);
    const rows = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.gradingId, res.body.grading_id));
    expect(rows).toHaveLength(2);
    const partnerRow = rows.find((row) => row.kind === "partner");
    expect(partnerRow).toMatchObject({ event: "grading_session.failure", url: "https://partner.test/failed" });
    expect(partnerRow?.payload).toEqual({ grading_session_id: res.body.grading_id, outcome: "failure" });
    const publicRow = rows.find((row) => row.kind === "public");
    expect(publicRow).toMatchObject({ event: "grading.failed" });
    expect(publicRow?.payload).toEqual({
      event: "grading.failed",
      api_version: "v1",
      external_ref: null,
      data: { grading_id: res.body.grading_id, status: "rejected", reason: "face_check_failed" },
    });
  });

  it("a client without a webhook gets no delivery", async () => {
    const client = await createPublicClient();
    const { sent, queue } = capturingQueue();
    const res = await submitWith(client, queue);
    expect(res.status).toBe(201);
    expect(sent).toEqual([]);
  });
});

/** A public delivery written by a real settlement, not yet attempted. */
async function pendingDelivery(url = "https://client.test/hooks") {
  const client = await createPublicClient({ webhook: { url, secret: SECRET } });
  const { queue } = capturingQueue();
  const res = await submitWith(client, queue);
  const [row] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.gradingId, res.body.grading_id));
  if (!row) throw new Error("no delivery");
  return { row, client };
}

describe("the webhooks consumer", { timeout: 30_000 }, () => {
  it("retries a 500 after the schedule's delay and logs the attempt", async () => {
    const { row } = await pendingDelivery();
    const hook = receiver(500);
    const result = await consume(row.id, 1, hook.fetcher);
    expect(result.retryMessages).toEqual([{ msgId: "m-1" }]);
    const after = await delivery(row.id);
    expect(after).toMatchObject({ status: "pending", attempts: 1, lastStatus: 500, lastError: "HTTP 500" });
    const wait = Date.parse(after.nextAttemptAt ?? "") - Date.now();
    expect(wait).toBeGreaterThan(3_000);
    expect(wait).toBeLessThan(6_000);
    const attempts = await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id));
    expect(attempts).toMatchObject([{ attempt: 1, status: 500, error: "HTTP 500" }]);
  });

  it("keeps the delivery id across retries and signs each attempt with its own timestamp", async () => {
    const { row } = await pendingDelivery();
    const hook = receiver(500, 500, 200);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      for (const [i, at] of [0, 10_000, 400_000].entries()) {
        vi.setSystemTime(Date.parse("2026-11-22T10:00:00Z") + at);
        await consume(row.id, i + 1, hook.fetcher);
      }
    } finally {
      vi.useRealTimers();
    }
    expect(hook.received.map((r) => r.headers.get("svc-delivery-id"))).toEqual([row.id, row.id, row.id]);
    const stamps = hook.received.map((r) => Number(r.headers.get("svc-timestamp")));
    expect(new Set(stamps).size).toBe(3);
    for (const request of hook.received) {
      const timestamp = request.headers.get("svc-timestamp");
      const verified = await verifyWebhookSignature({
        secret: SECRET,
        timestamp,
        signature: request.headers.get("svc-signature"),
        body: request.body,
        now: Number(timestamp) * 1000,
      });
      expect(verified).toEqual({ ok: true });
    }
    expect(await delivery(row.id)).toMatchObject({ status: "delivered", attempts: 3, lastStatus: 200 });
  });

  it("stops at 410 Gone", async () => {
    const { row } = await pendingDelivery();
    const result = await consume(row.id, 1, receiver(410).fetcher);
    expect(result.explicitAcks).toEqual(["m-1"]);
    expect(await delivery(row.id)).toMatchObject({ status: "failed", lastStatus: 410 });
  });

  it("does not follow redirects and records timeouts and network errors", async () => {
    const { row } = await pendingDelivery();
    const redirect = (async () =>
      new Response(null, { status: 302, headers: { location: "https://elsewhere.test/" } })) as unknown as typeof fetch;
    await consume(row.id, 1, redirect);
    expect(await delivery(row.id)).toMatchObject({
      status: "pending",
      lastStatus: 302,
      lastError: "redirects are not followed",
    });
    const broken = (async () => {
      throw new TypeError("connection refused");
    }) as unknown as typeof fetch;
    await consume(row.id, 2, broken);
    expect(await delivery(row.id)).toMatchObject({
      status: "pending",
      lastStatus: null,
      lastError: "network error (connection refused)",
    });
  });

  it("ends failed in the dead-letter queue after the 8th attempt; a replay delivers it once the receiver recovers", async () => {
    const { row, client } = await pendingDelivery();
    const down = receiver(503);
    for (let attempt = 1; attempt <= 7; attempt++) {
      expect((await consume(row.id, attempt, down.fetcher)).retryMessages).toHaveLength(1);
    }
    // The 8th failure: marked failed, and retried once more so the queue moves it to webhooks-dlq.
    const last = await consume(row.id, 8, down.fetcher);
    expect(last.retryMessages).toEqual([{ msgId: "m-8" }]);
    expect(await delivery(row.id)).toMatchObject({
      status: "failed",
      attempts: 8,
      lastStatus: 503,
      nextAttemptAt: null,
    });
    const dead = createMessageBatch("webhooks-dlq", [
      { id: "d", timestamp: new Date(), attempts: 1, body: { delivery_id: row.id } },
    ]);
    vi.spyOn(console, "error").mockImplementation(() => {});
    await consumeWebhookDeadLetters(dead, env);
    vi.restoreAllMocks();
    expect((await getQueueResult(dead, createExecutionContext())).explicitAcks).toEqual(["d"]);

    const { sent, queue } = capturingQueue();
    const replay = await callWithEnv(
      `/admin/v1/clients/${client.clientId}/webhook-deliveries/replay`,
      { WEBHOOKS: queue },
      {
        method: "POST",
        headers: ADMIN,
        body: JSON.stringify({ since: new Date(Date.now() - 3600_000).toISOString() }),
      },
    );
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual({ replayed: 1 });
    expect(sent).toEqual([{ delivery_id: row.id }]);
    expect((await delivery(row.id)).status).toBe("pending");
    const up = receiver(200);
    await consume(row.id, 1, up.fetcher);
    expect(await delivery(row.id)).toMatchObject({ status: "delivered", attempts: 9, lastStatus: 200 });
    const log = await callWithEnv(`/admin/v1/webhook-deliveries/${row.id}`, {}, { headers: ADMIN });
    expect(log.body.attempts.map((a: { status: number }) => a.status)).toEqual([
      503, 503, 503, 503, 503, 503, 503, 503, 200,
    ]);
  });

  it("acks a message for a delivery that is no longer pending, without calling anyone", async () => {
    const { row } = await pendingDelivery();
    await consume(row.id, 1, receiver(200).fetcher);
    const again = receiver(200);
    expect((await consume(row.id, 1, again.fetcher)).explicitAcks).toEqual(["m-1"]);
    expect(again.received).toHaveLength(0);
  });
});

describe("housekeeping of deliveries", { timeout: 30_000 }, () => {
  it("queues deliveries a settlement wrote but never sent, and prunes settled ones after 30 days", async () => {
    const { runHousekeeping } = await import("../../src/grading/housekeeping");
    const { row } = await pendingDelivery();
    // As if the isolate had stopped between the batch and the queue.
    await db()
      .update(webhookDeliveries)
      .set({ enqueuedAt: null, createdAt: new Date(Date.now() - 120_000).toISOString() })
      .where(eq(webhookDeliveries.id, row.id));
    const sweep = capturingQueue();
    const first = await runHousekeeping({ ...env, WEBHOOKS: sweep.queue, GRADING: sweep.queue } as unknown as Env);
    expect(first.deliveriesQueued).toBeGreaterThanOrEqual(1);
    expect(sweep.sent).toContainEqual({ delivery_id: row.id });
    expect((await delivery(row.id)).enqueuedAt).not.toBeNull();

    await consume(row.id, 1, receiver(200).fetcher);
    await db()
      .update(webhookDeliveries)
      .set({ createdAt: new Date(Date.now() - 31 * 24 * 3600_000).toISOString() })
      .where(eq(webhookDeliveries.id, row.id));
    const second = await runHousekeeping({ ...env, WEBHOOKS: sweep.queue, GRADING: sweep.queue } as unknown as Env);
    expect(second.deliveriesPruned).toBeGreaterThanOrEqual(1);
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, row.id))).toEqual([]);
    expect(await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.id))).toEqual([]);
  });
});

describe("a batch's deliveries go out concurrently, fairly per target", () => {
  async function pendingDelivery(url: string): Promise<string> {
    const id = crypto.randomUUID();
    await db()
      .insert(webhookDeliveries)
      .values({
        id,
        kind: "partner",
        gradingId: crypto.randomUUID(),
        event: "grading_session.success",
        url,
        payload: { grading_session_id: id, outcome: "success" },
        status: "pending",
        createdAt: new Date().toISOString(),
      });
    return id;
  }

  it("a slow receiver holds at most two slots while a fast one's deliveries all go out", async () => {
    const slowIds = await Promise.all([1, 2, 3, 4].map((n) => pendingDelivery(`https://slow.test/hook/${n}`)));
    const fastIds = await Promise.all([1, 2, 3, 4].map((n) => pendingDelivery(`https://fast.test/hook/${n}`)));
    const events: string[] = [];
    const inFlight = { total: 0, slow: 0, maxTotal: 0, maxSlow: 0 };
    let releaseSlow: () => void = () => {};
    const fastDone = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    const fetcher = (async (input: RequestInfo | URL) => {
      const url = new URL(String(input));
      const slow = url.host === "slow.test";
      inFlight.total++;
      inFlight.maxTotal = Math.max(inFlight.maxTotal, inFlight.total);
      if (slow) {
        inFlight.slow++;
        inFlight.maxSlow = Math.max(inFlight.maxSlow, inFlight.slow);
        // The slow receiver answers only once every fast delivery was received (or, sent one after
        // another as before, after 3 s: then the order below shows the fast ones waited).
        await Promise.race([fastDone, new Promise((resolve) => setTimeout(resolve, 3000))]);
        inFlight.slow--;
      }
      inFlight.total--;
      events.push(`${url.host}${url.pathname}`);
      if (events.filter((e) => e.startsWith("fast.test")).length === 4) releaseSlow();
      return new Response(null, { status: 200 });
    }) as typeof fetch;
    // Slow messages first: with one-by-one sending they would hold the fast ones back.
    const ids = [...slowIds, ...fastIds];
    const batch = createMessageBatch(
      "webhooks",
      ids.map((id, i) => ({ id: `fair-${i}`, timestamp: new Date(), attempts: 1, body: { delivery_id: id } })),
    );
    await consumeWebhookBatch(batch, env, fetcher);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks.sort()).toEqual(ids.map((_, i) => `fair-${i}`).sort());
    // Every fast delivery was answered before the first slow one.
    expect(events.slice(0, 4)).toEqual(["/hook/1", "/hook/2", "/hook/3", "/hook/4"].map((p) => `fast.test${p}`));
    expect(inFlight.maxSlow).toBe(2);
    expect(inFlight.maxTotal).toBeLessThanOrEqual(6);
    for (const id of ids) expect((await delivery(id)).status).toBe("delivered");
  });
});
