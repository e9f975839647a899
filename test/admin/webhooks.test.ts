import { createMessageBatch } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { apiClients, webhookDeliveries } from "../../src/db/schema";
import { loadConfig } from "../../src/env";
import { consumeWebhookBatch, signingSecrets } from "../../src/webhooks/consumer";
import { decryptSecret } from "../../src/webhooks/secret-box";
import { signatureHeader, verifyWebhookSignature } from "../../src/webhooks/signature";
import { createCatalogCard, createPartner, createPublicClient, createWebhookTarget, db } from "../helpers/factories";
import { capturingQueue } from "../helpers/queues";
import { call, callWithEnv } from "../helpers/request";
import { jsonSubmission, rawPair } from "../helpers/submissions";

const TOKEN = "test-admin-token-0123456789";

async function admin(
  method: string,
  path: string,
  body?: unknown,
  overrides: Record<string, unknown> = {},
  token = TOKEN,
) {
  return callWithEnv(`/admin/v1${path}`, overrides, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

describe("client webhook URL and signing secret", { timeout: 30_000 }, () => {
  it("sets a URL and issues a secret once; the secret is stored encrypted", async () => {
    const client = await createPublicClient();
    const res = await admin("PUT", `/clients/${client.clientId}/webhook`, { url: "https://client.test/hooks" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ client_id: client.clientId, webhook_url: "https://client.test/hooks" });
    expect(res.body.signing_secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const [row] = await db().select().from(apiClients).where(eq(apiClients.id, client.clientId));
    expect(row?.webhookSecretEncrypted).not.toContain(res.body.signing_secret.slice(6));
    expect(await decryptSecret(env.SECRETS_KEY, row?.webhookSecretEncrypted ?? "")).toBe(res.body.signing_secret);

    const changed = await admin("PUT", `/clients/${client.clientId}/webhook`, { url: "https://client.test/v2" });
    expect(changed.body).toMatchObject({ webhook_url: "https://client.test/v2", signing_secret: null });
    const removed = await admin("PUT", `/clients/${client.clientId}/webhook`, { url: null });
    expect(removed.body.webhook_url).toBeNull();
  });

  it("refuses a private, plain-http or malformed URL with 400, and an unknown client with 404", async () => {
    const client = await createPublicClient();
    for (const url of ["https://10.0.0.1/hook", "http://client.test/hook", "not a url", "https://localhost/x"]) {
      const res = await admin("PUT", `/clients/${client.clientId}/webhook`, { url });
      expect(res.status).toBe(400);
      expect(res.body.error.details[0].path).toBe("json.url");
    }
    expect((await admin("PUT", "/clients/999999/webhook", { url: "https://client.test/x" })).status).toBe(404);
    expect(
      (
        await admin(
          "PUT",
          `/clients/${client.clientId}/webhook`,
          { url: "https://x.test" },
          {},
          "wrong-token-0123456789",
        )
      ).status,
    ).toBe(401);
  });

  it("rotates the secret: for 24 h deliveries carry signatures under both, each verifiable", async () => {
    const client = await createPublicClient();
    const first = await admin("PUT", `/clients/${client.clientId}/webhook`, { url: "https://client.test/hooks" });
    const rotated = await admin("POST", `/clients/${client.clientId}/webhook-secret/rotate`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.signing_secret).not.toBe(first.body.signing_secret);
    const graceEnds = Date.parse(rotated.body.previous_secret_valid_until) - Date.now();
    expect(graceEnds).toBeGreaterThan(23.9 * 3600_000);
    expect(graceEnds).toBeLessThanOrEqual(24 * 3600_000);

    const { queue } = capturingQueue();
    const res = await callWithEnv(
      "/api/public/v1/gradings",
      { WEBHOOKS: queue },
      {
        method: "POST",
        headers: { "x-api-key": client.key, "content-type": "application/json" },
        body: JSON.stringify(jsonSubmission(rawPair())),
      },
    );
    const [row] = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.gradingId, res.body.grading_id));
    let request: Request | undefined;
    const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
      request = new Request(input, init);
      return new Response(null, { status: 200 });
    }) as typeof fetch;
    const batch = createMessageBatch("webhooks", [
      { id: "r", timestamp: new Date(), attempts: 1, body: { delivery_id: row?.id } },
    ]);
    await consumeWebhookBatch(batch, env, fetcher);
    if (!request) throw new Error("nothing delivered");
    const signature = request.headers.get("svc-signature");
    expect(signature?.split(" ")).toHaveLength(2);
    const body = await request.text();
    for (const secret of [rotated.body.signing_secret, first.body.signing_secret]) {
      expect(
        await verifyWebhookSignature({ secret, timestamp: request.headers.get("svc-timestamp"), signature, body }),
      ).toEqual({ ok: true });
    }
  });
});

describe("rotating twice within 24 h", () => {
  it("keeps signing with every secret still in its grace period, each until its own 24 h end", async () => {
    const client = await createPublicClient();
    const first = await admin("PUT", `/clients/${client.clientId}/webhook`, { url: "https://client.test/hooks" });
    const second = await admin("POST", `/clients/${client.clientId}/webhook-secret/rotate`);
    const third = await admin("POST", `/clients/${client.clientId}/webhook-secret/rotate`);
    expect(third.status).toBe(200);
    const secrets = [third, second, first].map((res) => res.body.signing_secret as string);
    expect(new Set(secrets).size).toBe(3);

    const config = loadConfig(env);
    const live = await signingSecrets(db(), config, client.clientId);
    expect(live).toEqual(secrets);
    // The first secret was retired by the first rotation, so it leaves first; the second stays a while.
    const firstEnds = Date.parse(second.body.previous_secret_valid_until);
    const secondEnds = Date.parse(third.body.previous_secret_valid_until);
    expect(secondEnds).toBeGreaterThanOrEqual(firstEnds);
    expect(await signingSecrets(db(), config, client.clientId, firstEnds + 1)).toEqual(
      secondEnds > firstEnds + 1 ? [secrets[0], secrets[1]] : [secrets[0]],
    );
    expect(await signingSecrets(db(), config, client.clientId, secondEnds + 1)).toEqual([secrets[0]]);

    // A delivery signed now verifies under each of the three.
    const timestamp = String(Math.floor(Date.now() / 1000));
    const body = '{"event":"grading.completed"}';
    const signature = await signatureHeader(live, Number(timestamp), body);
    expect(signature.split(" ")).toHaveLength(3);
    for (const secret of secrets) {
      expect(await verifyWebhookSignature({ secret, timestamp, signature, body })).toEqual({ ok: true });
    }
  });

  it("keeps at most five retired secrets, dropping the oldest", async () => {
    const client = await createPublicClient();
    const first = await admin("PUT", `/clients/${client.clientId}/webhook`, { url: "https://client.test/hooks" });
    const issued = [first.body.signing_secret as string];
    for (let i = 0; i < 6; i++) {
      issued.push((await admin("POST", `/clients/${client.clientId}/webhook-secret/rotate`)).body.signing_secret);
    }
    const live = await signingSecrets(db(), loadConfig(env), client.clientId);
    expect(live).toEqual(issued.slice(1).reverse());
    expect(live).not.toContain(issued[0]);
  });
});

describe("delivery log", () => {
  it("lists deliveries with filters, shows one with its attempts, and replays one", async () => {
    const client = await createPublicClient({ webhook: { url: "https://client.test/hooks", secret: "whsec_x" } });
    const other = await createPublicClient({ webhook: { url: "https://other.test/hooks", secret: "whsec_y" } });
    const { sent, queue } = capturingQueue();
    const submit = (key: string) =>
      callWithEnv(
        "/api/public/v1/gradings",
        { WEBHOOKS: queue },
        {
          method: "POST",
          headers: { "x-api-key": key, "content-type": "application/json" },
          body: JSON.stringify(jsonSubmission(rawPair())),
        },
      );
    const mine = await submit(client.key);
    await submit(other.key);

    const list = await admin(
      "GET",
      `/webhook-deliveries?client_id=${client.clientId}&status=pending&event=grading.completed`,
    );
    expect(list.status).toBe(200);
    expect(list.body.deliveries).toHaveLength(1);
    expect(list.body.deliveries[0]).toMatchObject({
      kind: "public",
      client_id: client.clientId,
      grading_id: mine.body.grading_id,
      status: "pending",
      attempts: 0,
    });
    const id = list.body.deliveries[0].id;
    expect(
      (await admin("GET", `/webhook-deliveries?client_id=${client.clientId}&status=failed`)).body.deliveries,
    ).toEqual([]);
    expect(
      (
        await admin(
          "GET",
          `/webhook-deliveries?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
        )
      ).body.deliveries,
    ).toEqual([]);
    expect((await admin("GET", "/webhook-deliveries?status=lost")).status).toBe(400);

    const detail = await admin("GET", `/webhook-deliveries/${id}`);
    expect(detail.body).toMatchObject({ delivery: { id }, attempts: [] });
    expect((await admin("GET", `/webhook-deliveries/${crypto.randomUUID()}`)).status).toBe(404);

    sent.length = 0;
    const replay = await admin("POST", `/webhook-deliveries/${id}/replay`, undefined, { WEBHOOKS: queue });
    expect(replay.status).toBe(202);
    expect(sent).toEqual([{ delivery_id: id }]);
    expect((await admin("POST", `/webhook-deliveries/${crypto.randomUUID()}/replay`)).status).toBe(404);
    expect((await call("/admin/v1/webhook-deliveries")).status).toBe(401);
  });
});

describe("POST /admin/v1/grading-sessions", () => {
  it("ingests a successful grading: the partner API serves it and only success targets are told", async () => {
    const partner = await createPartner();
    const success = await createWebhookTarget(partner.userId, { outcome: "success", url: "https://partner.test/ok" });
    await createWebhookTarget(partner.userId, { outcome: "failure", url: "https://partner.test/failed" });
    const card = await createCatalogCard();
    const { sent, queue } = capturingQueue();
    const res = await admin(
      "POST",
      "/grading-sessions",
      {
        user_id: partner.userId,
        card_id: card.id,
        outcome: "success",
        grades: { overall: 9, centering: 9.5, corners: 9, edges: 9, surface: 8.5 },
        model_grade: { model_version: "external-2" },
      },
      { WEBHOOKS: queue },
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ outcome: "success", notifications: 1 });
    const id = res.body.grading_session_id;
    const rows = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.gradingId, id));
    expect(rows).toMatchObject([{ kind: "partner", targetId: success.id, event: "grading_session.success" }]);
    expect(rows[0]?.payload).toEqual({ grading_session_id: id, outcome: "success" });
    expect(sent).toEqual([{ delivery_id: rows[0]?.id }]);
    const grading = await call(`/v1/gradings/${id}`, { key: partner.key });
    expect(grading.status).toBe(200);
    expect(grading.body.user_card_grade).toMatchObject({ full_overall_grade: 9 });
    const cardView = await call(`/v1/cards/${res.body.user_card_id}`, { key: partner.key });
    expect(cardView.body.user_card.grade).toBe("9");
  });

  it("ingests a failure for failure targets only, and refuses inconsistent or unknown input", async () => {
    const partner = await createPartner();
    await createWebhookTarget(partner.userId, { outcome: "success", url: "https://partner.test/ok" });
    const failure = await createWebhookTarget(partner.userId, {
      outcome: "failure",
      url: "https://partner.test/failed",
    });
    const card = await createCatalogCard();
    const { queue } = capturingQueue();
    const res = await admin(
      "POST",
      "/grading-sessions",
      { user_id: partner.userId, card_id: card.id, outcome: "failure" },
      { WEBHOOKS: queue },
    );
    expect(res.status).toBe(201);
    const rows = await db()
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.gradingId, res.body.grading_session_id));
    expect(rows.map((r) => r.targetId)).toEqual([failure.id]);

    const withGrades = await admin("POST", "/grading-sessions", {
      user_id: partner.userId,
      card_id: card.id,
      outcome: "failure",
      grades: { overall: 9, centering: 9, corners: 9, edges: 9, surface: 9 },
    });
    expect(withGrades.status).toBe(400);
    expect(withGrades.body.error.details[0].path).toBe("json.grades");
    expect(
      (await admin("POST", "/grading-sessions", { user_id: 999999, card_id: card.id, outcome: "failure" })).status,
    ).toBe(404);
    expect(
      (await admin("POST", "/grading-sessions", { user_id: partner.userId, card_id: 999999, outcome: "failure" }))
        .status,
    ).toBe(404);
    const badImage = await admin("POST", "/grading-sessions", {
      user_id: partner.userId,
      card_id: card.id,
      outcome: "failure",
      images: { front: { base64: btoa("not an image") } },
    });
    expect(badImage.status).toBe(400);
  });
});
