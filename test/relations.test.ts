/**
 * The page relations (issue 9) over HTTP on the demo wiki: prop=links/templates/linkshere/transcludedin/
 * redirects/categoryinfo, list=backlinks/embeddedin/alllinks/alltransclusions/allredirects -- exact
 * answers, errors and warnings as 1.25 gives them, generator mode; and the query plans of the store
 * methods behind them. Where an answer below equals the MediaWiki oracle's for the same dump, the test
 * says so; the oracle differs from us only where it runs without Semantic MediaWiki ([[P::V]] are page
 * links there) and without language prefixes in its interwiki table ([[en:X]] are page links there).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoDatabase, startDemoServer, type DemoServer } from './helpers/demo-server.js';
import { Db, queryLog, type QueryLogEntry } from '../src/store/sqlite/db.js';
import { SqliteRelationStore } from '../src/store/sqlite/relations.js';

let s: DemoServer;
before(async () => {
  s = await startDemoServer();
});
after(async () => {
  await s?.close();
});

const q = async (params: Record<string, string | number>) => (await s.get({ action: 'query', continue: '', ...params })).json;

describe('prop=links, prop=templates', () => {
  it('templates of a page, nested ones included (the oracle gives the same)', async () => {
    assert.deepEqual(await q({ prop: 'templates', titles: 'Київ' }), {
      batchcomplete: '',
      query: {
        pages: {
          '336': {
            pageid: 336,
            ns: 0,
            title: 'Київ',
            templates: ['!!', 'Coord', 'Вік', 'Місто', 'Прапор', 'Цитата'].map((t) => ({ ns: 10, title: `Шаблон:${t}` })),
          },
        },
      },
    });
  });
  it('pltitles filters, warning about invalid titles; continuation is <from>|<ns>|<title>', async () => {
    assert.deepEqual(await q({ prop: 'links', titles: 'Київ', pltitles: 'Україна|Немає|A[b]' }), {
      batchcomplete: '',
      warnings: { links: { '*': '"A[b]" is not a valid title' } },
      query: { pages: { '336': { pageid: 336, ns: 0, title: 'Київ', links: [{ ns: 0, title: 'Україна' }] } } },
    });
    const r = await q({ prop: 'links', titles: 'Київ|Львів', pllimit: 1, plnamespace: 0 });
    assert.deepEqual(r.continue, { plcontinue: '336|0|Дніпро_(річка)', continue: '||' });
    assert.equal(r.batchcomplete, undefined);
  });
  it('as a generator yields the targets, missing ones included', async () => {
    const r = await q({ generator: 'links', titles: 'Головна сторінка', gpllimit: 'max', gplnamespace: 14 });
    assert.deepEqual(Object.values(r.query.pages).map((p: any) => p.title).sort(), ['Категорія:Міста', 'Категорія:Персонажі', 'Категорія:Річки', 'Категорія:Українська кухня']);
  });
});

describe('list=backlinks, list=embeddedin', () => {
  it('backlinks with blredirect: redirects carry the pages that link to them (the oracle gives the same, less its stale main page)', async () => {
    const r = await q({ list: 'backlinks', bltitle: 'Київ', blredirect: '', bllimit: 'max' });
    assert.deepEqual(r.limits, { backlinks: 250 });
    const byId = new Map(r.query.backlinks.map((e: any) => [e.pageid, e]));
    assert.deepEqual(byId.get(95), { pageid: 95, ns: 0, title: 'Історія Києва', redirect: '', redirlinks: [{ pageid: 336, ns: 0, title: 'Київ' }] });
    assert.deepEqual(byId.get(179), { pageid: 179, ns: 0, title: 'Місто Київ', redirect: '', redirlinks: [{ pageid: 189, ns: 0, title: 'Столиця України', redirect: '' }] });
    assert.deepEqual(r.query.backlinks.map((e: any) => e.pageid), [1, 4, 32, 37, 44, 68, 95, 128, 179, 339, 346]);
  });
  it('first-level continuation <ns>|<page id>; blfilterredir', async () => {
    assert.deepEqual((await q({ list: 'backlinks', bltitle: 'Київ', bllimit: 4 })).continue, { blcontinue: '0|44', continue: '-||' });
    const r = await q({ list: 'backlinks', bltitle: 'Київ', blfilterredir: 'redirects', bllimit: 'max' });
    assert.deepEqual(r.query.backlinks.map((e: any) => e.title), ['Kyiv', 'Історія Києва', 'Місто Київ']);
  });
  it('errors as 1.25: title and pageid together, neither, a bad continuation; eiredirect does not exist', async () => {
    assert.equal((await q({ list: 'backlinks', bltitle: 'Київ', blpageid: 1 })).error.code, 'blinvalidparammix');
    assert.deepEqual((await q({ list: 'backlinks' })).error.info, 'One of the parameters bltitle, blpageid is required');
    assert.equal((await q({ list: 'backlinks', bltitle: 'Київ', blcontinue: '0|07' })).error.code, 'blbadcontinue');
    const r = await q({ list: 'embeddedin', eititle: 'Шаблон:Місто', eiredirect: '' });
    assert.deepEqual(r.warnings.main, { '*': "Unrecognized parameter: 'eiredirect'" });
  });
  it('embeddedin of a template, generator mode gives the same pages', async () => {
    const list = (await q({ list: 'embeddedin', eititle: 'Шаблон:Прапор', eilimit: 'max' })).query.embeddedin.map((e: any) => e.pageid);
    const gen = await q({ generator: 'embeddedin', geititle: 'Шаблон:Прапор', geilimit: 'max' });
    assert.ok(list.length > 10);
    assert.deepEqual(Object.keys(gen.query.pages).map(Number), list);
  });
});

describe('prop=linkshere, transcludedin, redirects, categoryinfo', () => {
  it('linkshere of several titles, missing ones included, continuation <title>|<page id>', async () => {
    const r = await q({ prop: 'linkshere', titles: 'Україна|Неіснуюча стаття', lhlimit: 2, lhprop: 'title' });
    assert.deepEqual(r.continue, { lhcontinue: 'Неіснуюча_стаття|124', continue: '||' });
    assert.equal(r.query.pages['-1'].title, 'Неіснуюча стаття');
    assert.equal(r.query.pages['-1'].linkshere.length, 2);
  });
  it('redirects with fragments; rdshow=fragment; mutually exclusive show values', async () => {
    assert.deepEqual(await q({ prop: 'redirects', titles: 'Київ', rdprop: 'title|fragment', rdshow: 'fragment' }), {
      batchcomplete: '',
      query: { pages: { '336': { pageid: 336, ns: 0, title: 'Київ', redirects: [{ ns: 0, title: 'Історія Києва', fragment: 'Історія' }] } } },
    });
    assert.equal((await q({ prop: 'redirects', titles: 'Київ', rdshow: 'fragment|!fragment' })).error.code, 'rdshow');
  });
  it('categoryinfo: counts of the category table, hidden, nothing for a category without members', async () => {
    const r = await q({ prop: 'categoryinfo', titles: 'Категорія:Міста|Категорія:Статті без джерел|Категорія:Немає' });
    const byTitle = new Map(Object.values(r.query.pages).map((p: any) => [p.title, p]));
    assert.deepEqual((byTitle.get('Категорія:Міста') as any).categoryinfo, { size: 71, pages: 68, files: 0, subcats: 3 });
    assert.equal((byTitle.get('Категорія:Статті без джерел') as any).categoryinfo.hidden, '');
    assert.deepEqual(byTitle.get('Категорія:Немає'), { ns: 14, title: 'Категорія:Немає', missing: '' });
  });
});

describe('list=alllinks, alltransclusions, allredirects', () => {
  it('unique with ids is refused naming the unprefixed parameters, in generator mode too', async () => {
    assert.deepEqual((await q({ list: 'alllinks', alunique: '', alprop: 'ids' })).error.info, 'Cannot use alprop=ids with alunique');
    assert.deepEqual((await q({ generator: 'allredirects', garunique: '', garprop: 'fragment' })).error, {
      code: 'garparams',
      info: 'Cannot use arprop=fragment with arunique',
      '*': `See ${s.url} for API usage`,
    });
  });
  it('allredirects lists fragments (the oracle gives the same)', async () => {
    const r = await q({ list: 'allredirects', arprop: 'ids|title|fragment', arprefix: 'Ки' });
    assert.deepEqual(r.query.allredirects, [
      { fromid: 32, ns: 0, title: 'Київ' },
      { fromid: 95, ns: 0, title: 'Київ', fragment: 'Історія' },
      { fromid: 179, ns: 0, title: 'Київ' },
    ]);
  });
  it('alltransclusions defaults to the template namespace; from/to are title parts there', async () => {
    const r = await q({ list: 'alltransclusions', atunique: '', atfrom: 'П', atto: 'Р' });
    assert.deepEqual(r.query.alltransclusions, [
      { ns: 10, title: 'Шаблон:Персонаж' },
      { ns: 10, title: 'Шаблон:Прапор' },
      { ns: 10, title: 'Шаблон:Простір назв' },
    ]);
  });
});

describe('relation store query plans', () => {
  it('each statement is an index seek or a range scan that stops at its LIMIT, without a sort', async () => {
    const { db: file } = await demoDatabase();
    const db = new Db(file, { debug: true });
    try {
      const r = new SqliteRelationStore(db);
      const log: QueryLogEntry[] = [];
      queryLog.run(log, () => {
        for (const descending of [false, true]) {
          for (const table of ['pagelinks', 'templatelinks'] as const) {
            void r.linksOf({ table, pageids: [1, 2], descending, limit: 3 });
            void r.linksOf({ table, pageids: [1], namespaces: [0, 10], only: [{ ns: 0, title: 'A' }], continueAt: { from: 1, ns: 0, title: 'A' }, descending, limit: 3 });
          }
          for (const table of ['pagelinks', 'templatelinks', 'redirect'] as const) {
            void r.linkers({ table, ns: 0, title: 'A', descending, limit: 3 });
            void r.linkers({ table, ns: 0, title: 'A', fromNs: 0, fromId: 3, redirect: true, descending, limit: 3 });
            void r.linkers({ table, ns: 0, title: 'A', fromId: 3, pageNamespaces: [0, 2], descending, limit: 3 });
            void r.allLinks({ table, ns: 0, from: 'A', to: 'B', prefix: 'A', continueAt: { title: 'A', from: 1 }, descending, limit: 3 });
            void r.allLinkTitles({ table, ns: 0, prefix: 'A', continueAt: 'A', descending, limit: 3 });
          }
        }
        void r.categoryInfo(['A', 'B']);
      });
      const seen = new Set<string>();
      for (const { sql } of log) {
        if (seen.has(sql)) continue;
        seen.add(sql);
        const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]))];
        const args = [Object.fromEntries(names.map((n) => [n, /^(limit|ns|fromNs|fromId|from|cf|cn|p\d|n\d|on\d|pn\d|redirect|contFrom)$/.test(n) ? 3 : 'x']))];
        const plan = (db.raw.prepare('EXPLAIN QUERY PLAN ' + sql).all(...args) as Array<{ detail: string }>).map((p) => p.detail);
        for (const step of plan) assert.match(step, /^(SEARCH |CREATE BLOOM FILTER|SCAN CONSTANT ROW|CORRELATED SCALAR SUBQUERY|LIST SUBQUERY|CO-ROUTINE|SCAN \d+-ROW VALUES|USING ROWID SEARCH)/, `${step}\n  in ${sql}\n  ${plan.join(' / ')}`);
        assert.ok(!plan.some((p) => p.includes('TEMP B-TREE')), `${plan.join(' / ')}\n  in ${sql}`);
        if (/pl_from_namespace = @fromNs/.test(sql)) assert.ok(plan.some((p) => p.includes('pl_backlinks_namespace')), plan.join(' / '));
      }
      assert.ok(seen.size >= 20);
    } finally {
      db.close();
    }
  });
});
