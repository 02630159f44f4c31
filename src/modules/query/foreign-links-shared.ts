/**
 * What prop=langlinks and prop=iwlinks share (ApiQueryLangLinks and ApiQueryIWLinks of 1.25 are the same
 * code over langlinks and iwlinks): the checks, the continuation along the table's primary key, and each
 * page's entries with their URL from the interwiki map.
 */
import { intval } from '../../api/params.js';
import type { QueryModuleContext } from '../../api/types.js';
import { withContent } from '../../api/result.js';
import { InterwikiMap } from '../../wiki/interwiki.js';
import { addInterwikiUrl, continueParts, interwikiLinkPageIds } from './shared.js';

/**
 * What both store reads take (LangLinksOfOptions, IwLinksOfOptions): the batch's pages, the code under the
 * module's parameter name (lang, prefix), the title, and where to continue, by the names of the table's
 * primary key columns
 */
interface ForeignLinksOptions {
  pageids: number[];
  title: string | undefined;
  continueAt: Record<string, string | number> | undefined;
  descending: boolean;
  limit: number;
  [code: string]: unknown;
}

export interface ForeignLinkKind<R extends { from: number; title: string }, O> {
  /** the member of a page's entry */
  member: 'langlinks' | 'iwlinks';
  /** the parameter naming the language or prefix, and the error without it beside `title` */
  codeParam: 'lang' | 'prefix';
  noCode: 'nolang' | 'noprefix';
  /** the continuation's parts after the page id, as the store's continueAt names them: the code, and for iwlinks the title */
  continueMembers: readonly string[];
  /** the store's read, given options of ForeignLinksOptions' shape */
  read(ctx: QueryModuleContext, o: O): Promise<R[]>;
  /** the row's language or prefix */
  code(row: R): string;
  /** the continuation that starts at the row */
  continueAt(row: R): string;
  /** the item's members after its URL (`prop` as asked) */
  addMembers?(item: Record<string, unknown>, row: R, prop: Set<string>): void;
}

export async function runForeignLinks<R extends { from: number; title: string }, O>(
  ctx: QueryModuleContext,
  kind: ForeignLinkKind<R, O>,
): Promise<void> {
  const p = ctx.params;
  const pageids = interwikiLinkPageIds(ctx, kind.codeParam, kind.noCode);
  if (pageids.length === 0) return;
  // the deprecated `url` is `prop=url`
  const prop = new Set(p.url ? ['url'] : ((p.prop as string[] | undefined) ?? []));
  const cont = continueParts(ctx, kind.continueMembers.length + 1);
  const limit = p.limit as number;
  let continueAt: Record<string, string | number> | undefined;
  if (cont) {
    continueAt = { from: intval(cont[0]) };
    for (let i = 0; i < kind.continueMembers.length; i++) continueAt[kind.continueMembers[i]!] = cont[i + 1]!;
  }
  const o: ForeignLinksOptions = {
    pageids,
    title: p.title as string | undefined,
    continueAt,
    descending: p.dir === 'descending',
    limit: limit + 1,
  };
  o[kind.codeParam] = p[kind.codeParam] as string | undefined;
  const rows = await kind.read(ctx, o as O);
  const map = prop.has('url') ? new InterwikiMap(await ctx.store.relations.interwikiMap()) : null;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (i >= limit) {
      ctx.setContinue('continue', kind.continueAt(row));
      break;
    }
    const entry = ctx.pageSet.entry(row.from);
    if (!entry) continue;
    const code = kind.code(row);
    const item: Record<string, unknown> = {};
    item[kind.codeParam] = code;
    if (map) addInterwikiUrl(item, map, code, row.title);
    kind.addMembers?.(item, row, prop);
    ((entry[kind.member] ??= []) as unknown[]).push(withContent(item, 'title', row.title));
  }
}
