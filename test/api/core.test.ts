/**
 * The API core over HTTP on the demo wiki: envelopes, errors and warnings of the 1.25 core, formats,
 * main parameters, titles and the page set, tokens, siteinfo/userinfo, help, debuginfo.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoServer, toQuery, demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();

const DOCREF = () => `See ${s.url} for API usage`;

describe('action=tokens', () => {
  it('answers an empty token set with the deprecation and permission warnings', async () => {
    const r = await s.get({ action: 'tokens' });
    assert.equal(r.status, 200);
    assert.equal(
      r.text,
      '{"warnings":{"tokens":{"*":"action=tokens has been deprecated. Please use action=query&meta=tokens instead.\\nAction \'edit\' is not allowed for the current user"}},"tokens":{}}',
    );
    assert.equal(r.headers.get('x-frame-options'), 'DENY');
    assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.equal(r.headers.get('mediawiki-api-error'), null);
  });
  it('refuses every requested type', async () => {
    const r = await s.get({ action: 'tokens', type: 'edit|watch|bogus' });
    assert.deepEqual(r.json.tokens, {});
    assert.match(r.json.warnings.tokens['*'], /Unrecognized value for parameter 'type': bogus/);
    assert.match(r.json.warnings.tokens['*'], /Action 'watch' is not allowed for the current user/);
  });
  it('meta=tokens gives the anonymous token', async () => {
    assert.equal((await s.get({ action: 'query', meta: 'tokens' })).text, '{"query":{"tokens":{"csrftoken":"+\\\\"}}}');
    assert.equal(
      (await s.get({ action: 'query', meta: 'tokens', continue: '' })).text,
      '{"batchcomplete":"","query":{"tokens":{"csrftoken":"+\\\\"}}}',
    );
    const jsonp = await s.get({ action: 'query', meta: 'tokens', callback: 'cb' });
    assert.equal(
      jsonp.text,
      '/**/cb({"warnings":{"tokens":{"*":"Tokens may not be obtained when the same-origin policy is not applied"}}})',
    );
  });
});

describe('errors', () => {
  const cases: Array<[Record<string, string>, string, string]> = [
    [{ action: 'nonexistent' }, 'unknown_action', "Unrecognized value for parameter 'action': nonexistent"],
    [{ action: 'query|tokens' }, 'multival_action', "Only one of 'ask', 'askargs', 'block', 'browsebysubject', "],
    [
      { action: 'query', continue: 'abc' },
      'badcontinue',
      'Invalid continue param. You should pass the original value returned by the previous query',
    ],
    [{ action: 'query', generator: 'nothing' }, 'badgenerator', 'Unknown generator=nothing'],
    [{ action: 'query', generator: 'siteinfo' }, 'badgenerator', 'Module siteinfo cannot be used as a generator'],
    [{ action: 'query', titles: 'A', pageids: '1' }, 'multisource', "Cannot use 'pageids' at the same time as 'titles'"],
    [{ action: 'query', assert: 'user' }, 'assertuserfailed', 'Assertion that the user is logged in failed'],
    [{ action: 'query', assert: 'bot' }, 'assertbotfailed', 'Assertion that the user has the bot right failed'],
    [{ action: 'query', list: 'querypage' }, 'qpnopage', 'The page parameter must be set'],
    [
      { action: 'query', list: 'querypage', qppage: 'Nonexistent' },
      'qpunknown_qppage',
      "Unrecognized value for parameter 'qppage': Nonexistent",
    ],
    [{ action: 'query', generator: 'querypage' }, 'gqpnopage', 'The page parameter must be set'],
    [{ action: 'query', list: 'allimages', aistart: '2015' }, 'aibadparams', "Parameter 'aistart' can only be used with aisort=timestamp"],
    [
      { action: 'query', list: 'allimages', aisort: 'timestamp', aistart: 'not a time' },
      'aibadtimestamp_aistart',
      "Invalid value 'not a time' for timestamp parameter aistart",
    ],
  ];
  for (const [params, code, info] of cases) {
    it(`${toQuery(params)} → ${code}`, async () => {
      const r = await s.get(params);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('mediawiki-api-error'), code);
      assert.equal(r.json.error.code, code);
      assert.ok(r.json.error.info.startsWith(info), r.json.error.info);
      assert.equal(r.json.error['*'], DOCREF());
      assert.deepEqual(Object.keys(r.json.error), ['code', 'info', '*']);
      assert.equal(r.headers.get('cache-control'), 'private, must-revalidate, max-age=0');
      assert.equal(r.headers.get('x-frame-options'), 'DENY');
    });
  }
  it('keeps requestid and the warnings collected so far, and uses docref in fv2', async () => {
    const r = await s.get({ action: 'query', list: 'foo', requestid: 'r1', continue: 'x||y||z' });
    assert.equal(
      r.text,
      `{"requestid":"r1","warnings":{"query":{"*":"Unrecognized value for parameter 'list': foo"}},"error":{"code":"badcontinue","info":"Invalid continue param. You should pass the original value returned by the previous query","*":"See ${s.url} for API usage"}}`,
    );
    const v2 = await s.get({ action: 'nonexistent', formatversion: 2 });
    assert.deepEqual(v2.json, {
      error: { code: 'unknown_action', info: "Unrecognized value for parameter 'action': nonexistent", docref: DOCREF() },
    });
  });
  it('an unknown format is reported in the HTML format', async () => {
    const r = await s.get({ action: 'query', format: 'yml' });
    assert.equal(r.headers.get('mediawiki-api-error'), 'unknown_format');
    assert.match(r.headers.get('content-type')!, /^text\/html/);
    assert.match(r.text, /"code": "unknown_format"/);
  });
  it('a bad formatversion is re-printed with default printer parameters', async () => {
    const r = await s.get({ action: 'query', formatversion: 7 });
    assert.equal(r.headers.get('mediawiki-api-error'), 'unknown_formatversion');
    assert.equal(
      r.json.warnings.main['*'],
      "Error printer failed (will retry without params): Unrecognized value for parameter 'formatversion': 7",
    );
  });
  it('maxlag below the lag answers maxlag with Retry-After', async () => {
    const r = await s.get({ action: 'query', maxlag: -1 });
    assert.equal(r.json.error.code, 'maxlag');
    assert.equal(r.headers.get('retry-after'), '5');
    assert.equal(r.headers.get('x-database-lag'), '0');
    assert.equal((await s.get({ action: 'query', meta: 'siteinfo', maxlag: 5 })).json.error, undefined);
  });
});

describe('warnings', () => {
  it('reports unrecognized parameters under main, in request order', async () => {
    assert.equal((await s.get({ action: 'tokens', foo: 1 })).json.warnings.main['*'], "Unrecognized parameter: 'foo'");
    const r = await s.get({ action: 'query', meta: 'siteinfo', zzz: 1, aaa: 2, acprop: 'size' });
    assert.equal(r.json.warnings.main['*'], "Unrecognized parameters: 'zzz', 'aaa', 'acprop'");
    // printer parameters are never reported
    assert.equal((await s.get({ action: 'query', meta: 'siteinfo', utf8: 1, ascii: 1, formatversion: 1 })).json.warnings, undefined);
  });
  it('reports unknown values of multi-valued enums and drops them', async () => {
    const r = await s.get({ action: 'query', list: 'foo|bar', meta: 'tokens' });
    assert.equal(r.json.warnings.query['*'], "Unrecognized values for parameter 'list': foo, bar");
    assert.ok(r.json.query.tokens);
  });
  it('reports PHP array syntax', async () => {
    const r = await fetch(`${s.url}?action=query&meta=siteinfo&format=json&titles[]=A`);
    const j = (await r.json()) as any;
    assert.equal(j.warnings.main['*'], "Parameter 'titles' uses unsupported PHP array syntax");
  });
  it('caps multi-values at 50', async () => {
    const titles = Array.from({ length: 51 }, (_, i) => `T${i}`).join('|');
    const r = await s.get({ action: 'query', titles });
    assert.equal(r.json.warnings.query['*'], "Too many values supplied for parameter 'titles': the limit is 50");
    assert.equal(Object.keys(r.json.query.pages).length, 50);
  });
  it('accepts \\x1f-separated multi-values and drops duplicates', async () => {
    const r = await s.get({ action: 'query', titles: '\x1fКиїв\x1fКиїв\x1fA|B', utf8: 1 });
    const pages = Object.values(r.json.query.pages) as any[];
    assert.equal(pages.length, 2);
    assert.deepEqual(
      pages.find((p) => p.invalid === ''),
      { title: 'A|B', invalid: '' },
    );
    assert.ok(pages.some((p) => p.title === 'Київ' && p.pageid > 0));
  });
});

describe('formats', () => {
  it('escapes non-ASCII in formatversion 1 unless utf8', async () => {
    const esc = await s.get({ action: 'query', titles: 'Київ' });
    assert.match(esc.text, /"title":"\\u041a\\u0438\\u0457\\u0432"/);
    const raw = await s.get({ action: 'query', titles: 'Київ', utf8: 1 });
    assert.match(raw.text, /"title":"Київ"/);
  });
  it('formatversion 2: real booleans, content keys, pages as a list, UTF-8', async () => {
    const r = await s.get({ action: 'query', titles: 'Немає такої сторінки', formatversion: 2, continue: '' });
    assert.equal(r.text, '{"batchcomplete":true,"query":{"pages":[{"ns":0,"title":"Немає такої сторінки","missing":true}]}}');
    const a = await s.get({ action: 'query', titles: 'Немає', formatversion: 2, ascii: 1 });
    assert.match(a.text, /\\u041d/);
  });
  it('JSONP wraps the JSON and filters the callback name', async () => {
    const r = await s.get({ action: 'query', meta: 'tokens', callback: 'my.cb(1);' });
    assert.ok(r.text.startsWith('/**/my.cb1('));
    assert.equal(r.headers.get('content-type'), 'text/javascript; charset=utf-8');
  });
  it('without format: an HTML page with a Ukrainian header and the escaped pretty JSON', async () => {
    const r = await fetch(`${s.url}?action=tokens`);
    const html = await r.text();
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(html, /<html lang="uk"/);
    assert.match(html, /format=json/);
    assert.match(html, /<pre class="api-pretty-content">\{\n {4}"warnings": \{\n {8}"tokens": \{/);
  });
  it('without action: the HTML help generated from the declarations', async () => {
    const r = await fetch(s.url);
    const html = await r.text();
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    for (const name of [
      'query+allcategories',
      'query+allimages',
      'query+duplicatefiles',
      'sfautocomplete',
      'browsebysubject',
      'tokens',
      'acprefix',
      'gaicontinue'.slice(1),
    ])
      assert.ok(html.includes(name), name);
  });
  it('action=paraminfo describes a module from its declaration', async () => {
    const r = await s.get({ action: 'paraminfo', modules: 'query+allcategories' });
    const m = r.json.paraminfo.modules[0];
    assert.equal(m.prefix, 'ac');
    const limit = m.parameters.find((p: any) => p.name === 'limit');
    assert.deepEqual([limit.type, limit.default, limit.max, limit.highmax, limit.min], ['limit', 10, 500, 5000, 1]);
  });
});

describe('main parameters', () => {
  it('requestid comes first, curtimestamp is ISO', async () => {
    const r = await s.get({ action: 'query', meta: 'tokens', requestid: 'abc', curtimestamp: 1 });
    assert.deepEqual(Object.keys(r.json), ['requestid', 'query', 'curtimestamp']);
    assert.match(r.json.curtimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });
  it('maxage/smaxage make public modules cacheable', async () => {
    const r = await s.get({ action: 'query', meta: 'siteinfo', maxage: 60, smaxage: 30 });
    assert.equal(r.headers.get('cache-control'), 's-maxage=30, max-age=60, public');
    assert.ok(r.headers.get('expires'));
    const t = await s.get({ action: 'query', meta: 'tokens', maxage: 60 });
    assert.equal(t.headers.get('cache-control'), 'private, must-revalidate, max-age=60');
  });
  it('origin must match the Origin header', async () => {
    const bad = await fetch(`${s.url}?action=query&format=json&origin=http://a.example`, { headers: { Origin: 'http://b.example' } });
    assert.equal(bad.status, 403);
    // ApiMain::handleCORS echoes the text with a newline (1.25 and 1.39 alike)
    assert.equal(await bad.text(), "'origin' parameter does not match Origin header\n");
    const good = await fetch(`${s.url}?action=query&meta=tokens&format=json&origin=http://a.example`, {
      headers: { Origin: 'http://a.example' },
    });
    assert.equal(good.status, 200);
    assert.equal(good.headers.get('vary'), 'Origin');
  });
  it('POST urlencoded and multipart bodies are merged with the query string', async () => {
    const r = await s.post({ action: 'query', meta: 'tokens' }, { format: 'json' });
    assert.equal(r.text, '{"query":{"tokens":{"csrftoken":"+\\\\"}}}');
    const form = new FormData();
    form.set('action', 'query');
    form.set('titles', 'Київ');
    form.set('utf8', '1');
    const m = await fetch(`${s.url}?format=json`, { method: 'POST', body: form });
    assert.match(await m.text(), /"title":"Київ"/);
  });
});

describe('titles and the page set', () => {
  it('normalizes English and Ukrainian prefixes, aliases, case and underscores', async () => {
    const r = await s.get({
      action: 'query',
      titles: 'File:foo_bar.png|Зображення:Foo_bar.png|Image:Foo bar.png|файл:foo bar.png',
      utf8: 1,
    });
    assert.deepEqual(r.json.query.normalized, [
      { from: 'File:foo_bar.png', to: 'Файл:Foo bar.png' },
      { from: 'Зображення:Foo_bar.png', to: 'Файл:Foo bar.png' },
      { from: 'Image:Foo bar.png', to: 'Файл:Foo bar.png' },
      { from: 'файл:foo bar.png', to: 'Файл:Foo bar.png' },
    ]);
    assert.deepEqual(r.json.query.pages, { '-1': { ns: 6, title: 'Файл:Foo bar.png', missing: '' } });
  });
  it('uppercases Ukrainian first letters (ґ, ї, є, і)', async () => {
    const r = await s.get({ action: 'query', titles: 'ґанок|їжак|єнот|іній', utf8: 1 });
    assert.deepEqual(
      r.json.query.normalized.map((n: any) => n.to),
      ['Ґанок', 'Їжак', 'Єнот', 'Іній'],
    );
  });
  it('lists invalid and missing titles under negative keys, existing pages by id', async () => {
    const r = await s.get({ action: 'query', titles: 'A[b]|Немає такої сторінки|Київ', utf8: 1 });
    const pages = r.json.query.pages;
    assert.deepEqual(pages['-2'], { ns: 0, title: 'Немає такої сторінки', missing: '' });
    assert.deepEqual(pages['-1'], { title: 'A[b]', invalid: '' });
    const kyiv = Object.values(pages).find((p: any) => p.title === 'Київ') as any;
    assert.ok(kyiv && kyiv.pageid > 0 && kyiv.ns === 0);
    // missing titles come first, then invalid ones, then existing pages (JS reorders numeric keys: check the text)
    assert.match(r.text, /"pages":\{"-2":\{[^}]*\},"-1":\{[^}]*\},"\d+":/);
  });
  it('resolves redirects with redirects=', async () => {
    const r = await s.get({ action: 'query', titles: 'Kyiv', redirects: 1, utf8: 1 });
    assert.deepEqual(r.json.query.redirects, [{ from: 'Kyiv', to: 'Київ' }]);
  });
  it('indexpageids lists the keys', async () => {
    const r = await s.get({ action: 'query', titles: 'Київ|Немає', indexpageids: 1 });
    // in output order: the missing title first
    assert.equal(r.json.query.pageids[0], '-1');
    assert.deepEqual([...r.json.query.pageids].sort(), Object.keys(r.json.query.pages).sort());
  });
});

describe('siteinfo and userinfo', () => {
  it('general names MediaWiki 1.25 and wikiquery; namespaces carry uk names', async () => {
    const r = await s.get({ action: 'query', meta: 'siteinfo', siprop: 'general|namespaces|namespacealiases|statistics', utf8: 1 });
    const q = r.json.query;
    assert.match(q.general.generator, /^MediaWiki 1\.25\.\d+ \(wikiquery /);
    assert.equal(q.general.lang, 'uk');
    assert.equal(q.general.legaltitlechars, ' %!"$&\'()*,\\-.\\/0-9:;=?@A-Z\\\\^_`a-z~\\x80-\\xFF+');
    assert.deepEqual(q.namespaces['6'], { id: 6, case: 'first-letter', canonical: 'File', '*': 'Файл' });
    assert.deepEqual(q.namespaces['0'], { id: 0, case: 'first-letter', content: '', '*': '' });
    assert.ok(q.namespacealiases.some((a: any) => a.id === 6 && a['*'] === 'Зображення'));
    assert.ok(q.statistics.pages >= 300);
  });
  it('userinfo is anonymous and may read; it combines with other modules', async () => {
    const r = await s.get({ action: 'query', meta: 'siteinfo|userinfo|userinfo', uiprop: 'groups|rights|blockinfo|hasmsg', continue: '' });
    assert.deepEqual(r.json.query.userinfo, { id: 0, name: '127.0.0.1', anon: '', groups: ['*'], rights: ['read'] });
    assert.equal(r.json.batchcomplete, '');
  });
  it('uiprop=options is every default option, booleans kept (ApiQueryUserInfo.php:110-113, User.php:1501-1526 of 1.25)', async () => {
    const r = await s.get({ action: 'query', meta: 'userinfo|siteinfo', uiprop: 'options', siprop: 'defaultoptions' });
    const options = r.json.query.userinfo.options;
    assert.deepEqual(options, r.json.query.defaultoptions);
    // $wgDefaultUserOptions in its order, 'skin' from $wgDefaultSkin, then the language, the variants of the
    // languages that have them (uk has none, so no 'variant' key: 1.39 adds one) and searchNs<n> from 0 up
    assert.equal(Object.keys(options).length, 54 + 1 + 9 + 24);
    assert.deepEqual(Object.keys(options).slice(0, 3), ['ccmeonemails', 'cols', 'date']);
    assert.equal(options.skin, 'vector');
    assert.equal(options.watchlistdays, 3);
    assert.equal(options.language, 'uk');
    assert.equal(options.variant, undefined);
    assert.equal(options['variant-sr'], 'sr');
    assert.equal(
      JSON.stringify(Object.entries(options).slice(-24)),
      JSON.stringify([
        ['searchNs0', true],
        ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 102, 103, 104, 105, 106, 107, 108, 109].map((n) => [`searchNs${n}`, false]),
      ]),
    );
    assert.match(r.text, /"searchNs0":true,"searchNs1":false,/);
  });
});

describe('debuginfo', () => {
  it('is absent without --debug', async () => {
    assert.equal((await s.get({ action: 'query', meta: 'siteinfo' })).json.debuginfo, undefined);
  });
  it('is the last member with --debug, with the SQL queries of the request', async () => {
    const d = await startDemoServer({ debug: true });
    try {
      const r = await d.get({ action: 'query', titles: 'Київ', utf8: 1 });
      const keys = Object.keys(r.json);
      assert.equal(keys[keys.length - 1], 'debuginfo');
      const info = r.json.debuginfo;
      for (const k of [
        'wikiqueryVersion',
        'nodeVersion',
        'nodeEngine',
        'time',
        'log',
        'debugLog',
        'queries',
        'request',
        'memory',
        'memoryPeak',
        'includes',
      ])
        assert.ok(k in info, k);
      assert.ok(
        info.queries.some(
          (q: any) =>
            q.function === 'PageStore.byTitles' &&
            /FROM page WHERE page_namespace = \? AND page_title = \?|JOIN page ON page_namespace = t.ns AND page_title = t.dbkey/.test(
              q.sql,
            ) &&
            typeof q.time === 'number',
        ),
      );
      assert.equal(info.request.method, 'GET');
      assert.equal(info.request.params.titles, 'Київ');
      assert.match(info.memory, /^[\d ,]+ (байтів|КБ|МБ|ГБ)$/);
      assert.ok(info.includes.some((i: any) => i.name.endsWith('api/main.js')));
      // errors carry no debuginfo
      assert.equal((await d.get({ action: 'nope' })).json.debuginfo, undefined);
    } finally {
      await d.close();
    }
  });
});

describe('response cache', () => {
  it('serves the same bytes again for the same URL', async () => {
    const a = await s.get({ action: 'query', list: 'allcategories', acprop: 'size', aclimit: 3 });
    const b = await s.get({ action: 'query', list: 'allcategories', acprop: 'size', aclimit: 3 });
    assert.equal(b.text, a.text);
  });
  it('reuses a clock-dependent answer only within its second', async () => {
    const first = await s.get({ action: 'query', meta: 'siteinfo', curtimestamp: 1 });
    // until the clock is in a later second than the one the first answer was made in
    const answeredIn = Math.floor(Date.now() / 1000);
    while (Math.floor(Date.now() / 1000) === answeredIn) await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000)));
    const later = await s.get({ action: 'query', meta: 'siteinfo', curtimestamp: 1 });
    assert.notEqual(later.json.curtimestamp, first.json.curtimestamp);
    assert.notEqual(later.json.query.general.time, first.json.query.general.time);
  });
});
