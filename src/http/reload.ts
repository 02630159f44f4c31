/**
 * Replacing the database while serving (SIGHUP, or a re-import's switch): the store is opened again and
 * becomes the next generation (src/http/generations.ts), the response cache is emptied, and the outcome
 * counted. One reload runs at a time: a SIGHUP during a re-import's switch waits for it, then reopens
 * again.
 */
import type { Store } from '../store/store.js';
import type { Generations, ImportIdentity } from './generations.js';
import type { Metrics } from './metrics.js';
import type { ResponseCache } from './response-cache.js';

/** What a database swap reports. */
export interface ReloadResult {
  changed: boolean;
  previous: ImportIdentity;
  current: ImportIdentity;
  generation: number;
}

export class Reloads {
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly generations: Generations<unknown>,
    /** opens the database again; without it a reload fails */
    private readonly open: (() => Promise<Store>) | undefined,
    private readonly cache: ResponseCache,
    private readonly metrics: Metrics,
  ) {}

  /** Reload after the reloads asked for before this one; a database that cannot be opened is thrown. */
  reload(): Promise<ReloadResult> {
    const next = this.chain.then(this.reloadNow, this.reloadNow);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private readonly reloadNow = async (): Promise<ReloadResult> => {
    const previous = this.generations.current.identity;
    let store: Store;
    try {
      if (this.open === undefined) throw new Error('this server was given no way to reopen its database');
      store = await this.open();
    } catch (e) {
      this.metrics.reloads.inc({ result: 'failed' });
      throw e;
    }
    const gen = await this.generations.replace(store);
    this.cache.clear();
    this.metrics.reloads.inc({ result: 'ok' });
    return { changed: gen.identity.id !== previous.id, previous, current: gen.identity, generation: gen.number };
  };
}
