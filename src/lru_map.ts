/**
 * A Map kept in least-recently-used order and bounded by the total weight of its entries (each weighs 1
 * unless `weigh` says otherwise): reading an entry makes it the most recent, and adding one drops the
 * least recent until the total fits again. A Map keeps insertion order, so re-inserting is the reordering.
 */
export class LruMap<K, V> {
  readonly #entries = new Map<K, V>();
  readonly #maxWeight: number;
  readonly #weigh: (key: K, value: V) => number;
  #weight = 0;

  constructor(maxWeight: number, weigh: (key: K, value: V) => number = () => 1) {
    this.#maxWeight = maxWeight;
    this.#weigh = weigh;
  }

  /** The value, now the most recently used; undefined when absent. */
  get(key: K): V | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Adds or replaces the entry as the most recently used, dropping the least recent ones over the bound. */
  set(key: K, value: V): void {
    const previous = this.#entries.get(key);
    if (previous !== undefined) {
      this.#entries.delete(key);
      this.#weight -= this.#weigh(key, previous);
    }
    this.#entries.set(key, value);
    this.#weight += this.#weigh(key, value);
    for (const [oldest, kept] of this.#entries) {
      if (this.#weight <= this.#maxWeight) break;
      this.#entries.delete(oldest);
      this.#weight -= this.#weigh(oldest, kept);
    }
  }

  get size(): number {
    return this.#entries.size;
  }

  clear(): void {
    this.#entries.clear();
    this.#weight = 0;
  }
}
