/**
 * The storage boundary: domain methods grouped by area. Modules call these and never see SQL; the
 * SQLite implementation lives in sqlite/, a PostgreSQL one would implement the same interfaces.
 * Methods are synchronous for the embedded SQLite store (better-sqlite3 answers in microseconds);
 * modules `await` their results so an asynchronous store can be dropped in.
 */
import type { SiteStore } from './site-store.js';
import type { PageStore } from './page-store.js';
import type { CategoryStore } from './category-store.js';
import type { CategoryLinkStore } from './category-link-store.js';
import type { FileStore } from './file-store.js';
import type { LinkStore } from './link-store.js';
import type { MessageStore } from './message-store.js';
import type { ReportStore } from './report-store.js';
import type { SemanticStore } from './semantic-store.js';

export type Awaitable<T> = T | Promise<T>;

export interface Store {
  site: SiteStore;
  pages: PageStore;
  categories: CategoryStore;
  categoryLinks: CategoryLinkStore;
  files: FileStore;
  links: LinkStore;
  messages: MessageStore;
  reports: ReportStore;
  semantic: SemanticStore;
  close(): void;
}
