/**
 * Real clients, unchanged, against the demo wiki: mwn, nodemw, mwbot and wikijs (npm devDependencies) and
 * mwclient (Debian's python3-mwclient, driven by test/clients/mwclient_probe.py). Each client goes
 * through its own public methods; what it gets is compared with the server's own one-shot listing
 * (limit=max over HTTP): nothing lost, nothing repeated across continuation.
 *
 * Client quirks met (what they send that a 1.25 contract does not foresee) are noted where they show;
 * docs/clients.md lists them per client.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { describeOrSkip } from '../helpers/skip.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const { Mwn } = require('mwn') as { Mwn: any };
const NodeMw = require('nodemw') as any;
const MWBot = require('mwbot') as any;
const wikijs = (require('wikijs') as { default: any }).default;

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PYTHON = '/usr/bin/python3';
const PROBE = join(ROOT, 'test', 'clients', 'mwclient_probe.py');

// what the calls below ask for
const CATEGORY = 'Міста'; // 72 members
const PAGE = 'Київ';
const IMAGE = 'Прапор України.png'; // used by many pages, bytes on disk
const SUBJECT = 'Київ';
const SF_PROPERTY = 'Розташоване_в';
const SF_SUBSTR = 'Київ';
const MSG_PREFIX = 'a';
const ANON_TOKEN = '+\\';
// an SMW query of several pages of 3 (mwclient continues through query-continue-offset)
const ASK_QUERY = '[[Категорія:Міста]][[Населення::>200000]]|?Населення|sort=Населення|order=desc|limit=3';
// a Cyrillic word with an apostrophe (ʼ U+02BC); the pages spell it with ', ’ and ʼ
const SEARCH = 'памʼятник';

const mwclientAvailable = spawnSync(PYTHON, ['-c', 'import mwclient'], { stdio: 'ignore' }).status === 0;

let s: DemoServer;
let port: string;

/** The server's own answers, one request each with limit=max. */
interface Base {
  categories: string[];
  /** file DB key → hex SHA-1 */
  images: Map<string, string>;
  /** file DB key → the other files with the same SHA-1 (DB keys, name order) */
  duplicates: Map<string, string[]>;
  members: string[];
  text: string;
  imageUsage: string[];
  imagesOfPage: string[];
  messages: Array<{ name: string; '*': string }>;
  querypage: unknown[];
  /** action=parse of PAGE (fv1) */
  parsed: any;
  /** list=search for SEARCH, srlimit=max (fewer than 50 pages) */
  search: string[];
}
let base: Base;

before(async () => {
  s = await startDemoServer();
  port = new URL(s.url).port;
  const get = async (params: Record<string, string>) => {
    const r = await s.get({ continue: '', ...params });
    assert.equal(r.json.continue, undefined, `one-shot listing ${JSON.stringify(params)} needs no continuation`);
    assert.equal(r.json.error, undefined, JSON.stringify(r.json.error));
    return r.json;
  };
  const cats = await get({ action: 'query', list: 'allcategories', aclimit: 'max' });
  const imgs = await get({ action: 'query', list: 'allimages', ailimit: 'max', aiprop: 'sha1' });
  const images = new Map<string, string>(imgs.query.allimages.map((i: any) => [i.name, i.sha1]));
  const duplicates = new Map<string, string[]>();
  for (const [name, sha1] of images)
    duplicates.set(
      name,
      [...images].filter(([n, h]) => h === sha1 && n !== name).map(([n]) => n),
    );
  const titles = (list: any[]) => list.map((m: any) => m.title);
  const members = await get({ action: 'query', list: 'categorymembers', cmtitle: `Категорія:${CATEGORY}`, cmlimit: 'max' });
  const text = await get({ action: 'query', prop: 'revisions', rvprop: 'content', titles: PAGE });
  const usage = await get({ action: 'query', list: 'imageusage', iutitle: `Файл:${IMAGE}`, iulimit: 'max' });
  const ofPage = await get({ action: 'query', prop: 'images', titles: PAGE, imlimit: 'max' });
  const messages = await get({ action: 'query', meta: 'allmessages', amprefix: MSG_PREFIX });
  const qp = await get({ action: 'query', list: 'querypage', qppage: 'Ancientpages', qplimit: 'max' });
  const parsed = await get({ action: 'parse', page: PAGE });
  base = {
    categories: cats.query.allcategories.map((c: any) => c['*']),
    images,
    duplicates,
    members: titles(members.query.categorymembers),
    text: (Object.values(text.query.pages)[0] as any).revisions[0]['*'],
    imageUsage: titles(usage.query.imageusage),
    imagesOfPage: titles((Object.values(ofPage.query.pages)[0] as any).images),
    messages: messages.query.allmessages,
    querypage: qp.query.querypage.results,
    parsed: parsed.parse,
    search: titles((await get({ action: 'query', list: 'search', srsearch: SEARCH, srlimit: 'max', srprop: '' })).query.search),
  };
  assert.match(base.parsed.text['*'], /<a href="\/index\.php\//);
  assert.ok(base.categories.length > 20 && base.images.size > 20 && base.members.length > 50 && base.imageUsage.length > 10);
});
after(async () => {
  await s?.close();
});

/** Same entries, each once. */
function assertSameSet(actual: string[], expected: string[], what: string): void {
  assert.equal(
    new Set(actual).size,
    actual.length,
    `${what}: repeated entries ${actual.filter((v, i) => actual.indexOf(v) !== i).join(', ')}`,
  );
  assert.deepEqual([...actual].sort(), [...expected].sort(), what);
}

const withoutPrefix = (title: string) => title.slice(title.indexOf(':') + 1);
const dbKey = (title: string) => withoutPrefix(title).replace(/ /g, '_');
const sha1Of = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/** The server's one-shot listing of a page relation: the titles under query.pages[0][key] or query[key]. */
async function relation(params: Record<string, string>, key: string): Promise<string[]> {
  const r = (await s.get({ action: 'query', continue: '', ...params })).json;
  assert.equal(r.continue, undefined, `one-shot ${JSON.stringify(params)}`);
  const list = r.query[key] ?? (Object.values(r.query.pages)[0] as any)[key] ?? [];
  return list.map((e: any) => e.title ?? e['*']);
}

/** The server's answer to the same raw request, for the two extension modules. */
async function serverAnswer(params: Record<string, string>): Promise<any> {
  return (await s.get(params)).json;
}

function assertBrowseShape(answer: any): void {
  assert.equal(typeof answer.query.subject, 'string');
  assert.match(answer.query.subject, /^Київ#0#/);
  assert.ok(Array.isArray(answer.query.data) && answer.query.data.length > 0);
  assert.equal(typeof answer.query.serializer, 'string');
  assert.equal(typeof answer.query.version, 'number');
}

function assertAutocompleteShape(answer: any): void {
  assert.ok(Array.isArray(answer.sfautocomplete) && answer.sfautocomplete.length > 0);
}

describe('mwn', () => {
  let bot: any;
  before(async () => {
    bot = new Mwn({ apiUrl: s.url, silent: true, userAgent: 'wikiquery-test (mwn)' });
    // init() logs in; getSiteInfo() is the anonymous set-up (siprop=general|namespaces|namespacealiases)
    await bot.getSiteInfo();
  });

  it("getSiteInfo() feeds mwn's title parser with our namespaces and aliases", () => {
    assert.equal(new bot.Title('Category:Прапори').getNamespaceId(), 14);
    assert.equal(new bot.Title('Зображення:X.png').getNamespaceId(), 6);
    assert.equal(new bot.Title('Файл:X.png').toText(), 'Файл:X.png');
  });

  it('continuedQuery() lists all categories through continuation (continue= sent, as 1.25 asks)', async () => {
    // Quirk: mwn expects the new continuation by default (MediaWiki 1.26+); 1.25 answers query-continue
    // unless `continue` is given, and mwn then stops after the first batch.
    const raw = await bot.continuedQuery({ action: 'query', list: 'allcategories', aclimit: 7 }, 100);
    assert.equal(raw.length, 1);
    assert.ok(raw[0]['query-continue'].allcategories.accontinue);
    const responses = await bot.continuedQuery({ action: 'query', list: 'allcategories', aclimit: 7, continue: '' }, 100);
    assert.ok(responses.length > 5);
    assertSameSet(
      responses.flatMap((r: any) => r.query.allcategories.map((c: any) => c.category)),
      base.categories,
      'categories',
    );
  });

  it('continuedQueryGen() walks all images with their duplicates (generator + prop continuation)', async () => {
    const dups = new Map<string, string[]>();
    let batches = 0;
    for await (const r of bot.continuedQueryGen({
      action: 'query',
      generator: 'allimages',
      gailimit: 7,
      prop: 'duplicatefiles',
      dflimit: 2,
      continue: '',
    })) {
      batches++;
      for (const p of r.query.pages) {
        const list = dups.get(dbKey(p.title)) ?? [];
        dups.set(dbKey(p.title), list);
        for (const d of p.duplicatefiles ?? []) list.push(d.name);
      }
    }
    assert.ok(batches > 8);
    assertSameSet([...dups.keys()], [...base.images.keys()], 'images');
    for (const [name, list] of dups) assert.deepEqual(list, base.duplicates.get(name), `duplicates of ${name}`);
  });

  it("download() fetches the bytes at imageinfo's url", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wikiquery-mwn-'));
    try {
      const file = join(dir, 'f.png');
      await bot.download(`File:${IMAGE}`, file);
      assert.equal(sha1Of(readFileSync(file)), base.images.get(IMAGE.replace(/ /g, '_')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('request() reads interface messages', async () => {
    const r = await bot.request({ action: 'query', meta: 'allmessages', amprefix: MSG_PREFIX });
    assert.deepEqual(
      r.query.allmessages.map((m: any) => [m.name, m.content]),
      base.messages.map((m) => [m.name, m['*']]),
    );
  });

  it('continuedQuery() reads a query page through qpoffset', async () => {
    const responses = await bot.continuedQuery(
      { action: 'query', list: 'querypage', qppage: 'Ancientpages', qplimit: 50, continue: '' },
      100,
    );
    assert.ok(responses.length > 1);
    assert.deepEqual(
      responses.flatMap((r: any) => r.query.querypage.results),
      base.querypage,
    );
  });

  it('Category(...).members() lists the members (English Category: prefix)', async () => {
    const members = await new bot.Category(`Category:${CATEGORY}`).members();
    assert.deepEqual(
      members.map((m: any) => m.title),
      base.members,
    );
  });

  it("Page(...).links()/templates()/categories()/externallinks() list the page's relations", async () => {
    const page = new bot.Page(PAGE);
    assert.deepEqual(await page.links(), await relation({ prop: 'links', titles: PAGE, pllimit: 'max' }, 'links'));
    assert.deepEqual(await page.templates(), await relation({ prop: 'templates', titles: PAGE, tllimit: 'max' }, 'templates'));
    assert.deepEqual(await page.categories(), await relation({ prop: 'categories', titles: PAGE, cllimit: 'max' }, 'categories'));
    assert.deepEqual(await page.externallinks(), await relation({ prop: 'extlinks', titles: PAGE, ellimit: 'max' }, 'extlinks'));
  });

  it('Page(...).backlinks()/transclusions() walk prop=linkshere/transcludedin', async () => {
    const backlinks = await new bot.Page(PAGE).backlinks();
    assert.ok(backlinks.length > 5);
    assertSameSet(backlinks, await relation({ prop: 'linkshere', titles: PAGE, lhlimit: 'max' }, 'linkshere'), 'backlinks');
    const transclusions = await new bot.Page('Шаблон:Прапор').transclusions();
    assert.ok(transclusions.length > 10);
    assertSameSet(
      transclusions,
      await relation({ prop: 'transcludedin', titles: 'Шаблон:Прапор', tilimit: 'max' }, 'transcludedin'),
      'transclusions',
    );
  });

  it('read() gives the page text (rvslots=main, formatversion=2)', async () => {
    const page = await bot.read(PAGE);
    assert.equal(page.revisions[0].content, base.text);
  });

  it('parseTitle() gives the rendered page (action=parse&page=, formatversion=2)', async () => {
    const html = await bot.parseTitle(PAGE);
    assert.equal(html, base.parsed.text['*']);
  });

  it('getCsrfToken() gives the anonymous token', async () => {
    // Quirk: mwn asks for type=csrf|createaccount|login|...; 1.25 has no createaccount/login tokens and warns
    assert.equal(await bot.getCsrfToken(), ANON_TOKEN);
  });

  it('search() finds the pages of a Cyrillic word', async () => {
    const results = await bot.search(SEARCH, 'max');
    assert.ok(base.search.length > 10);
    assert.deepEqual(
      results.map((r: any) => r.title),
      base.search,
    );
  });

  it('request() reaches browsebysubject', async () => {
    const r = await bot.request({ action: 'browsebysubject', subject: SUBJECT });
    assertBrowseShape(r);
    assert.deepEqual(r, await serverAnswer({ action: 'browsebysubject', subject: SUBJECT, formatversion: '2' }));
  });

  it('request() reaches sfautocomplete', async () => {
    const r = await bot.request({ action: 'sfautocomplete', property: SF_PROPERTY, substr: SF_SUBSTR });
    assertAutocompleteShape(r);
    assert.deepEqual(r, await serverAnswer({ action: 'sfautocomplete', property: SF_PROPERTY, substr: SF_SUBSTR, formatversion: '2' }));
  });

  it('askQuery() pages through query-continue-offset to the one-shot answer', async () => {
    const results: Array<[string, unknown]> = [];
    let offset = 0;
    for (let guard = 0; guard < 50; guard++) {
      const r = await bot.askQuery(`${ASK_QUERY}|offset=${offset}`);
      results.push(...Object.entries(r.query.results));
      if (r['query-continue-offset'] === undefined) break;
      offset = r['query-continue-offset'];
    }
    const all = await serverAnswer({ action: 'ask', query: ASK_QUERY.replace('limit=3', 'limit=500') });
    assert.ok(results.length > 6);
    assert.deepEqual(results, Object.entries(all.query.results));
  });
});

describe('nodemw', () => {
  let bot: any;
  const call = (fn: (cb: (err: unknown, ...rest: any[]) => void) => void) =>
    new Promise<any[]>((res, rej) => fn((err, ...rest) => (err ? rej(err) : res(rest))));
  before(() => {
    bot = new NodeMw({ protocol: 'http', server: '127.0.0.1', port, path: '', userAgent: 'wikiquery-test (nodemw)' });
  });

  it('getSiteInfo() and getMediaWikiVersion() read general.generator', async () => {
    const [info] = await call((cb) => bot.getSiteInfo(['general'], cb));
    assert.match(info.general.generator, /^MediaWiki 1\.25\./);
    const [version] = await call((cb) => bot.getMediaWikiVersion(cb));
    assert.equal(version, '1.25.4');
  });

  it('getCategories() lists all categories; its aclimit=5000 is clamped with a warning', async () => {
    const [names] = await call((cb) => bot.getCategories(cb));
    assertSameSet(names, base.categories, 'categories');
    // the raw request method shows the warning nodemw itself does not surface
    const [, , raw] = await call((cb) => bot.api.call({ action: 'query', list: 'allcategories', aclimit: 5000 }, cb));
    assert.equal(raw.warnings.allcategories['*'], 'aclimit may not be over 500 (set to 5000) for users');
  });

  it('getAll() walks all images with their duplicates', async () => {
    // Quirk: getAll() merges each `continue` into the same params object, so a prop's old dfcontinue would
    // ride along into later batches; with dflimit=max no prop continuation arises.
    const [pages] = await call((cb) =>
      bot.getAll(
        { action: 'query', generator: 'allimages', gailimit: 7, prop: 'duplicatefiles', dflimit: 'max' },
        (q: any) => Object.values(q.pages),
        cb,
      ),
    );
    assertSameSet(
      pages.map((p: any) => dbKey(p.title)),
      [...base.images.keys()],
      'images',
    );
    for (const p of pages)
      assert.deepEqual(
        (p.duplicatefiles ?? []).map((d: any) => d.name),
        base.duplicates.get(dbKey(p.title)),
        `duplicates of ${p.title}`,
      );
  });

  it('getImages() lists all images (ailimit=5000 clamped) and fetchUrl() gets their bytes', async () => {
    // Quirk: getImages() hands back next.aifrom, which neither continuation format carries (aicontinue)
    const [images, next] = await call((cb) => bot.getImages(undefined, cb));
    assertSameSet(
      images.map((i: any) => i.name),
      [...base.images.keys()],
      'images',
    );
    assert.equal(next, false);
    const [info] = await call((cb) => bot.getImageInfo(`File:${IMAGE}`, cb));
    const [bytes] = await call((cb) => bot.fetchUrl(info.url, cb, 'binary'));
    assert.equal(sha1Of(bytes), base.images.get(IMAGE.replace(/ /g, '_')));
    assert.equal(bytes.length, info.size);
  });

  it('getImagesFromArticle() and getImageUsage() (prop=images, list=imageusage)', async () => {
    const [images] = await call((cb) => bot.getImagesFromArticle(PAGE, cb));
    // prop=images without imlimit: the first 10 files in name order
    assert.deepEqual(
      images.map((i: any) => i.title),
      base.imagesOfPage.slice(0, 10),
    );
    const [usage] = await call((cb) => bot.getImageUsage(`File:${IMAGE}`, cb));
    assert.deepEqual(
      usage.map((u: any) => u.title),
      base.imageUsage,
    );
  });

  it('api.call() reads interface messages', async () => {
    const [info] = await call((cb) => bot.api.call({ action: 'query', meta: 'allmessages', amprefix: MSG_PREFIX }, cb));
    assert.deepEqual(info.allmessages, base.messages);
  });

  it('getQueryPage() reads the results', async () => {
    const [results] = await call((cb) => bot.getQueryPage('Ancientpages', cb));
    assert.deepEqual(results, base.querypage.slice(0, 500));
  });

  it('getPagesInCategory() lists the members (English Category: prefix, cmlimit=5000)', async () => {
    const [members] = await call((cb) => bot.getPagesInCategory(CATEGORY, cb));
    assertSameSet(
      members.map((m: any) => m.title),
      base.members,
      'members',
    );
  });

  it('parse() renders wikitext for a title (action=parse&text=&title=)', async () => {
    const [html] = await call((cb) => bot.parse(base.text, PAGE, cb));
    const server = (await s.post({ action: 'parse', text: base.text, title: PAGE, format: 'json' })).json;
    // the limit report's times are the only part that differs between two renders
    const noReport = (h: string) =>
      h.replace(/<!-- \nNewPP limit report[\s\S]*?-->\n\n<!-- \nTransclusion expansion time report[\s\S]*?-->\n/, '');
    assert.equal(noReport(html), noReport(server.parse.text['*']));
    assert.match(html, /<span class="mw-headline"/);
  });

  it('getBacklinks() (list=backlinks, bllimit=5000 clamped) and getPagesTranscluding() (prop=transcludedin through continuation)', async () => {
    const [backlinks] = await call((cb) => bot.getBacklinks(PAGE, cb));
    assertSameSet(
      backlinks.map((p: any) => p.title),
      await relation({ list: 'backlinks', bltitle: PAGE, blnamespace: '0', bllimit: 'max' }, 'backlinks'),
      'backlinks',
    );
    const [pages] = await call((cb) => bot.getPagesTranscluding('Шаблон:Прапор', cb));
    assert.ok(pages.length > 10, 'more than one batch of the default limit');
    assertSameSet(
      pages.map((p: any) => p.title),
      await relation({ prop: 'transcludedin', titles: 'Шаблон:Прапор', tilimit: 'max' }, 'transcludedin'),
      'transcluding',
    );
  });

  it('getArticle() gives the page text', async () => {
    const [content] = await call((cb) => bot.getArticle(PAGE, cb));
    assert.equal(content, base.text);
  });

  it('getToken() gives the anonymous token (meta=tokens, MediaWiki >= 1.24)', async () => {
    const [token] = await call((cb) => bot.getToken(PAGE, 'edit', cb));
    assert.equal(token, ANON_TOKEN);
  });

  it('search() finds the pages of a Cyrillic word (its srlimit=5000 clamped to 50)', async () => {
    const [results] = await call((cb) => bot.search(SEARCH, cb));
    assertSameSet(
      results.map((r: any) => r.title),
      base.search,
      'search',
    );
  });

  it('api.call() reaches browsebysubject', async () => {
    const [, , raw] = await call((cb) => bot.api.call({ action: 'browsebysubject', subject: SUBJECT }, cb));
    assertBrowseShape(raw);
    assert.deepEqual(raw, await serverAnswer({ action: 'browsebysubject', subject: SUBJECT }));
  });

  it('api.call() reaches sfautocomplete', async () => {
    const [list, , raw] = await call((cb) => bot.api.call({ action: 'sfautocomplete', property: SF_PROPERTY, substr: SF_SUBSTR }, cb));
    assertAutocompleteShape(raw);
    assert.deepEqual(list, (await serverAnswer({ action: 'sfautocomplete', property: SF_PROPERTY, substr: SF_SUBSTR })).sfautocomplete);
  });
});

describe('mwbot', () => {
  let bot: any;
  before(() => {
    bot = new MWBot({ apiUrl: s.url });
  });

  /** All batches of a query through mwbot's request(), merging each `continue` into the original params. */
  async function all(params: Record<string, unknown>): Promise<any[]> {
    const out: any[] = [];
    let cont: Record<string, unknown> = { continue: '' };
    for (let i = 0; i < 200; i++) {
      const r = await bot.request({ ...params, ...cont });
      out.push(r);
      if (!r.continue) return out;
      cont = r.continue;
    }
    throw new Error('no end of continuation');
  }

  it('getSiteinfo() reads general', async () => {
    const state = await bot.getSiteinfo();
    assert.match(state.generator, /^MediaWiki 1\.25\./);
    assert.equal(state.lang, 'uk');
  });

  it('request() lists all categories through continuation', async () => {
    const responses = await all({ action: 'query', list: 'allcategories', aclimit: 7 });
    assert.ok(responses.length > 5);
    assertSameSet(
      responses.flatMap((r) => r.query.allcategories.map((c: any) => c['*'])),
      base.categories,
      'categories',
    );
  });

  it('request() walks all images with their duplicates (generator + prop continuation)', async () => {
    const dups = new Map<string, string[]>();
    for (const r of await all({ action: 'query', generator: 'allimages', gailimit: 5, prop: 'duplicatefiles', dflimit: 1 })) {
      for (const p of Object.values(r.query.pages) as any[]) {
        const list = dups.get(dbKey(p.title)) ?? [];
        dups.set(dbKey(p.title), list);
        for (const d of p.duplicatefiles ?? []) list.push(d.name);
      }
    }
    assertSameSet([...dups.keys()], [...base.images.keys()], 'images');
    for (const [name, list] of dups) assert.deepEqual(list, base.duplicates.get(name), `duplicates of ${name}`);
  });

  it('request() reads interface messages', async () => {
    const r = await bot.request({ action: 'query', meta: 'allmessages', amprefix: MSG_PREFIX });
    assert.deepEqual(r.query.allmessages, base.messages);
  });

  it('request() reads a query page through qpoffset', async () => {
    const responses = await all({ action: 'query', list: 'querypage', qppage: 'Ancientpages', qplimit: 30 });
    assert.ok(responses.length > 1);
    assert.deepEqual(
      responses.flatMap((r) => r.query.querypage.results),
      base.querypage,
    );
  });

  it('request() lists category members through continuation', async () => {
    const responses = await all({ action: 'query', list: 'categorymembers', cmtitle: `Category:${CATEGORY}`, cmlimit: 10 });
    assert.ok(responses.length > 5);
    assert.deepEqual(
      responses.flatMap((r) => r.query.categorymembers.map((m: any) => m.title)),
      base.members,
    );
  });

  it('read() gives the page text (rvslots=main, legacy * content under slots.main)', async () => {
    const r = await bot.read(PAGE);
    const page = Object.values(r.query.pages)[0] as any;
    assert.equal(page.revisions[0].slots.main['*'], base.text);
  });

  it('getEditToken() gives the anonymous token', async () => {
    const state = await bot.getEditToken();
    assert.equal(state.csrftoken, ANON_TOKEN);
  });

  it('request() reaches browsebysubject', async () => {
    const r = await bot.request({ action: 'browsebysubject', subject: SUBJECT });
    assertBrowseShape(r);
    assert.deepEqual(r, await serverAnswer({ action: 'browsebysubject', subject: SUBJECT }));
  });

  it('request() reaches sfautocomplete', async () => {
    const r = await bot.request({ action: 'sfautocomplete', property: SF_PROPERTY, substr: SF_SUBSTR });
    assertAutocompleteShape(r);
    assert.deepEqual(r, await serverAnswer({ action: 'sfautocomplete', property: SF_PROPERTY, substr: SF_SUBSTR }));
  });
});

describe('wikijs', () => {
  // its default options: only the wiki's api.php; it sends origin=* on every call (answered as MediaWiki
  // 1.30+ answers it, docs/clients.md) and format=json&redirects=1
  let w: any;
  let page: any;
  before(async () => {
    w = wikijs({ apiUrl: s.url });
    page = await w.page(PAGE);
  });

  it('page() finds the page through prop=info|pageprops (inprop=url)', async () => {
    assert.equal(page.raw.title, PAGE);
    assert.equal(page.raw.pageid, (await w.findById(page.raw.pageid)).raw.pageid);
    assert.equal(await page.url(), `${s.url.replace('/api.php', '')}/index.php/${encodeURIComponent(PAGE)}`);
    await assert.rejects(w.page('Немає такої сторінки'), /No article found/);
  });

  it("categories(), links() (main namespace) and backlinks() list the page's relations", async () => {
    assertSameSet(
      await page.categories(),
      await relation({ prop: 'categories', titles: PAGE, cllimit: 'max' }, 'categories'),
      'categories',
    );
    assertSameSet(await page.links(), await relation({ prop: 'links', titles: PAGE, plnamespace: '0', pllimit: 'max' }, 'links'), 'links');
    assertSameSet(await page.backlinks(), await relation({ list: 'backlinks', bltitle: PAGE, bllimit: 'max' }, 'backlinks'), 'backlinks');
  });

  it("images() gives imageinfo's URLs of the page's files (generator=images)", async () => {
    // Львів shows no missing file: wikijs reads imageinfo of every generated page, which a missing one lacks
    const lviv = await w.page('Львів');
    const files = await relation({ prop: 'images', titles: 'Львів', imlimit: 'max' }, 'images');
    const urls: string[] = await lviv.images();
    assert.equal(urls.length, files.length);
    for (const url of urls) assert.equal((await fetch(url)).status, 200, url);
  });

  it('html() gives the rendered page (rvparse: action=parse without the limit report)', async () => {
    const parsed = await s.get({ action: 'parse', page: PAGE, disablepp: '1' });
    assert.equal(await page.html(), parsed.json.parse.text['*']);
  });

  it('search(), prefixSearch(), random()', async () => {
    const found = await w.search('Київ');
    const expected = await relation({ list: 'search', srsearch: 'Київ', srlimit: 'max', srprop: '' }, 'search');
    assert.deepEqual(found.results, expected);
    // psprofile=fuzzy came with 1.26: answered with 1.25's unrecognized-parameter warning, the list as usual
    const prefixed = await w.prefixSearch('Ки');
    assert.deepEqual(prefixed.results, await relation({ list: 'prefixsearch', pssearch: 'Ки', pslimit: '50' }, 'prefixsearch'));
    const random: string[] = await w.random(3);
    assert.equal(new Set(random).size, 3);
    for (const title of random) assert.equal((await w.page(title)).raw.ns, 0);
  });

  it('allCategories() and pagesInCategory() list every category and member', async () => {
    assertSameSet(await w.allCategories(), base.categories, 'allCategories');
    assertSameSet(await w.pagesInCategory(`Категорія:${CATEGORY}`), base.members, 'pagesInCategory');
  });

  it('content() and summary() read prop=extracts of TextExtracts, which 1.25 lacks: no extract, as on 1.25', async () => {
    // the warning and the page without an extract are what a 1.25 wiki without TextExtracts answers too
    const r = await s.get({ action: 'query', prop: 'extracts', explaintext: '1', titles: PAGE, redirects: '1', origin: '*' });
    assert.equal(r.json.warnings.main['*'].includes("Unrecognized parameter: 'explaintext'"), true);
    assert.equal(r.json.warnings.query['*'], "Unrecognized value for parameter 'prop': extracts");
    assert.equal(await page.summary(), undefined);
    assert.deepEqual(await page.content(), []);
  });
});

describeOrSkip(
  'mwclient (python3-mwclient)',
  {
    skip: mwclientAvailable ? false : `mwclient is not installed for ${PYTHON} (apt-get install python3-mwclient): mwclient tests skipped`,
  },
  () => {
    let out: any;
    before(async () => {
      out = await runProbe();
    });

    it('Site() accepts the server (generator MediaWiki 1.25, read right, our namespaces)', () => {
      assert.deepEqual(out.site.version, [1, 25, 4]);
      assert.ok(out.site.rights.includes('read'));
      assert.equal(out.site.namespaces['6'], 'Файл');
      assert.equal(out.site.namespaces['14'], 'Категорія');
    });

    it('allcategories() lists all categories through continuation', () => {
      assertSameSet(out.categories.map(withoutPrefix), base.categories, 'categories');
    });

    it("allimages() (generator form) lists all images with imageinfo; duplicatefiles() gives each one's duplicates", () => {
      assertSameSet(
        out.images.map((i: any) => dbKey(i.name)),
        [...base.images.keys()],
        'images',
      );
      for (const img of out.images) {
        const name = dbKey(img.name);
        assert.equal(img.imagerepository, 'local', name);
        assert.equal(img.sha1, base.images.get(name), name);
        assert.deepEqual(out.duplicates[withoutPrefix(img.name)], base.duplicates.get(name), `duplicates of ${name}`);
      }
      // a file without a description page is still listed, as a missing page with its file
      assert.ok(out.images.some((i: any) => !i.exists));
    });

    it("Image.download() gets the bytes at imageinfo's url; imageusage() lists the users", () => {
      assert.equal(out.download.sha1, out.download.imageinfo_sha1);
      assert.ok(out.download.length > 0);
      assertSameSet(out.imageusage, base.imageUsage, 'imageusage');
    });

    it('search() finds the pages of a Cyrillic word, 7 per request', () => {
      assert.deepEqual(out.search, base.search);
    });

    it('categories[...] (generator=categorymembers) and members() list the members', () => {
      assert.deepEqual(out.members, base.members);
      assertSameSet(out.member_pages, base.members, 'member pages');
    });

    it('Page.text() gives the page text', () => {
      assert.equal(out.text, base.text);
    });

    it('parse(page=) gives the rendered page with its links and sections', () => {
      assert.equal(out.parse.apierror, undefined, JSON.stringify(out.parse));
      assert.equal(out.parse.text['*'], base.parsed.text['*']);
      assert.deepEqual(out.parse.sections, base.parsed.sections);
      assert.deepEqual(out.parse.links, base.parsed.links);
    });

    it("Page.links()/templates()/backlinks()/categories()/langlinks()/extlinks()/embeddedin() give the server's listings", async () => {
      const r = out.relations;
      const one = (params: Record<string, string>, key: string) => relation(params, key);
      assertSameSet(r.links, await one({ prop: 'links', titles: PAGE, pllimit: 'max' }, 'links'), 'links');
      assertSameSet(r.templates, await one({ prop: 'templates', titles: PAGE, tllimit: 'max' }, 'templates'), 'templates');
      assertSameSet(r.backlinks, await one({ list: 'backlinks', bltitle: PAGE, bllimit: 'max' }, 'backlinks'), 'backlinks');
      assertSameSet(r.categories, await one({ prop: 'categories', titles: PAGE, cllimit: 'max' }, 'categories'), 'categories');
      assertSameSet(r.embeddedin, await one({ list: 'embeddedin', eititle: 'Шаблон:Прапор', eilimit: 'max' }, 'embeddedin'), 'embeddedin');
      assertSameSet(r.extlinks, await one({ prop: 'extlinks', titles: PAGE, ellimit: 'max' }, 'extlinks'), 'extlinks');
      const ll = (await s.get({ action: 'query', prop: 'langlinks', titles: PAGE, lllimit: 'max' })).json;
      assert.deepEqual(
        r.langlinks,
        (Object.values(ll.query.pages)[0] as any).langlinks.map((l: any) => [l.lang, l['*']]),
      );
      assert.ok(
        r.links.length > 5 && r.templates.length > 3 && r.backlinks.length > 5 && r.langlinks.length > 3 && r.embeddedin.length > 10,
      );
    });

    it('get_token() gives the anonymous token', () => {
      assert.equal(out.token, ANON_TOKEN);
    });

    it('get() reads interface messages', () => {
      assert.deepEqual(out.messages, base.messages);
    });

    it('get() reads a query page through continuation', () => {
      assert.deepEqual(out.querypage, base.querypage);
    });

    it('get() reaches browsebysubject', async () => {
      assertBrowseShape(out.browsebysubject);
      assert.deepEqual(out.browsebysubject, await serverAnswer({ action: 'browsebysubject', subject: SUBJECT }));
    });

    it('get() reaches sfautocomplete', async () => {
      assertAutocompleteShape(out.sfautocomplete);
      assert.deepEqual(out.sfautocomplete, await serverAnswer({ action: 'sfautocomplete', property: SF_PROPERTY, substr: SF_SUBSTR }));
    });

    it('ask() continues through query-continue-offset to the one-shot answer', async () => {
      const all = await serverAnswer({ action: 'ask', query: ASK_QUERY.replace('limit=3', 'limit=500') });
      assert.ok(out.ask.length > 6, JSON.stringify(out.ask).slice(0, 300));
      assert.deepEqual(out.ask, Object.values(all.query.results));
    });
  },
);

/** Run the mwclient probe against the server, with a time limit; its stdout is one JSON object. */
function runProbe(): Promise<any> {
  return new Promise((res, rej) => {
    const child = spawn(PYTHON, [PROBE, port, CATEGORY, PAGE, IMAGE, SUBJECT, SF_PROPERTY, SF_SUBSTR, MSG_PREFIX, ASK_QUERY, SEARCH], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => stdout.push(b));
    child.stderr.on('data', (b: Buffer) => stderr.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const err = Buffer.concat(stderr).toString('utf8');
      if (code !== 0) return rej(new Error(`mwclient probe ended with ${signal ?? code}:\n${err}`));
      try {
        res(JSON.parse(Buffer.concat(stdout).toString('utf8')));
      } catch (e) {
        rej(new Error(`mwclient probe printed no JSON (${String(e)}):\n${err}`));
      }
    });
  });
}
