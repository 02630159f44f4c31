/**
 * The link tables' columns and the statements over them that read the same in SQLite and PostgreSQL
 * (both take `@name` parameters and order titles by bytes), shared by the two relation stores; what only
 * one engine can say (index hints, arrays, the loose index scan) stays in its store.
 */
import type { AllLinksOptions, BacklinkTable, LinkersOfOptions, TargetTable } from '../relation-store.js';
import { titleBounds } from './prefix-range.js';
import type { SqlDialect } from './dialect.js';

export interface TargetColumns {
  from: string;
  ns: string;
  title: string;
  fromNs: string | null;
}

export const TARGET_COLUMNS: Record<TargetTable, TargetColumns> = {
  pagelinks: { from: 'pl_from', ns: 'pl_namespace', title: 'pl_title', fromNs: 'pl_from_namespace' },
  templatelinks: { from: 'tl_from', ns: 'tl_namespace', title: 'tl_title', fromNs: 'tl_from_namespace' },
  redirect: { from: 'rd_from', ns: 'rd_namespace', title: 'rd_title', fromNs: null },
};

// the backlink readers also walk imagelinks, which has no target namespace column: its targets are File: titles
// once per process: a spread copy given more members is fine here
export const BACKLINK_COLUMNS: Record<BacklinkTable, { from: string; ns: string | null; title: string; fromNs: string | null }> = {
  ...TARGET_COLUMNS,
  imagelinks: { from: 'il_from', ns: null, title: 'il_to', fromNs: 'il_from_namespace' },
};

/** list=all*'s namespace and title bounds (from, to, prefix) as conditions on `where`, their values on `v`. */
export function allLinksBounds(o: AllLinksOptions, c: TargetColumns, where: string[], v: Record<string, unknown>): void {
  where.push(`${c.ns} = @ns`);
  v.ns = o.ns;
  titleBounds(c.title, o, where, v);
}

/** list=all*: a range scan of the (ns, title, from) key (pagelinks/templatelinks primary key, redirect_target) from `continueAt` (inclusive). */
export function allLinksStatement(o: AllLinksOptions & { continueAt?: { title: string; from: number } }): { sql: string; values: Record<string, unknown> } {
  const c = TARGET_COLUMNS[o.table];
  const where: string[] = [];
  const values: Record<string, unknown> = { limit: o.limit };
  allLinksBounds(o, c, where, values);
  if (o.continueAt !== undefined) {
    where.push(`(${c.title}, ${c.from}) ${o.descending ? '<=' : '>='} (@contTitle, @contFrom)`);
    values.contTitle = o.continueAt.title;
    values.contFrom = o.continueAt.from;
  }
  const extra = o.table === 'redirect' ? 'rd_fragment AS fragment, rd_interwiki AS interwiki' : "'' AS fragment, '' AS interwiki";
  const dir = o.descending ? ' DESC' : '';
  const sql =
    `SELECT ${c.title} AS title, ${c.from} AS "from", ${extra} FROM ${o.table} WHERE ${where.join(' AND ')}` +
    ` ORDER BY ${c.title}${dir}, ${c.from}${dir} LIMIT @limit`;
  return { sql, values };
}

/** list=all* with unique: the bounds of the distinct-title walk from `continueAt` (inclusive); the walk itself is the store's. */
export function allLinkTitlesBounds(o: AllLinksOptions & { continueAt?: string }, c: TargetColumns): { where: string[]; values: Record<string, unknown> } {
  const where: string[] = [];
  const values: Record<string, unknown> = {};
  allLinksBounds(o, c, where, values);
  if (o.continueAt !== undefined) {
    where.push(`${c.title} ${o.descending ? '<=' : '>='} @cont`);
    values.cont = o.continueAt;
  }
  return { where, values };
}

/**
 * The filters on a linking page that the backlink readers share: interwiki redirects never listed,
 * redirects only or none (`redirect`), the linking page's namespaces, with or without a fragment (redirect
 * table). `pageNamespaces`, when given, is not empty (the callers answer nothing for an empty list).
 */
export function linkerFilters(
  o: Pick<LinkersOfOptions, 'table' | 'redirect' | 'pageNamespaces' | 'fragment'>,
  d: SqlDialect,
  where: string[],
  v: Record<string, unknown>,
): void {
  if (o.table === 'redirect') where.push("rd_interwiki = ''");
  if (o.redirect !== undefined) {
    where.push(`${d.unindexed('page_is_redirect')} = @redirect`);
    v.redirect = o.redirect ? 1 : 0;
  }
  if (o.pageNamespaces !== undefined) where.push(d.amongNumbers(d.unindexed('page_namespace'), o.pageNamespaces, 'pns', v));
  if (o.fragment !== undefined) where.push(o.fragment ? "rd_fragment != ''" : "rd_fragment = ''");
}
