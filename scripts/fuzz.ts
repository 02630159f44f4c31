/**
 * `npm run fuzz -- [--requests N] [--seed S] [--concurrency C] [--url http://host/api.php]`
 *
 * The hostile-request generator of issue 15. It reads action=paraminfo (every module, every parameter,
 * their types and enum values), then sends N requests built from it with hostile values — prototype
 * names, control characters, lone surrogates, PHP arrays, pipes and \x1f lists, huge numbers, long and
 * random strings, enum values mixed with garbage, generators, continuation junk — by GET, urlencoded POST
 * and multipart POST, in every output format. Without --url it imports the demo wiki and starts
 * `wikiquery serve` (cache off) as its own process, so a crash is seen.
 *
 * Reported, and each one a failure (exit code 1): HTTP 5xx (a shed 503 `maxlag` is counted apart: that
 * is the server protecting itself), internal_api_error answers, hangs (no answer within 10 s), malformed
 * bodies (a JSON format whose body does not parse, a MediaWiki-API-Error header that disagrees with the
 * body), and a server process that died.
 */
import { parseArgs } from 'node:util';
import { Rng } from './random.js';
import { importDemo, startServer, type RunningServer } from './abuse-server.js';

interface Param {
  name: string;
  type: string | string[];
  multi?: boolean | string;
}
interface Module {
  path: string;
  prefix: string;
  group?: string;
  generator?: boolean | string;
  parameters: Param[];
}

const PROTO = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];
const FIXED = [
  '',
  ' ',
  '|',
  '||||',
  '\x1f',
  '\x1fa\x1fb',
  '-1',
  '0',
  '1',
  '2147483648',
  '9223372036854775808',
  '99999999999999999999',
  '1e309',
  'NaN',
  'max',
  'Infinity',
  '0x10',
  'A[b]{c}<d>',
  '%ZZ%41',
  '../../etc/passwd',
  "Кам'янець ʼ’ Ґ Ї Є І",
  '\u0000\u0007',
  '\ud800',
  '\udfff\ud800',
  '😀😀😀',
  'Категорія:',
  'Файл:',
  ':',
  '#',
  '[[x]]',
  '{{x}}',
  '{{{1}}}',
  '<!--',
  '<nowiki>',
  '&amp;&#0;&#x110000;',
  '20150101000000|Foo|1|2|3',
  'page|zz|x',
  'Київ',
  'Головна сторінка',
  'Файл:Tux.png',
  'Шаблон:Картка',
  'Категорія:Міста',
  'MediaWiki:Mainpage',
  '2015-01-01T00:00:00Z',
  'now',
  '*',
  'javascript:alert(1)',
  '"><script>',
  '\r\nX-Injected: 1',
  'a'.repeat(300),
];
const CHARS = [
  'a',
  'Я',
  'ї',
  '|',
  '\x1f',
  '\x00',
  '\n',
  '\t',
  '%',
  '&',
  '<',
  '>',
  '{',
  '}',
  '[',
  ']',
  '"',
  "'",
  ' ',
  '_',
  ':',
  '#',
  '😀',
  '\ud800',
  '\u202e',
  '\u00ad',
  '0',
  '9',
  '-',
  '+',
  '=',
];

function hostileValue(rng: Rng, p: Param | null): string {
  const r = rng.next();
  const enums = p && Array.isArray(p.type) ? p.type : null;
  if (enums?.length && r < 0.3) {
    // valid values mixed with junk, in a list
    const n = rng.int(1, 4);
    const vals: string[] = [];
    for (let i = 0; i < n; i++) vals.push(rng.chance(0.7) ? rng.pick(enums) : hostileValue(rng, null));
    return vals.join(rng.chance(0.9) ? '|' : '\x1f');
  }
  if (r < 0.45) return rng.pick(FIXED);
  if (r < 0.55) return rng.pick(PROTO) + (rng.chance(0.3) ? '|' + rng.pick(PROTO) : '');
  if (r < 0.65) return String(rng.int(-1e6, 1e6) * (rng.chance(0.2) ? 1e12 : 1));
  if (r < 0.9) {
    let s = '';
    const n = rng.int(0, 60);
    for (let i = 0; i < n; i++) s += rng.pick(CHARS);
    return s;
  }
  if (r < 0.97) return Array.from({ length: rng.int(2, 80) }, () => rng.pick(FIXED)).join('|');
  return rng.pick(['x', 'Я', '|']).repeat(rng.int(1000, 60_000));
}

/** One hostile request: flat parameters. */
function buildRequest(rng: Rng, mods: Module[], actions: string[]): Record<string, string> {
  const params: Record<string, string> = Object.create(null);
  const sub = mods.filter((m) => m.path.startsWith('query+'));
  const top = mods.filter((m) => !m.path.startsWith('query+') && m.path !== 'main');
  const main = mods.find((m) => m.path === 'main')!;
  const chosen: Array<{ m: Module; prefix: string }> = [];
  if (rng.chance(0.7)) {
    params.action = 'query';
    const n = rng.int(1, 3);
    for (const m of rng.sample(sub, n)) {
      const [, name] = m.path.split('+');
      const group = m.group ?? 'list';
      params[group] = params[group] ? `${params[group]}|${name}` : name;
      chosen.push({ m, prefix: m.prefix });
    }
    if (rng.chance(0.35)) {
      const gens = sub.filter((m) => m.generator !== undefined);
      const g = rng.pick(gens);
      params.generator = g.path.split('+')[1];
      chosen.push({ m: g, prefix: 'g' + g.prefix });
    }
    if (rng.chance(0.4)) params[rng.pick(['titles', 'pageids', 'revids'])] = hostileValue(rng, null);
    if (rng.chance(0.3)) params.continue = rng.chance(0.5) ? '' : hostileValue(rng, null);
    if (rng.chance(0.1)) params.rawcontinue = '';
    if (rng.chance(0.1)) params.redirects = '';
    if (rng.chance(0.05)) params.indexpageids = '';
  } else {
    const m = rng.pick(top);
    params.action = rng.chance(0.95) ? m.path : rng.pick([...actions, hostileValue(rng, null)]);
    chosen.push({ m, prefix: m.prefix });
  }
  for (const { m, prefix } of chosen) {
    const k = rng.int(0, Math.min(4, m.parameters.length));
    for (const p of rng.sample(m.parameters, k)) params[prefix + p.name] = hostileValue(rng, p);
  }
  for (const p of rng.sample(main.parameters, rng.int(0, 2)))
    if (p.name !== 'action' && p.name !== 'format') params[p.name] = hostileValue(rng, p);
  const f = rng.next();
  params.format = f < 0.8 ? 'json' : f < 0.9 ? 'jsonfm' : f < 0.95 ? hostileValue(rng, null) : params.format;
  if (params.format === undefined) delete params.format;
  if (rng.chance(0.1)) params.formatversion = rng.pick(['1', '2', 'latest', hostileValue(rng, null)]);
  if (rng.chance(0.05)) params.callback = hostileValue(rng, null);
  if (rng.chance(0.05)) params.utf8 = '';
  if (rng.chance(0.03)) params[`${rng.pick(['titles', 'prop', 'action'])}[]`] = 'x';
  if (rng.chance(0.03)) params[rng.pick(PROTO)] = hostileValue(rng, null);
  return params;
}

interface Outcome {
  kind: 'ok' | 'apierror' | 'shed' | '5xx' | 'internal' | 'hang' | 'malformed' | 'neterror';
  status: number;
  detail?: string;
}

function judge(status: number, headers: Headers, body: string, params: Record<string, string>): Outcome {
  if (status === 503 && headers.get('mediawiki-api-error') === 'maxlag') return { kind: 'shed', status };
  if (status >= 500) return { kind: '5xx', status, detail: body.slice(0, 200) };
  if (body.includes('internal_api_error')) return { kind: 'internal', status, detail: body.slice(0, 300) };
  const type = headers.get('content-type') ?? '';
  let json: any;
  if (type.startsWith('application/json')) {
    try {
      json = JSON.parse(body);
    } catch (e) {
      return { kind: 'malformed', status, detail: `JSON does not parse: ${(e as Error).message}` };
    }
  } else if (type.startsWith('text/javascript')) {
    const m = /^\/\*\*\/[\][.'"_A-Za-z0-9]*\(([\s\S]*)\)$/.exec(body);
    if (!m) return { kind: 'malformed', status, detail: 'JSONP body is not callback(…)' };
    try {
      json = JSON.parse(m[1]);
    } catch (e) {
      return { kind: 'malformed', status, detail: `JSONP payload does not parse: ${(e as Error).message}` };
    }
  } else if (type.startsWith('text/html')) {
    if (!/^<!DOCTYPE html>/.test(body) || !body.trimEnd().endsWith('</html>'))
      return { kind: 'malformed', status, detail: 'HTML page cut' };
  } else if (status === 403 && params.origin !== undefined) {
    return { kind: 'apierror', status };
  } else if (status >= 400 && status < 500) {
    return { kind: 'apierror', status };
  } else if (!(params.action === 'help' || status === 200)) {
    return { kind: 'malformed', status, detail: `unexpected Content-Type ${type}` };
  }
  const headerCode = headers.get('mediawiki-api-error');
  if (json !== undefined) {
    const code = json?.error?.code;
    if ((code ?? null) !== (headerCode ?? null))
      return { kind: 'malformed', status, detail: `MediaWiki-API-Error ${headerCode} but error.code ${code}` };
    return { kind: code ? 'apierror' : 'ok', status };
  }
  return { kind: headerCode ? 'apierror' : 'ok', status };
}

async function send(url: string, params: Record<string, string>, method: 'GET' | 'POST' | 'MULTIPART'): Promise<Outcome> {
  const qs = new URLSearchParams(Object.entries(params)).toString();
  const signal = AbortSignal.timeout(10_000);
  try {
    let res: Response;
    if (method === 'GET') res = await fetch(`${url}?${qs}`, { signal });
    else if (method === 'POST')
      res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: qs, signal });
    else {
      const form = new FormData();
      for (const [k, v] of Object.entries(params)) form.append(k, v);
      res = await fetch(url, { method: 'POST', body: form, signal });
    }
    const body = await res.text();
    return judge(res.status, res.headers, body, params);
  } catch (e) {
    const err = e as Error & { cause?: { code?: string } };
    if (err.name === 'TimeoutError' || err.name === 'AbortError') return { kind: 'hang', status: 0 };
    return { kind: 'neterror', status: 0, detail: `${err.message} ${err.cause?.code ?? ''}` };
  }
}

async function paraminfo(url: string): Promise<{ mods: Module[]; actions: string[] }> {
  const get = async (q: Record<string, string>) =>
    (await fetch(`${url}?${new URLSearchParams({ format: 'json', ...q })}`)).json() as Promise<any>;
  const main = (await get({ action: 'paraminfo', modules: 'main' })).paraminfo.modules[0] as Module;
  const actions = main.parameters.find((p) => p.name === 'action')!.type as string[];
  const query = (await get({ action: 'paraminfo', modules: 'query' })).paraminfo.modules[0] as Module;
  const subs = ['prop', 'list', 'meta']
    .flatMap((k) => query.parameters.find((p) => p.name === k)!.type as string[])
    .map((n) => 'query+' + n);
  const paths = [...actions.filter((a) => a !== 'query'), ...subs];
  const mods: Module[] = [main, query];
  for (let i = 0; i < paths.length; i += 40)
    mods.push(...(await get({ action: 'paraminfo', modules: paths.slice(i, i + 40).join('|') })).paraminfo.modules);
  return { mods, actions };
}

export interface FuzzReport {
  requests: number;
  seconds: number;
  counts: Record<Outcome['kind'], number>;
  failures: Array<{ method: string; params: Record<string, string>; outcome: Outcome }>;
  serverDied: boolean;
}

export async function fuzz(opts: {
  url: string;
  requests: number;
  seed: number;
  concurrency: number;
  server?: RunningServer;
}): Promise<FuzzReport> {
  const { mods, actions } = await paraminfo(opts.url);
  const rng = new Rng(opts.seed);
  const counts: FuzzReport['counts'] = { ok: 0, apierror: 0, shed: 0, '5xx': 0, internal: 0, hang: 0, malformed: 0, neterror: 0 };
  const failures: FuzzReport['failures'] = [];
  const t0 = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < opts.requests) {
      next++;
      const params = buildRequest(rng, mods, actions);
      const r = rng.next();
      const method = r < 0.7 ? 'GET' : r < 0.9 ? 'POST' : 'MULTIPART';
      // a GET longer than Node's 16 KB header limit is Node's own 431: send those as POST
      const m = method === 'GET' && JSON.stringify(params).length > 6000 ? 'POST' : method;
      const outcome = await send(opts.url, params, m);
      counts[outcome.kind]++;
      if (!['ok', 'apierror', 'shed'].includes(outcome.kind) && failures.length < 50) failures.push({ method: m, params, outcome });
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  return {
    requests: opts.requests,
    seconds: (Date.now() - t0) / 1000,
    counts,
    failures,
    serverDied: opts.server ? opts.server.child.exitCode !== null : false,
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '2000' },
      seed: { type: 'string', default: '15' },
      concurrency: { type: 'string', default: '8' },
      url: { type: 'string' },
    },
  });
  const requests = Number(values.requests);
  let server: RunningServer | undefined;
  let cleanup = () => {};
  let url = values.url;
  if (!url) {
    const w = importDemo();
    server = await startServer(w);
    url = server.url;
    cleanup = w.cleanup;
  }
  try {
    const r = await fuzz({ url, requests, seed: Number(values.seed), concurrency: Number(values.concurrency), server });
    const c = r.counts;
    console.log(
      `fuzz: ${r.requests} hostile requests in ${r.seconds.toFixed(1)} s (seed ${values.seed}): ` +
        `${c.ok} results, ${c.apierror} API errors, ${c.shed} shed (503 maxlag) — ` +
        `${c['5xx']} 5xx, ${c.internal} internal errors, ${c.hang} hangs, ${c.malformed} malformed, ${c.neterror} network errors; ` +
        `server ${r.serverDied ? 'DIED' : 'alive'}`,
    );
    for (const f of r.failures.slice(0, 10)) {
      console.log(
        `  ${f.outcome.kind} ${f.outcome.status} ${f.method} ${JSON.stringify(f.params).slice(0, 300)} ${f.outcome.detail ?? ''}`,
      );
    }
    if (server && r.serverDied) console.log(server.stderr().slice(-2000));
    const bad = c['5xx'] + c.internal + c.hang + c.malformed + c.neterror + (r.serverDied ? 1 : 0);
    process.exitCode = bad > 0 ? 1 : 0;
  } finally {
    await server?.stop();
    cleanup();
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  main().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
}
