/**
 * A map bounded to `max` entries, least recently used out first, whose entries also end after a
 * life given when each is set.
 */
export class ExpiringLru<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(private readonly max: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.entries.delete(key);
    if (hit.expires <= now) return undefined;
    // Map keeps insertion order: set again, it becomes the most recently used.
    this.entries.set(key, hit);
    return hit.value;
  }

  set(key: string, value: V, lifeMs: number, now = Date.now()): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires: now + lifeMs });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /** Deletes the key only while it still holds this value (a later set is kept). */
  deleteIf(key: string, value: V): void {
    if (this.entries.get(key)?.value === value) this.entries.delete(key);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  deleteMatching(matches: (key: string) => boolean): void {
    for (const key of this.entries.keys()) if (matches(key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
