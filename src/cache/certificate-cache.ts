// The edge cache for certificates (Cache API, per data centre). For API lookups it holds the
// certificate's stored fields, not the response: image URLs are signed per request, so a hit reads
// nothing from D1 and still hands out fresh URLs. The public page and badge are cached whole.
// Revocation deletes all three entries.

const CACHE_ORIGIN = "https://certificate-cache.internal";
export const CERTIFICATE_MAX_AGE_SECONDS = 3600;

function cacheKey(number: string): Request {
  return new Request(`${CACHE_ORIGIN}/v1/certificates/${number}`);
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

export async function readCertificate<T>(number: string): Promise<CachedEntry<T> | null> {
  const hit = await caches.default.match(cacheKey(number));
  if (!hit) return null;
  return { value: (await hit.json()) as T, etag: hit.headers.get("etag") ?? "" };
}

/** Caches `value`; the write itself is returned as `stored` so the caller can run it after the response. */
export async function writeCertificate<T>(
  number: string,
  value: T,
): Promise<CachedEntry<T> & { stored: Promise<void> }> {
  const body = JSON.stringify(value);
  const etag = await etagOf(body);
  const stored = caches.default.put(
    cacheKey(number),
    new Response(body, {
      headers: {
        "content-type": "application/json",
        "cache-control": `public, max-age=${CERTIFICATE_MAX_AGE_SECONDS}`,
        etag,
      },
    }),
  );
  return { value, etag, stored };
}

/** The public page (`page`) or badge (`badge`) of a certificate, as last rendered. */
function pageKey(number: string, kind: "page" | "badge"): Request {
  return new Request(`${CACHE_ORIGIN}/c/${number}${kind === "badge" ? "/badge.svg" : ""}`);
}

export async function readPage(number: string, kind: "page" | "badge"): Promise<Response | undefined> {
  return caches.default.match(pageKey(number, kind));
}

/** Stores a rendered page; the response must carry its own Cache-Control. */
export async function writePage(number: string, kind: "page" | "badge", response: Response): Promise<void> {
  await caches.default.put(pageKey(number, kind), response);
}

export async function purgeCertificate(number: string): Promise<void> {
  await Promise.all([
    caches.default.delete(cacheKey(number)),
    caches.default.delete(pageKey(number, "page")),
    caches.default.delete(pageKey(number, "badge")),
  ]);
}
