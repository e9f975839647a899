import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../env";
import { ApiError } from "../errors/api-error";
import { errorBody } from "../errors/handler";

// Throttles unauthenticated abuse per client address with Cloudflare's rate limiting binding
// (wrangler.toml [[ratelimits]]): every failed authentication (401) or certificate-page miss (404)
// counts; over the limit the address is answered 429 rate_limited. The binding only counts, so an
// address found over its limit is remembered in this isolate for the rest of the period and
// refused before any key lookup or database read. Requests without CF-Connecting-IP (set by
// Cloudflare on every request it forwards) are not throttled: there is no address to count.

const PERIOD_SECONDS = 60; // the [[ratelimits]] simple.period of both limiters
const MAX_REMEMBERED = 10_000;
const blockedUntil = new Map<string, number>();

type Limiter = "AUTH_FAILURE_LIMITER" | "PAGE_MISS_LIMITER";

/** The usual envelope, built whole: it replaces a response that is already final. */
function refuse(c: Context<AppEnv>, retryAfterSeconds: number, what: string): Response {
  const error = new ApiError("rate_limited", `Too many ${what} from this address; try again later.`);
  return new Response(JSON.stringify(errorBody(error, c.var.requestId)), {
    status: error.status,
    headers: {
      "content-type": "application/json",
      "x-request-id": c.var.requestId,
      "retry-after": String(Math.max(1, retryAfterSeconds)),
    },
  });
}

function throttle(limiter: Limiter, counts: (status: number) => boolean, what: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const address = c.req.header("cf-connecting-ip");
    if (!address) return next();
    const memoKey = `${limiter}:${address}`;
    const now = Date.now();
    const until = blockedUntil.get(memoKey);
    if (until !== undefined && until > now) {
      c.res = refuse(c, Math.ceil((until - now) / 1000), what);
      return;
    }
    await next();
    if (!counts(c.res.status)) return;
    const { success } = await c.env[limiter].limit({ key: address });
    if (success) return;
    if (blockedUntil.size >= MAX_REMEMBERED) blockedUntil.clear();
    blockedUntil.set(memoKey, now + PERIOD_SECONDS * 1000);
    // Cleared first so none of the refused answer's headers (WWW-Authenticate) carry over.
    c.res = undefined;
    c.res = refuse(c, PERIOD_SECONDS, what);
  };
}

/** On /v1, /api/public/v1 and /admin/v1: counts 401 answers. */
export const failedAuthThrottle = throttle(
  "AUTH_FAILURE_LIMITER",
  (status) => status === 401,
  "failed authentications",
);

/** On /c/*: counts 404 answers (unknown or malformed certificate numbers). */
export const pageMissThrottle = throttle("PAGE_MISS_LIMITER", (status) => status === 404, "unknown certificates");
