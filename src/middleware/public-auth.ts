import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { publicKeyId, sha256Hex, timingSafeEqualStrings } from "../auth/api-keys";
import { KeyCache } from "../auth/key-cache";
import { apiClients, apiKeys } from "../db/schema";
import type { AppEnv, PublicPrincipal } from "../env";
import { ApiError } from "../errors/api-error";

interface VerifiedKey {
  keyHash: string;
  revoked: boolean;
  principal: PublicPrincipal;
}

// Key rows by key id; the hash is still compared on every request.
const keysById = new KeyCache<VerifiedKey>();

/**
 * `x-api-key: svck_<id>_<secret>`: looked up by the id segment, the SHA-256 of the whole key
 * compared in constant time. No key → 401 missing_api_key; malformed or unknown → invalid_api_key;
 * revoked → key_revoked.
 */
export const publicAuth = createMiddleware<AppEnv>(async (c, next) => {
  const key = c.req.header("x-api-key")?.trim();
  if (!key) throw new ApiError("missing_api_key", "Send your API key in the x-api-key header.");
  const keyId = publicKeyId(key);
  if (!keyId) throw new ApiError("invalid_api_key", "The API key is not valid.");
  const now = Date.now();
  const entry = await keysById.get(keyId, c.var.config.KEY_CACHE_TTL_SECONDS * 1000, now, async () => {
    const [row] = await c.var.db
      .select({
        apiKeyId: apiKeys.id,
        keyHash: apiKeys.keyHash,
        revokedAt: apiKeys.revokedAt,
        clientId: apiClients.id,
        clientName: apiClients.name,
        userId: apiClients.userId,
        hourlyQuota: apiClients.hourlyQuota,
      })
      .from(apiKeys)
      .innerJoin(apiClients, eq(apiClients.id, apiKeys.clientId))
      .where(eq(apiKeys.keyId, keyId))
      .limit(1);
    if (!row) throw new ApiError("invalid_api_key", "The API key is not valid.");
    return {
      keyHash: row.keyHash,
      revoked: row.revokedAt !== null,
      principal: {
        apiKeyId: row.apiKeyId,
        clientId: row.clientId,
        clientName: row.clientName,
        userId: row.userId,
        hourlyQuota: row.hourlyQuota,
      },
    };
  });
  if (!timingSafeEqualStrings(await sha256Hex(key), entry.keyHash)) {
    throw new ApiError("invalid_api_key", "The API key is not valid.");
  }
  if (entry.revoked) throw new ApiError("key_revoked", "This API key has been revoked.");
  c.set("client", entry.principal);
  await next();
});
