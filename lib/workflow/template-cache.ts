/**
 * A bounded cache with least-recently-used eviction, kept in two generations (the scheme of
 * `quick-lru`): lookups and inserts go to the current generation; when it is full, it becomes
 * the previous one and the old previous one is dropped whole. A hit in the previous generation
 * moves the entry to the current one, so anything used since the last rotation survives the next.
 *
 * Why not a strict LRU (delete and re-insert on every hit): template lookups sit on the engine's
 * per-node hot path, and here a hit in the current generation is a single `Map.get`. Why not
 * clear-when-full (what this replaces): a working set larger than the cap was then re-parsed on
 * every pass, because each clear dropped the entries about to be used.
 *
 * Memory is bounded twice: at most `2 × maxEntries` entries and `2 × maxKeyCharacters`
 * characters of keys (long prompt templates fill the budget sooner than short references).
 */
export class TwoGenerationCache<Value> {
  private current = new Map<string, Value>();
  private previous = new Map<string, Value>();
  private currentCharacters = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxKeyCharacters: number,
  ) {}

  /** Entries held in both generations. */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** The cached value, marking it recently used; undefined when absent. */
  get(key: string): Value | undefined {
    const value = this.current.get(key);
    if (value !== undefined) return value;
    const old = this.previous.get(key);
    if (old === undefined) return undefined;
    this.previous.delete(key);
    this.insert(key, old);
    return old;
  }

  /** Whether the key is cached (does not count as a use). */
  has(key: string): boolean {
    return this.current.has(key) || this.previous.has(key);
  }

  /** Caches a value as the most recently used. */
  set(key: string, value: Value): void {
    this.previous.delete(key);
    if (this.current.has(key)) {
      this.current.set(key, value);
      return;
    }
    this.insert(key, value);
  }

  /** Drops everything. */
  clear(): void {
    this.current = new Map();
    this.previous = new Map();
    this.currentCharacters = 0;
  }

  private insert(key: string, value: Value): void {
    if (this.current.size >= this.maxEntries || this.currentCharacters + key.length > this.maxKeyCharacters) {
      // Rotate: entries not used since the previous rotation are dropped here, all at once.
      this.previous = this.current;
      this.current = new Map();
      this.currentCharacters = 0;
    }
    this.current.set(key, value);
    this.currentCharacters += key.length;
  }
}
