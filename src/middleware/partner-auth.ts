import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { sha256Hex } from "../auth/api-keys";
import { bearerChallenge, parseBearer } from "../auth/bearer";
import { KeyCache } from "../auth/key-cache";
import type { Database } from "../db/client";
import { dashboardAccounts, partnerApiKeys } from "../db/schema";
import type { AppEnv, PartnerPrincipal } from "../env";
import { logEvent } from "../errors/log";

/** `last_used_at` is written at most this often per key (docs/decisions.md §4). */
const LAST_USED_INTERVAL_MS = 60_000;
/** Bounds the last-use stamps kept per isolate. */
const MAX_LAST_USED = 10_000;

// Keyed by the key's hash, never by the key.
const verifiedKeys = new KeyCache<PartnerPrincipal>();
const lastUsedWrites = new Map<number, number>();

async function lookupKey(db: Database, keyHash: string) {
  const rows = await db
    .select({
      keyId: partnerApiKeys.id,
      keyName: partnerApiKeys.name,
      keyStart: partnerApiKeys.start,
      keyCreatedAt: partnerApiKeys.createdAt,
      keyLastUsedAt: partnerApiKeys.lastUsedAt,
      revokedAt: partnerApiKeys.revokedAt,
      accountId: dashboardAccounts.id,
      accountEmail: dashboardAccounts.email,
      accountRole: dashboardAccounts.role,
      accountCreatedAt: dashboardAccounts.createdAt,
      userId: dashboardAccounts.userId,
    })
    .from(partnerApiKeys)
    .innerJoin(dashboardAccounts, eq(dashboardAccounts.id, partnerApiKeys.accountId))
    .where(eq(partnerApiKeys.keyHash, keyHash))
    .limit(1);
  return rows[0];
}

export const partnerAuth = createMiddleware<AppEnv>(async (c, next) => {
  const token = parseBearer(c.req.header("authorization"));
  const keyHash = await sha256Hex(token);
  const now = Date.now();
  const ttlMs = c.var.config.KEY_CACHE_TTL_SECONDS * 1000;

  const principal = await verifiedKeys.get(keyHash, ttlMs, now, async () => {
    const row = await lookupKey(c.var.db, keyHash);
    if (!row || row.revokedAt !== null || row.accountRole !== "partner" || row.userId === null) {
      throw bearerChallenge("invalid_token", "The API key is unknown, revoked, or not a partner key.");
    }
    return {
      keyId: row.keyId,
      keyName: row.keyName,
      keyStart: row.keyStart,
      keyCreatedAt: row.keyCreatedAt,
      keyLastUsedAt: row.keyLastUsedAt,
      accountId: row.accountId,
      accountEmail: row.accountEmail,
      accountRole: "partner",
      accountCreatedAt: row.accountCreatedAt,
      userId: row.userId,
    };
  });
  c.set("partner", principal);

  await next();

  if (c.res.status < 400) recordKeyUse(c.env.DB, c.executionCtx, principal.keyId, now);
});

/** Writes `last_used_at` after the response, at most once a minute per key (across isolates too). */
function recordKeyUse(
  d1: D1Database,
  ctx: { waitUntil(promise: Promise<unknown>): void },
  keyId: number,
  now: number,
): void {
  const last = lastUsedWrites.get(keyId);
  if (last !== undefined && now - last < LAST_USED_INTERVAL_MS) return;
  lastUsedWrites.set(keyId, now);
  if (lastUsedWrites.size > MAX_LAST_USED) lastUsedWrites.clear();
  const nowIso = new Date(now).toISOString();
  const threshold = new Date(now - LAST_USED_INTERVAL_MS).toISOString();
  ctx.waitUntil(
    d1
      .prepare(
        "UPDATE partner_api_keys SET last_used_at = ?1 WHERE id = ?2 AND (last_used_at IS NULL OR last_used_at < ?3)",
      )
      .bind(nowIso, keyId, threshold)
      .run()
      .catch((error: unknown) => {
        logEvent("error", { step: "last_used_at update" }, error);
      }),
  );
}
