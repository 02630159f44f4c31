/**
 * SQLite's top-k search (src/store/sqlite/search-topk.ts over search-postings.ts) answers plain-word
 * queries as FTS5's MATCH with bm25() does: the same hits in the same order and the same totalhits, for
 * words of every frequency, pairs, repeated words, intitle:, whole titles (the title boost), each field
 * choice, namespace sets and offsets -- on the demo wiki and on a synthetic wiki big enough for a word's
 * postings to fill many blocks and its pages to spread over many ranges. And `import --update` leaves the
 * postings as a fresh import of the final dump writes them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { demoDatabase } from '../helpers/demo-server.js';
import { TEST_DB } from '../helpers/test-db.js';
import { describeOrSkip } from '../helpers/skip.js';
import { makeChangedDumps, type Changes } from '../helpers/changed-dumps.js';
import { importWiki } from '../../src/importer/import.js';
import { importHooks, importInlineQueries } from '../../src/cli/import-command.js';
import { generateBig } from '../../scripts/generate-big.js';
import { Db } from '../../src/store/sqlite/db.js';
import { SqliteSearchStore } from '../../src/store/sqlite/search.js';
import { topKEligible } from '../../src/store/sqlite/search-topk.js';
import { decodeBlock } from '../../src/store/sqlite/search-postings.js';
import { DF_SETS, decodeDirectory, setWeights, tfPart, WORD_COLUMNS } from '../../src/store/sqlite/search-directory.js';
import type { FullTextSearch } from '../../src/store/search-store.js';
import { parseSearch } from '../../src/wiki/search-query.js';

const skip = TEST_DB === 'postgres' ? 'SQLite’s own postings: runs in the SQLite pass' : false;
const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** Plain-word queries made from a database's vocabulary: frequent, middling and rare words, pairs, titles. */
function plainQueries(file: string): string[] {
  const conn = new Database(file, { readonly: true });
  try {
    conn.exec('CREATE VIRTUAL TABLE temp.v_row USING fts5vocab(main, search_index, row)');
    const byDocs = conn
      .prepare("SELECT term FROM temp.v_row WHERE term NOT GLOB 'n[0-9]*' ORDER BY doc DESC, term")
      .pluck()
      .all() as string[];
    const n = byDocs.length;
    const words = [...byDocs.slice(0, 15), ...byDocs.filter((_w, i) => i % Math.max(1, Math.floor(n / 40)) === 0), ...byDocs.slice(-6)];
    const titles = conn.prepare('SELECT DISTINCT st_key FROM search_title ORDER BY st_key').pluck().all() as string[];
    const q = new Set<string>();
    for (const w of words) {
      q.add(w);
      q.add(`intitle:${w}`);
    }
    for (let i = 0; i + 1 < words.length; i++) {
      q.add(`${words[i]} ${words[i + 1]}`);
      q.add(`${words[i]} ${words[(i * 7 + 3) % words.length]}`);
    }
    for (let i = 0; i < 12; i++) q.add(`${words[i]} ${words[i]}`);
    q.add(`${words[0]} ${words[1]} ${words[2]}`);
    q.add(`${words[0]} intitle:${words[3]}`);
    for (const t of titles.filter((_t, i) => i % Math.max(1, Math.floor(titles.length / 30)) === 0)) q.add(t);
    q.add('немаєтакогослова');
    q.add(`${words[0]} немаєтакогослова`);
    return [...q];
  } finally {
    conn.close();
  }
}

const NAMESPACES = [[0], [0, 1, 2, 3, 4, 6, 10, 12, 14], [4, 14], [-1, 0]];

/** every query × fields × namespaces × window, top-k against FTS5 */
async function compare(
  file: string,
  queries: string[],
  windows: Array<[number, number]>,
  namespaceSets = NAMESPACES,
): Promise<{ compared: number; nonEmpty: number }> {
  const db = new Db(file);
  try {
    const topK = new SqliteSearchStore(db);
    const fts5 = new SqliteSearchStore(db, { topK: false });
    let compared = 0;
    let nonEmpty = 0;
    for (const text of queries) {
      const query = parseSearch(text);
      // a title of no letters or digits is no query
      if (query === null || query.groups.length === 0) continue;
      assert.ok(topKEligible(query), `${text} is a query of plain words`);
      for (const fields of ['all', 'title', 'text'] as const) {
        for (const namespaces of namespaceSets) {
          for (const [offset, limit] of windows) {
            const req: FullTextSearch = { query, namespaces, fields, offset, limit, countHits: true };
            const [a, b] = [await topK.fullText(req), await fts5.fullText(req)];
            assert.deepEqual(a, b, `${JSON.stringify(text)} fields=${fields} ns=${namespaces} offset=${offset} limit=${limit}`);
            compared++;
            if (a.hits.length > 0) nonEmpty++;
          }
        }
      }
    }
    return { compared, nonEmpty };
  } finally {
    db.close();
  }
}

/** Every term's postings (decoded, blocks joined) and page counts: what an index holds, however it is cut in blocks. */
function postingsOf(file: string): { terms: Map<string, string>; df: unknown[] } {
  const conn = new Database(file, { readonly: true });
  try {
    const block = conn.prepare('SELECT sb_data FROM search_block WHERE sb_id = ?').pluck();
    const terms = new Map<string, string>();
    for (const row of conn.prepare('SELECT stt_term AS term, stt_dir AS dir FROM search_term ORDER BY stt_term').all() as Array<{
      term: string;
      dir: Buffer;
    }>) {
      const d = decodeDirectory(row.dir);
      const parts: string[] = [];
      let prev = -1;
      for (let b = 0; b < d.blocks; b++) {
        const x = decodeBlock(block.get(d.id[b]) as Buffer, d.first[b], d.n[b]);
        assert.equal(x.docs[0], d.first[b], `${row.term}: block ${b} starts where its entry says`);
        assert.equal(x.docs[x.n - 1], d.last[b], `${row.term}: block ${b} ends where its entry says`);
        for (let i = 0; i < x.n; i++) {
          assert.ok(x.docs[i] > prev, `${row.term}: pages in order`);
          prev = x.docs[i];
          // each column set's tfPart is within the block's bound (of its ns 0 pages, and of all)
          for (let set = 0; set < DF_SETS; set++) {
            const weights = setWeights(set);
            let f = 0;
            for (let c = 0; c < WORD_COLUMNS; c++) f += weights[c] * x.counts[i * WORD_COLUMNS + c];
            const part = tfPart(f, x.lengths[i], d.avgdl[b]);
            const bound = (k: number) => tfPart((d.f[k] as Float64Array)[b], (d.d[k] as Float64Array)[b], d.avgdl[b]);
            assert.ok(f === 0 || part <= bound(DF_SETS + set), `${row.term}: block ${b} bounds set ${set}`);
            if (x.ns[i] === 0 && f > 0) assert.ok(part <= bound(set), `${row.term}: block ${b} bounds set ${set} in ns 0`);
          }
          parts.push(`${x.docs[i]}:${x.ns[i]}:${x.lengths[i]}:${Array.from(x.counts.subarray(i * WORD_COLUMNS, (i + 1) * WORD_COLUMNS))}`);
        }
      }
      terms.set(row.term, parts.join(' '));
    }
    const df = conn.prepare('SELECT * FROM search_df ORDER BY sd_term, sd_ns').raw().all();
    return { terms, df };
  } finally {
    conn.close();
  }
}

/** Every bitmap of search_bitmap, its chunks joined as hex. */
function bitmapsOf(file: string): Map<string, string> {
  const conn = new Database(file, { readonly: true });
  try {
    const out = new Map<string, string>();
    for (const [key, chunk, data] of conn
      .prepare('SELECT sbm_key, sbm_chunk, sbm_data FROM search_bitmap ORDER BY sbm_key, sbm_chunk')
      .raw()
      .all() as Array<[string, number, Buffer]>)
      out.set(key, `${out.get(key) ?? ''} ${chunk}:${data.toString('hex')}`);
    return out;
  } finally {
    conn.close();
  }
}

describeOrSkip('SQLite top-k search answers as FTS5’s bm25()', { skip, timeout: 600_000 }, () => {
  it('on the demo wiki: every plain-word query, the same hits, order and totalhits', async () => {
    const { db } = await demoDatabase();
    const queries = plainQueries(db);
    assert.ok(queries.length > 100, `only ${queries.length} queries`);
    const { compared, nonEmpty } = await compare(
      db,
      queries,
      [
        [0, 500],
        [2, 5],
      ],
      NAMESPACES.slice(0, 3),
    );
    // pairs of words of different pages find nothing: a fifth of the answers is a wide spread of hits
    assert.ok(nonEmpty > compared / 5, `${nonEmpty} of ${compared} answers had hits`);
  });

  describe('on a synthetic wiki of 3,000 pages (many blocks and ranges per word)', () => {
    let dir: string;
    let db: string;

    before(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-topk-'));
      await generateBig(dir, 3000);
      db = path.join(dir, 'big.sqlite');
      await importWiki({
        dump: path.join(dir, 'dump.xml'),
        db,
        filesDir: path.join(dir, 'files'),
        lang: 'uk',
        hooks: importHooks(),
        progress: false,
        log: () => {},
      });
    });

    after(() => {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('has words whose postings fill many blocks', () => {
      const conn = new Database(db, { readonly: true });
      try {
        const most = Math.max(
          ...(conn.prepare('SELECT stt_dir FROM search_term').pluck().all() as Buffer[]).map((d) => decodeDirectory(d).blocks),
        );
        assert.ok(most >= 15, `the longest list has ${most} blocks`);
      } finally {
        conn.close();
      }
    });

    it('every plain-word query: the same hits, order and totalhits', async () => {
      const { compared, nonEmpty } = await compare(
        db,
        plainQueries(db),
        [
          [0, 10],
          [7, 20],
        ],
        [[0], [0, 14]],
      );
      assert.ok(nonEmpty > compared / 3, `${nonEmpty} of ${compared} answers had hits`);
    });
  });

  it('import --update leaves the postings and page counts a fresh import of the final dump writes', async () => {
    const demo = await demoDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-topk-update-'));
    try {
      const src = path.join(demo.dir, 'demo');
      const changes = JSON.parse(
        fs.readFileSync(fileURLToPath(new URL('../../../test/data/update/changes.json', import.meta.url)), 'utf8'),
      ) as Changes;
      const dumps = makeChangedDumps(path.join(src, 'dump.xml'), path.join(src, 'files'), changes, dir);
      const importInto = (db: string, dump: string, files: string) =>
        importWiki({
          dump,
          db,
          filesDir: files,
          messageDirs: [path.join(src, 'messages')],
          lang: 'uk',
          hooks: importHooks(),
          inlineQueries: importInlineQueries(),
          workers: 1,
          progress: false,
          log: () => {},
        });
      const updated = path.join(dir, 'updated.sqlite');
      const fresh = path.join(dir, 'fresh.sqlite');
      await importInto(updated, path.join(src, 'dump.xml'), path.join(src, 'files'));
      await importInto(fresh, dumps.final, dumps.files);
      for (const dump of dumps.batches) {
        const r = spawnSync(process.execPath, [CLI, 'import', dump, '--update', '--db', updated, '--files', dumps.files, '--quiet'], {
          encoding: 'utf8',
          timeout: 120_000,
        });
        assert.equal(r.status, 0, r.stderr);
      }
      const a = postingsOf(updated);
      const b = postingsOf(fresh);
      assert.ok(b.terms.size > 500, `${b.terms.size} terms`);
      const differ = [...new Set([...a.terms.keys(), ...b.terms.keys()])].filter((t) => a.terms.get(t) !== b.terms.get(t));
      assert.deepEqual(
        differ.slice(0, 5).map((t) => [t, a.terms.get(t), b.terms.get(t)]),
        [],
        `${differ.length} terms differ`,
      );
      assert.deepEqual(a.df, b.df);
      // the bitmaps the update kept hold the pages a fresh import's hold (a term may have crossed the
      // density since, so the keys of the fresh import are compared where the updated one has them)
      const bitmapsA = bitmapsOf(updated);
      const bitmapsB = bitmapsOf(fresh);
      assert.ok([...bitmapsA.keys()].some((k) => k.startsWith(':n')));
      for (const [key, bits] of bitmapsA) if (bitmapsB.has(key)) assert.equal(bits, bitmapsB.get(key), key);
      // and the updated wiki answers its plain-word queries as FTS5 does on it
      await compare(updated, plainQueries(updated).slice(0, 60), [[0, 10]]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
