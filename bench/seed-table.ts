/**
 * `--seed-table` (issue 13's Done-when): the contract's nine requests, and the polled lists (issue 32),
 * against the bare server and `wikiquery serve` per worker count, cache off and on, tabled with PASS/FAIL
 * per criterion.
 */
import { loadavg } from 'node:os';
import { type BenchRequest, POLLED, SEED, requestList } from './requests.js';
import { type Figures, int, measurer, ms, printTable, startBare, startServer, trouble, withServer } from './load.js';

/** 1000000 → 1M, 10000 → 10k (column heads) */
export const short = (n: number) => (n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n));

export const wikiLabel = (pages: number, big: boolean, file?: string) =>
  `${pages.toLocaleString('en-US')}-page ${big ? 'synthetic' : 'demo'} wiki${file ? ` (${file})` : ''}`;

export interface SeedTableOptions {
  db: string;
  /** the wiki is the synthetic one (undefined: ask the server) */
  big: boolean | undefined;
  file?: string;
  compare?: { db: string; big: boolean | undefined; file?: string; connections: number };
  port: number;
  workers: number[];
  cacheMb: string;
  duration: number;
  /** > 1: each c16 figure measured this many times, each time right after the bare server's, and the median share kept */
  rounds: number;
  tool?: string;
  only?: string;
  markdown: boolean;
}

export interface Measured {
  unc16: Figures;
  unc64: Figures;
  cac16: Figures;
  cac64: Figures;
}

export interface WorkerGroup {
  workers: number;
  /** the bare server of as many processes, measured before and after the group */
  bare16: Figures[];
  bare64: Figures[];
  rows: Map<string, Partial<Measured>>;
  /** with rounds > 1: per request and cache mode (`unc`, `cac`), each round's req/s over the bare server's just before */
  shares: Map<string, number[]>;
  /** requests whose answer is over LARGE_ANSWER bytes: the size, and a bare server writing as many bytes (c16) */
  large: Map<string, { bytes: number; bare: Figures }>;
}

/** Above this size an answer's socket copy outweighs a 100-byte request's whole cost: the table adds a size-matched ceiling. */
export const LARGE_ANSWER = 8192;

export const UNCACHED_SHARE = 0.5;
/** the polled lists' uncached criterion: this share of the bare server, or POLLED_SIZED_SHARE of one writing as many bytes */
export const UNCACHED_POLLED_SHARE = 0.35;
export const POLLED_SIZED_SHARE = 0.7;
export const CACHED_SHARE = 0.9;
export const P99_LIMIT_MS = 5;
export const P50_RATIO = 1.5;

/**
 * `--seed-table`: issue 13's Done-when in one run. For each worker count, the bare node:http server with as
 * many processes (c16 and c64, before and after), then wikiquery with the cache off and on, each seed request
 * at c16 (req/s, p50, p99) and c64 (p99); one table per worker count with each req/s as a share of the bare
 * server's (the mean of its two measurements) and a mark per criterion. `compare`: the p50 of each request
 * on a second wiki and on this one, measured in turn (one worker, cache off), and their ratio.
 */
export async function seedTable(o: SeedTableOptions): Promise<void> {
  const { measure, name: toolName } = measurer(o.tool, o.duration);
  const measured = SEED.concat(POLLED).filter((name) => !o.only || name.includes(o.only));
  const keep = (r: BenchRequest) => measured.includes(r.name);
  const base = `http://127.0.0.1:${o.port}/api.php`;
  const bareUrl = `http://127.0.0.1:${o.port - 1}/`;
  const started = new Date();
  const load0 = loadavg()[0];
  const perRequest = o.rounds > 1 ? 2 * o.rounds + 1 : 2;
  const runs = o.workers.length * (4 + 2 * perRequest * measured.length) + (o.compare ? 2 * measured.length : 0);
  console.error(
    `seed table: ~${runs} measurements of ${o.duration} s + 1 s warm-up: about ${Math.ceil((runs * (o.duration + 1.2)) / 60)} min`,
  );
  const progress = (what: string, f: Figures) =>
    console.error(`  ${what}: ${int(f.rps)} req/s, p50 ${ms(f.p50)} ms, p99 ${ms(f.p99)} ms${trouble(f)}`);

  let wiki: { list: BenchRequest[]; pages: number; big: boolean } | null = null;
  const groups: WorkerGroup[] = [];
  for (const workers of o.workers) {
    const g: WorkerGroup = { workers, bare16: [], bare64: [], rows: new Map(), shares: new Map(), large: new Map() };
    groups.push(g);
    const measureBare = () =>
      withServer(startBare(o.port - 1, workers), async () => {
        for (const [c, into] of [
          [16, g.bare16],
          [64, g.bare64],
        ] as const) {
          const f = await measure(bareUrl, c);
          into.push(f);
          progress(`bare node:http, ${workers} process(es), c${c}`, f);
        }
      });
    await measureBare();
    // paired rounds: a bare server of as many processes waits beside wikiquery, measured just before each round
    const beside = <T>(body: () => Promise<T>) => (o.rounds > 1 ? withServer(startBare(o.port - 1, workers), body) : body());
    for (const cached of [false, true]) {
      await beside(() =>
        withServer(startServer(o.db, o.port, workers, cached ? o.cacheMb : '0'), async () => {
          wiki ??= await requestList(base, o.big, keep);
          if (!cached) {
            for (const r of wiki.list) {
              const bytes = (await (await fetch(`${base}?${r.query}`)).arrayBuffer()).byteLength;
              if (bytes > LARGE_ANSWER) g.large.set(r.name, { bytes, bare: null as unknown as Figures });
            }
          }
          for (const r of wiki.list) {
            const row = g.rows.get(r.name) ?? {};
            g.rows.set(r.name, row);
            const mode = cached ? 'cac' : 'unc';
            if (o.rounds > 1) {
              // the machine's speed drifts from minute to minute: each round's share is against the bare server
              // measured just before it, and the round of the median share gives the c16 figures
              const rounds: Array<{ share: number; f: Figures }> = [];
              for (let i = 0; i < o.rounds; i++) {
                const b = await measure(bareUrl, 16);
                const f = await measure(`${base}?${r.query}`, 16);
                rounds.push({ share: f.rps / b.rps, f });
                progress(
                  `--workers ${workers}, cache ${cached ? 'on' : 'off'}, c16, ${r.name}, round ${i + 1}: ${(f.rps / b.rps).toFixed(2)}× the bare server's ${int(b.rps)} req/s`,
                  f,
                );
              }
              rounds.sort((a, b) => a.share - b.share);
              const median = rounds[(rounds.length - 1) >> 1]!;
              row[`${mode}16`] = median.f;
              g.shares.set(
                `${mode} ${r.name}`,
                rounds.map((x) => x.share),
              );
            }
            for (const c of o.rounds > 1 ? [64] : [16, 64]) {
              const f = await measure(`${base}?${r.query}`, c);
              row[`${mode}${c}` as keyof Measured] = f;
              progress(`--workers ${workers}, cache ${cached ? 'on' : 'off'}, c${c}, ${r.name}`, f);
            }
          }
        }),
      );
    }
    await measureBare();
    for (const [name, l] of g.large) {
      l.bare = await withServer(startBare(o.port - 1, workers, l.bytes), () => measure(bareUrl, 16));
      progress(`bare node:http, ${workers} process(es), ${l.bytes}-byte body (as ${name}), c16`, l.bare);
    }
  }

  let compared: { label: string; pages: number; p50: Map<string, [Figures, Figures]> } | null = null;
  if (o.compare) {
    const cmp = o.compare;
    const cmpBase = `http://127.0.0.1:${o.port + 1}/api.php`;
    compared = await withServer(startServer(o.db, o.port, 1, '0'), () =>
      withServer(startServer(cmp.db, o.port + 1, 1, '0'), async () => {
        wiki ??= await requestList(base, o.big, keep);
        const other = await requestList(cmpBase, cmp.big, keep);
        const p50 = new Map<string, [Figures, Figures]>();
        for (const r of wiki.list) {
          const twin = other.list.find((x) => x.name === r.name);
          if (!twin) continue;
          // in turn, request by request: the two figures of a ratio see the same load on the machine
          const small = await measure(`${cmpBase}?${twin.query}`, cmp.connections);
          progress(`compare, ${other.pages} pages, c${cmp.connections}, ${r.name}`, small);
          const large = await measure(`${base}?${r.query}`, cmp.connections);
          progress(`compare, ${wiki.pages} pages, c${cmp.connections}, ${r.name}`, large);
          p50.set(r.name, [small, large]);
        }
        return { label: wikiLabel(other.pages, other.big, cmp.file), pages: other.pages, p50 };
      }),
    );
  }
  if (!wiki) return;
  const w: { list: BenchRequest[]; pages: number; big: boolean } = wiki;

  const hhmm = (d: Date) => d.toISOString().slice(11, 16);
  console.log(
    `wikiquery bench --seed-table: ${wikiLabel(w.pages, w.big, o.file)}; ${toolName(16)} and ${toolName(64)}, ${o.duration} s per measurement after a 1 s warm-up; ` +
      `response cache ${o.cacheMb} MB when on; ${started.toISOString().slice(0, 10)} ${hhmm(started)}–${hhmm(new Date())} UTC, load average ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
  );
  const mean = (fs: Figures[]) => fs.reduce((a, f) => a + f.rps, 0) / fs.length;
  const clean = (f: Figures | undefined) => !!f && f.errors === 0 && f.timeouts === 0;
  const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const flag = (f: Figures | undefined) => (f && !clean(f) ? '!' : '');
  const verdicts: string[] = [];
  for (const g of groups) {
    const bareRps = mean(g.bare16);
    const bareP99 = Math.max(...g.bare64.map((f) => f.p99));
    console.log(
      `\n--workers ${g.workers}: bare node:http with ${g.workers} process${g.workers > 1 ? 'es' : ''}, before / after: ` +
        `c16 ${g.bare16.map((f) => `${int(f.rps)} req/s p50 ${ms(f.p50)} p99 ${ms(f.p99)}`).join(' / ')}; c64 p99 ${g.bare64.map((f) => ms(f.p99)).join(' / ')} ms. ` +
        `×bare: req/s over ${int(bareRps)} (the mean c16 req/s)`,
    );
    const head = [
      'request',
      'uncached req/s',
      '×bare',
      'p50',
      'p99',
      'c64 p99',
      'cached req/s',
      '×bare',
      'p50',
      'p99',
      'c64 p99',
      `unc ≥${UNCACHED_SHARE} (polled ≥${UNCACHED_POLLED_SHARE} or ≥${POLLED_SIZED_SHARE} sized)`,
      `cached ≥${CACHED_SHARE}`,
      `c64 p99<${P99_LIMIT_MS} unc`,
      `c64 p99<${P99_LIMIT_MS} cached`,
    ];
    const bareCells = [int(bareRps), '1.00', ms(g.bare16[0].p50), ms(g.bare16[0].p99), ms(bareP99)];
    const rows: string[][] = [['bare node:http (100-byte JSON)', ...bareCells, ...bareCells, '', '', '', '']];
    const count = [0, 0, 0, 0];
    const notes: string[] = [];
    for (const r of w.list) {
      const m = g.rows.get(r.name)!;
      // with paired rounds, the median of the rounds' shares; else over the group's bare server
      const share = (mode: 'unc' | 'cac') => {
        const s = g.shares.get(`${mode} ${r.name}`);
        const f = m[`${mode}16`];
        return s ? s.slice().sort((a, b) => a - b)[(s.length - 1) >> 1]! : f ? f.rps / bareRps : NaN;
      };
      const large = g.large.get(r.name);
      const polled = POLLED.includes(r.name);
      const ok = [
        clean(m.unc16) &&
          (polled
            ? share('unc') >= UNCACHED_POLLED_SHARE || (large !== undefined && m.unc16!.rps / large.bare.rps >= POLLED_SIZED_SHARE)
            : share('unc') >= UNCACHED_SHARE),
        clean(m.cac16) && share('cac') >= CACHED_SHARE,
        clean(m.unc64) && m.unc64!.p99 < P99_LIMIT_MS,
        clean(m.cac64) && m.cac64!.p99 < P99_LIMIT_MS,
      ];
      ok.forEach((v, i) => (count[i] += v ? 1 : 0));
      for (const [k, f] of Object.entries(m)) if (!clean(f)) notes.push(`! ${r.name}, ${k}:${trouble(f)}`);
      const cells = (mode: 'unc' | 'cac', f16: Figures | undefined, f64: Figures | undefined) => [
        int(f16?.rps ?? NaN) + flag(f16),
        share(mode).toFixed(2),
        ms(f16?.p50 ?? NaN),
        ms(f16?.p99 ?? NaN),
        ms(f64?.p99 ?? NaN) + flag(f64),
      ];
      rows.push([r.name, ...cells('unc', m.unc16, m.unc64), ...cells('cac', m.cac16, m.cac64), ...ok.map(mark)]);
    }
    printTable(head, rows, o.markdown);
    for (const n of notes) console.log(n);
    for (const [k, s] of g.shares)
      console.log(
        `${k.startsWith('unc') ? 'uncached' : 'cached'} ${k.slice(4)}: shares of the paired rounds ${s.map((x) => x.toFixed(2)).join(', ')}`,
      );
    for (const [name, l] of g.large) {
      const m = g.rows.get(name)!;
      const of = (f: Figures | undefined) => (f ? (f.rps / l.bare.rps).toFixed(2) : '?');
      console.log(
        `${name}: a ${int(l.bytes)}-byte answer; a bare node:http writing as many bytes does ${int(l.bare.rps)} req/s ` +
          `(${(l.bare.rps / bareRps).toFixed(2)}× the 100-byte bare): uncached ${of(m.unc16)}×, cached ${of(m.cac16)}× of that (not a criterion)`,
      );
    }
    const n = w.list.length;
    const summary =
      `--workers ${g.workers}: uncached ≥ ${UNCACHED_SHARE}× bare (polled lists ${UNCACHED_POLLED_SHARE}×) ${count[0]}/${n}, cached ≥ ${CACHED_SHARE}× ${count[1]}/${n}, ` +
      `c64 p99 < ${P99_LIMIT_MS} ms uncached ${count[2]}/${n}, cached ${count[3]}/${n}: ${mark(count.every((c) => c === n))}`;
    console.log(summary);
    verdicts.push(summary);
  }
  if (compared) {
    console.log(
      `\nuncached p50 (ms) at ${o.compare!.connections} connection(s), one worker: the ${compared.label} and this one, measured in turn per request; ratio: this / that`,
    );
    const rows: string[][] = [];
    let passed = 0;
    for (const r of w.list) {
      const pair = compared.p50.get(r.name);
      if (!pair) continue;
      const [small, large] = pair;
      const ratio = large.p50 / small.p50;
      const ok = clean(small) && clean(large) && ratio <= P50_RATIO;
      passed += ok ? 1 : 0;
      rows.push([r.name, ms(small.p50) + flag(small), ms(large.p50) + flag(large), ratio.toFixed(2), mark(ok)]);
    }
    printTable(['request', `p50 ${short(compared.pages)}`, `p50 ${short(w.pages)}`, 'ratio', `≤${P50_RATIO}×`], rows, o.markdown);
    const summary = `p50 ratio ≤ ${P50_RATIO}×: ${passed}/${rows.length}: ${mark(passed === rows.length)}`;
    console.log(summary);
    verdicts.push(summary);
  }
  if (verdicts.length > 1) console.log(`\n${verdicts.join('\n')}`);
}
