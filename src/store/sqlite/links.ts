import type { Db } from './db.js';
import type { LinkStore } from '../link-store.js';

export class SqliteLinkStore implements LinkStore {
  constructor(private readonly db: Db) {}
}
