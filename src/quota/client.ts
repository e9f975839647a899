import type { QuotaDecision } from "./key-quota";
import { consumeLeased } from "./lease";

export const HOURLY_WINDOW_SECONDS = 3600;

/**
 * Counts one request against the hourly quota of `quotaKey` (e.g. `partner:42`), through this
 * isolate's lease of the key's units (lease.ts): a busy key calls its Durable Object about once a
 * second per isolate instead of on every request.
 */
export async function consumeQuota(
  namespace: DurableObjectNamespace<import("./key-quota").KeyQuota>,
  quotaKey: string,
  limit: number,
): Promise<QuotaDecision> {
  return consumeLeased(namespace, quotaKey, limit, HOURLY_WINDOW_SECONDS);
}

/** The quota key of a public API key (by its row id). */
export function publicQuotaKey(apiKeyId: number): string {
  return `public:${apiKeyId}`;
}

/** Gives back the unit a request counted in `windowStart` (rejected submissions are not billed). */
export async function refundQuota(
  namespace: DurableObjectNamespace<import("./key-quota").KeyQuota>,
  quotaKey: string,
  windowStart: number,
): Promise<void> {
  await namespace.get(namespace.idFromName(quotaKey)).refund(windowStart);
}

/** The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, structured form). */
export function quotaHeaderValues(decision: QuotaDecision): Record<string, string> {
  return {
    "RateLimit-Policy": `"hourly";q=${decision.limit};w=${HOURLY_WINDOW_SECONDS}`,
    RateLimit: `"hourly";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
}
