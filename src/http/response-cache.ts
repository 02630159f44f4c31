/**
 * A bounded LRU cache of rendered GET answers. The database is opened read-only and is only ever
 * replaced as a whole (a re-import), when the cache is cleared, so the same request gets the same bytes. Answers that depend on the clock (second
 * resolution) are kept only until the second ends; answers that name the client are keyed by its
 * address (the caller builds the key); debug output is never stored. This plays the part of the HTTP
 * cache (Varnish) that sits in front of a production MediaWiki.
 */

/** A stored answer: its body already encoded (sending a Buffer is 2-3x cheaper than a large string). */
export interface CachedAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** the body compressed, per Content-Encoding, made on the first request that accepts it */
  encoded?: { br?: Buffer; gzip?: Buffer };
  /** what the metrics and the request log say about the request (action, modules) */
  labels?: { action: string; modules: string[] };
}

interface Entry extends CachedAnswer {
  /** Date.now() after which the entry is stale (Infinity: never) */
  expires: number;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /** Forget every answer (the database was replaced). */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Keep a compressed form of a stored answer with it (no-op when the entry is gone or already has it). */
  addEncoded(key: string, encoding: 'br' | 'gzip', body: Buffer): void {
    const e = this.entries.get(key);
    if (!e || e.encoded?.[encoding]) return;
    e.encoded = { ...e.encoded, [encoding]: body };
    this.bytes += body.length;
    this.evict();
  }

  get(key: string): CachedAnswer | undefined {
    const hit = this.entries.get(key);
    if (hit && hit.expires <= Date.now()) {
      this.entries.delete(key);
      this.bytes -= cost(key, hit);
      return undefined;
    }
    if (hit) {
      // refresh its place in the LRU order
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit;
  }

  set(key: string, res: CachedAnswer, untilSecondEnds: boolean): void {
    const size = cost(key, res);
    if (size > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= cost(key, old);
      this.entries.delete(key);
    }
    this.entries.set(key, { ...res, expires: untilSecondEnds ? Math.floor(Date.now() / 1000) * 1000 + 1000 : Infinity });
    this.bytes += size;
    this.evict();
  }

  private evict(): void {
    for (const [k, v] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= cost(k, v);
    }
  }
}

function cost(key: string, res: CachedAnswer): number {
  // the key is a UTF-16 string (two bytes a unit); a rough allowance for the headers and objects
  return 2 * key.length + res.body.length + (res.encoded?.br?.length ?? 0) + (res.encoded?.gzip?.length ?? 0) + 512;
}
