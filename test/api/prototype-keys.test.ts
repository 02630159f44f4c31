/**
 * Issue 15, defect 7: a user-supplied value used as a key of a plain object reaches Object.prototype
 * (`amlang=constructor` threw "(FALLBACKS[lang] ?? []) is not iterable"). Every string-typed parameter of
 * every module, as paraminfo declares them (plus the page-set parameters), is sent each of the names
 * Object.prototype carries, alone and inside a multi-value list; no answer may be an internal error.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf', '__defineGetter__'];

interface ParamInfo {
  name: string;
  type: string | string[];
  multi?: boolean | string;
}

async function modules(): Promise<
  Array<{ path: string; prefix: string; group?: string; generator?: boolean | string; parameters: ParamInfo[] }>
> {
  const main = await s.get({ action: 'paraminfo', modules: 'main' });
  const actions = (main.json.paraminfo.modules[0].parameters as ParamInfo[]).find((p) => p.name === 'action')!.type as string[];
  const query = await s.get({ action: 'paraminfo', modules: 'query' });
  const qp = query.json.paraminfo.modules[0].parameters as ParamInfo[];
  const sub = ['prop', 'list', 'meta'].flatMap((k) => qp.find((p) => p.name === k)!.type as string[]).map((n) => 'query+' + n);
  const out = [main.json.paraminfo.modules[0], query.json.paraminfo.modules[0]];
  const paths = [...actions.filter((a) => a !== 'help' && a !== 'query'), ...sub];
  for (let i = 0; i < paths.length; i += 40) {
    const r = await s.get({ action: 'paraminfo', modules: paths.slice(i, i + 40).join('|') });
    out.push(...r.json.paraminfo.modules);
  }
  return out;
}

/** modules whose answer is a document of their own (a feed), not the format= printer's */
const OWN_DOCUMENT = new Set(['feedcontributions', 'feedrecentchanges']);

function check(r: { status: number; text: string; json: any }, what: string): void {
  assert.equal(r.status, 200, `${what}: HTTP ${r.status}`);
  // format=jsonfm (the default, or a format parameter under test) answers with HTML around the JSON
  // the feeds answer their own document, whatever format= says; their errors are JSON
  const feed = OWN_DOCUMENT.has(what.split(' ')[0]) && r.text.startsWith('<?xml version="1.0"?>\n');
  assert.ok(r.json !== undefined || feed || r.text.startsWith('<!DOCTYPE html>'), `${what}: not JSON: ${r.text.slice(0, 200)}`);
  assert.ok(!r.text.includes('internal_api_error'), `${what}: ${r.text.slice(0, 300)}`);
  const code: string | undefined = r.json?.error?.code;
  assert.ok(code === undefined || !code.startsWith('internal_api_error'), `${what}: ${JSON.stringify(r.json?.error)}`);
}

describe('names of Object.prototype as parameter values', () => {
  it('every string parameter of every module, alone and in a list', async () => {
    const mods = await modules();
    let requests = 0;
    for (const m of mods) {
      const [head, sub] = m.path.split('+');
      const base: Record<string, string> =
        head === 'main' ? {} : sub === undefined ? { action: head } : { action: 'query', [m.group!]: sub };
      if (m.group === 'prop') base.titles = 'Київ|Файл:Tux.png|Немає';
      // string-like parameters: free text, users, titles, namespaces given as text, and enums (an enum value
      // that is a prototype name must be refused, not looked up)
      for (const p of m.parameters) {
        if (p.type === 'integer' || p.type === 'limit' || p.type === 'boolean' || p.type === 'timestamp') continue;
        // origin without a matching Origin header is MediaWiki's plain-text 403, whatever its value
        if (head === 'main' && p.name === 'origin') continue;
        for (const v of NAMES) {
          for (const value of [v, `${v}|${v}`, `Київ|${v}`, `A&${v};B`, `{{${v}}} {{${v}:x}}`]) {
            const params = { ...base, [m.prefix + p.name]: value };
            check(await s.get(params), `${m.path} ${m.prefix}${p.name}=${value}`);
            requests++;
            if (m.generator !== undefined && sub) {
              check(
                await s.get({ action: 'query', generator: sub, prop: 'info', ['g' + m.prefix + p.name]: value }),
                `generator=${sub} g${m.prefix}${p.name}=${value}`,
              );
              requests++;
            }
          }
        }
      }
    }
    assert.ok(requests > 500, `${requests} requests`);
  });

  it('as parameter names and as names in a POST body', async () => {
    for (const v of NAMES) {
      check(await s.get({ action: 'query', meta: 'siteinfo', [v]: 'x' }), `GET ${v}=x`);
      check(await s.post({ format: 'json', action: 'query', meta: 'allmessages', amlang: v, ammessages: v, [v]: v }), `POST ${v}`);
      const form = new FormData();
      form.set('action', 'query');
      form.set('format', 'json');
      form.set('meta', 'allmessages');
      form.set('amlang', v);
      form.set(v, v);
      const r = await fetch(s.url, { method: 'POST', body: form });
      const text = await r.text();
      assert.ok(r.status < 500, `multipart ${v}: HTTP ${r.status}`);
      assert.ok(!text.includes('internal_api_error'), `multipart ${v}: ${text.slice(0, 200)}`);
    }
  });

  it('in wikitext given to expandtemplates: parser functions that look names up', async () => {
    for (const v of NAMES) {
      for (const text of [
        `{{#language:${v}}}`,
        `{{#expr: ${v}}}`,
        `{{#expr: 1 ${v} 2}}`,
        `{{#switch:${v}|${v}=a|b}}`,
        `{{${v}:x}}`,
        `[[${v}]] {{DISPLAYTITLE:${v}}}`,
      ]) {
        const r = await s.get({ action: 'expandtemplates', text, prop: 'wikitext' });
        check(r, `expandtemplates ${text}`);
      }
    }
    const lang = await s.get({ action: 'expandtemplates', text: '{{#language:constructor}}', prop: 'wikitext' });
    assert.equal(lang.json.expandtemplates.wikitext, 'constructor');
  });

  it('amlang=constructor answers in the fallback language', async () => {
    const r = await s.get({ action: 'query', meta: 'allmessages', amlang: 'constructor', ammessages: 'mainpage' });
    check(r, 'amlang=constructor');
    assert.equal(r.json.query.allmessages[0].name, 'mainpage');
  });
});
