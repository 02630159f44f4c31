/**
 * What the stores this folder shares ask of an engine: the rows of a statement written with `@name`
 * parameters, and the engine's dialect. SQLite answers at once from its prepared statements, PostgreSQL
 * after a round trip; a shared store awaits either.
 */
import type { SqlDialect } from './dialect.js';

export interface SqlPort {
  readonly dialect: SqlDialect;
  /** every row as an object; `name` is what debuginfo shows as the calling function */
  named<R = any>(name: string, sql: string, values: Record<string, unknown>): R[] | Promise<R[]>;
}
