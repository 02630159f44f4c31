/**
 * list=querypage (also as generator) over HTTP on the demo wiki: the Ancientpages request as exact JSON,
 * every parameter, the errors, all three continuation forms and continuation joins; then the report
 * builder on a hand-made database (MediaWiki's report definitions case by case) and on its own thread.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { RAW_CONTINUE_WARNING as RAW_WARNING, demoServerForFile, assertApiError } from '../helpers/demo-server.js';
import { SCHEMA } from '../../src/store/sqlite/schema.js';
import { buildReports, REPORT_QUERIES, REPORT_SOURCE_TABLES } from '../../src/store/sqlite/import/reports.js';
import { importWiki } from '../../src/importer/import.js';
import { importHooks } from '../../src/cli/import-command.js';
import { QUERY_PAGES } from '../../src/modules/query/querypage.js';

const s = demoServerForFile();

/** GET with raw UTF-8 output (utf8=1) so that expected texts are readable. */
const get = (params: Record<string, string | number | boolean>) => s.get({ utf8: 1, ...params });
const qp = (params: Record<string, string | number | boolean>) => get({ action: 'query', list: 'querypage', ...params });

const assertError = (r: { json: any; headers: Headers }, code: string, info: string) => assertApiError(s, r, code, info);

/** The demo database itself, for expectations computed independently of the report SQL. */
function demoDb(): Database.Database {
  return new Database(join(s.dir, 'demo.sqlite'), { readonly: true });
}

// -------------------------------------------------------------------------------------------------
// list=querypage
// -------------------------------------------------------------------------------------------------

const ANCIENT_FIRST_10 =
  '[{"value":"20090110080000","timestamp":"2009-01-10T08:00:00Z","ns":0,"title":"Прадавня легенда"},' +
  '{"value":"20090214120000","timestamp":"2009-02-14T12:00:00Z","ns":0,"title":"Стара хроніка"},' +
  '{"value":"20090301093000","timestamp":"2009-03-01T09:30:00Z","ns":0,"title":"Перший запис"},' +
  '{"value":"20090615102030","timestamp":"2009-06-15T10:20:30Z","ns":0,"title":"Кобза"},' +
  '{"value":"20090615102030","timestamp":"2009-06-15T10:20:30Z","ns":0,"title":"Сопілка"},' +
  '{"value":"20090615102030","timestamp":"2009-06-15T10:20:30Z","ns":0,"title":"Трембіта"},' +
  '{"value":"20090929064018","timestamp":"2009-09-29T06:40:18Z","ns":0,"title":"Petro Smith"},' +
  '{"value":"20091029012521","timestamp":"2009-10-29T01:25:21Z","ns":0,"title":"Єнот"},' +
  '{"value":"20091127170246","timestamp":"2009-11-27T17:02:46Z","ns":0,"title":"Південний Буг"},' +
  '{"value":"20091208023922","timestamp":"2009-12-08T02:39:22Z","ns":0,"title":"Котигорошко"}]';

describe('list=querypage&qppage=Ancientpages', () => {
  it('least recently edited non-redirect main-namespace pages first, 10 per batch, raw continuation with the warning', async () => {
    const r = await qp({ qppage: 'Ancientpages' });
    assert.equal(
      r.text,
      `{"warnings":{"query":{"*":"${RAW_WARNING}"}},"query-continue":{"querypage":{"qpoffset":10}},` +
        `"query":{"querypage":{"name":"Ancientpages","results":${ANCIENT_FIRST_10}}}}`,
    );
    // the offset is a JSON number
    assert.equal(r.json['query-continue'].querypage.qpoffset, 10);
  });
  it('rawcontinue keeps the raw form without the warning; continue= gives the new form with batchcomplete', async () => {
    const raw = await qp({ qppage: 'Ancientpages', rawcontinue: 1 });
    assert.equal(
      raw.text,
      `{"query-continue":{"querypage":{"qpoffset":10}},"query":{"querypage":{"name":"Ancientpages","results":${ANCIENT_FIRST_10}}}}`,
    );
    const cont = await qp({ qppage: 'Ancientpages', continue: '' });
    assert.equal(
      cont.text,
      `{"batchcomplete":"","continue":{"qpoffset":10,"continue":"-||"},"query":{"querypage":{"name":"Ancientpages","results":${ANCIENT_FIRST_10}}}}`,
    );
    const next = await qp({ qppage: 'Ancientpages', continue: '-||', qpoffset: 10, qplimit: 2 });
    assert.deepEqual(next.json.continue, { qpoffset: 12, continue: '-||' });
    const all = await qp({ qppage: 'Ancientpages', qplimit: 12 });
    assert.deepEqual(next.json.query.querypage.results, all.json.query.querypage.results.slice(10, 12));
  });
  it('every non-redirect main-namespace page once, ascending by value then title; the last batch has no continuation', async () => {
    const all = await qp({ qppage: 'Ancientpages', qplimit: 'max' });
    assert.deepEqual(all.json.limits, { querypage: 500 });
    assert.equal(all.json['query-continue'], undefined);
    const results = all.json.query.querypage.results as any[];
    const db = demoDb();
    try {
      const expected = db
        .prepare('SELECT page_title AS t, latest_timestamp AS v FROM page WHERE page_namespace = 0 AND page_is_redirect = 0')
        .all() as Array<{ t: string; v: string }>;
      expected.sort((a, b) => (a.v < b.v ? -1 : a.v > b.v ? 1 : Buffer.compare(Buffer.from(a.t), Buffer.from(b.t))));
      assert.deepEqual(
        results.map((x) => [x.value, x.title]),
        expected.map((e) => [e.v, e.t.replace(/_/g, ' ')]),
      );
    } finally {
      db.close();
    }
    for (const x of results) {
      assert.match(x.value, /^\d{14}$/);
      assert.equal(
        x.timestamp,
        `${x.value.slice(0, 4)}-${x.value.slice(4, 6)}-${x.value.slice(6, 8)}T${x.value.slice(8, 10)}:${x.value.slice(10, 12)}:${x.value.slice(12, 14)}Z`,
      );
      assert.deepEqual(Object.keys(x), ['value', 'timestamp', 'ns', 'title']);
    }
    const tail = await qp({ qppage: 'Ancientpages', qpoffset: results.length - 2 });
    assert.equal(tail.json['query-continue'], undefined);
    assert.equal(tail.json.warnings, undefined);
    assert.deepEqual(tail.json.query.querypage.results, results.slice(-2));
    const beyond = await qp({ qppage: 'Ancientpages', qpoffset: 100000 });
    assert.equal(beyond.text, '{"query":{"querypage":{"name":"Ancientpages","results":[]}}}');
  });
});

describe('list=querypage: other reports against the demo data', () => {
  it('BrokenRedirects lists the two redirects to missing pages, by target, with their targets as databaseResult', async () => {
    assert.equal(
      (await qp({ qppage: 'BrokenRedirects' })).text,
      '{"query":{"querypage":{"name":"BrokenRedirects","results":[' +
        '{"value":"Загублена_сторінка","ns":0,"title":"Загублена сторінка","databaseResult":{"rd_namespace":"0","rd_title":"Сторінка,_якої_немає"}},' +
        '{"value":"Старий_вокзал","ns":0,"title":"Старий вокзал","databaseResult":{"rd_namespace":"0","rd_title":"Ще_один_неіснуючий_вокзал"}}]}}}',
    );
  });
  it('DoubleRedirects lists the redirect to a redirect with both hops', async () => {
    assert.equal(
      (await qp({ qppage: 'DoubleRedirects' })).text,
      '{"query":{"querypage":{"name":"DoubleRedirects","results":[{"value":"Столиця_України","ns":0,"title":"Столиця України","databaseResult":{"nsb":"0","tb":"Місто_Київ","nsc":"0","tc":"Київ","iwc":""}}]}}}',
    );
  });
  it('Wantedfiles lists the red file links (a file without description page is not wanted, a description page without file is)', async () => {
    assert.equal(
      (await qp({ qppage: 'Wantedfiles' })).text,
      '{"query":{"querypage":{"name":"Wantedfiles","results":[{"value":"1","ns":6,"title":"Файл:Nonexistent image.jpg"},' +
        '{"value":"1","ns":6,"title":"Файл:Анімація неіснуюча.gif"},{"value":"1","ns":6,"title":"Файл:Втрачене фото.jpg"},' +
        '{"value":"1","ns":6,"title":"Файл:Неіснуюче фото Києва.jpg"},{"value":"1","ns":6,"title":"Файл:Неіснуючий файл.png"},' +
        '{"value":"1","ns":6,"title":"Файл:Пампушки неіснуючі.png"}]}}}',
    );
  });
  it('Mostlinkedtemplates counts the transclusions of every template, most used first, ties by title', async () => {
    const r = await qp({ qppage: 'Mostlinkedtemplates', qplimit: 'max' });
    const results = r.json.query.querypage.results as any[];
    const db = demoDb();
    try {
      const counts = db
        .prepare('SELECT tl_namespace AS ns, tl_title AS t, COUNT(DISTINCT tl_from) AS c FROM templatelinks GROUP BY 1, 2')
        .all() as any[];
      assert.equal(results.length, counts.length);
      for (const c of counts) {
        const row = results.find((x) => x.ns === c.ns && x.title === (c.ns === 10 ? 'Шаблон:' : '') + c.t.replace(/_/g, ' '));
        assert.ok(row, c.t);
        assert.equal(row.value, String(c.c));
      }
    } finally {
      db.close();
    }
    const values = results.map((x) => Number(x.value));
    assert.deepEqual(
      values,
      [...values].sort((a, b) => b - a),
    );
    assert.deepEqual(results.slice(0, 2), [
      { value: '68', ns: 10, title: 'Шаблон:Місто' },
      { value: '68', ns: 10, title: 'Шаблон:Прапор' },
    ]);
  });
  it('Listredirects lists every redirect page with its target and the target page id', async () => {
    const r = await qp({ qppage: 'Listredirects', qplimit: 'max' });
    const results = r.json.query.querypage.results as any[];
    const db = demoDb();
    try {
      assert.equal(results.length, db.prepare('SELECT COUNT(*) FROM page WHERE page_is_redirect = 1').pluck().get() as number);
      const kyiv = db.prepare("SELECT page_id FROM page WHERE page_namespace = 0 AND page_title = 'Київ'").pluck().get();
      assert.deepEqual(
        results.find((x) => x.title === 'Kyiv'),
        {
          value: 'Kyiv',
          ns: 0,
          title: 'Kyiv',
          databaseResult: { rd_namespace: '0', rd_title: 'Київ', rd_fragment: '', rd_interwiki: '', redirid: String(kyiv) },
        },
      );
    } finally {
      db.close();
    }
    const broken = results.find((x) => x.title === 'Загублена сторінка');
    assert.equal(broken.databaseResult.redirid, null);
    assert.deepEqual(
      results.map((x) => x.ns),
      [...results.map((x) => x.ns)].sort((a, b) => a - b),
    );
  });
  it('MediaStatistics: one fake Media: title per (media type, MIME) with count and bytes, MySQL enum order', async () => {
    assert.equal(
      (await qp({ qppage: 'MediaStatistics' })).text,
      '{"query":{"querypage":{"name":"MediaStatistics","results":[{"value":"1","ns":-2,"title":"Медіа:TEXT;text/plain;1;189"},' +
        '{"value":"1","ns":-2,"title":"Медіа:OFFICE;application/pdf;1;672"},{"value":"1","ns":-2,"title":"Медіа:DRAWING;image/svg+xml;3;1011"},' +
        '{"value":"1","ns":-2,"title":"Медіа:BITMAP;image/png;46;26046"},{"value":"1","ns":-2,"title":"Медіа:BITMAP;image/gif;3;22689"}]}}}',
    );
  });
  it('Unusedimages: oldest upload first, timestamps, uploader and description as databaseResult', async () => {
    const r = await qp({ qppage: 'Unusedimages', qplimit: 2, rawcontinue: 1 });
    assert.equal(
      r.text,
      '{"query-continue":{"querypage":{"qpoffset":2}},"query":{"querypage":{"name":"Unusedimages","results":[' +
        '{"value":"20100319162423","timestamp":"2010-03-19T16:24:23Z","ns":6,"title":"Файл:Порожнє зображення.png","databaseResult":{"img_user":"1","img_user_text":"Адміністратор","img_description":"Білий квадрат 16×16."}},' +
        '{"value":"20110903144221","timestamp":"2011-09-03T14:42:21Z","ns":6,"title":"Файл:Star.svg","databaseResult":{"img_user":"6","img_user_text":"Ivan Petrenko","img_description":"Star (duplicate of Зірка.svg)."}}]}}}',
    );
  });
  it('Mostlinked has page_namespace (null for missing targets); Wantedpages lists only missing targets', async () => {
    const ml = (await qp({ qppage: 'Mostlinked', qplimit: 'max' })).json.query.querypage.results as any[];
    assert.deepEqual(ml[0], { value: '23', ns: 0, title: 'Дніпро (річка)', databaseResult: { page_namespace: '0' } });
    assert.ok(ml.every((x) => Number(x.value) > 1));
    const wanted = (await qp({ qppage: 'Wantedpages', qplimit: 'max' })).json.query.querypage.results as any[];
    assert.ok(wanted.length > 0);
    const missing = ml.filter((x) => x.databaseResult.page_namespace === null).map((x) => x.title);
    for (const t of missing)
      assert.ok(
        wanted.some((w) => w.title === t),
        t,
      );
    const db = demoDb();
    try {
      const exists = db.prepare('SELECT 1 FROM page WHERE page_namespace = ? AND page_title = ?');
      for (const w of wanted) {
        const dbkey = (w.ns === 0 ? w.title : w.title.slice(w.title.indexOf(':') + 1)).replace(/ /g, '_');
        assert.equal(exists.get(w.ns, dbkey), undefined, w.title);
        assert.notEqual(w.ns, 2);
      }
    } finally {
      db.close();
    }
  });
  it('value-less reports print the DB key as value; every report name is accepted', async () => {
    const r = await qp({ qppage: 'Unusedtemplates' });
    assert.deepEqual(Object.keys(r.json.query.querypage), ['name', 'results']);
    for (const x of r.json.query.querypage.results) assert.equal(x.value, x.title.replace(/^Шаблон:/, '').replace(/ /g, '_'));
    for (const page of QUERY_PAGES) {
      if (page === 'Unwatchedpages') continue;
      const res = await qp({ qppage: page, qplimit: 1 });
      assert.equal(res.json.error, undefined, page);
      assert.ok(Array.isArray(res.json.query.querypage.results), page);
    }
  });
  it('errors: qppage missing or unknown (case-sensitive), Unwatchedpages refused to anonymous users', async () => {
    assertError(await qp({}), 'qpnopage', 'The page parameter must be set');
    assertError(await qp({ qppage: 'Nonexistent' }), 'qpunknown_qppage', "Unrecognized value for parameter 'qppage': Nonexistent");
    assertError(await qp({ qppage: 'ancientpages' }), 'qpunknown_qppage', "Unrecognized value for parameter 'qppage': ancientpages");
    assertError(await qp({ qppage: 'MIMEsearch' }), 'qpunknown_qppage', "Unrecognized value for parameter 'qppage': MIMEsearch");
    assertError(
      await qp({ qppage: 'Unwatchedpages' }),
      'qpspecialpage-cantexecute',
      "You don't have permission to view the results of this special page",
    );
    assertError(
      await get({ action: 'query', generator: 'querypage', gqppage: 'Unwatchedpages' }),
      'gqpspecialpage-cantexecute',
      "You don't have permission to view the results of this special page",
    );
    assertError(await get({ action: 'query', generator: 'querypage' }), 'gqpnopage', 'The page parameter must be set');
  });
  it('qplimit over the maximum is clamped with a warning; the cache mode is public', async () => {
    const r = await qp({ qppage: 'BrokenRedirects', qplimit: 501, maxage: 30, smaxage: 30 });
    assert.equal(r.json.warnings.querypage['*'], 'qplimit may not be over 500 (set to 501) for users');
    assert.equal(r.headers.get('cache-control'), 's-maxage=30, max-age=30, public');
  });
});

describe('generator=querypage', () => {
  it('yields the result titles; query.querypage keeps only the name', async () => {
    const r = await get({ action: 'query', generator: 'querypage', gqppage: 'BrokenRedirects' });
    const db = demoDb();
    try {
      const id = (t: string) => db.prepare('SELECT page_id FROM page WHERE page_namespace = 0 AND page_title = ?').pluck().get(t);
      const a = id('Загублена_сторінка');
      const b = id('Старий_вокзал');
      assert.deepEqual(r.json, {
        query: {
          querypage: { name: 'BrokenRedirects' },
          pages: {
            [String(a)]: { pageid: a, ns: 0, title: 'Загублена сторінка' },
            [String(b)]: { pageid: b, ns: 0, title: 'Старий вокзал' },
          },
        },
      });
    } finally {
      db.close();
    }
  });
  it('missing targets (Wantedpages) become missing pages; gqpoffset continues', async () => {
    const r = await get({ action: 'query', generator: 'querypage', gqppage: 'Wantedpages', gqplimit: 2, rawcontinue: 1 });
    assert.deepEqual(r.json['query-continue'], { querypage: { gqpoffset: 2 } });
    const pages = Object.entries(r.json.query.pages) as Array<[string, any]>;
    assert.equal(pages.length, 2);
    for (const [key, p] of pages) {
      assert.ok(Number(key) < 0);
      assert.equal(p.missing, '');
    }
    const n = await get({ action: 'query', generator: 'querypage', gqppage: 'Wantedpages', gqplimit: 2, continue: '' });
    assert.deepEqual(n.json.continue, { gqpoffset: 2, continue: 'gqpoffset||' });
  });
});

describe('continuation joins: small limits in every form equal one qplimit=max call', () => {
  type Form = 'raw' | 'rawcontinue' | 'new';
  async function walk(kind: 'list' | 'generator', page: string, limit: number | 'max', form: Form): Promise<string[]> {
    const base: Record<string, string | number> =
      kind === 'list'
        ? { action: 'query', list: 'querypage', qppage: page, qplimit: limit }
        : { action: 'query', generator: 'querypage', gqppage: page, gqplimit: limit };
    const param = kind === 'list' ? 'qpoffset' : 'gqpoffset';
    let extra: Record<string, string | number> = form === 'new' ? { continue: '' } : form === 'rawcontinue' ? { rawcontinue: 1 } : {};
    const out: string[] = [];
    for (let batch = 0; batch < 500; batch++) {
      const r = await get({ ...base, ...extra });
      assert.equal(r.json.error, undefined, JSON.stringify(r.json.error));
      if (kind === 'list') {
        const res = r.json.query.querypage.results as any[];
        assert.ok(limit === 'max' || res.length <= limit);
        out.push(...res.map((x) => JSON.stringify(x)));
      } else {
        out.push(...Object.values(r.json.query.pages ?? {}).map((p: any) => p.title as string));
      }
      if (form === 'new') {
        if (!r.json.continue) break;
        assert.equal(typeof r.json.continue[param], 'number');
        extra = { ...r.json.continue };
      } else {
        const qc = r.json['query-continue'];
        assert.equal(r.json.warnings?.query?.['*'], qc && form === 'raw' ? RAW_WARNING : undefined);
        if (!qc) break;
        assert.deepEqual(Object.keys(qc), ['querypage']);
        assert.equal(typeof qc.querypage[param], 'number');
        extra = { ...qc.querypage, ...(form === 'rawcontinue' ? { rawcontinue: 1 } : {}) };
      }
    }
    return out;
  }
  for (const kind of ['list', 'generator'] as const) {
    for (const page of ['Lonelypages', 'Wantedpages']) {
      it(`${kind} ${page}`, async () => {
        const whole = await walk(kind, page, 'max', 'raw');
        assert.ok(whole.length > 10);
        for (const form of ['raw', 'rawcontinue', 'new'] as const) {
          for (const limit of [1, 2, 3]) {
            const joined = await walk(kind, page, limit, form);
            if (kind === 'list') assert.deepEqual(joined, whole, `${form} ${limit}`);
            else assert.deepEqual([...joined].sort(), [...whole].sort(), `${form} ${limit}`);
          }
        }
      });
    }
  }
});

// -------------------------------------------------------------------------------------------------
// buildReports on a hand-made database
// -------------------------------------------------------------------------------------------------

describe('buildReports (MediaWiki 1.25 definitions)', () => {
  let db: Database.Database;
  let id = 0;
  const page = (ns: number, title: string, opts: { redirect?: boolean; len?: number; revs?: number; ts?: string } = {}) => {
    id++;
    const ts = opts.ts ?? '20150101000000';
    db.prepare(
      `INSERT INTO page (page_id, page_namespace, page_title, page_is_redirect, page_len, page_latest, page_touched, page_rev_count,
        first_rev_id, first_timestamp, latest_timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, ns, title, opts.redirect ? 1 : 0, opts.len ?? 100, id, ts, opts.revs ?? 1, id, ts, ts);
    return id;
  };
  const redirect = (from: number, ns: number, title: string) =>
    db.prepare('INSERT INTO redirect (rd_from, rd_namespace, rd_title) VALUES (?, ?, ?)').run(from, ns, title);
  const link = (from: number, fromNs: number, ns: number, title: string) =>
    db
      .prepare('INSERT INTO pagelinks (pl_from, pl_namespace, pl_title, pl_from_namespace) VALUES (?, ?, ?, ?)')
      .run(from, ns, title, fromNs);
  const tlink = (from: number, ns: number, title: string) =>
    db.prepare('INSERT INTO templatelinks (tl_from, tl_namespace, tl_title, tl_from_namespace) VALUES (?, ?, ?, 0)').run(from, ns, title);
  const ilink = (from: number, file: string) =>
    db.prepare('INSERT INTO imagelinks (il_from, il_to, il_from_namespace) VALUES (?, ?, 0)').run(from, file);
  const cat = (from: number, to: string) =>
    db.prepare("INSERT INTO categorylinks (cl_from, cl_to, cl_sortkey, cl_timestamp, cl_type) VALUES (?, ?, '', '', 'page')").run(from, to);
  const image = (name: string, sha1: string, ts = '20140101000000') =>
    db
      .prepare(
        `INSERT INTO image (img_name, img_size, img_media_type, img_major_mime, img_minor_mime, img_sha1, img_sha1_hex, img_user_text, img_timestamp, img_path)
         VALUES (?, 10, 'BITMAP', 'image', 'png', ?, '', 'U', ?, '')`,
      )
      .run(name, sha1, ts);
  const rows = (type: string) =>
    (
      db
        .prepare(
          'SELECT qc_seq, qc_value AS v, qc_namespace AS ns, qc_title AS t, qc_extra AS x FROM querycache WHERE qc_type = ? ORDER BY qc_seq',
        )
        .all(type) as any[]
    ).map((r) => (r.x === null ? [r.v, r.ns, r.t] : [r.v, r.ns, r.t, JSON.parse(r.x)]));

  before(() => {
    db = new Database(':memory:');
    db.exec(SCHEMA);
    const a = page(0, 'A', { len: 50, revs: 3, ts: '20150102000000' });
    const b = page(0, 'B', { len: 50, revs: 1, ts: '20150102000000' });
    const c = page(0, 'C', { len: 70, revs: 2, ts: '20140101000000' });
    const r1 = page(0, 'R1', { redirect: true, revs: 5 });
    redirect(r1, 0, 'Nowhere');
    const r2 = page(0, 'R2', { redirect: true });
    redirect(r2, 0, 'R1');
    const rs = page(0, 'RS', { redirect: true });
    redirect(rs, -1, 'Спеціальна');
    const mw = page(8, 'Msg');
    const user = page(2, 'Someone');
    const t1 = page(10, 'T1');
    page(10, 'Unused');
    const fileRedirect = page(6, 'Old.png', { redirect: true });
    redirect(fileRedirect, 6, 'New.png');
    page(6, 'Lost.png');
    page(14, 'Empty');
    // links: A → B, C; B → A; R1 (redirect) → Nowhere; R2 → R1; Msg → Ghost; A → Ghost2 twice? (PK: once); A, B → User:X
    link(a, 0, 0, 'B');
    link(a, 0, 0, 'C');
    link(b, 0, 0, 'A');
    link(r1, 0, 0, 'Nowhere');
    link(r2, 0, 0, 'R1');
    link(mw, 8, 0, 'Ghost');
    link(a, 0, 0, 'Ghost2');
    link(c, 0, 0, 'Ghost2');
    link(a, 0, 2, 'X');
    link(user, 2, 0, 'Ghost3');
    tlink(a, 10, 'T1');
    tlink(b, 10, 'T1');
    tlink(t1, 10, 'Missing');
    image('New.png', 's1');
    image('Copy.png', 's1', '20130101000000');
    image('Solo.png', 's2', '20120101000000');
    ilink(a, 'New.png');
    ilink(b, 'New.png');
    ilink(a, 'Old.png'); // redirect to an existing file: not wanted
    ilink(a, 'Lost.png'); // description page without file: wanted
    ilink(c, 'Gone.png');
    cat(a, 'K1');
    cat(a, 'K2');
    cat(b, 'K1');
    db.prepare("INSERT INTO category (cat_title, cat_pages) VALUES ('K1', 2), ('K2', 1)").run();
    buildReports(db);
  });
  after(() => db?.close());

  it('writes every report of REPORT_QUERIES and its querycache_info row', () => {
    const types = (db.prepare('SELECT qci_type FROM querycache_info ORDER BY qci_type').pluck().all() as string[]).sort();
    assert.deepEqual(types, REPORT_QUERIES.map((q) => q.name).sort());
    assert.ok(!types.includes('Unwatchedpages'));
    for (const q of REPORT_QUERIES) {
      const seqs = db.prepare('SELECT qc_seq FROM querycache WHERE qc_type = ? ORDER BY qc_seq').pluck().all(q.name) as number[];
      assert.deepEqual(
        seqs,
        seqs.map((_, i) => i),
        q.name,
      );
    }
  });
  it('Ancientpages: content pages without redirects, oldest first, ties by title', () => {
    assert.deepEqual(rows('Ancientpages'), [
      ['20140101000000', 0, 'C'],
      ['20150102000000', 0, 'A'],
      ['20150102000000', 0, 'B'],
    ]);
  });
  it('BrokenRedirects: targets without a page (a file without description page too), not in negative namespaces; DoubleRedirects', () => {
    assert.deepEqual(rows('BrokenRedirects'), [
      ['R1', 0, 'R1', { rd_namespace: '0', rd_title: 'Nowhere' }],
      ['Old.png', 6, 'Old.png', { rd_namespace: '6', rd_title: 'New.png' }],
    ]);
    assert.deepEqual(rows('DoubleRedirects'), [['R2', 0, 'R2', { nsb: '0', tb: 'R1', nsc: '0', tc: 'Nowhere', iwc: '' }]]);
  });
  it('Wantedpages: no user namespaces, no links from MediaWiki: pages, not only from redirects', () => {
    // Ghost (only from MediaWiki:), Nowhere (only from a redirect), Користувач:X (user namespace) are not listed;
    // Ghost3 is linked from a user page, which counts
    assert.deepEqual(rows('Wantedpages'), [
      ['2', 0, 'Ghost2'],
      ['1', 0, 'Ghost3'],
    ]);
  });
  it('Wantedfiles: no file of that name and not a redirect to an existing file', () => {
    assert.deepEqual(rows('Wantedfiles'), [
      ['1', 6, 'Gone.png'],
      ['1', 6, 'Lost.png'],
    ]);
  });
  it('Wantedtemplates, Mostlinkedtemplates, Unusedtemplates', () => {
    assert.deepEqual(rows('Wantedtemplates'), [['1', 10, 'Missing']]);
    assert.deepEqual(rows('Mostlinkedtemplates'), [
      ['2', 10, 'T1'],
      ['1', 10, 'Missing'],
    ]);
    assert.deepEqual(rows('Unusedtemplates'), [['Unused', 10, 'Unused']]);
  });
  it('Fewestrevisions and Mostrevisions list only pages with more than one revision, redirects included', () => {
    assert.deepEqual(rows('Fewestrevisions'), [
      ['2', 0, 'C', { redirect: '0' }],
      ['3', 0, 'A', { redirect: '0' }],
      ['5', 0, 'R1', { redirect: '1' }],
    ]);
    assert.deepEqual(
      rows('Mostrevisions').map((r) => r[2]),
      ['R1', 'A', 'C'],
    );
  });
  it('Lonelypages: neither linked nor transcluded; Deadendpages: no outgoing links', () => {
    assert.deepEqual(rows('Lonelypages'), []);
    assert.deepEqual(rows('Deadendpages'), []);
  });
  it('files: ListDuplicatedFiles, Mostimages, Unusedimages, Uncategorizedimages', () => {
    assert.deepEqual(rows('ListDuplicatedFiles'), [['2', 6, 'Copy.png']]);
    assert.deepEqual(rows('Mostimages'), [['2', 6, 'New.png']]);
    assert.deepEqual(
      rows('Unusedimages').map((r) => r.slice(0, 3)),
      [
        ['20120101000000', 6, 'Solo.png'],
        ['20130101000000', 6, 'Copy.png'],
      ],
    );
    assert.deepEqual(rows('Uncategorizedimages'), [['Lost.png', 6, 'Lost.png']]);
  });
  it('categories: Mostcategories (more than one), Mostlinkedcategories, Wantedcategories, Unusedcategories, Uncategorizedpages', () => {
    assert.deepEqual(rows('Mostcategories'), [['2', 0, 'A']]);
    assert.deepEqual(rows('Mostlinkedcategories'), [
      ['2', 14, 'K1'],
      ['1', 14, 'K2'],
    ]);
    assert.deepEqual(rows('Wantedcategories'), [
      ['2', 14, 'K1'],
      ['1', 14, 'K2'],
    ]);
    assert.deepEqual(rows('Unusedcategories'), [['Empty', 14, 'Empty']]);
    assert.deepEqual(rows('Uncategorizedpages'), [['C', 0, 'C']]);
  });
  it('Longpages / Shortpages order by length, ties by page id (descending for Longpages: the page_len index read backwards)', () => {
    assert.deepEqual(
      rows('Longpages').map((r) => r[2]),
      ['C', 'B', 'A'],
    );
    assert.deepEqual(
      rows('Shortpages').map((r) => r[2]),
      ['A', 'B', 'C'],
    );
  });
  it('maxRows caps every report (top rows in final order) and replaces earlier rows', () => {
    buildReports(db, { maxRows: 2 });
    assert.deepEqual(
      rows('Ancientpages').map((r) => r[2]),
      ['C', 'A'],
    );
    assert.deepEqual(
      rows('Longpages').map((r) => r[2]),
      ['C', 'B'],
    );
    assert.deepEqual(
      rows('Fewestrevisions').map((r) => r[2]),
      ['C', 'A'],
    );
    buildReports(db);
    assert.equal(rows('Ancientpages').length, 3);
  });
});

// -------------------------------------------------------------------------------------------------
// The import's reports thread: the same rows as buildReports on the finished tables
// -------------------------------------------------------------------------------------------------

describe('the reports computed on their own thread during the import', () => {
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(join(os.tmpdir(), 'wikiquery-reports-thread-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** querycache as the import left it, then as buildReports (the serial path) makes it on a copy */
  function assertSerialSame(file: string): void {
    const copy = join(tmp, 'copy.sqlite');
    fs.copyFileSync(file, copy);
    const db = new Database(copy);
    try {
      const snapshot = () => ({
        rows: db.prepare('SELECT * FROM querycache ORDER BY qc_type, qc_seq').all(),
        types: db.prepare('SELECT qci_type FROM querycache_info ORDER BY qci_type').pluck().all(),
      });
      const threaded = snapshot();
      buildReports(db);
      const serial = snapshot();
      assert.ok(threaded.rows.length > 100, `${threaded.rows.length} rows`);
      assert.deepEqual(threaded.types, REPORT_QUERIES.map((q) => q.name).sort());
      assert.deepEqual(threaded, serial);
    } finally {
      db.close();
      fs.rmSync(copy);
    }
  }

  it("the demo (inline queries: the hooks' own tables are finished before the link indexes) has the serial rows", () => {
    assertSerialSame(join(s.dir, 'demo.sqlite'));
  });

  it("without inline query links the hooks' own tables are finished while the thread runs; same rows, no side file left", async () => {
    const file = join(tmp, 'no-inline.sqlite');
    const lines: string[] = [];
    await importWiki({
      dump: join(s.dir, 'demo', 'dump.xml'),
      db: file,
      filesDir: join(s.dir, 'demo', 'files'),
      lang: 'uk',
      hooks: importHooks(),
      progress: false,
      log: (l) => lines.push(l),
    });
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    // the semantic hook's value subjects and indexes between the thread's start and its join
    assert.ok(at(/^link indexes, categories/) >= 0 && at(/^link indexes, categories/) < at(/^semantic: tables finished/), lines.join('\n'));
    assert.ok(at(/^semantic: tables finished/) < at(/^reports: \d+ rows/), lines.join('\n'));
    assert.deepEqual(
      fs.readdirSync(tmp).filter((n) => n !== 'no-inline.sqlite'),
      [],
    );
    assertSerialSame(file);
  });

  it('the tables the main connection leaves alone meanwhile are those the reports read', () => {
    assert.deepEqual([...REPORT_SOURCE_TABLES].sort(), [
      'category',
      'categorylinks',
      'image',
      'imagelinks',
      'langlinks',
      'page',
      'pagelinks',
      'redirect',
      'templatelinks',
    ]);
  });
});
