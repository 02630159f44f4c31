/**
 * `npm run bench -- --catch-up [--pages 100000] [--changed 10000]` (issue 30's catch-up and template refresh),
 * in one run on the synthetic wiki (generate-big.ts, its dump kept in .bench/big-N/src):
 * 1. the importer's rate: the wiki imported into .bench/catch-up-N/wiki.sqlite, in this process;
 * 2. the incremental path's: a dump of CHANGED of its articles, each with one new revision (text added, a
 *    population and a category changed, `{{Оновлено}}` transcluded), applied by `import --update`'s code in this
 *    process, with the new page Шаблон:Оновлено; pages/s of both, wall and CPU (process.cpuUsage: every thread);
 * 3. the template refresh: `serve` on the database, the seed requests (bench/requests.ts SEED) sampled idle, then
 *    Шаблон:Оновлено edited by `wikiquery import --update` of a one-page dump in its own process, whose refresh
 *    queue then re-analyses the CHANGED pages that transclude it while the seed requests are sampled again: the
 *    refresh's pages/s and each seed request's p99 while it runs against idle (goal ≤ 2×).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { importHooks, importInlineQueries } from '../src/cli/import-command.js';
import { importWiki } from '../src/importer/import.js';
import { updateFromDump } from '../src/importer/update/from-dump.js';
import { cpuSeconds, quantile } from './follow.js';
import { cli, printTable, root, startServer, stopServer } from './load.js';
import { type BenchRequest, SEED, requestList } from './requests.js';

export interface CatchUpOptions {
  pages: number;
  changed: number;
  port: number;
  /** seconds of idle sampling */
  duration: number;
  /** concurrent request loops of the sampler */
  connections: number;
  markdown: boolean;
}

const TEMPLATE = 'Оновлено';
const TEMPLATE_PAGE_ID = 90_000_000;
const FIRST_REV_ID = 90_000_000;

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function revisionXml(id: number, parent: number, timestamp: string, text: string): string {
  return (
    `    <revision>\n      <id>${id}</id>\n${parent ? `      <parentid>${parent}</parentid>\n` : ''}      <timestamp>${timestamp}</timestamp>\n` +
    `      <contributor>\n        <username>Бот</username>\n        <id>99</id>\n      </contributor>\n      <comment>оновлення</comment>\n` +
    `      <model>wikitext</model>\n      <format>text/x-wiki</format>\n      <text xml:space="preserve">${text}</text>\n    </revision>\n`
  );
}

/** the template page's block, at its `n`th revision */
function templatePage(n: number, text: string): string {
  const revisions = Array.from({ length: n }, (_, i) =>
    revisionXml(FIRST_REV_ID + i, i ? FIRST_REV_ID + i - 1 : 0, `2027-01-0${i + 1}T00:00:00Z`, i + 1 < n ? 'Оновлено.' : text),
  );
  return `  <page>\n    <title>Шаблон:${TEMPLATE}</title>\n    <ns>10</ns>\n    <id>${TEMPLATE_PAGE_ID}</id>\n${revisions.join('')}  </page>\n`;
}

/**
 * The changed-page dump: every k-th article of the dump with a revision more (its latest text with a
 * paragraph, the template, a category and a population changed), and the template page.
 */
function changesDump(dump: string, changed: number): { xml: string; header: string } {
  const xml = readFileSync(dump, 'utf8');
  const header = xml.slice(0, xml.indexOf('  <page>\n'));
  const blocks = xml.match(/ {2}<page>\n[\s\S]*? {2}<\/page>\n/g) ?? [];
  const articles = blocks.filter((b) => /<ns>0<\/ns>/.test(b) && !/<redirect /.test(b));
  if (articles.length < changed) throw new Error(`--changed ${changed}: the wiki has ${articles.length} articles`);
  const step = Math.max(1, Math.floor(articles.length / changed));
  const out: string[] = [templatePage(1, 'Оновлено.')];
  let nextRev = FIRST_REV_ID + 100;
  for (let i = 0; i < articles.length && out.length <= changed; i += step) {
    const b = articles[i];
    const text = /<text[^>]*>([\s\S]*?)<\/text>/.exec(b)?.[1] ?? '';
    const parent = Number(/<revision>\n\s*<id>(\d+)<\/id>/.exec(b)?.[1] ?? 0);
    const added =
      text.replace(/населення=(\d+)/, (_m, n: string) => `населення=${Number(n) + 1}`) + `\n\n{{${TEMPLATE}}} [[Категорія:Оновлені]]`;
    out.push(b.replace(/ {2}<\/page>\n$/, `${revisionXml(nextRev++, parent, '2027-01-01T00:00:00Z', added)}  </page>\n`));
  }
  return { xml: header + out.join('') + '</mediawiki>\n', header };
}

interface Samples {
  byRequest: Map<string, number[]>;
  count: number;
}

/** `connections` loops requesting the seed requests in turn until `until()` says stop; latencies in ms. */
async function sample(base: string, list: BenchRequest[], connections: number, until: () => boolean): Promise<Samples> {
  const byRequest = new Map<string, number[]>(list.map((r) => [r.name, []]));
  let count = 0;
  let errors = 0;
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      for (let i = c; !until(); i++) {
        const r = list[i % list.length];
        const t = performance.now();
        const res = await fetch(`${base}?${r.query}`);
        await res.arrayBuffer();
        if (!res.ok) errors++;
        byRequest.get(r.name)!.push(performance.now() - t);
        count++;
      }
    }),
  );
  if (errors) console.log(`(${errors} answers were not 200)`);
  for (const v of byRequest.values()) v.sort((a, b) => a - b);
  return { byRequest, count };
}

export async function catchUp(opts: CatchUpOptions): Promise<void> {
  const src = join(root, '.bench', `big-${opts.pages}`, 'src');
  const dir = join(root, '.bench', `catch-up-${opts.pages}`);
  if (!existsSync(join(src, 'dump.xml'))) {
    const { generateBig } = await import('../scripts/generate-big.js');
    await generateBig(src, opts.pages);
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const db = join(dir, 'wiki.sqlite');
  const log = () => {};
  console.log(
    `wikiquery bench --catch-up: ${opts.pages}-page synthetic wiki, ${opts.changed} changed pages; load ${loadavg()[0].toFixed(1)}`,
  );

  let c0 = cpu();
  const imported = await importWiki({
    dump: join(src, 'dump.xml'),
    db,
    filesDir: join(src, 'files'),
    hooks: importHooks(),
    inlineQueries: importInlineQueries(),
    progress: false,
    log,
  });
  const importCpu = cpu() - c0;
  const importLoad = loadavg()[0];

  const changes = changesDump(join(src, 'dump.xml'), opts.changed);
  writeFileSync(join(dir, 'changes.xml'), changes.xml);
  c0 = cpu();
  const updated = await updateFromDump({ dump: join(dir, 'changes.xml'), db, log, inlineQueries: importInlineQueries() });
  const updateCpu = cpu() - c0;
  const updateLoad = loadavg()[0];
  const rate = (n: number, s: number) => Math.round(n / s).toLocaleString('en-US');
  printTable(
    ['path', 'pages', 'wall s', 'pages/s', 'CPU s', 'pages/CPU s', 'load'],
    [
      [
        'import',
        String(imported.pages),
        imported.seconds.toFixed(1),
        rate(imported.pages, imported.seconds),
        importCpu.toFixed(1),
        rate(imported.pages, importCpu),
        importLoad.toFixed(1),
      ],
      [
        'import --update (batches)',
        String(updated.pages),
        updated.applySeconds.toFixed(1),
        rate(updated.pages, updated.applySeconds),
        '',
        '',
        '',
      ],
      [
        'import --update (all)',
        String(updated.pages),
        updated.seconds.toFixed(1),
        rate(updated.pages, updated.seconds),
        updateCpu.toFixed(1),
        rate(updated.pages, updateCpu),
        updateLoad.toFixed(1),
      ],
    ],
    opts.markdown,
  );
  console.log(
    `catch-up: ${Math.round((100 * updated.pagesPerSecond) / imported.pagesPerSecond)}% of the import's pages/s (goal ≥ 25%); ` +
      `${Math.round((100 * (updated.pages / updateCpu)) / (imported.pages / importCpu))}% per CPU second; the update's refresh ` +
      `${updated.refreshSeconds.toFixed(1)} s (${updated.refreshed} pages), reports ${updated.reportSeconds.toFixed(1)} s\n`,
  );

  // 3. the template refresh while the seed requests are served
  const server = await startServer(db, opts.port, 1, '0');
  try {
    const base = `http://127.0.0.1:${opts.port}/api.php`;
    const { list } = await requestList(base, true, (r) => SEED.includes(r.name));
    await sample(
      base,
      list,
      opts.connections,
      (() => {
        const end = performance.now() + 2000;
        return () => performance.now() > end;
      })(),
    );
    const idleLoad = loadavg()[0];
    const idleEnd = performance.now() + opts.duration * 1000;
    const idle = await sample(base, list, opts.connections, () => performance.now() > idleEnd);

    writeFileSync(
      join(dir, 'template.xml'),
      `${changes.header}${templatePage(2, 'Оновлено двічі. [[Категорія:Оновлені двічі]]')}</mediawiki>\n`,
    );
    const serveCpu0 = cpuSeconds(server.pid);
    const child = spawn(process.execPath, [cli, 'import', join(dir, 'template.xml'), '--update', '--db', db, '--quiet'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString('utf8')));
    let childCpu = 0;
    const cpuTimer = setInterval(() => {
      const s = cpuSeconds(child.pid);
      if (Number.isFinite(s)) childCpu = s;
    }, 100);
    let exited = false;
    const done = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => {
        exited = true;
        resolve(code);
      }),
    );
    const busyLoad = loadavg()[0];
    const busy = await sample(base, list, opts.connections, () => exited);
    clearInterval(cpuTimer);
    if ((await done) !== 0) throw new Error(`import --update of the template failed: ${out}`);
    const serveCpu = cpuSeconds(server.pid) - serveCpu0;
    const m = /(\d+) pages refreshed in ([\d.]+) s/.exec(out);
    const refreshed = Number(m?.[1] ?? NaN);
    const refreshSeconds = Number(m?.[2] ?? NaN);
    const all = (s: Samples) => [...s.byRequest.values()].flat().sort((a, b) => a - b);
    const rows = list.map((r) => {
      const a = quantile(idle.byRequest.get(r.name)!, 0.99);
      const b = quantile(busy.byRequest.get(r.name)!, 0.99);
      return [r.name, a.toFixed(2), b.toFixed(2), `${(b / a).toFixed(2)}×`];
    });
    const a = quantile(all(idle), 0.99);
    const b = quantile(all(busy), 0.99);
    rows.push(['all nine', a.toFixed(2), b.toFixed(2), `${(b / a).toFixed(2)}×`]);
    printTable(['seed request', 'p99 idle ms', 'p99 refreshing ms', 'ratio (goal ≤ 2×)'], rows, opts.markdown);
    console.log(
      `template refresh: ${refreshed} pages in ${refreshSeconds} s, ${Math.round(refreshed / refreshSeconds)} pages/s ` +
        `(the updater's process: ${childCpu.toFixed(1)} CPU s in all); ${idle.count} requests idle in ${opts.duration} s (load ${idleLoad.toFixed(1)}), ` +
        `${busy.count} while refreshing (load ${busyLoad.toFixed(1)}; serve ${serveCpu.toFixed(1)} CPU s); ${opts.connections} connections`,
    );
  } finally {
    await stopServer(server);
  }
}
