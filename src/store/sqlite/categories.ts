import type { Db } from './db.js';
import type { CategoryStore } from '../category-store.js';

export class SqliteCategoryStore implements CategoryStore {
  constructor(private readonly db: Db) {}
}
