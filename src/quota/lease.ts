// Quota leases: an isolate counts a busy key's requests against units it took from the key's
// Durable Object in advance, instead of calling the object on every request.
//
// A lease is sized to about one second of the key's traffic in this isolate: it starts at 1 unit
// (a key used now and then calls the object on every request, exactly as without leases) and at
// most doubles per lease while the key stays busy, up to 1 % of the hourly limit (MAX_LEASE_SHARE)
// and MAX_LEASE_UNITS. A key with the default public quota of 120 therefore always leases 1.
//
// What it changes: the object's count includes units leased but not yet spent, so another isolate
// sees the key's remaining quota lower by at most those units, and the `RateLimit` header an
// isolate sends is its own view (the object's remaining after its lease, plus what its lease has
// left). Within one isolate the count is exact. A lease unspent after LEASE_TTL_MS (traffic stopped)
// is given back with the next lease in the same window; units are lost only when the isolate is
// evicted or the window ends first. Denials come from the object alone: a lease never lets more
// through than the object granted.
import type { KeyQuota, QuotaDecision } from "./key-quota";

/** A lease is refreshed (its unspent units given back) after this long. */
export const LEASE_TTL_MS = 2_000;
/** Traffic a lease is sized to cover. */
const LEASE_TARGET_MS = 1_000;
export const MAX_LEASE_UNITS = 256;
export const MAX_LEASE_SHARE = 0.01;
/** Keys with a lease kept per isolate before the map starts afresh. */
const MAX_LEASED_KEYS = 10_000;

interface Lease {
  windowStart: number;
  windowEndsAt: number;
  limit: number;
  size: number;
  left: number;
  /** The object's remaining units after this lease was granted. */
  remainingAfter: number;
  grantedAt: number;
}

const leases = new Map<string, Lease>();

/** The largest lease for `limit`: 1 % of it, at least 1, at most MAX_LEASE_UNITS. */
export const maxLeaseUnits = (limit: number) =>
  Math.max(1, Math.min(MAX_LEASE_UNITS, Math.floor(limit * MAX_LEASE_SHARE)));

/** Next lease size: about LEASE_TARGET_MS of the rate the previous lease was spent at, at most doubling. */
function nextSize(previous: Lease | undefined, limit: number, now: number): number {
  const cap = maxLeaseUnits(limit);
  if (!previous || previous.left > 0 || previous.limit !== limit) return 1;
  const elapsed = Math.max(1, now - previous.grantedAt);
  const wanted = Math.ceil((previous.size * LEASE_TARGET_MS) / elapsed);
  return Math.max(1, Math.min(cap, previous.size * 2, wanted));
}

function decision(lease: Lease, now: number, allowed: boolean): QuotaDecision {
  return {
    allowed,
    limit: lease.limit,
    remaining: allowed ? lease.remainingAfter + lease.left : 0,
    resetSeconds: Math.max(1, Math.ceil((lease.windowEndsAt - now) / 1000)),
    windowStart: lease.windowStart,
  };
}

/**
 * Lease calls under way, by key. A request that finds the lease spent while one is under way makes
 * its own call for 1 unit rather than wait: a Worker must not wait on a promise of another request
 * (workerd runs the continuation only once that request is done).
 */
const pending = new Map<string, number>();

/** Counts one request of `quotaKey` against its hourly `limit`, from this isolate's lease when it can. */
export async function consumeLeased(
  namespace: DurableObjectNamespace<KeyQuota>,
  quotaKey: string,
  limit: number,
  windowSeconds: number,
  now = Date.now(),
): Promise<QuotaDecision> {
  const windowMs = windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const usable = () => {
    const held = leases.get(quotaKey);
    return held && held.windowStart === windowStart && held.limit === limit ? held : undefined;
  };
  const current = usable();
  if (current && current.left > 0 && now - current.grantedAt < LEASE_TTL_MS) {
    current.left--;
    return decision(current, now, true);
  }
  const inFlight = pending.get(quotaKey) ?? 0;
  // An idle lease (units left) starts the sizing over at 1; its unspent units go back first.
  const units = inFlight > 0 ? 1 : nextSize(current, limit, now);
  // Units left of a lease of this window go back, also when the key's limit changed meanwhile.
  const held = leases.get(quotaKey);
  const returnable = held && held.windowStart === windowStart ? held : undefined;
  const giveBack = returnable ? returnable.left : 0;
  if (returnable) returnable.left = 0;
  const call = namespace.get(namespace.idFromName(quotaKey)).lease({
    limit,
    windowSeconds,
    now,
    units,
    giveBack,
    ...(giveBack > 0 ? { giveBackWindow: windowStart } : {}),
  });
  pending.set(quotaKey, inFlight + 1);
  let grant: Awaited<typeof call>;
  try {
    grant = await call;
  } finally {
    const left = (pending.get(quotaKey) ?? 1) - 1;
    if (left > 0) pending.set(quotaKey, left);
    else pending.delete(quotaKey);
  }
  // Units a concurrent request's lease still holds in this window are kept, not overwritten.
  const previous = usable();
  if (inFlight > 0 && previous) {
    // A 1-unit call beside another request's lease call: the lease and its sizing stay as they are.
    previous.remainingAfter = Math.min(previous.remainingAfter, grant.remaining);
    return decision(previous, now, grant.granted > 0);
  }
  const carried = previous && previous !== current ? previous.left : 0;
  const lease: Lease = {
    windowStart: grant.windowStart,
    windowEndsAt: grant.windowStart + windowMs,
    limit,
    size: Math.max(1, grant.granted),
    left: carried + Math.max(0, grant.granted - 1),
    remainingAfter: grant.remaining,
    grantedAt: now,
  };
  if (leases.size >= MAX_LEASED_KEYS && !leases.has(quotaKey)) leases.clear();
  leases.set(quotaKey, lease);
  return decision(lease, now, grant.granted > 0);
}
