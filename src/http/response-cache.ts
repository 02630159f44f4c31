/**
 * A bounded LRU cache of rendered GET answers. The database is opened read-only and never changes while
 * the server runs, so the same request gets the same bytes — except answers a module marked volatile
 * (the clock, the client's address) and debug output, which are never stored. This plays the part of
 * the HTTP cache (Varnish) that sits in front of a production MediaWiki.
 */
import type { ApiResponse } from '../api/main.js';

export class ResponseCache {
  private readonly entries = new Map<string, ApiResponse>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get(key: string): ApiResponse | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      // refresh its place in the LRU order
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, res: ApiResponse): void {
    const size = cost(key, res);
    if (size > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= cost(key, old);
      this.entries.delete(key);
    }
    this.entries.set(key, res);
    this.bytes += size;
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= cost(k, v);
    }
  }
}

function cost(key: string, res: ApiResponse): number {
  // UTF-16 strings: two bytes a unit, plus a rough allowance for the objects
  return 2 * (key.length + res.body.length) + 512;
}
