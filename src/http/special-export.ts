/**
 * index.php?title=Special:Export&pages=… and Special:Export/Title (SpecialExport of 1.25 by GET): the XML
 * export of the named pages (one per line), current revisions only, as application/xml. Without pages,
 * 1.25 shows its form; here a short page says how to ask. What 1.25's form also offers (full histories,
 * templates, linked pages, a category or namespace) is not served: the export is the current revisions.
 */
import type { FastifyReply } from 'fastify';
import type { Store } from '../store/store.js';
import type { Wiki } from '../wiki/wiki.js';
import type { PageRef } from '../store/page-store.js';
import { MAX_EXPORT_PAGES, exportPages } from '../api/export.js';

/** SpecialExport::doExport's title list: one page per line, each once, valid local titles only */
export async function answerSpecialExport(
  reply: FastifyReply,
  store: Store,
  wiki: Wiki,
  baseUrl: string,
  pagesText: string,
  page: (title: string, body: string) => string,
): Promise<FastifyReply> {
  if (pagesText === '') {
    return reply
      .code(200)
      .type('text/html; charset=utf-8')
      .send(
        page(
          'Експорт сторінок',
          '<h1 id="firstHeading">Експорт сторінок</h1>\n<p>Вкажіть сторінки в параметрі <code>pages</code>, по одній у рядку, або в адресі: <code>Спеціальна:Експорт/Назва</code>. Експортуються поточні версії сторінок.</p>',
        ),
      );
  }
  const seen = new Set<string>();
  const titles: Array<{ ns: number; dbkey: string }> = [];
  for (const line of pagesText.split('\n')) {
    if (titles.length >= MAX_EXPORT_PAGES) break;
    const t = wiki.codec.parse(line.trim(), 0);
    // external (interwiki) titles and ones without a text are skipped, as 1.25 skips them
    if (!t || t.dbkey === '' || t.ns < 0 || isInterwiki(wiki, line.trim(), t.ns)) continue;
    const key = `${t.ns}:${t.dbkey}`;
    if (seen.has(key)) continue;
    seen.add(key);
    titles.push({ ns: t.ns, dbkey: t.dbkey });
  }
  const rows = titles.length ? await store.pages.byTitles(titles) : [];
  const byKey = new Map(rows.map((r) => [`${r.ns}:${r.title}`, r]));
  // in the order asked for; pages that do not exist are left out (pageByTitle finds no row)
  const pages: PageRef[] = [];
  for (const t of titles) {
    const row = byKey.get(`${t.ns}:${t.dbkey}`);
    if (row) pages.push(row);
  }
  const xml = await exportPages(store, wiki, `${baseUrl}/api.php`, pages);
  return reply.code(200).type('application/xml; charset=utf-8').send(xml);
}

function isInterwiki(wiki: Wiki, text: string, ns: number): boolean {
  if (ns !== 0) return false;
  const colon = text.indexOf(':');
  return colon > 0 && wiki.interwiki.get(text.slice(0, colon).trim().replace(/[ _]+/g, '_')) !== undefined;
}
