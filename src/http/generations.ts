/**
 * The database a server answers from, replaceable while it serves. Each opened store is a generation:
 * a request takes the current one when it starts and keeps it to its end, so a re-import (or SIGHUP)
 * switches new requests to the new file at once while the old file stays open until the requests that
 * use it have finished; then it is closed. Nothing is dropped and nothing waits.
 */
import type { Store } from '../store/store.js';

export interface ImportIdentity {
  /** the import's id (meta import_id; older databases: their import time) */
  id: string;
  /** when the import ran, ISO 8601 */
  time: string;
  sitename: string;
  pages: number;
}

export interface Generation<T> {
  readonly number: number;
  readonly store: Store;
  readonly identity: ImportIdentity;
  /** what the server builds on the store (ApiMain, Wiki) */
  readonly app: T;
  inflight: number;
  retired: boolean;
}

export class Generations<T> {
  private constructor(
    private gen: Generation<T>,
    private readonly build: (store: Store) => T | Promise<T>,
  ) {}

  static async start<T>(store: Store, build: (store: Store) => T | Promise<T>): Promise<Generations<T>> {
    return new Generations(await make(store, 1, build), build);
  }

  get current(): Generation<T> {
    return this.gen;
  }

  acquire(): Generation<T> {
    const gen = this.gen;
    gen.inflight++;
    return gen;
  }

  release(gen: Generation<T>): void {
    gen.inflight--;
    if (gen.retired && gen.inflight === 0) this.dispose(gen);
  }

  /** Run `use` on the current generation; a swap meanwhile closes its database only after `use` has finished. */
  async using<R>(use: (gen: Generation<T>) => Promise<R>): Promise<R> {
    const gen = this.acquire();
    try {
      return await use(gen);
    } finally {
      this.release(gen);
    }
  }

  /** Serve from `store` from now on; the previous store is closed once its last request ends. */
  async replace(store: Store): Promise<Generation<T>> {
    const next = await make(store, this.gen.number + 1, this.build);
    const old = this.gen;
    this.gen = next;
    old.retired = true;
    if (old.inflight === 0) this.dispose(old);
    return this.gen;
  }

  close(): void {
    this.gen.retired = true;
    if (this.gen.inflight === 0) this.dispose(this.gen);
  }

  private dispose(gen: Generation<T>): void {
    gen.store.close();
  }
}

async function make<T>(store: Store, number: number, build: (store: Store) => T | Promise<T>): Promise<Generation<T>> {
  return { number, store, identity: await importIdentity(store), app: await build(store), inflight: 0, retired: false };
}

export async function importIdentity(store: Store): Promise<ImportIdentity> {
  const siteInfo = await store.site.siteInfo();
  const stamp = siteInfo.importTime;
  const iso = `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(8, 10)}:${stamp.slice(10, 12)}:${stamp.slice(12, 14)}Z`;
  return { id: siteInfo.importId || stamp, time: iso, sitename: siteInfo.sitename, pages: (await store.site.statistics()).pages };
}
