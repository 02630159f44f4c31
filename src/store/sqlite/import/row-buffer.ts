/**
 * Bulk inserts of an import: rows are queued and go in ROWS at a time through one multi-row INSERT
 * (one statement step instead of ROWS: most of a small row's cost is the call, not the B-tree). Rows
 * reach the table in the order they were added; `flush()` before anything reads the table.
 */
import type Database from 'better-sqlite3';

const ROWS = 64;

export class RowBuffer {
  private readonly one: Database.Statement;
  private readonly many: Database.Statement;
  private values: unknown[] = [];
  /** rows the statements have changed so far (an INSERT OR IGNORE's rows added) */
  changes = 0;

  /** @param insert `INSERT … INTO table (columns) VALUES` without the tuples */
  constructor(
    db: Database.Database,
    insert: string,
    private readonly columns: number,
  ) {
    const tuple = `(${new Array(columns).fill('?').join(', ')})`;
    this.one = db.prepare(`${insert} ${tuple}`);
    this.many = db.prepare(`${insert} ${new Array(ROWS).fill(tuple).join(', ')}`);
  }

  add(...row: unknown[]): void {
    for (const v of row) this.values.push(v);
    if (this.values.length === ROWS * this.columns) {
      const values = this.values;
      this.values = [];
      this.changes += this.many.run(values).changes;
    }
  }

  flush(): void {
    const values = this.values;
    this.values = [];
    for (let i = 0; i < values.length; i += this.columns) this.changes += this.one.run(values.slice(i, i + this.columns)).changes;
  }
}
