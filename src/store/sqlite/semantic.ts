import type { Db } from './db.js';
import type { SemanticStore } from '../semantic-store.js';

export class SqliteSemanticStore implements SemanticStore {
  constructor(private readonly db: Db) {}
}
