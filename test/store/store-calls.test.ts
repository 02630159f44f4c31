/**
 * Round trips per request: every store method answers a batch in one call, so a seed request makes a
 * small, fixed number of store calls whatever the number of titles, files or messages in it. On a
 * server database each call is one round trip; this counts them through a proxy around the store.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type WikiServer } from '../../src/http/server.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import { demoDatabase, toQuery } from '../helpers/demo-server.js';

const calls: string[] = [];

/** The store with every area method recording its name when called. */
function counting(store: Store): Store {
  const wrapped: Record<string, unknown> = {};
  for (const [area, impl] of Object.entries(store)) {
    if (typeof impl !== 'object' || impl === null) {
      wrapped[area] = impl;
      continue;
    }
    wrapped[area] = new Proxy(impl, {
      get(target, name, receiver) {
        const v = Reflect.get(target, name, receiver);
        if (typeof v !== 'function') return v;
        return (...args: unknown[]) => {
          calls.push(`${area}.${String(name)}`);
          return v.apply(target, args);
        };
      },
    });
  }
  return wrapped as unknown as Store;
}

let server: WikiServer;
let base: string;
before(async () => {
  const { db } = await demoDatabase();
  server = await createServer({ store: counting(await openStore(db)), logLevel: 'silent', cacheMb: 0 });
  base = `${await server.app.listen({ host: '127.0.0.1', port: 0 })}/api.php`;
});
after(async () => {
  await server?.close();
});

async function storeCalls(params: Record<string, string>): Promise<string[]> {
  calls.length = 0;
  const r = await fetch(`${base}?${toQuery({ format: 'json', ...params })}`);
  const json = (await r.json()) as Record<string, unknown>;
  assert.equal(json.error, undefined, JSON.stringify(json.error));
  return [...calls];
}

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

// The seed requests of the contract (those `npm run bench` measures), with batches as large as they come.
const SEED: Array<[string, Record<string, string>]> = [
  ['sfautocomplete (property)', { action: 'sfautocomplete', property: 'Регіон', substr: 'київ' }],
  ['duplicatefiles, one title', { action: 'query', prop: 'duplicatefiles', titles: 'File:Flag_of_Ukraine.png' }],
  ['duplicatefiles, ten titles', { action: 'query', prop: 'duplicatefiles', titles: MANY_FILES }],
  ['allcategories acprop=size', { action: 'query', list: 'allcategories', acprop: 'size', aclimit: 'max' }],
  [
    'generator=allimages + duplicatefiles, every file',
    { action: 'query', generator: 'allimages', gailimit: 'max', prop: 'duplicatefiles', dflimit: 'max' },
  ],
  ['generator=allfileusages', { action: 'query', generator: 'allfileusages', gaffrom: 'П', gaflimit: 'max' }],
  ['allmessages amprefix', { action: 'query', meta: 'allmessages', amprefix: 'demo-' }],
  [
    'allmessages, a list of messages',
    { action: 'query', meta: 'allmessages', ammessages: 'august|july|mainpage|demo-apostrophe|nosuchmessage' },
  ],
  ['querypage Ancientpages', { action: 'query', list: 'querypage', qppage: 'Ancientpages', qplimit: 'max' }],
  ['browsebysubject', { action: 'browsebysubject', subject: 'Демонстраційна_сторінка' }],
  ['tokens', { action: 'tokens' }],
];

describe('store calls per seed request', () => {
  for (const [name, params] of SEED) {
    it(`${name}: at most 3`, async () => {
      const made = await storeCalls(params);
      assert.ok(made.length <= 3, `${made.length} calls: ${made.join(', ')}`);
    });
  }
  // history, users and logs: one history call per request part (the revisions, then their texts; the
  // contributors, then the anonymous counts), whatever the number of pages, users or namespaces (usercontribs
  // reads each user and namespace inside one call); parsed comments add the shared comment-link lookups
  for (const [name, params] of [
    [
      'revisions, a page history with content and parsed comments',
      {
        action: 'query',
        prop: 'revisions',
        titles: 'Демовікі:Пісочниця',
        rvlimit: 'max',
        rvprop: 'ids|user|comment|parsedcomment|content',
      },
    ],
    ['revisions by revids', { action: 'query', prop: 'revisions', revids: '1|2|3|4|5|6|7|8|999999', rvprop: 'ids|content' }],
    ['contributors of several pages', { action: 'query', prop: 'contributors', titles: 'Київ|Львів|Одеса|Харків|Демовікі:Пісочниця' }],
    ['users', { action: 'query', list: 'users', ususers: 'Тарас|Олена Коваль|Нема|192.0.2.15', usprop: 'editcount|groups|rights' }],
    ['allusers', { action: 'query', list: 'allusers', aulimit: 'max', auprop: 'editcount' }],
    [
      'usercontribs, several users and namespaces',
      {
        action: 'query',
        list: 'usercontribs',
        ucuser: 'Тарас|Олена Коваль|Адміністратор',
        ucnamespace: '0|4|14',
        uclimit: 'max',
        ucprop: 'ids|title|sizediff|parsedcomment',
      },
    ],
    ['logevents', { action: 'query', list: 'logevents', lelimit: 'max', leprop: 'ids|title|type|details|parsedcomment' }],
    [
      'recentchanges',
      { action: 'query', list: 'recentchanges', rclimit: 'max', rcprop: 'title|ids|sizes|flags|user|loginfo|parsedcomment' },
    ],
  ] as Array<[string, Record<string, string>]>) {
    it(`${name}: at most 2 history calls, 4 in all`, async () => {
      const made = await storeCalls(params);
      assert.ok(made.filter((c) => c.startsWith('history.')).length <= 2 && made.length <= 4, `${made.length} calls: ${made.join(', ')}`);
    });
  }
  // a generator's page rows hold the pages' identity only, unless a module of the query reads them whole
  for (const [name, params, list] of [
    ['generator=allimages', { action: 'query', generator: 'allimages', gailimit: 'max' }, 'files.listPages'],
    ['generator=allfileusages', { action: 'query', generator: 'allfileusages', gaflimit: 'max' }, 'links.fileUsagePages'],
  ] as Array<[string, Record<string, string>, string]>) {
    it(`${name} with prop=info: the pages come whole with the generator's rows, no second read`, async () => {
      assert.deepEqual(await storeCalls({ ...params, prop: 'info' }), [list]);
      // and duplicatefiles adds no call: allimages reads the files' duplicates with them (the using pages of
      // allfileusages are no files: duplicatefiles has nothing to read)
      const dup = await storeCalls({ ...params, prop: 'duplicatefiles|info', dflimit: 'max' });
      assert.deepEqual(dup, [list]);
    });
  }
  it('generator=allimages&prop=duplicatefiles: one call, by name and by time, continued too', async () => {
    for (const params of [
      { gaisort: 'name' } as Record<string, string>,
      { gaisort: 'timestamp', gaidir: 'older', dfdir: 'descending' },
      { gaicontinue: 'П', dflimit: '1', dfcontinue: 'Прапор_України.png|Flag_of_Ukraine.png' },
    ]) {
      assert.deepEqual(await storeCalls({ action: 'query', generator: 'allimages', prop: 'duplicatefiles', ...params }), [
        'files.listPages',
      ]);
    }
    // other sources of the page set read the duplicates themselves
    const titles = await storeCalls({ action: 'query', prop: 'duplicatefiles', titles: MANY_FILES });
    assert.deepEqual(
      titles.filter((c) => c.startsWith('files.')),
      ['files.sameContent'],
      titles.join(', '),
    );
  });
  it('the count does not grow with the number of titles', async () => {
    const one = await storeCalls({ action: 'query', prop: 'info', titles: 'Київ' });
    const many = await storeCalls({
      action: 'query',
      prop: 'info|categories|images|revisions|imageinfo',
      titles: 'Київ|Львів|Одеса|Харків|Дніпро|Неіснуюча|Файл:Tux.png',
      redirects: '',
    });
    assert.equal(one.length, 1);
    assert.ok(many.length <= 8, many.join(', '));
  });
});

describe('{{int:}} in a rendered text: the messages a round reads in one store call, like its templates', () => {
  it('five {{int:}} calls of five keys in several languages: one messages.texts call; a nested one adds one round', async () => {
    const params = { action: 'parse', title: 'Тест', prop: 'text', disablelimitreport: '1' };
    // the renderer's own interface messages are read once per process: warm them first
    await storeCalls({ ...params, text: 'x' });
    const flat = await storeCalls({
      ...params,
      text: '{{int:mainpage}} {{int:august}} {{int:demo-only-en}} {{int:no-such}} {{int:demo-ru-fallback-2|x}}',
    });
    assert.deepEqual(
      flat.filter((c) => c.startsWith('messages.')),
      ['messages.texts'],
      flat.join(', '),
    );
    // demo-greeting's override holds {{int:demo-welcome}}: its text is read in the next round
    const nested = await storeCalls({ ...params, text: '{{int:demo-greeting}} {{int:august}}' });
    assert.deepEqual(
      nested.filter((c) => c.startsWith('messages.')),
      ['messages.texts', 'messages.texts'],
      nested.join(', '),
    );
  });
});
