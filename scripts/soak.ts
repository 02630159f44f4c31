/**
 * `npm run soak -- [--connections 256] [--duration 60] [--max-concurrent N] [--url URL --pid PID]`
 *
 * Issue 15's overload soak: `wikiquery serve` on the demo wiki with the response cache off, driven by
 * autocannon at C connections for D seconds over a mix of the spec's requests (lists, generators,
 * revisions with content, autocompletion, messages). Prints errors (socket errors and timeouts), answers
 * by status (a 503 is a request shed with the maxlag answer), latency p50/p99/max of the answers served
 * (200) and of all answers, and the server's RSS at the start, its peak and at the end.
 */
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { importDemo, rssMiB, startServer } from './abuse-server.js';

const q = (o: Record<string, string>) => '/api.php?' + new URLSearchParams({ format: 'json', ...o }).toString();
const PATHS = [
  q({ action: 'query', list: 'allpages', aplimit: 'max' }),
  q({ action: 'query', generator: 'allpages', gaplimit: '50', prop: 'revisions', rvprop: 'content|ids|timestamp' }),
  q({ action: 'query', prop: 'revisions', titles: 'Київ|Львів|Одеса', rvprop: 'content' }),
  q({ action: 'query', list: 'categorymembers', cmtitle: 'Категорія:Міста', cmlimit: 'max' }),
  q({ action: 'query', meta: 'allmessages', amprefix: 'demo-' }),
  q({ action: 'query', meta: 'siteinfo', siprop: 'general|namespaces|namespacealiases|statistics' }),
  q({ action: 'sfautocomplete', property: 'Регіон', substr: 'к' }),
  q({ action: 'query', list: 'allcategories', acprop: 'size', aclimit: 'max' }),
  q({ action: 'query', generator: 'allimages', prop: 'imageinfo|duplicatefiles', iiprop: 'url|size|sha1' }),
  q({ action: 'browsebysubject', subject: 'Демонстраційна_сторінка' }),
  q({ action: 'query', list: 'querypage', qppage: 'Ancientpages', qplimit: 'max' }),
  q({ action: 'query', titles: 'Київ|Немає|Файл:Tux.png', prop: 'info|categories|images', redirects: '' }),
];

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      connections: { type: 'string', default: '256' },
      duration: { type: 'string', default: '60' },
      'max-concurrent': { type: 'string' },
      url: { type: 'string' },
      pid: { type: 'string' },
    },
  });
  let base = values.url;
  let pid = values.pid ? Number(values.pid) : NaN;
  let stop = async () => {};
  if (!base) {
    const w = importDemo();
    const server = await startServer(w, values['max-concurrent'] ? ['--max-concurrent', values['max-concurrent']] : []);
    base = server.url.replace(/\/api\.php$/, '');
    pid = server.child.pid!;
    stop = async () => {
      await server.stop();
      w.cleanup();
    };
  }
  const rssStart = rssMiB(pid);
  let rssPeak = rssStart;
  const sampler = setInterval(() => {
    const r = rssMiB(pid);
    if (r > rssPeak) rssPeak = r;
  }, 100);
  const served: number[] = [];
  const all: number[] = [];
  const byStatus = new Map<number, number>();
  const instance = autocannon({
    url: base,
    connections: Number(values.connections),
    duration: Number(values.duration),
    timeout: 30,
    requests: PATHS.map((path) => ({ method: 'GET' as const, path })),
  });
  (instance as unknown as import('node:events').EventEmitter).on(
    'response',
    (_client: unknown, status: number, _bytes: number, ms: number) => {
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      all.push(ms);
      if (status === 200) served.push(ms);
    },
  );
  const result = await instance;
  clearInterval(sampler);
  // the server settles: what it keeps after the load
  await new Promise((r) => setTimeout(r, 2000));
  const rssEnd = rssMiB(pid);
  await stop();
  served.sort((a, b) => a - b);
  all.sort((a, b) => a - b);
  const statuses = [...byStatus]
    .sort((a, b) => a[0] - b[0])
    .map(([s, n]) => `${s}: ${n}`)
    .join(', ');
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
  console.log(`soak: ${values.connections} connections, ${values.duration} s, cache off, ${PATHS.length} request kinds`);
  console.log(`  answers ${all.length} (${statuses}); errors ${result.errors} (timeouts ${result.timeouts})`);
  console.log(
    `  served (200): p50 ${f(percentile(served, 50))} ms, p99 ${f(percentile(served, 99))} ms, max ${f(served[served.length - 1])} ms`,
  );
  console.log(`  all answers:  p50 ${f(percentile(all, 50))} ms, p99 ${f(percentile(all, 99))} ms, max ${f(all[all.length - 1])} ms`);
  console.log(`  server RSS: start ${f(rssStart)} MiB, peak ${f(rssPeak)} MiB, end ${f(rssEnd)} MiB`);
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
