/**
 * The storage boundary: domain methods grouped by area. Modules call these and never see SQL. Two
 * backends implement every area: SQLite (sqlite/, the embedded default) and PostgreSQL (postgres/, for
 * several serving nodes). Methods are asynchronous and batched -- a batch of titles or ids is one
 * statement, one round trip on a server database.
 */
import type { SiteStore } from './site-store.js';
import type { PageStore } from './page-store.js';
import type { CategoryStore } from './category-store.js';
import type { CategoryLinkStore } from './category-link-store.js';
import type { FileStore } from './file-store.js';
import type { LinkStore } from './link-store.js';
import type { RelationStore } from './relation-store.js';
import type { MessageStore } from './message-store.js';
import type { ReportStore } from './report-store.js';
import type { SemanticStore } from './semantic-store.js';
import type { HistoryStore } from './history-store.js';
import type { SearchStore } from './search-store.js';
import type { ParserCacheStore } from './parser-cache-store.js';

export interface Store {
  site: SiteStore;
  pages: PageStore;
  categories: CategoryStore;
  categoryLinks: CategoryLinkStore;
  files: FileStore;
  links: LinkStore;
  relations: RelationStore;
  messages: MessageStore;
  reports: ReportStore;
  semantic: SemanticStore;
  history: HistoryStore;
  search: SearchStore;
  parserCache: ParserCacheStore;
  /** bytes the served import takes (the SQLite file; the PostgreSQL schema's tables and indexes) */
  sizeBytes(): Promise<number>;
  /**
   * How often another process has committed to the database in place since this store opened it (an
   * incremental update: `follow`, `import --update`; 0: never), read before each request; null when the
   * backend cannot say it without a round trip. SQLite: PRAGMA data_version (one step of a prepared statement).
   */
  changeCounter(): number | null;
  /** a row of the meta table as it is now (not as it was when the store was opened) */
  liveMeta(key: string): Promise<string | undefined>;
  close(): void;
}
