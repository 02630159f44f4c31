/**
 * The paraminfo walk: every module and parameter `action=paraminfo` lists (every module 1.25, SMW 2.2 and
 * SF 3.3 offer a read-only anonymous client, and the write modules) is sent once with a probe value, and
 * the answer must differ from the one without it (an effect), or carry an error or a warning the answer
 * without it does not: no parameter is accepted and silently ignored. A parameter that shows no effect on
 * the demo wiki (an empty list's filters, a flag of data the demo lacks) must be named, with the reason,
 * in test/data/paraminfo-walk.json (which also gives probe values, with the parameters a probe needs); the test fails when another joins them, and when one listed there
 * shows an effect after all (so the list stays true). A module 1.25 refuses to every anonymous reader
 * (its watchlist, the deleted revisions) must answer with the error the data file names; its parameters,
 * checked before that error, are not ignored.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { demoServerForFile } from '../helpers/demo-server.js';

interface WalkData {
  base: Record<string, Record<string, string>>;
  probes: Record<string, string>;
  refusedToAnonymous: Record<string, string>;
  noEffectOnTheDemo: Record<string, string>;
}

const data: WalkData = JSON.parse(readFileSync(new URL('../../../test/data/paraminfo-walk.json', import.meta.url), 'utf8'));
const s = demoServerForFile();

/** pages of every kind the prop modules read: an article, a file, a category, a template, a redirect */
const PAGES = 'Київ|Файл:Flag of Ukraine.png|Категорія:Міста|Шаблон:Місто|Kyiv';

interface ParamInfo {
  name: string;
  type: string | string[];
  default?: unknown;
  multi?: string;
  required?: string;
}
interface ModuleInfo {
  name: string;
  path: string;
  group?: string;
  prefix: string;
  parameters: ParamInfo[];
}

/** a value of the parameter's type other than its default */
function probeValue(p: ParamInfo): string {
  if (Array.isArray(p.type)) {
    if (p.multi !== undefined) return p.type.join('|');
    return p.type.find((v) => String(v) !== String(p.default)) ?? p.type[0] ?? 'x';
  }
  switch (p.type) {
    case 'boolean':
      return '1';
    case 'limit':
    case 'integer':
      return p.default === 1 ? '2' : '1';
    case 'timestamp':
      return '2010-01-01T00:00:00Z';
    case 'namespace':
      return '10';
    case 'user':
      return 'Адміністратор';
    default:
      return 'Київ';
  }
}

/** what the answer is: status, body and the headers a parameter can change */
async function answer(params: Record<string, string>): Promise<string> {
  const r = await s.get(params);
  const headers = ['cache-control', 'access-control-allow-origin', 'mediawiki-api-error', 'content-type']
    .map((h) => `${h}: ${r.headers.get(h)}`)
    .join('\n');
  // a feed says when it was made: that is the clock, not the parameter
  const body = r.text.replace(/<lastBuildDate>[^<]*<\/lastBuildDate>|<updated>[^<]*<\/updated>/g, '');
  return `${r.status}\n${headers}\n${body}`;
}

function baseRequest(m: ModuleInfo): Record<string, string> | null {
  const common = { format: 'json', utf8: '1' };
  if (m.path === 'main') return Object.assign({ action: 'query', titles: 'Київ', continue: '' }, common);
  if (m.group === 'format') return null;
  const extra = data.base[m.path] ?? {};
  if (!m.path.startsWith('query+')) return Object.assign({ action: m.name }, extra, common);
  const q: Record<string, string> = { action: 'query', continue: '' };
  if (m.group === 'prop') Object.assign(q, { prop: m.name, titles: PAGES });
  else q[m.group!] = m.name;
  return Object.assign(q, extra, common);
}

describe('paraminfo walk', () => {
  let modules: ModuleInfo[] = [];
  const paths: string[] = ['main'];
  before(async () => {
    const top = (await s.get({ action: 'paraminfo', modules: 'main|query', format: 'json' })).json.paraminfo.modules as any[];
    const actions: string[] = top[0].parameters.find((p: any) => p.name === 'action').type;
    const query = top[1].parameters;
    paths.push(...actions);
    for (const kind of ['prop', 'list', 'meta'])
      for (const name of query.find((p: any) => p.name === kind).type) paths.push(`query+${name}`);
    for (let i = 0; i < paths.length; i += 40) {
      const r = await s.get({ action: 'paraminfo', modules: paths.slice(i, i + 40).join('|'), format: 'json' });
      modules = modules.concat(r.json.paraminfo.modules);
    }
  });

  it('paraminfo describes every module the API names', () => {
    assert.equal(modules.length, paths.length);
    assert.deepEqual(
      modules.filter((m) => !Array.isArray(m.parameters)).map((m) => m.path),
      [],
    );
  });

  it('no parameter is accepted and silently ignored', { timeout: 600_000 }, async () => {
    const noEffect: string[] = [];
    for (const m of modules) {
      const base = baseRequest(m);
      if (base === null) continue;
      const without = await answer(base);
      // a write module refuses every request (notoken, readonly, mustbeposted): its parameters are not ignored
      let refused = (m as any).writerights !== undefined || (m as any).mustbeposted !== undefined;
      // so does a module 1.25 keeps from anonymous readers, once its parameters are checked
      const anonymousError = data.refusedToAnonymous[m.path];
      if (anonymousError !== undefined) {
        const code = JSON.parse(without.slice(without.indexOf('\n{'))).error?.code;
        assert.equal(code, m.prefix + anonymousError, `${m.path} refuses an anonymous reader`);
        refused = true;
      }
      for (const p of m.parameters) {
        const key = `${m.path}:${p.name}`;
        const enc = m.path === 'main' || !m.path.startsWith('query+') ? p.name : m.prefix + p.name;
        if (base[enc] !== undefined || (m.path === 'main' && (p.name === 'action' || p.name === 'format'))) continue;
        // a probe of the data file may bring the parameters it needs along: "1&rvprop=content"
        const [probe, ...along] = (data.probes[key] ?? probeValue(p)).split('&');
        const alongParams = Object.fromEntries(along.map((kv) => kv.split('=') as [string, string]));
        const withIt = await answer(Object.assign({}, base, alongParams, { [enc]: probe }));
        const withoutIt = along.length ? await answer(Object.assign({}, base, alongParams)) : without;
        if (
          withIt === withoutIt &&
          !(refused && withIt.includes('\nmediawiki-api-error: ') && !withIt.includes('mediawiki-api-error: null'))
        )
          noEffect.push(key);
      }
    }
    const listed = Object.keys(data.noEffectOnTheDemo);
    assert.deepEqual(
      noEffect.filter((k) => !listed.includes(k)),
      [],
      'parameters without any effect, error or warning: make them work, or say why in test/data/paraminfo-walk.json',
    );
    assert.deepEqual(
      listed.filter((k) => !noEffect.includes(k)),
      [],
      'listed as without effect, but they have one: remove them from test/data/paraminfo-walk.json',
    );
  });
});
