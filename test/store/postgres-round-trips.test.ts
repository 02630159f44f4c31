/**
 * Round trips to PostgreSQL per seed request: at most 2 for each of the contract's nine requests
 * (docs/spec/wiki-query-api.md, Endpoints) and for their largest batches. Counted as statements: with
 * --debug every statement PgDb runs is in the response's debuginfo.queries (src/store/query-log.ts), and
 * each is counted as one round trip even when issued together with others (the `postgres` client may
 * pipeline those; counting them as one would need proof on the wire). Counted on a warm server (the
 * request's second run): what is read once per served import (site information, the interwiki map, a
 * message's cache entry) is not a cost of every request. test/store-calls.test.ts counts store calls on
 * SQLite. Runs in the PostgreSQL pass only.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoDatabase, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { SEED_REQUESTS } from '../helpers/request-set.js';
import { TEST_DB } from '../helpers/test-db.js';
import { describeOrSkip } from '../helpers/skip.js';

const skip =
  TEST_DB === 'postgres' ? false : 'counts PostgreSQL statements: the PostgreSQL pass of npm test (WIKIQUERY_TEST_DB=postgres) only';

const MANY_FILES = [
  'File:Flag_of_Ukraine.png',
  'Файл:Linux logo.png',
  'File:Tux.png',
  'Файл:Пінгвін.png',
  'Файл:Прапор України.png',
  'Файл:Ukraine flag copy.png',
  'Файл:Зірка.svg',
  'Файл:Немає.png',
  'Файл:Zoo.png',
  'Київ',
].join('|');

// the nine, then the same modules with batches as large as they come (as store-calls.test.ts sends them)
const REQUESTS: Array<[string, Record<string, string>]> = [
  ...SEED_REQUESTS,
  ['duplicatefiles, ten titles', { action: 'query', prop: 'duplicatefiles', titles: MANY_FILES }],
  ['allcategories acprop=size, limit max', { action: 'query', list: 'allcategories', acprop: 'size', aclimit: 'max' }],
  [
    'generator=allimages + duplicatefiles, every file',
    { action: 'query', generator: 'allimages', gailimit: 'max', prop: 'duplicatefiles', dflimit: 'max' },
  ],
  ['generator=allfileusages, limit max', { action: 'query', generator: 'allfileusages', gaffrom: 'П', gaflimit: 'max' }],
  [
    'allmessages, a list of messages',
    { action: 'query', meta: 'allmessages', ammessages: 'august|july|mainpage|demo-apostrophe|nosuchmessage' },
  ],
  ['querypage Ancientpages, limit max', { action: 'query', list: 'querypage', qppage: 'Ancientpages', qplimit: 'max' }],
];

/**
 * Seed requests that run more than 2 statements today, each dependent on the one before (measured on the
 * demo, 2026-11-24, with every area ported): reported, left to decide, kept visible as `todo` (they run and
 * print their count; the pass does not fail on them). Delete an entry when its request gets down to 2.
 */
const OVER_BUDGET: Record<string, string> = {};

let server: DemoServer;

/** The statements a request ran, as its debuginfo lists them. */
async function statements(params: Record<string, string>): Promise<Array<{ sql: string; function: string }>> {
  const r = await server.get(params);
  assert.equal(r.status, 200);
  assert.equal(r.json.error, undefined, JSON.stringify(r.json.error));
  assert.ok(Array.isArray(r.json.debuginfo?.queries), 'debuginfo.queries');
  return r.json.debuginfo.queries;
}

describeOrSkip('PostgreSQL round trips per seed request', { skip }, () => {
  before(async () => {
    const { served } = await demoDatabase();
    assert.match(served, /^postgres:/);
    server = await startDemoServer({ db: served, debug: true, server: { cacheMb: 0 } });
  });
  after(async () => {
    await server?.close();
  });

  for (const [name, params] of REQUESTS) {
    it(`${name}: at most 2 statements`, { todo: OVER_BUDGET[name] }, async (t) => {
      const cold = await statements(params);
      const warm = await statements(params);
      t.diagnostic(`${warm.length} statements warm (${cold.length} on the first run): ${warm.map((q) => q.function).join(', ')}`);
      assert.ok(warm.length <= 2, `${warm.length} statements:\n${warm.map((q) => `  ${q.function}: ${q.sql.slice(0, 160)}`).join('\n')}`);
    });
  }

  it('the count is that of the store calls: nothing runs a statement per title', async () => {
    const one = await statements({ action: 'query', prop: 'info', titles: 'Київ' });
    const many = await statements({ action: 'query', prop: 'info', titles: 'Київ|Львів|Одеса|Харків|Дніпро|Неіснуюча|Файл:Tux.png' });
    assert.equal(many.length, one.length, many.map((q) => q.function).join(', '));
  });
});
