/**
 * A read-through cache in memory that can be cleared at any moment without keeping what the clear was for: a load
 * that started before a `clear()` is returned to its caller but not kept (it may have read the data the clear was
 * about). Entries live `ttlMs` at most (0 keeps nothing); the oldest go first when the cache is over its entry count
 * or its weight (a Map keeps insertion order). Used by the checked-token cache (plugins/auth.ts) and the page cache
 * (plugins/page-cache.ts).
 */
export class ClearableCache<V> {
  private entries = new Map<string, { value: V; until: number; weight: number }>();
  private generation = 0;
  private weight = 0;

  constructor(
    private readonly options: {
      ttlMs: number;
      maxEntries: number;
      /** Keeps the total of `weigh` (e.g. bytes) at most this. */
      maxWeight?: number;
      weigh?: (value: V) => number;
    },
  ) {}

  /**
   * The value for `key`, from memory or from `load`. `keepUntil` may shorten an entry's life (a token's expiry) or,
   * by giving null, keep a loaded value out of the cache (a failed check).
   */
  async get(key: string, load: () => Promise<V>, keepUntil?: (value: V) => number | null): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    if (hit) this.drop(key, hit.weight);
    const generation = this.generation;
    const value = await load();
    if (this.options.ttlMs === 0 || generation !== this.generation) return value;
    const limit = keepUntil ? keepUntil(value) : Infinity;
    if (limit === null) return value;
    const weight = this.options.weigh?.(value) ?? 0;
    if (weight > (this.options.maxWeight ?? Infinity)) return value;
    // Another load of the same key may have finished first: replace it.
    const old = this.entries.get(key);
    if (old) this.drop(key, old.weight);
    while (
      this.entries.size >= this.options.maxEntries ||
      (this.options.maxWeight !== undefined && this.weight + weight > this.options.maxWeight)
    ) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.drop(oldest, entry.weight);
    }
    this.entries.set(key, { value, until: Math.min(now + this.options.ttlMs, limit), weight });
    this.weight += weight;
    return value;
  }

  clear() {
    this.entries.clear();
    this.weight = 0;
    this.generation++;
  }

  get size() {
    return this.entries.size;
  }

  /** The total weight kept (bytes for the page cache). */
  get totalWeight() {
    return this.weight;
  }

  private drop(key: string, weight: number) {
    this.entries.delete(key);
    this.weight -= weight;
  }
}
