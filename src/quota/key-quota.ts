import { DurableObject } from "cloudflare:workers";
import { z } from "@hono/zod-openapi";

const consumeArgs = z.object({
  limit: z.number().int().min(1),
  windowSeconds: z.number().int().min(1),
  now: z.number().int().optional(),
});

export type ConsumeArgs = z.input<typeof consumeArgs>;

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
  consume(args: ConsumeArgs): QuotaDecision {
    const { limit, windowSeconds, now = Date.now() } = consumeArgs.parse(args);
    const windowMs = windowSeconds * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const stored = this.ctx.storage.kv.get<WindowState>("window");
    const current = stored && stored.start === start ? stored : { start, count: 0 };
    const resetSeconds = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    if (current.count >= limit) {
      return { allowed: false, limit, remaining: 0, resetSeconds, windowStart: start };
    }
    current.count += 1;
    this.ctx.storage.kv.put("window", current);
    return { allowed: true, limit, remaining: limit - current.count, resetSeconds, windowStart: start };
  }

  /** Gives back one unit counted in `windowStart` (rejected submissions are not billed). */
  refund(windowStart: number): void {
    const stored = this.ctx.storage.kv.get<WindowState>("window");
    if (stored && stored.start === windowStart && stored.count > 0) {
      this.ctx.storage.kv.put("window", { start: stored.start, count: stored.count - 1 });
    }
  }
}
