import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { consumeQuota, quotaHeaderValues } from "../quota/client";

/** Counts the request against the partner key's hourly quota; headers go on every response. */
export const partnerQuota = createMiddleware<AppEnv>(async (c, next) => {
  const decision = await consumeQuota(c.env.QUOTA, `partner:${c.var.partner.keyId}`, c.var.config.PARTNER_HOURLY_QUOTA);
  const headers = quotaHeaderValues(decision);
  for (const [name, value] of Object.entries(headers)) c.header(name, value);
  if (!decision.allowed) {
    throw new ApiError(
      "rate_limited",
      `Hourly quota of ${decision.limit} requests used up; retry in ${decision.resetSeconds} s.`,
      {
        headers: { "Retry-After": String(decision.resetSeconds) },
      },
    );
  }
  await next();
});
