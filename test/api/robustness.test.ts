/**
 * Bad input never crashes the server and never yields a 500: every declared parameter of every module
 * (read from action=paraminfo, i.e. from the declarations themselves) is sent hostile values, alone and
 * with a generator; each answer must be a 200 (or MediaWiki's own 403 for origin) with either a result or
 * MediaWiki's error object — never an internal_api_error.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();

const HOSTILE = [
  '',
  ' ',
  '|',
  '||||',
  '\x1f',
  '\x1fa\x1fb',
  '-1',
  '0',
  '99999999999999999999',
  'max',
  'NaN',
  '1e309',
  'A[b]{c}<d>',
  '%ZZ%41',
  '../../etc/passwd',
  "Кам'янець ʼ’ Ґ Ї Є І",
  '\u0000\u0007\ud800',
  '😀'.repeat(50),
  'x'.repeat(5000),
  'Категорія:',
  ':',
  '#',
  '20150101000000|Foo|1|2|3',
  'page|zz|x',
];

interface ParamInfo {
  name: string;
  type: string | string[];
}

async function modules(): Promise<Array<{ path: string; prefix: string; group?: string; generator?: boolean; parameters: ParamInfo[] }>> {
  const help = await s.get({ action: 'paraminfo', modules: 'main' });
  const actions = (help.json.paraminfo.modules[0].parameters as ParamInfo[]).find((p) => p.name === 'action')!.type as string[];
  const query = await s.get({ action: 'paraminfo', modules: 'query' });
  const qp = query.json.paraminfo.modules[0].parameters as ParamInfo[];
  const sub = ['prop', 'list', 'meta'].flatMap((k) => qp.find((p) => p.name === k)!.type as string[]).map((n) => 'query+' + n);
  const paths = [...actions.filter((a) => a !== 'help'), ...sub];
  const out = [];
  for (let i = 0; i < paths.length; i += 40) {
    const r = await s.get({ action: 'paraminfo', modules: paths.slice(i, i + 40).join('|') });
    out.push(...r.json.paraminfo.modules);
  }
  return out;
}

/** modules whose answer is a document of their own (a feed), not the format= printer's; errors are JSON */
const OWN_DOCUMENT = new Set(['feedcontributions', 'feedrecentchanges']);

function check(r: { status: number; text: string; json: any }, what: string): void {
  assert.ok(r.status === 200, `${what}: HTTP ${r.status}`);
  if (OWN_DOCUMENT.has(what.split(' ')[0]) && r.json === undefined) {
    assert.ok(r.text.startsWith('<?xml version="1.0"?>\n'), `${what}: ${r.text.slice(0, 200)}`);
    return;
  }
  assert.ok(r.json !== undefined, `${what}: not JSON: ${r.text.slice(0, 200)}`);
  const code: string | undefined = r.json.error?.code;
  assert.ok(code === undefined || !code.startsWith('internal_api_error'), `${what}: ${JSON.stringify(r.json.error)}`);
}

describe('hostile parameter values', () => {
  it('every parameter of every module answers with a result or an API error', async () => {
    const mods = await modules();
    assert.ok(mods.length > 20);
    let requests = 0;
    for (const m of mods) {
      const [head, sub] = m.path.split('+');
      const base: Record<string, string> = sub === undefined ? { action: head } : { action: 'query', [m.group!]: sub };
      // a page set so that prop modules have something to work on
      if (m.group === 'prop') base.titles = 'Київ|Файл:Tux.png|Немає';
      for (const p of m.parameters) {
        // opensearch's own format= picks the printer: a bad value is answered as main's format= (tested below)
        if (m.path === 'opensearch' && p.name === 'format') continue;
        for (const v of HOSTILE) {
          const params = { ...base, [m.prefix + p.name]: v };
          check(await s.get(params), `${m.path} ${m.prefix}${p.name}=${JSON.stringify(v).slice(0, 40)}`);
          requests++;
          if (m.generator) {
            const g = { action: 'query', generator: sub, prop: 'info', ['g' + m.prefix + p.name]: v };
            check(await s.get(g), `generator=${sub} g${m.prefix}${p.name}=${JSON.stringify(v).slice(0, 40)}`);
            requests++;
          }
        }
      }
    }
    assert.ok(requests > 1000, `${requests} requests`);
  });

  it('main parameters, formats and the query module itself', async () => {
    for (const v of HOSTILE) {
      for (const name of [
        'action',
        'format',
        'formatversion',
        'callback',
        'maxlag',
        'smaxage',
        'maxage',
        'assert',
        'requestid',
        'uselang',
        'continue',
        'titles',
        'pageids',
        'generator',
        'prop',
        'list',
        'meta',
      ]) {
        const r = await s.get({ action: 'query', [name]: v, ...(name === 'format' ? {} : { format: 'json' }) });
        assert.ok(r.status === 200, `${name}=${JSON.stringify(v)}: HTTP ${r.status}`);
        const code = r.json?.error?.code ?? /"code": "([^"]*)"/.exec(r.text)?.[1];
        assert.ok(!String(code ?? '').startsWith('internal_api_error'), `${name}=${JSON.stringify(v)}: ${r.text.slice(0, 300)}`);
      }
    }
  });

  it('malformed bodies and methods', async () => {
    const bodies: Array<[string, string]> = [
      ['application/json', '{"action":"query"'],
      ['application/x-www-form-urlencoded', 'action=query&titles=%E0%A4%A'],
      ['multipart/form-data; boundary=x', '--x\r\nbroken'],
      ['text/plain', '\u0000\u0001'],
    ];
    for (const [type, body] of bodies) {
      const r = await fetch(`${s.url}?format=json`, { method: 'POST', headers: { 'content-type': type }, body });
      assert.ok(r.status < 500, `${type}: HTTP ${r.status}`);
    }
  });
});
