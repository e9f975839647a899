import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { and, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { submissions, webhookAttempts, webhookDeliveries } from "../../src/db/schema";
import { peakCodecMemoryBytes, resetCodecMemoryPeak } from "../../src/grading/engine/decode";
import { type HousekeepingResult, runHousekeeping } from "../../src/grading/housekeeping";
import { consumeGradingBatch } from "../../src/grading/queue";
import { jpegClaiming, pngClaiming } from "../helpers/crafted-headers";
import { createPublicClient, db } from "../helpers/factories";
import { capturingQueue } from "../helpers/queues";

const DAY = 24 * 3600 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** `count` rows made by one INSERT … SELECT over a generated series (no bound parameter per row). */
async function seedSubmissions(
  count: number,
  options: { clientId: number; apiKeyId: number; status: string; key: boolean; createdAt: string; tag: string },
) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO submissions (grading_id, client_id, api_key_id, status, front_image_key, back_image_key,
       request_origin, idempotency_key, created_at)
     SELECT ?2 || '-' || i, ?3, ?4, ?5, 'submissions/' || ?2 || '-' || i || '/front.jpg',
       'submissions/' || ?2 || '-' || i || '/back.jpg', 'https://api.test',
       CASE WHEN ?6 THEN 'key-' || ?2 || '-' || i END, ?7
     FROM n`,
  )
    .bind(
      count,
      options.tag,
      options.clientId,
      options.apiKeyId,
      options.status,
      options.key ? 1 : 0,
      options.createdAt,
    )
    .run();
}

async function seedDeliveries(count: number, createdAt: string) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO webhook_deliveries (id, kind, grading_id, event, url, payload, status, attempts, enqueued_at,
       created_at)
     SELECT 'old-' || i, 'partner', 'g-' || i, 'grading_session.success', 'https://partner.test/hook', '{}',
       'delivered', 1, ?2, ?2
     FROM n`,
  )
    .bind(count, createdAt)
    .run();
  await env.DB.prepare(
    `INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status, latency_ms)
     SELECT id, 1, created_at, 200, 12 FROM webhook_deliveries WHERE id LIKE 'old-%'`,
  ).run();
}

const count = async (query: Promise<{ count: number }[]>) => (await query)[0]?.count ?? -1;

describe("housekeeping drains a large backlog across runs", { timeout: 120_000 }, () => {
  it("frees 6000 keys, prunes 4000 deliveries with their attempts and deletes 300 rejections' photos, a bounded share per run", async () => {
    const client = await createPublicClient();
    const owner = { clientId: client.clientId, apiKeyId: client.apiKeyId };
    await seedSubmissions(6000, { ...owner, status: "complete", key: true, createdAt: ago(2 * DAY), tag: "keyed" });
    await seedSubmissions(300, { ...owner, status: "rejected", key: false, createdAt: ago(8 * DAY), tag: "rej-old" });
    await seedSubmissions(1, { ...owner, status: "rejected", key: false, createdAt: ago(DAY), tag: "rej-new" });
    await seedSubmissions(1, { ...owner, status: "complete", key: false, createdAt: ago(8 * DAY), tag: "cert-old" });
    await seedDeliveries(4000, ago(40 * DAY));
    const photos = ["rej-old-1", "rej-old-300", "rej-new-1", "cert-old-1"].map((id) => `submissions/${id}/front.jpg`);
    for (const key of photos) await env.IMAGES.put(key, new Uint8Array([1, 2, 3]));

    // 15 statements a run: five per backlog (500 keys a statement; 90 rejections or 500 deliveries per two).
    const budget = { maxMs: 60_000, maxStatements: 15 };
    const runs: HousekeepingResult[] = [];
    do {
      runs.push(await runHousekeeping(env, Date.now(), budget));
    } while (runs.at(-1)?.backlogLeft && runs.length < 10);

    expect(runs[0]).toMatchObject({
      freedKeys: 2500,
      rejectedImagesDeleted: 180,
      deliveriesPruned: 1000,
      backlogLeft: true,
    });
    expect(runs.map((run) => run.freedKeys)).toEqual([2500, 2500, 1000, 0, 0]);
    expect(runs.map((run) => run.rejectedImagesDeleted)).toEqual([180, 120, 0, 0, 0]);
    expect(runs.map((run) => run.deliveriesPruned)).toEqual([1000, 1000, 1000, 1000, 0]);
    expect(runs.at(-1)?.backlogLeft).toBe(false);

    const c = sql<number>`count(*)`;
    expect(
      await count(
        db()
          .select({ count: c })
          .from(submissions)
          .where(and(isNotNull(submissions.idempotencyKey), lt(submissions.createdAt, ago(DAY)))),
      ),
    ).toBe(0);
    expect(await count(db().select({ count: c }).from(webhookDeliveries))).toBe(0);
    expect(await count(db().select({ count: c }).from(webhookAttempts))).toBe(0);
    expect(
      await count(
        db()
          .select({ count: c })
          .from(submissions)
          .where(and(eq(submissions.status, "rejected"), isNotNull(submissions.imagesDeletedAt))),
      ),
    ).toBe(300);
    // The recent rejection and the certificate's submission keep their photos.
    const [recent] = await db().select().from(submissions).where(eq(submissions.gradingId, "rej-new-1"));
    expect(recent?.imagesDeletedAt).toBeNull();
    expect(await env.IMAGES.head(photos[0] ?? "")).toBeNull();
    expect(await env.IMAGES.head(photos[1] ?? "")).toBeNull();
    expect(await env.IMAGES.head(photos[2] ?? "")).not.toBeNull();
    expect(await env.IMAGES.head(photos[3] ?? "")).not.toBeNull();
    expect(
      await count(
        db()
          .select({ count: c })
          .from(submissions)
          .where(and(eq(submissions.status, "complete"), isNull(submissions.imagesDeletedAt))),
      ),
    ).toBe(6001);
  });

  it("queues 150 deliveries a settlement never sent: 100 a run (ids bound in chunks under D1's limit)", async () => {
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)
       INSERT INTO webhook_deliveries (id, kind, grading_id, event, url, payload, status, created_at)
       SELECT 'unsent-' || i, 'partner', 'u-' || i, 'grading_session.success', 'https://partner.test/hook', '{}',
         'pending', ?1
       FROM n`,
    )
      .bind(ago(5 * 60_000))
      .run();
    const { sent, queue } = capturingQueue();
    const withQueue = { ...env, WEBHOOKS: queue } as unknown as Env;
    expect((await runHousekeeping(withQueue)).deliveriesQueued).toBe(100);
    expect((await runHousekeeping(withQueue)).deliveriesQueued).toBe(50);
    expect(new Set(sent.map((m) => m.delivery_id)).size).toBe(150);
    const c = sql<number>`count(*)`;
    expect(
      await count(db().select({ count: c }).from(webhookDeliveries).where(isNull(webhookDeliveries.enqueuedAt))),
    ).toBe(0);
  });
});

describe("a re-driven submission goes through the same decode budget", { timeout: 60_000 }, () => {
  it("rejects stored photos over the budget naming the limit, without running a codec", async () => {
    const client = await createPublicClient();
    const gradingId = crypto.randomUUID();
    const keys = { front: `submissions/${gradingId}/front.jpg`, back: `submissions/${gradingId}/back.png` };
    await env.IMAGES.put(keys.front, jpegClaiming(65000, 65000));
    await env.IMAGES.put(keys.back, pngClaiming(2500, 2000, { bitDepth: 16 }));
    await db()
      .insert(submissions)
      .values({
        gradingId,
        clientId: client.clientId,
        apiKeyId: client.apiKeyId,
        status: "processing",
        frontImageKey: keys.front,
        backImageKey: keys.back,
        requestOrigin: "https://api.test",
        createdAt: ago(2 * 3600 * 1000),
      });
    // Housekeeping re-drives the stuck submission; the grading queue's consumer then grades it.
    const sent: { grading_id: string }[] = [];
    const grading = { send: async (body: { grading_id: string }) => void sent.push(body) };
    const run = await runHousekeeping({ ...env, GRADING: grading } as unknown as Env);
    expect(run.redriven).toBe(1);
    expect(sent).toEqual([{ grading_id: gradingId }]);
    resetCodecMemoryPeak();
    const batch = createMessageBatch("grading", [{ id: "bomb", timestamp: new Date(), attempts: 1, body: sent[0] }]);
    await consumeGradingBatch(batch, env);
    expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toEqual(["bomb"]);
    const [row] = await db().select().from(submissions).where(eq(submissions.gradingId, gradingId));
    expect(row).toMatchObject({ status: "rejected", reason: "grading_failed" });
    expect(row?.message).toContain("the JPEG is 65000 × 65000 pixels (4225 MP); the limit is 64 MP");
    expect(peakCodecMemoryBytes()).toBe(0);
  });
});
