// The edge cache for certificates (Cache API, per data centre). For API lookups it holds the
// certificate's stored fields, not the response: image URLs are signed per request, so a hit reads
// nothing from D1 and still hands out fresh URLs. The public page and badge are cached whole.
//
// Revocation (README "Security"): the entries are deleted here, purged in every data centre through
// Cloudflare's purge API when it is configured, and in any case an entry is trusted for at most
// EDGE_TRUST_SECONDS after it was written, so a data centre the purge missed stops serving a
// revoked certificate as live within that bound.
import { logEvent } from "../errors/log";

/** What clients may keep a certificate lookup for (the documented `Cache-Control`). */
export const CERTIFICATE_MAX_AGE_SECONDS = 3600;
/** The longest an edge entry is served after it was written: the revocation bound without purge. */
export const EDGE_TRUST_SECONDS = 300;

const INTERNAL_ORIGIN = "https://certificate-cache.internal";
// Bumped when an entry's shape changes, so old entries are never read as new ones.
const KEY_VERSION = "v2";
const CACHED_AT = "x-cached-at";
const PURGE_API = "https://api.cloudflare.com/client/v4/zones";

export type CacheEntryKind = "api" | "page" | "badge";
const KINDS: readonly CacheEntryKind[] = ["api", "page", "badge"];

export interface CacheScopeConfig {
  PUBLIC_BASE_URL?: string;
  CLOUDFLARE_ZONE_ID?: string;
  CLOUDFLARE_API_TOKEN?: string;
}

/**
 * The cache key of one entry. Built only from a validated number (10 digits; callers check the
 * Luhn digit first), so no request path can name another entry. With PUBLIC_BASE_URL set, keys live
 * on that host, which is what lets the purge API (purge by URL, the one purge that reaches Cache
 * API entries) address them.
 */
export function certificateCacheKey(config: CacheScopeConfig, number: string, kind: CacheEntryKind): string {
  if (!/^\d{10}$/.test(number)) throw new Error("cache keys are built only from validated certificate numbers");
  const origin = config.PUBLIC_BASE_URL ? new URL(config.PUBLIC_BASE_URL).origin : INTERNAL_ORIGIN;
  return `${origin}/_certificate-cache/${KEY_VERSION}/${kind}/${number}`;
}

/** The entry, or undefined when absent or older than EDGE_TRUST_SECONDS (then it is dropped). */
async function readFresh(key: string, now: number): Promise<Response | undefined> {
  const hit = await caches.default.match(key);
  if (!hit) return undefined;
  const cachedAt = Number(hit.headers.get(CACHED_AT));
  if (Number.isFinite(cachedAt) && cachedAt > 0 && now - cachedAt <= EDGE_TRUST_SECONDS * 1000) return hit;
  await hit.body?.cancel();
  await caches.default.delete(key);
  return undefined;
}

function stamp(headers: HeadersInit, now: number): Headers {
  const stamped = new Headers(headers);
  stamped.set(CACHED_AT, String(now));
  // The edge may drop it sooner; it never keeps it longer than it is trusted.
  stamped.set("cache-control", `public, max-age=${EDGE_TRUST_SECONDS}`);
  return stamped;
}

export interface CachedEntry<T> {
  value: T;
  etag: string;
}

async function etagOf(body: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)));
  let hex = "";
  for (const byte of digest.subarray(0, 12)) hex += byte.toString(16).padStart(2, "0");
  // Weak: the representation carries per-request image signatures but means the same certificate.
  return `W/"${hex}"`;
}

export async function readCertificate<T>(
  config: CacheScopeConfig,
  number: string,
  now = Date.now(),
): Promise<CachedEntry<T> | null> {
  const hit = await readFresh(certificateCacheKey(config, number, "api"), now);
  if (!hit) return null;
  return { value: (await hit.json()) as T, etag: hit.headers.get("etag") ?? "" };
}

/** Caches `value`; the write itself is returned as `stored` so the caller can run it after the response. */
export async function writeCertificate<T>(
  config: CacheScopeConfig,
  number: string,
  value: T,
  now = Date.now(),
): Promise<CachedEntry<T> & { stored: Promise<void> }> {
  const body = JSON.stringify(value);
  const etag = await etagOf(body);
  const stored = caches.default.put(
    certificateCacheKey(config, number, "api"),
    new Response(body, { headers: stamp({ "content-type": "application/json", etag }, now) }),
  );
  return { value, etag, stored };
}

/** The public page (`page`) or badge (`badge`) of a certificate, as last rendered. */
export async function readPage(
  config: CacheScopeConfig,
  number: string,
  kind: "page" | "badge",
  now = Date.now(),
): Promise<Response | undefined> {
  return readFresh(certificateCacheKey(config, number, kind), now);
}

/** Stores a rendered page; the stored copy carries the edge's own Cache-Control. */
export async function writePage(
  config: CacheScopeConfig,
  number: string,
  kind: "page" | "badge",
  response: Response,
  now = Date.now(),
): Promise<void> {
  const stored = new Response(response.body, { status: response.status, headers: stamp(response.headers, now) });
  await caches.default.put(certificateCacheKey(config, number, kind), stored);
}

export type GlobalPurge = "purged" | "skipped" | "failed";

/**
 * Deletes the certificate's entries in this data centre and, when CLOUDFLARE_ZONE_ID,
 * CLOUDFLARE_API_TOKEN and PUBLIC_BASE_URL are set, purges them by URL in every data centre.
 * Without purge (local development) or when it fails, other data centres stop serving the entries
 * within EDGE_TRUST_SECONDS; one log line says so. The token and URLs never reach the log.
 */
export async function purgeCertificate(
  config: CacheScopeConfig,
  number: string,
  fetcher: typeof fetch = fetch,
): Promise<GlobalPurge> {
  const keys = KINDS.map((kind) => certificateCacheKey(config, number, kind));
  await Promise.all(keys.map((key) => caches.default.delete(key)));
  if (!config.CLOUDFLARE_ZONE_ID || !config.CLOUDFLARE_API_TOKEN || !config.PUBLIC_BASE_URL) {
    logEvent("warn", {
      step: "cache purge",
      problem: `global purge skipped (needs CLOUDFLARE_ZONE_ID, CLOUDFLARE_API_TOKEN and PUBLIC_BASE_URL); other data centres drop the entries within ${EDGE_TRUST_SECONDS} s`,
    });
    return "skipped";
  }
  try {
    const response = await fetcher(`${PURGE_API}/${config.CLOUDFLARE_ZONE_ID}/purge_cache`, {
      method: "POST",
      headers: { authorization: `Bearer ${config.CLOUDFLARE_API_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify({ files: keys }),
      signal: AbortSignal.timeout(10_000),
    });
    const result = (await response.json().catch(() => null)) as { success?: unknown } | null;
    if (response.ok && result?.success === true) return "purged";
    logEvent("error", {
      step: "cache purge",
      status: response.status,
      problem: `purge API refused the purge; other data centres drop the entries within ${EDGE_TRUST_SECONDS} s`,
    });
  } catch (error) {
    logEvent("error", {
      step: "cache purge",
      problem: `purge API unreachable (${error instanceof Error ? error.name : "error"}); other data centres drop the entries within ${EDGE_TRUST_SECONDS} s`,
    });
  }
  return "failed";
}
