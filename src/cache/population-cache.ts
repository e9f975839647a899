// The edge cache for population reports (Cache API, per data centre), for a short time: counts are
// live, so an entry lives POPULATION_MAX_AGE_SECONDS and a report by catalog card is purged when a
// certificate of that card is issued or revoked. Keys are built only from validated query values.

const CACHE_ORIGIN = "https://population-cache.internal";
export const POPULATION_MAX_AGE_SECONDS = 60;

/** The cache key of a report, from its validated, normalised query (sorted, lower-case). */
export function populationKey(query: Record<string, string | number | undefined>): Request {
  const params = new URLSearchParams();
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value !== undefined) params.set(name, String(value).toLowerCase());
  }
  return new Request(`${CACHE_ORIGIN}/v1/population?${params}`);
}

export async function readPopulation<T>(key: Request): Promise<T | null> {
  const hit = await caches.default.match(key);
  return hit ? ((await hit.json()) as T) : null;
}

export function writePopulation(key: Request, value: unknown): Promise<void> {
  return caches.default.put(
    key,
    new Response(JSON.stringify(value), {
      headers: { "content-type": "application/json", "cache-control": `public, max-age=${POPULATION_MAX_AGE_SECONDS}` },
    }),
  );
}

/** Drops the report of one catalog card (after an issue or a revocation of one of its certificates). */
export async function purgePopulation(cardId: number | null): Promise<void> {
  if (cardId === null) return;
  // The report by card_id alone, in each spelling of include_unverified (reports by brand, year, set
  // or player are not purged: they expire within POPULATION_MAX_AGE_SECONDS).
  const variants = [undefined, "true", "false"].map((include) =>
    populationKey({ card_id: cardId, include_unverified: include }),
  );
  await Promise.all(variants.map((key) => caches.default.delete(key)));
}
