/**
 * A bounded LRU cache of rendered GET answers. The database is opened read-only and is only ever
 * replaced as a whole (a re-import), when the cache is cleared, so the same request gets the same bytes. Answers that depend on the clock (second
 * resolution) are kept only until the second ends; answers that name the client are kept under a scope
 * that names its address (the caller builds the scope); debug output is never stored. This plays the
 * part of the HTTP cache (Varnish) that sits in front of a production MediaWiki.
 *
 * An answer is found by its raw URL (the request line's target, as the client sent it) and a scope: the
 * scheme and host the client addressed (they appear in the answer's links), preceded by the client's
 * address for an answer that names the client. The URL is the map's key and the scopes of one URL hang
 * off it in a short chain, so a hit hashes the URL string the HTTP parser gave and nothing built per
 * request.
 */
import type { Block } from './wire.js';

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

/** An answer as written to the socket: the header list for writeHead (flat name, value, …) and the body. */
export interface Wire {
  headers: string[];
  body: Buffer;
  /** the same headers as the block writeHead would make of them (src/http/wire.ts) */
  block: Block;
}

export interface Entry extends CachedAnswer {
  /** Date.now() after which the entry is stale (Infinity: never) */
  expires: number;
  /** base URL, or `address base` for an answer naming the client */
  scope: string;
  /** the same URL under another scope */
  next: Entry | undefined;
  /** ready header blocks per encoding ('' = identity), made by the HTTP layer on first use */
  wire: { ''?: Wire; br?: Wire; gzip?: Wire };
  /** whatever the HTTP layer keeps with the answer for its accounting (the metrics' series) */
  tag: unknown;
  /** still held (an evicted entry's compressed forms are not counted) */
  live: boolean;
}

export class ResponseCache {
  /** by URL: the chain of its scopes; Map order is the LRU order of URLs */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private count = 0;
  /** the chain used last (refreshing its LRU place again is a no-op) */
  private newest: Entry | undefined;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.count, bytes: this.bytes };
  }

  /** Forget every answer (the database was replaced). */
  clear(): void {
    for (const head of this.entries.values()) for (let e: Entry | undefined = head; e !== undefined; e = e.next) e.live = false;
    this.entries.clear();
    this.bytes = 0;
    this.count = 0;
    this.newest = undefined;
  }

  /** Keep a compressed form of a stored answer with it (no-op when it already has one). */
  addEncoded(entry: Entry, encoding: 'br' | 'gzip', body: Buffer): void {
    if (entry.encoded?.[encoding]) return;
    entry.encoded = Object.assign({}, entry.encoded, { [encoding]: body });
    if (!entry.live) return;
    this.bytes += body.length;
    this.evict();
  }

  get(scope: string, url: string): Entry | undefined {
    const head = this.entries.get(url);
    if (head === undefined) return undefined;
    let hit: Entry | undefined = head;
    while (hit !== undefined && hit.scope !== scope) hit = hit.next;
    if (hit === undefined) return undefined;
    if (hit.expires !== Infinity && hit.expires <= Date.now()) {
      this.remove(url, hit);
      return undefined;
    }
    if (this.newest !== head) {
      // refresh the URL's place in the LRU order
      this.entries.delete(url);
      this.entries.set(url, head);
      this.newest = head;
    }
    return hit;
  }

  /** Store an answer; returns the entry (null: too large to keep). */
  set(scope: string, url: string, res: CachedAnswer, untilSecondEnds: boolean): Entry | null {
    const entry: Entry = {
      status: res.status,
      headers: res.headers,
      body: res.body,
      encoded: res.encoded,
      labels: res.labels,
      expires: untilSecondEnds ? Math.floor(Date.now() / 1000) * 1000 + 1000 : Infinity,
      scope,
      next: undefined,
      wire: {},
      tag: undefined,
      live: true,
    };
    const size = cost(url, entry);
    if (size > this.maxBytes / 8) return null;
    let head = this.entries.get(url);
    if (head !== undefined) {
      let old: Entry | undefined = head;
      while (old !== undefined && old.scope !== scope) old = old.next;
      if (old !== undefined) {
        this.remove(url, old);
        head = this.entries.get(url);
      }
    }
    entry.next = head;
    this.entries.delete(url);
    this.entries.set(url, entry);
    this.newest = entry;
    this.bytes += size;
    this.count++;
    this.evict();
    return entry;
  }

  /** take one scope's answer out of its URL's chain */
  private remove(url: string, entry: Entry): void {
    const head = this.entries.get(url);
    if (head === undefined) return;
    if (head === entry) {
      if (entry.next === undefined) this.entries.delete(url);
      else {
        // the chain keeps its LRU place
        this.entries.set(url, entry.next);
        if (this.newest === entry) this.newest = entry.next;
      }
    } else {
      let e = head;
      while (e.next !== undefined && e.next !== entry) e = e.next;
      if (e.next !== entry) return;
      e.next = entry.next;
    }
    if (this.newest === entry) this.newest = undefined;
    entry.live = false;
    this.bytes -= cost(url, entry);
    this.count--;
  }

  private evict(): void {
    for (const [url, head] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(url);
      if (this.newest === head) this.newest = undefined;
      for (let e: Entry | undefined = head; e !== undefined; e = e.next) {
        e.live = false;
        this.bytes -= cost(url, e);
        this.count--;
      }
    }
  }
}

function cost(url: string, res: CachedAnswer & { scope: string }): number {
  // the strings are UTF-16 (two bytes a unit); a rough allowance for the headers and objects
  return 2 * (url.length + res.scope.length) + res.body.length + (res.encoded?.br?.length ?? 0) + (res.encoded?.gzip?.length ?? 0) + 512;
}
