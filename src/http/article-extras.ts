/**
 * What the page view adds below or above a page's own text, as MediaWiki 1.25's index.php does: a
 * category page's members (CategoryViewer: subcategories, pages and files, $wgCategoryPagingLimit = 200 of
 * each, paged by `from`/`until` and their per-section forms `pagefrom`, `subcatuntil`, …, each holding a
 * human sort key), and a file page's file (ImagePage: the image, scaled to at most 800×600, and a link to
 * the file with its size and type).
 */
import type { CategoryMemberRow, MemberType } from '../store/category-link-store.js';
import type { FileRow } from '../store/file-store.js';
import type { Store } from '../store/store.js';
import type { Wiki } from '../wiki/wiki.js';
import { fileUrlPath, wfUrlencode } from '../wiki/files.js';
import { escapeHtml } from '../wikitext/sanitizer.js';
import { articleUrl } from '../wikitext/render/urls.js';

/** $wgCategoryPagingLimit */
const PAGING_LIMIT = 200;
/** CategoryViewer's sections in the order it shows them, with its query prefix per type */
const SECTIONS: { type: MemberType; ns: string }[] = [
  { type: 'subcat', ns: 'subcat' },
  { type: 'page', ns: 'page' },
  { type: 'file', ns: 'file' },
];

interface Section {
  rows: CategoryMemberRow[];
  /** the human sort key the next page starts at (the first row not shown) */
  next: string | null;
  from: string | null;
  until: string | null;
}

/** Title::getCategorySortkey: the prefix, a newline and the title text (the stored key is its uppercase). */
function humanSortkey(row: CategoryMemberRow): string {
  const text = row.title.replace(/_/g, ' ');
  return row.sortkeyPrefix === '' ? text : `${row.sortkeyPrefix}\n${text}`;
}

/** The 'uppercase' collation's sort key of a human one. */
function collationKey(human: string): string {
  return human.toUpperCase();
}

async function section(store: Store, category: string, type: MemberType, query: URLSearchParams): Promise<Section> {
  const from = query.get(`${type}from`) ?? query.get('from');
  const until = from === null ? (query.get(`${type}until`) ?? query.get('until')) : null;
  if (until !== null) {
    // the page before `until`: read backwards, shown forwards
    const rows = await store.categoryLinks.membersBySortkey(
      category,
      type,
      { sortkey: collationKey(until), pageid: 0 },
      true,
      PAGING_LIMIT + 1,
    );
    const more = rows.length > PAGING_LIMIT;
    if (more) rows.length = PAGING_LIMIT;
    rows.reverse();
    return { rows, next: more && rows.length > 0 ? humanSortkey(rows[0]!) : null, from: null, until };
  }
  const start = from === null ? undefined : { sortkey: collationKey(from), pageid: 0 };
  const rows = await store.categoryLinks.membersBySortkey(category, type, start, false, PAGING_LIMIT + 1);
  let next: string | null = null;
  if (rows.length > PAGING_LIMIT) {
    next = humanSortkey(rows[PAGING_LIMIT]!);
    rows.length = PAGING_LIMIT;
  }
  return { rows, next, from, until: null };
}

/** CategoryViewer::pagingLinks: "(попередня сторінка) (наступна сторінка)", each a link when there is one. */
function pagingLinks(category: string, type: MemberType, first: string | null, last: string | null, fragment: string): string {
  const link = (param: string, value: string, text: string) =>
    `<a href="/index.php?title=${wfUrlencode(category)}&amp;${param}=${encodeURIComponent(value)}#${fragment}" title="${escapeHtml(category.replace(/_/g, ' '))}">${text}</a>`;
  const prev = first !== null ? link(`${type}until`, first, 'попередня сторінка') : 'попередня сторінка';
  const next = last !== null ? link(`${type}from`, last, 'наступна сторінка') : 'наступна сторінка';
  return `(${prev}) (${next})`;
}

/** CategoryViewer::getSectionPagingLinks */
function sectionPaging(category: string, type: MemberType, s: Section, fragment: string): string {
  if (s.until !== null) {
    const first = s.rows.length > 0 ? humanSortkey(s.rows[0]!) : null;
    return pagingLinks(category, type, s.next === null ? null : first, s.until, fragment);
  }
  if (s.next !== null || s.from !== null) return pagingLinks(category, type, s.from, s.next, fragment);
  return '';
}

/** The list grouped by the sort key's first letter, as CategoryViewer::columnList writes it. */
function memberList(wiki: Wiki, rows: CategoryMemberRow[]): string {
  let html = '<div class="mw-category">';
  let letter: string | null = null;
  for (const row of rows) {
    const first = String.fromCodePoint(row.sortkey.codePointAt(0) ?? 32);
    if (first !== letter) {
      if (letter !== null) html += '</ul></div>';
      letter = first;
      html += `<div class="mw-category-group"><h3>${escapeHtml(first)}</h3>\n<ul>`;
    }
    const key = wiki.codec.prefixedDbKey(row.ns, row.title);
    const title = escapeHtml(wiki.titleText(row.ns, row.title));
    // CategoryViewer::addSubcategoryObject: a subcategory by its name alone
    const text = row.type === 'subcat' ? escapeHtml(row.title.replace(/_/g, ' ')) : title;
    const link = `<a href="${articleUrl(key)}" title="${title}">${text}</a>`;
    html += `<li>${row.isRedirect ? `<span class="redirect-in-category">${link}</span>` : link}</li>`;
  }
  if (letter !== null) html += '</ul></div>';
  return html + '</div>';
}

/** Plural of a Ukrainian count: one, few, many (Language uk's convertPlural). */
function ukPlural(n: number, one: string, few: string, many: string): string {
  const d = n % 10;
  const dd = n % 100;
  if (d === 1 && dd !== 11) return one;
  if (d >= 2 && d <= 4 && (dd < 12 || dd > 14)) return few;
  return many;
}

/** A category page's members below its text (nothing when it has none). */
export async function categoryMembers(store: Store, wiki: Wiki, dbkey: string, query: URLSearchParams): Promise<string> {
  const category = wiki.codec.prefixedDbKey(14, dbkey);
  const name = escapeHtml(dbkey.replace(/_/g, ' '));
  const [counts] = await store.categories.byTitles([dbkey]);
  const sections = await Promise.all(SECTIONS.map((s) => section(store, dbkey, s.type, query)));
  // cat_pages counts every member; the pages section shows the others
  const subcats = counts?.subcats ?? 0;
  const files = counts?.files ?? 0;
  const total = { subcat: subcats, page: (counts?.pages ?? 0) - subcats - files, file: files };
  let html = '';
  const heads: Record<MemberType, { id: string; head: string; what: [string, string, string] }> = {
    subcat: { id: 'mw-subcategories', head: 'Підкатегорії', what: ['підкатегорія', 'підкатегорії', 'підкатегорій'] },
    page: { id: 'mw-pages', head: `Сторінки в категорії «${name}»`, what: ['сторінка', 'сторінки', 'сторінок'] },
    file: { id: 'mw-category-media', head: `Файли в категорії «${name}»`, what: ['файл', 'файли', 'файлів'] },
  };
  for (let i = 0; i < SECTIONS.length; i++) {
    const type = SECTIONS[i]!.type;
    const s = sections[i]!;
    if (s.rows.length === 0) continue;
    const h = heads[type];
    // the stored count is the category table's, which a dump's import keeps; never below what is shown
    const all = Math.max(total[type], s.rows.length);
    const count =
      all === s.rows.length
        ? `<p>Показано ${all} ${ukPlural(all, h.what[0], h.what[1], h.what[2])} цієї категорії.</p>`
        : `<p>Показано ${s.rows.length} ${ukPlural(s.rows.length, h.what[0], h.what[1], h.what[2])} цієї категорії (із ${all}).</p>`;
    const paging = sectionPaging(category, type, s, h.id);
    html += `<div id="${h.id}">\n<h2>${h.head}</h2>\n${count}\n${paging}${memberList(wiki, s.rows)}${paging}\n</div>`;
  }
  return html;
}

/** The largest size ImagePage shows a file at ($wgImageLimits' default for the view: 800×600). */
const VIEW_WIDTH = 800;
const VIEW_HEIGHT = 600;

function byteSize(n: number): string {
  if (n < 1024) return `${n} байтів`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} КБ`;
  return `${(n / 1048576).toFixed(2).replace('.', ',')} МБ`;
}

/** A file page's file above its description (nothing when no file of that name was imported). */
export async function fileView(store: Store, dbkey: string): Promise<string> {
  const file: FileRow | undefined = (await store.files.byNames([dbkey])).get(dbkey);
  if (file === undefined) return '';
  const url = fileUrlPath(dbkey);
  const mime = `${file.majorMime}/${file.minorMime}`;
  const shown = escapeHtml(dbkey.replace(/_/g, ' '));
  let image = '';
  if (file.majorMime === 'image' && file.width > 0 && file.height > 0) {
    const scale = Math.min(1, VIEW_WIDTH / file.width, VIEW_HEIGHT / file.height);
    const width = Math.max(1, Math.round(file.width * scale));
    const height = Math.max(1, Math.round(file.height * scale));
    image = `<div class="fullImageLink" id="file"><a href="${url}"><img alt="${shown}" src="${url}" width="${width}" height="${height}"></a></div>\n`;
  }
  const pixels = file.width > 0 && file.height > 0 ? `${file.width} × ${file.height} пікселів, ` : '';
  return `${image}<div class="fullMedia"><a href="${url}" class="internal" title="${shown}">${shown}</a> (${pixels}розмір файлу: ${byteSize(file.size)}, MIME-тип: ${escapeHtml(mime)})</div>\n`;
}
