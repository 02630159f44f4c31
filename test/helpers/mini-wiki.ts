/**
 * A small in-memory wiki for the preprocessor's tests: pages and redirects by title, namespaces of a
 * Ukrainian wiki, and the context expandWikitext is given over them.
 */
import type { PreprocessContext, ExpandResult } from '../../src/wikitext/preprocessor/context.js';
import { expandWikitext } from '../../src/wikitext/preprocessor/index.js';

const NS: Record<string, number> = {
  '': 0,
  користувач: 2,
  шаблон: 10,
  template: 10,
  категорія: 14,
  category: 14,
  файл: 6,
  довідка: 12,
};
const NS_NAME: Record<number, string> = { 0: '', 2: 'Користувач', 6: 'Файл', 10: 'Шаблон', 12: 'Довідка', 14: 'Категорія' };

function resolve(target: string, defaultNs: number): { ns: number; dbkey: string } | null {
  let t = target.replace(/_/g, ' ').trim();
  let ns = defaultNs;
  if (t.startsWith(':')) {
    ns = 0;
    t = t.slice(1).trim();
  }
  const m = /^([^:]+):(.*)$/.exec(t);
  if (m && NS[m[1].toLowerCase()] !== undefined) {
    ns = NS[m[1].toLowerCase()];
    t = m[2].trim();
  }
  if (t === '' || /[[\]{}|<>#]/.test(t)) return null;
  return { ns, dbkey: (t[0].toUpperCase() + t.slice(1)).replace(/ /g, '_') };
}

const keyOf = (t: { ns: number; dbkey: string }): string => `${t.ns}:${t.dbkey}`;

export interface Wiki {
  /** 'Шаблон:Місто' / 'Головна' → text */
  pages: Record<string, string>;
  /** redirects: 'Шаблон:Старий' → 'Шаблон:Новий' */
  redirects?: Record<string, string>;
}

export function makeCtx(
  wiki: Wiki,
  title = 'Київ',
  ns = 0,
  extra: Partial<PreprocessContext> = {},
): PreprocessContext & { calls: string[] } {
  const byKey = new Map<string, string>();
  for (const [name, text] of Object.entries(wiki.pages)) byKey.set(keyOf(resolve(name, 0)!), text);
  const redirects = new Map<string, { ns: number; dbkey: string }>();
  for (const [from, to] of Object.entries(wiki.redirects ?? {})) redirects.set(keyOf(resolve(from, 0)!), resolve(to, 0)!);
  const calls: string[] = [];
  return {
    calls,
    title: { ns, dbkey: title.replace(/ /g, '_'), nsText: NS_NAME[ns] ?? '' },
    getTemplate(target) {
      calls.push(target);
      let t = resolve(target, 10);
      if (!t) return null;
      const r = redirects.get(keyOf(t));
      if (r) t = r;
      const text = byKey.get(keyOf(t));
      return text === undefined ? null : { text, ns: t.ns, dbkey: t.dbkey };
    },
    pageExists(target) {
      const t = resolve(target, 0);
      return t !== null && (byKey.has(keyOf(t)) || redirects.has(keyOf(t)));
    },
    resolveTarget: resolve,
    ...extra,
  };
}

export function expand(
  text: string,
  pages: Record<string, string> = {},
  title = 'Київ',
  ns = 0,
  extra: Partial<PreprocessContext> = {},
): ExpandResult {
  return expandWikitext(text, makeCtx({ pages }, title, ns, extra));
}

export const x = (text: string, pages: Record<string, string> = {}, title?: string, ns?: number): string =>
  expand(text, pages, title, ns).text;
