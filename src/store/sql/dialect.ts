/**
 * What SQLite and PostgreSQL say differently in the statements the two stores share (the files of this
 * folder): both take `@name` parameters and order text by bytes, but not the same hints and lists.
 */
export interface SqlDialect {
  /** `col` kept out of the planner's index choice (SQLite's unary `+`; PostgreSQL plans these by itself) */
  unindexed(col: string): string;
  /** `col` is one of `values` (non-empty), bound on `v` under names made from `name` */
  amongNumbers(col: string, values: readonly number[], name: string, v: Record<string, unknown>): string;
  /** `col` is one of `values` (non-empty, a few: a module's parameter), bound on `v` under names made from `name` */
  amongTexts(col: string, values: readonly string[], name: string, v: Record<string, unknown>): string;
  /**
   * `col` is one of a batch of page ids (any length) bound on `v` as `@name`: SQLite reads them from one
   * JSON text, so that one statement serves every batch size; PostgreSQL binds an array
   */
  amongIds(col: string, ids: readonly number[], name: string, v: Record<string, unknown>): string;
  /** `col` is one of a batch of texts (any length) bound on `v` as `@name`, as amongIds binds ids */
  amongTextBatch(col: string, values: readonly string[], name: string, v: Record<string, unknown>): string;
  /**
   * A batch of page ids (any length) as a table to join, bound on `v` as `@name`: its FROM item and the
   * column of the id; its rows come in the batch's order, an id given twice twice.
   */
  eachId(ids: readonly number[], name: string, v: Record<string, unknown>): { source: string; id: string };
  /** (`nsCol`, `titleCol`) is one of `titles` (non-empty), bound on `v` */
  amongTitles(nsCol: string, titleCol: string, titles: ReadonlyArray<{ ns: number; title: string }>, v: Record<string, unknown>): string;
  /** ` INDEXED BY index` where SQLite's planner must be told which index to read ('' on PostgreSQL) */
  indexedBy(index: string): string;
  /** the join that keeps its tables in the order written (SQLite's CROSS JOIN; PostgreSQL orders by itself) */
  orderedJoin: string;
  /**
   * a request's page id as a bound of `op` on an id column: SQLite compares any number with an integer;
   * PostgreSQL's bigint refuses a fraction or an infinity, so the nearest id on the same side stands in
   */
  idBound(id: number, op: '>=' | '<='): number;
  /** the word `user` as a name (the user table, a column alias): a reserved word in PostgreSQL, quoted there */
  userName: string;
  /** a statement with a row when the table `@name` exists (PostgreSQL: in the connection's search_path) */
  tableExists: string;
}

/** `@name0, @name1, …` for `values`, bound on `v` */
function listOf(values: readonly unknown[], name: string, v: Record<string, unknown>): string {
  const names: string[] = [];
  for (let i = 0; i < values.length; i++) {
    v[name + i] = values[i];
    names.push('@' + name + i);
  }
  return names.join(', ');
}

/** SQLite's `col` among a few values, each bound on `v` (amongNumbers, amongTexts) */
function sqliteAmong(col: string, values: readonly unknown[], name: string, v: Record<string, unknown>): string {
  return `${col} IN (${listOf(values, name, v)})`;
}

/** SQLite's `col` among a batch of any length, bound on `v` as one JSON text `@name` (amongIds, amongTextBatch) */
function sqliteAmongBatch(col: string, values: readonly unknown[], name: string, v: Record<string, unknown>): string {
  v[name] = JSON.stringify(values);
  return `${col} IN (SELECT value FROM json_each(@${name}))`;
}

/** PostgreSQL's `col` among numbers bound on `v` as the bigint array `@name` (amongNumbers, amongIds) */
function postgresAmongNumbers(col: string, values: readonly number[], name: string, v: Record<string, unknown>): string {
  v[name] = values;
  return `${col} = ANY(@${name}::bigint[])`;
}

/** PostgreSQL's `col` among texts bound on `v` as the text array `@name` (amongTexts, amongTextBatch) */
function postgresAmongTexts(col: string, values: readonly string[], name: string, v: Record<string, unknown>): string {
  v[name] = values;
  return `${col} = ANY(@${name}::text[])`;
}

export const SQLITE_DIALECT: SqlDialect = {
  unindexed: (col) => '+' + col,
  amongNumbers: sqliteAmong,
  amongTexts: sqliteAmong,
  amongIds: sqliteAmongBatch,
  amongTextBatch: sqliteAmongBatch,
  eachId: (ids, name, v) => {
    v[name] = JSON.stringify(ids);
    return { source: `json_each(@${name}) j`, id: 'j.value' };
  },
  amongTitles: (nsCol, titleCol, titles, v) =>
    `(${nsCol}, ${titleCol}) IN (VALUES ${titles.map((t, i) => ((v['on' + i] = t.ns), (v['ot' + i] = t.title), `(@on${i}, @ot${i})`)).join(', ')})`,
  indexedBy: (index) => ' INDEXED BY ' + index,
  orderedJoin: 'CROSS JOIN',
  idBound: (id) => id,
  userName: 'user',
  tableExists: "SELECT 1 AS present FROM sqlite_master WHERE type = 'table' AND name = @name",
};

export const POSTGRES_DIALECT: SqlDialect = {
  unindexed: (col) => col,
  amongNumbers: postgresAmongNumbers,
  amongTexts: postgresAmongTexts,
  amongIds: postgresAmongNumbers,
  amongTextBatch: postgresAmongTexts,
  eachId: (ids, name, v) => {
    v[name] = ids;
    return { source: `unnest(@${name}::bigint[]) AS t(id)`, id: 't.id' };
  },
  amongTitles: (nsCol, titleCol, titles, v) => {
    v.onlyNs = titles.map((t) => t.ns);
    v.onlyTitle = titles.map((t) => t.title);
    return `(${nsCol}, ${titleCol}) IN (SELECT * FROM unnest(@onlyNs::bigint[], @onlyTitle::text[]))`;
  },
  indexedBy: () => '',
  orderedJoin: 'JOIN',
  idBound: (id, op) => {
    if (!Number.isFinite(id)) return id > 0 ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
    return op === '>=' ? Math.ceil(id) : Math.floor(id);
  },
  userName: '"user"',
  tableExists: 'SELECT 1 AS present WHERE to_regclass(@name) IS NOT NULL',
};

/** a statement written with `@name` parameters and the values of its names */
export interface SqlStatement {
  sql: string;
  values: Record<string, unknown>;
}
