/**
 * What SQLite and PostgreSQL say differently in the statements the two stores share (relation-sql.ts,
 * history-sql.ts): both take `@name` parameters and order text by bytes, but not the same hints and lists.
 */
export interface SqlDialect {
  /** `col` kept out of the planner's index choice (SQLite's unary `+`; PostgreSQL plans these by itself) */
  unindexed(col: string): string;
  /** `col` is one of `values` (non-empty), bound on `v` under names made from `name` */
  amongNumbers(col: string, values: readonly number[], name: string, v: Record<string, unknown>): string;
}

export const SQLITE_DIALECT: SqlDialect = {
  unindexed: (col) => '+' + col,
  amongNumbers: (col, values, name, v) => {
    const names: string[] = [];
    for (let i = 0; i < values.length; i++) {
      v[name + i] = values[i];
      names.push('@' + name + i);
    }
    return `${col} IN (${names.join(', ')})`;
  },
};

export const POSTGRES_DIALECT: SqlDialect = {
  unindexed: (col) => col,
  amongNumbers: (col, values, name, v) => {
    v[name] = values;
    return `${col} = ANY(@${name}::bigint[])`;
  },
};
