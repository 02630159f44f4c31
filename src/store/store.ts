/**
 * The storage boundary: domain methods grouped by area. Modules call these and never see SQL; the
 * SQLite implementation lives in sqlite/; another database would implement the same areas.
 * Methods are synchronous: better-sqlite3 answers in microseconds and a promise per call would cost more
 * than the query. Module `run` functions may already be async, so an asynchronous store (PostgreSQL)
 * would change these signatures to promises and the modules' calls to `await`.
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
  close(): void;
}
