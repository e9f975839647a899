import { DurableObject } from "cloudflare:workers";
import { z } from "@hono/zod-openapi";

const consumeArgs = z.object({
  limit: z.number().int().min(1),
  windowSeconds: z.number().int().min(1),
  now: z.number().int().optional(),
});

export type ConsumeArgs = z.input<typeof consumeArgs>;

const leaseArgs = consumeArgs.extend({
  /** Units wanted (an isolate's lease, src/quota/lease.ts). */
  units: z.number().int().min(1).max(10_000),
  /** Units of an earlier lease in the same window that were never spent, given back first. */
  giveBack: z.number().int().min(0).max(10_000).default(0),
  /** The window `giveBack` was leased in; units of another window are not given back. */
  giveBackWindow: z.number().int().optional(),
});

export type LeaseArgs = z.input<typeof leaseArgs>;

export interface LeaseGrant extends QuotaDecision {
  /** Units granted: at most `units`, fewer near the limit, 0 when none are left. */
  granted: number;
}

export interface QuotaDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  /** Start of the window the unit was counted in (unix ms); pass it back to `refund`. */
  windowStart: number;
}

interface WindowState {
  start: number;
  count: number;
}

/**
 * One instance per API key. Fixed windows aligned to the clock (an hourly quota resets on the
 * hour). A Durable Object handles one event at a time and the SQLite-backed KV calls below are
 * synchronous, so read-increment-write cannot interleave: the count is exact under concurrency.
 */
export class KeyQuota extends DurableObject<Env> {
  /** Counts one request (a lease of one unit). */
  consume(args: ConsumeArgs): QuotaDecision {
    const { granted: _granted, ...decision } = this.lease({ ...args, units: 1 });
    return decision;
  }

  /**
   * Counts up to `units` at once for an isolate to spend locally (src/quota/lease.ts), after
   * taking back the unspent units of its previous lease in the same window. `remaining` is what is
   * left after the grant.
   */
  lease(args: LeaseArgs): LeaseGrant {
    const { limit, windowSeconds, now = Date.now(), units, giveBack, giveBackWindow } = leaseArgs.parse(args);
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const stored = this.ctx.storage.kv.get<WindowState>("window");
    const current = stored && stored.start === start ? stored : { start, count: 0 };
    if (giveBackWindow === start) current.count = Math.max(0, current.count - giveBack);
    const resetSeconds = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    const granted = Math.max(0, Math.min(units, limit - current.count));
    current.count += granted;
    this.ctx.storage.kv.put("window", current);
    return {
      allowed: granted > 0,
      granted,
      limit,
      remaining: Math.max(0, limit - current.count),
      resetSeconds,
      windowStart: start,
    };
  }

  /** Gives back one unit counted in `windowStart` (rejected submissions are not billed). */
  refund(windowStart: number): void {
    const stored = this.ctx.storage.kv.get<WindowState>("window");
    if (stored && stored.start === windowStart && stored.count > 0) {
      this.ctx.storage.kv.put("window", { start: stored.start, count: stored.count - 1 });
    }
  }
}
