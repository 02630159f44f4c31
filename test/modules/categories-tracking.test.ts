/**
 * Tracking categories reach the category tables as MediaWiki 1.25's parser adds them
 * (Parser::addTrackingCategory and its callers): a missing file shown with [[Файл:…]] or in a <gallery>
 * (not a [[Медіа:…]] link), __HIDDENCAT__ on a category page, __INDEX__/__NOINDEX__ outside the content
 * namespaces, a template given one parameter twice (PPFrame_Hash::newChild), and more expensive parser
 * function calls than $wgExpensiveParserFunctionLimit (Parser::parse). Category counts, categorymembers,
 * prop=categories (clshow=hidden), allcategories and action=parse all see them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { NAMESPACES, dumpXml, page } from '../helpers/dump-pages.js';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { importWiki } from '../../src/importer/import.js';
import { TEST_DB, freshPostgresDatabase } from '../helpers/test-db.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DATA = path.join(ROOT, 'test', 'data', 'tracking');

const BROKEN = 'Сторінки, що посилаються на неіснуючі файли';
const HIDDEN = 'Приховані категорії';
const NOINDEX = 'Неіндексовані сторінки';
const INDEX = 'Індексовані сторінки';
const DUPLICATE = 'Сторінки, що містять шаблон із кількома значеннями одного й того ж параметра';
const EXPENSIVE = 'Сторінки з дуже великою кількістю викликів ресурсомістких функцій';

let s: DemoServer;
before(async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-tracking-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const pages = JSON.parse(fs.readFileSync(path.join(DATA, 'pages.json'), 'utf8')) as Record<string, string>;
  const nsOf = (title: string) => {
    const colon = title.indexOf(':');
    const found = colon < 0 ? undefined : NAMESPACES.find(([, name]) => name === title.slice(0, colon));
    return found ? found[0] : 0;
  };
  fs.writeFileSync(path.join(dir, 'dump.xml'), dumpXml(Object.entries(pages).map(([title, text]) => page(title, nsOf(title), text))));
  const db = TEST_DB === 'postgres' ? await freshPostgresDatabase('tracking') : path.join(dir, 'wiki.sqlite');
  await importWiki({
    dump: path.join(dir, 'dump.xml'),
    db,
    messageDirs: [path.join(DATA, 'messages')],
    lang: 'uk',
    progress: false,
    log: () => {},
  });
  s = await startDemoServer({ db });
});
after(async () => {
  await s?.close();
});

const members = async (category: string): Promise<string[]> => {
  const r = await s.get({ action: 'query', list: 'categorymembers', cmtitle: `Категорія:${category}`, cmlimit: 'max', formatversion: 2 });
  return r.json.query.categorymembers.map((m: any) => m.title);
};

describe('tracking categories in the category tables', () => {
  it('broken files: [[Файл:…]] and <gallery> of a missing file, not [[Медіа:…]]', async () => {
    assert.deepEqual(await members(BROKEN), ['Битий файл', 'Галерея']);
  });

  it('__HIDDENCAT__: the category page joins the hidden category, and hides itself from clshow=!hidden', async () => {
    assert.deepEqual(await members(HIDDEN), ['Категорія:Службова']);
    const cats = async (clshow?: string) => {
      const params: Record<string, string | number> = {
        action: 'query',
        prop: 'categories',
        titles: 'Стаття',
        clprop: 'hidden',
        formatversion: 2,
      };
      if (clshow) params.clshow = clshow;
      const r = await s.get(params);
      return r.json.query.pages[0].categories;
    };
    assert.deepEqual(await cats(), [
      { ns: 14, title: 'Категорія:Звичайна' },
      { ns: 14, title: 'Категорія:Службова', hidden: true },
    ]);
    assert.deepEqual(await cats('hidden'), [{ ns: 14, title: 'Категорія:Службова', hidden: true }]);
    assert.deepEqual(await cats('!hidden'), [{ ns: 14, title: 'Категорія:Звичайна' }]);
  });

  it('__INDEX__/__NOINDEX__ outside the content namespaces only', async () => {
    assert.deepEqual(await members(NOINDEX), ['Користувач:Приховано']);
    assert.deepEqual(await members(INDEX), ['Користувач:Показано']);
  });

  it('a template parameter given twice, by name or by position (PPFrame_Hash::newChild)', async () => {
    assert.deepEqual(await members(DUPLICATE), ['Дублікати', 'Позиційні']);
  });

  it('more than 100 expensive parser function calls; 100 are fine', async () => {
    assert.deepEqual(await members(EXPENSIVE), ['Багато перевірок']);
  });

  it('counts and allcategories see them', async () => {
    const r = await s.get({ action: 'query', list: 'allcategories', acprop: 'size|hidden', aclimit: 'max', formatversion: 2 });
    const byName = new Map(r.json.query.allcategories.map((c: any) => [c.category, c]));
    assert.deepEqual(byName.get(BROKEN), { category: BROKEN, size: 2, pages: 2, files: 0, subcats: 0, hidden: false });
    assert.deepEqual(byName.get(HIDDEN), { category: HIDDEN, size: 1, pages: 0, files: 0, subcats: 1, hidden: false });
    assert.deepEqual(byName.get('Службова'), { category: 'Службова', size: 1, pages: 1, files: 0, subcats: 0, hidden: true });
    const info = await s.get({ action: 'query', prop: 'categoryinfo', titles: `Категорія:${DUPLICATE}`, formatversion: 2 });
    assert.deepEqual(info.json.query.pages[0].categoryinfo, { size: 2, pages: 2, files: 0, subcats: 0, hidden: false });
  });

  it('action=parse of the pages lists the same categories', async () => {
    const cats = async (title: string) => {
      const r = await s.get({ action: 'parse', page: title, prop: 'categories', formatversion: 2 });
      return r.json.parse.categories.map((c: any) => c.category);
    };
    assert.deepEqual(await cats('Дублікати'), [DUPLICATE.replace(/ /g, '_')]);
    assert.deepEqual(await cats('Галерея'), [BROKEN.replace(/ /g, '_')]);
    assert.deepEqual(await cats('Багато перевірок'), [EXPENSIVE.replace(/ /g, '_')]);
    assert.deepEqual(await cats('Користувач:Приховано'), [NOINDEX.replace(/ /g, '_')]);
  });
});
