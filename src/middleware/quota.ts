import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { consumeQuota, publicQuotaKey, quotaHeaderValues } from "../quota/client";

/** Counts the request against the partner key's hourly quota; headers go on every response. */
export const partnerQuota = createMiddleware<AppEnv>(async (c, next) => {
  await enforceQuota(c, `partner:${c.var.partner.keyId}`, c.var.config.PARTNER_HOURLY_QUOTA);
  await next();
});

/** The same for a public API key; the limit is its client's `hourly_quota` (120 by default). */
export const publicQuota = createMiddleware<AppEnv>(async (c, next) => {
  await enforceQuota(c, publicQuotaKey(c.var.client.apiKeyId), c.var.client.hourlyQuota);
  await next();
});

async function enforceQuota(c: Context<AppEnv>, quotaKey: string, limit: number): Promise<void> {
  const decision = await consumeQuota(c.env.QUOTA, quotaKey, limit);
  c.set("quota", { key: quotaKey, windowStart: decision.windowStart });
  for (const [name, value] of Object.entries(quotaHeaderValues(decision))) c.header(name, value);
  if (!decision.allowed) {
    throw new ApiError(
      "rate_limited",
      `Hourly quota of ${decision.limit} requests used up; retry in ${decision.resetSeconds} s.`,
      {
        headers: { "Retry-After": String(decision.resetSeconds) },
      },
    );
  }
}
