/** The imagelinks statements that read the same in SQLite and PostgreSQL, shared by the two link stores. */
import type {
  FileUsageOptions,
  FileUsagePages,
  FileUsageRow,
  FileUserRow,
  FileUsersOptions,
  ImagesOfOptions,
  LinkStore,
} from '../link-store.js';
import type { SqlDialect, SqlStatement } from './dialect.js';
import type { SqlPort } from './port.js';
import { whereBound } from './prefix-range.js';

/**
 * list=imageusage: a range scan of the primary key (il_to, il_from), or of il_to_from_namespace (il_to,
 * il_from_namespace, il_from) for one namespace; each row joined to its page (by primary key) for title
 * and redirect flag.
 */
export function fileUsersStatement(o: FileUsersOptions, d: SqlDialect): SqlStatement {
  const where = ['il_to = @target'];
  const values: Record<string, unknown> = { target: o.target, limit: o.limit };
  whereBound(where, values, 'il_from_namespace = @ns', 'ns', o.namespace);
  if (o.fromId !== undefined) {
    const op = o.descending ? '<=' : '>=';
    where.push(`il_from ${op} @fromId`);
    values.fromId = d.idBound(o.fromId, op);
  }
  if (o.redirect !== undefined) {
    where.push(`${d.unindexed('page_is_redirect')} = @redirect`);
    values.redirect = o.redirect ? 1 : 0;
  }
  const sql =
    `SELECT il_from AS pageid, page_namespace AS ns, page_title AS title, page_is_redirect AS "isRedirect" FROM imagelinks` +
    ` ${d.orderedJoin} page ON page_id = il_from WHERE ${where.join(' AND ')} ORDER BY il_from${o.descending ? ' DESC' : ''} LIMIT @limit`;
  return { sql, values };
}

/** rows of fileUsersStatement, their redirect flag (0/1) as a boolean, in place */
export function toFileUsers(rows: Array<FileUserRow & { isRedirect: number | boolean }>): FileUserRow[] {
  for (const r of rows) r.isRedirect = !!r.isRedirect;
  return rows as FileUserRow[];
}

/** The link store of both engines: list=imageusage's statement is the same; the engine's store adds the rest. */
export abstract class SqlLinkStore implements LinkStore {
  constructor(protected readonly port: SqlPort) {}

  abstract fileUsages(o: FileUsageOptions & { continueAt?: { target: string; from: number } }): Promise<FileUsageRow[]>;
  abstract fileUsagePages(o: FileUsageOptions & { continueAt?: { target: string; from: number } }, full?: boolean): Promise<FileUsagePages>;
  abstract fileUsageTargets(o: FileUsageOptions & { continueAt?: string }): Promise<string[]>;
  abstract imagesOf(o: ImagesOfOptions): Promise<Array<{ pageid: number; name: string }>>;

  async fileUsers(o: FileUsersOptions): Promise<FileUserRow[]> {
    const { sql, values } = fileUsersStatement(o, this.port.dialect);
    return toFileUsers(await this.port.named<any>('LinkStore.fileUsers', sql, values));
  }
}
