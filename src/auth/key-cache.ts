// The per-isolate cache of verified keys (docs/decisions.md §7), one for each auth middleware: an
// entry is trusted for KEY_CACHE_TTL_SECONDS, so a revoked key stops working within that time.
// Bounded, so a flood of distinct keys cannot grow it without limit.

/** Entries kept per cache before it starts afresh. */
const MAX_CACHED_KEYS = 10_000;

export class KeyCache<T> {
  readonly #entries = new Map<string, { value: T; expiresAt: number }>();

  /**
   * The live entry under `id`, or what `load` answers (cached for `ttlMs`; nothing is cached when
   * it is 0). `load` throws for a key that must not be cached (unknown, say).
   */
  async get(id: string, ttlMs: number, now: number, load: () => Promise<T>): Promise<T> {
    const cached = this.#entries.get(id);
    if (cached && cached.expiresAt > now) return cached.value;
    if (cached) this.#entries.delete(id);
    const value = await load();
    if (ttlMs > 0) {
      if (this.#entries.size >= MAX_CACHED_KEYS) this.#entries.clear();
      this.#entries.set(id, { value, expiresAt: now + ttlMs });
    }
    return value;
  }
}
