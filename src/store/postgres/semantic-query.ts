/**
 * The PostgreSQL dialect of the semantic statements (../semantic-query.ts, ../semantic-sql-store.ts),
 * giving SQLite's answers byte for byte:
 *  - parameters are typed where PostgreSQL cannot infer them (`SELECT $1 AS id` would be text); lists
 *    are arrays, unnest'ed WITH ORDINALITY where their order matters;
 *  - SMW's `~` patterns: SQLite's GLOB is case-sensitive and compares code points, so they become LIKE
 *    (backslash, its default escape, before the literal `\`, `%` and `_`) on the expression in
 *    COLLATE "C" (no locale-dependent matching), `*` → `%`, `?` → `_` (one character: the databases are
 *    UTF8);
 *  - an integer in a `||` concatenation is cast to text (PostgreSQL's text || bigint would also work,
 *    but only through an implicit cast to text whose result is the same: said explicitly);
 *  - property sorts (MIN/MAX of a correlated subquery, NULL when a value page has no sort key) sort
 *    NULLs first ascending and last descending, as SQLite;
 *  - the engine's statements whose texts follow the structure of each query are not prepared (one kept
 *    per distinct text and connection would grow without bound; SQLite's store keeps an LRU);
 *  - the sort-order walk reads smw_subject in its index order and, having no co-routine order to rely
 *    on (EXISTS checks may become hash semi-joins), sorts the budget's survivors again: a top-N sort.
 */
import { SemanticQueryEngine, type ParamType, type SemanticDialect } from '../semantic-query.js';
import type { PgDb } from './db.js';

const PG_TYPE: Record<ParamType, string> = { int: 'bigint', real: 'double precision', text: 'text' };

/** SMW's pattern (* any, ? one character, everything else literal) as a LIKE pattern. */
export function likePattern(p: string): string {
  return p.replace(/[\\%_*?]/g, (c) => (c === '*' ? '%' : c === '?' ? '_' : '\\' + c));
}

export const POSTGRES_SEMANTIC: SemanticDialect = {
  placeholder: (n, type) => (type ? `$${n}::${PG_TYPE[type]}` : `$${n}`),
  bindList: (values) => [values],
  listTable: ([ph], type, alias) => `unnest(${ph}::${PG_TYPE[type]}[]) WITH ORDINALITY AS ${alias}(value, key)`,
  // one array per column
  bindRows: (rows, columns) => columns.map((_c, i) => rows.map((r) => r[i])),
  rowsTable: (phs, columns, alias) =>
    `unnest(${phs.map((ph, i) => `${ph}::${PG_TYPE[columns[i][1]]}[]`).join(', ')}) WITH ORDINALITY AS ${alias}(${columns.map(([n]) => n).join(', ')}, key)`,
  keyBase: 1,
  inTextList: (expr, [ph]) => `${expr} = ANY(${ph}::text[])`,
  inIntList: (expr, [ph]) => `${expr} = ANY(${ph}::bigint[])`,
  matches: (expr, negate, param, pattern) => `(${expr}) COLLATE "C" ${negate ? 'NOT ' : ''}LIKE ${param(likePattern(pattern))}`,
  intText: (expr) => `(${expr})::text`,
  orderTerm: (expr, order) => `${expr} ${order === 'ASC' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST'}`,
  walkSource: (order, limit) => `(SELECT * FROM smw_subject ORDER BY ${order} LIMIT ${limit}) s`,
  walkOuterOrder: true,
  inProcess: false,
};

/** The query engine on a PostgreSQL import (tests give a lower probe cap to exercise the sort-order walk). */
export function postgresQueryEngine(db: PgDb, probeCap?: number): SemanticQueryEngine {
  return new SemanticQueryEngine(
    POSTGRES_SEMANTIC,
    { all: (sql, params, shaped) => db.all('SemanticStore.ask', sql, params, { prepare: !shaped }) },
    probeCap,
  );
}
