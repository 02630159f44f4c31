/**
 * The parser cache: rendered output per page revision and render options, in memory, least recently
 * used dropped first, bounded by the characters held (an option of `serve`). The database never
 * changes while serving, so an entry never goes stale.
 */
export class ParserCache<V extends { size: number }> {
  private readonly map = new Map<string, V>();
  private chars = 0;
  hits = 0;
  misses = 0;

  constructor(private maxChars: number) {}

  resize(maxChars: number): void {
    this.maxChars = maxChars;
    this.evict();
  }

  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  set(key: string, v: V): void {
    if (v.size > this.maxChars) return;
    const old = this.map.get(key);
    if (old) {
      this.chars -= old.size;
      this.map.delete(key);
    }
    this.map.set(key, v);
    this.chars += v.size;
    this.evict();
  }

  private evict(): void {
    while (this.chars > this.maxChars && this.map.size) {
      const [k, v] = this.map.entries().next().value as [string, V];
      this.map.delete(k);
      this.chars -= v.size;
    }
  }

  get entries(): number {
    return this.map.size;
  }
}
