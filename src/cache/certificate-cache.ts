// The edge cache for certificate lookups (Cache API, per data centre). It holds the certificate's
// stored fields, not the response: image URLs are signed per request, so a hit reads nothing from
// D1 and still hands out fresh URLs. Revocation deletes the entry.

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

export async function purgeCertificate(number: string): Promise<void> {
  await caches.default.delete(cacheKey(number));
}
