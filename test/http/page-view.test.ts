/**
 * The page view at the article path, as a person meets it: /wiki/Title as /index.php/Title, no edit links
 * on a read-only server, a category page's members paged as MediaWiki's CategoryViewer pages them, the file
 * on a file page, and the logo siteinfo names.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { dumpXml, page } from '../helpers/dump-pages.js';
import { importWiki } from '../../src/importer/import.js';
import { openStore } from '../../src/store/open.js';
import { createServer } from '../../src/http/server.js';

let s: DemoServer;
let origin: string;
before(async () => {
  s = await startDemoServer();
  origin = new URL(s.url).origin;
});
after(() => s.close());

async function view(path: string): Promise<{ status: number; html: string; type: string | null }> {
  const r = await fetch(origin + path);
  return { status: r.status, html: await r.text(), type: r.headers.get('content-type') };
}

/** The titles a section of a category page lists, in order. */
function listed(html: string, sectionId: string): string[] {
  const start = html.indexOf(`<div id="${sectionId}">`);
  if (start < 0) return [];
  const end = html.indexOf('\n</div>', start);
  return [...html.slice(start, end).matchAll(/<li>(?:<span class="redirect-in-category">)?<a href="[^"]+" title="([^"]+)">/g)].map((m) =>
    m[1]!.replace(/&#039;/g, "'").replace(/&amp;/g, '&'),
  );
}

async function members(category: string, type: string): Promise<{ title: string; sortkeyprefix: string }[]> {
  const r = await s.get({
    action: 'query',
    list: 'categorymembers',
    cmtitle: category,
    cmtype: type,
    cmlimit: 500,
    cmprop: 'title|sortkeyprefix',
    formatversion: 2,
  });
  return r.json.query.categorymembers;
}

describe('the page view', () => {
  it('answers at /wiki/Title as at /index.php/Title', async () => {
    const title = encodeURIComponent('Київ');
    const short = await view(`/wiki/${title}`);
    const long = await view(`/index.php/${title}`);
    assert.equal(short.status, 200);
    assert.equal(short.type, 'text/html; charset=utf-8');
    assert.equal(short.html, long.html);
    assert.match(short.html, /<h1 id="firstHeading">Київ<\/h1>/);
  });

  it('offers no edit links (the API keeps them: action=parse is what MediaWiki gives)', async () => {
    const page = await view(`/wiki/${encodeURIComponent('Київ')}`);
    assert.match(page.html, /<span class="mw-headline"/, 'the page has sections');
    assert.doesNotMatch(page.html, /class="mw-editsection"|action=edit&amp;section=/);
    const parsed = await s.get({ action: 'parse', page: 'Київ', prop: 'text', formatversion: 2 });
    assert.match(parsed.json.parse.text, /class="mw-editsection"/);
  });

  it('shows the logo siteinfo names, and the logo is there', async () => {
    const logo = (await s.get({ action: 'query', meta: 'siteinfo', formatversion: 2 })).json.query.general.logo as string;
    const path = new URL(logo).pathname;
    const page = await view('/wiki/Київ');
    assert.ok(page.html.includes(`<img src="${path}"`), 'the page view shows it');
    const r = await fetch(origin + path);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'image/png');
    assert.deepEqual([...new Uint8Array(await r.arrayBuffer()).slice(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  });

  it("lists a category page's subcategories and pages in sort-key order, with their counts", async () => {
    const category = 'Категорія:Міста';
    const page = await view(`/wiki/${encodeURIComponent(category)}`);
    assert.equal(page.status, 200);
    const pages = await members(category, 'page');
    const subcats = await members(category, 'subcat');
    assert.ok(pages.length > 10 && subcats.length > 0);
    assert.deepEqual(
      listed(page.html, 'mw-pages'),
      pages.map((m) => m.title),
    );
    assert.deepEqual(
      listed(page.html, 'mw-subcategories'),
      subcats.map((m) => m.title),
    );
    assert.match(
      page.html,
      new RegExp(`<h2>Сторінки в категорії «Міста»</h2>\n<p>Показано ${pages.length} сторінок цієї категорії\\.</p>`),
    );
    // one page of members: no paging links
    assert.doesNotMatch(page.html, /pagefrom=|pageuntil=/);
  });

  it('pages a category by sort key as CategoryViewer does: pagefrom, pageuntil and the links between them', async () => {
    const category = 'Категорія:Міста';
    const rows = await members(category, 'page');
    const pages = rows.map((m) => m.title);
    // the stored sort key: the uppercased sort key prefix and title (Title::getCategorySortkey)
    const keys = rows.map((m) => (m.sortkeyprefix === '' ? m.title : `${m.sortkeyprefix}\n${m.title}`).toUpperCase());
    const split = keys.findIndex((k) => k >= 'К');
    assert.ok(split > 0);
    assert.ok(keys.slice(split).every((k) => k >= 'К'));
    const url = (q: string) => `/index.php?title=${encodeURIComponent(category)}&${q}`;
    const from = await view(url(`pagefrom=${encodeURIComponent('к')}`));
    assert.deepEqual(listed(from.html, 'mw-pages'), pages.slice(split));
    assert.match(from.html, new RegExp(`Показано ${pages.length - split} сторінок цієї категорії \\(із ${pages.length}\\)`));
    // back to what comes before it, and no further (this was the last page)
    assert.ok(
      from.html.includes(
        `&amp;pageuntil=${encodeURIComponent('к')}#mw-pages" title="Категорія:Міста">попередня сторінка</a>) (наступна сторінка)`,
      ),
    );
    const until = await view(url(`pageuntil=${encodeURIComponent('К')}`));
    assert.deepEqual(listed(until.html, 'mw-pages'), pages.slice(0, split));
    assert.ok(
      until.html.includes(
        `(попередня сторінка) (<a href="/index.php?title=${encodeURIComponent(category).replace('%3A', ':')}&amp;pagefrom=${encodeURIComponent('К')}#mw-pages"`,
      ),
    );
    // from/until without a type apply to every section; the subcategories follow their own sort keys
    const both = await view(url(`from=${encodeURIComponent('Я')}`));
    assert.deepEqual(
      listed(both.html, 'mw-pages'),
      pages.filter((_t, i) => keys[i]! >= 'Я'),
    );
  });

  it("shows a file page's file above its description", async () => {
    const files = (await s.get({ action: 'query', list: 'allimages', ailimit: 1, aiprop: 'url|size|mime', formatversion: 2 })).json.query
      .allimages;
    const file = files[0];
    const page = await view(`/wiki/${encodeURIComponent(`Файл:${file.name}`)}`);
    assert.equal(page.status, 200);
    const src = new URL(file.url).pathname;
    assert.ok(
      page.html.includes(
        `<div class="fullImageLink" id="file"><a href="${src}"><img alt="${file.name.replace(/_/g, ' ')}" src="${src}" width="${file.width}" height="${file.height}"></a></div>`,
      ),
      page.html.slice(0, 2000),
    );
    assert.ok(page.html.indexOf('fullImageLink') < page.html.indexOf('mw-content-text'));
    const bytes = await fetch(origin + src);
    assert.equal(bytes.status, 200);
    assert.equal(bytes.headers.get('content-type'), file.mime);
  });
});

describe('a category of more than 200 pages', () => {
  it('shows 200 at a time, with links to the next and the previous 200', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wikiquery-page-view-'));
    try {
      // 205 members; page numbers padded so that the sort keys order as the numbers do
      const titles = Array.from({ length: 205 }, (_, i) => `Сторінка ${String(i + 1).padStart(3, '0')}`);
      const pages = [
        page('Категорія:Багато', 14, 'Категорія з багатьма сторінками.'),
        ...titles.map((t) => page(t, 0, `Текст.\n[[Категорія:Багато]]`)),
      ];
      writeFileSync(join(dir, 'dump.xml'), dumpXml(pages));
      const db = join(dir, 'wiki.sqlite');
      await importWiki({ dump: join(dir, 'dump.xml'), db, lang: 'uk', progress: false, log: () => {} });
      const server = await createServer({ store: await openStore(db), logLevel: 'silent' });
      const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const get = async (query: string) =>
          (await fetch(`${base}/index.php?title=${encodeURIComponent('Категорія:Багато')}${query}`)).text();
        const first = await get('');
        assert.deepEqual(listed(first, 'mw-pages'), titles.slice(0, 200));
        assert.match(first, /Показано 200 сторінок цієї категорії \(із 205\)/);
        const next = /\(попередня сторінка\) \(<a href="([^"]+)"[^>]*>наступна сторінка<\/a>\)/.exec(first);
        assert.ok(next, 'a link to the next 200');
        const nextUrl = next[1]!.replace(/&amp;/g, '&').replace(/#.*$/, '');
        assert.equal(new URL(nextUrl, base).searchParams.get('pagefrom'), titles[200]);
        const second = await (await fetch(new URL(nextUrl, base))).text();
        assert.deepEqual(listed(second, 'mw-pages'), titles.slice(200));
        assert.match(second, /Показано 5 сторінок цієї категорії \(із 205\)/);
        const prev = /\(<a href="([^"]+)"[^>]*>попередня сторінка<\/a>\) \(наступна сторінка\)/.exec(second);
        assert.ok(prev, 'a link back, none further');
        const back = await (await fetch(new URL(prev[1]!.replace(/&amp;/g, '&').replace(/#.*$/, ''), base))).text();
        // the 200 before the first of the second page
        assert.deepEqual(listed(back, 'mw-pages'), titles.slice(0, 200));
      } finally {
        await server.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
