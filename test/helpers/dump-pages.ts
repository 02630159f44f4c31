/**
 * Small XML dumps written inline for the importer's tests: pages with their revisions (Ukrainian
 * namespaces of a wiki named Тестовікі), as Special:Export of MediaWiki 1.25 writes them.
 */

export const NAMESPACES: Array<[number, string]> = [
  [-2, 'Медіа'],
  [-1, 'Спеціальна'],
  [0, ''],
  [1, 'Обговорення'],
  [2, 'Користувач'],
  [4, 'Тестовікі'],
  [6, 'Файл'],
  [8, 'MediaWiki'],
  [10, 'Шаблон'],
  [14, 'Категорія'],
];

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export interface Rev {
  id: number;
  ts: string;
  user?: string;
  userId?: number;
  ip?: string;
  comment?: string;
  text: string;
}

/** the page id the next page() gets (a test may set it back) */
export const pageIds = { next: 1 };
export function page(title: string, ns: number, revs: Rev[] | string, extra = ''): string {
  const list =
    typeof revs === 'string' ? [{ id: pageIds.next * 100, ts: '2015-01-01T00:00:00Z', user: 'Адмін', userId: 1, text: revs }] : revs;
  let s = `  <page>\n    <title>${esc(title)}</title>\n    <ns>${ns}</ns>\n    <id>${pageIds.next++}</id>\n${extra}`;
  for (const r of list) {
    const who = r.ip ? `<ip>${r.ip}</ip>` : `<username>${esc(r.user ?? '')}</username><id>${r.userId ?? 0}</id>`;
    s += `    <revision>\n      <id>${r.id}</id>\n      <timestamp>${r.ts}</timestamp>\n      <contributor>${who}</contributor>\n`;
    if (r.comment) s += `      <comment>${esc(r.comment)}</comment>\n`;
    s += `      <model>wikitext</model>\n      <format>text/x-wiki</format>\n`;
    s += `      <text xml:space="preserve" bytes="${Buffer.byteLength(r.text)}">${esc(r.text)}</text>\n    </revision>\n`;
  }
  return s + '  </page>\n';
}

export function dumpXml(pages: string[]): string {
  const ns = NAMESPACES.map(([k, v]) => `      <namespace key="${k}" case="first-letter">${esc(v)}</namespace>`).join('\n');
  return (
    `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="uk">\n` +
    `  <siteinfo>\n    <sitename>Тестовікі</sitename>\n    <dbname>testwiki</dbname>\n` +
    `    <base>http://localhost/index.php/Головна</base>\n    <generator>MediaWiki 1.25.4</generator>\n` +
    `    <case>first-letter</case>\n    <namespaces>\n${ns}\n    </namespaces>\n  </siteinfo>\n` +
    pages.join('') +
    `</mediawiki>\n`
  );
}
