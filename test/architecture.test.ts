/**
 * The shape of the code, checked so that it stays true: one request flows one way (http → api → modules →
 * store), wiki knowledge and storage never reach back up, and no import circle exists anywhere in src/; and
 * each test file sits in the folder of what it tests. Read from the TypeScript sources themselves (type-only
 * imports count: they are dependencies too).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** file (relative to the repository, .ts) → the src/ files it imports */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(src)) {
    const text = readFileSync(file, 'utf8');
    const deps: string[] = [];
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/gm)) {
      deps.push(relative(root, resolve(dirname(file), m[1])).replace(/\.js$/, '.ts'));
    }
    for (const m of text.matchAll(/import\(\s*['"](\.[^'"]+)['"]\s*\)/g))
      deps.push(relative(root, resolve(dirname(file), m[1])).replace(/\.js$/, '.ts'));
    graph.set(relative(root, file), deps);
  }
  return graph;
}

const graph = importGraph();
const under = (dir: string) => (f: string) => f.startsWith(dir + '/');

function violations(from: (f: string) => boolean, to: (f: string) => boolean): string[] {
  const out: string[] = [];
  for (const [f, deps] of graph) if (from(f)) for (const d of deps) if (to(d)) out.push(`${f} → ${d}`);
  return out;
}

describe('architecture: the import graph of src/', () => {
  it('is read from the sources (the check sees the real files)', () => {
    assert.ok(graph.size > 50, `${graph.size} files`);
    assert.ok(graph.get('src/api/main.ts')?.includes('src/api/request-state.ts'));
  });

  it('the API core and the modules know no storage backend', () => {
    const backend = (d: string) => under('src/store/sqlite')(d) || under('src/store/postgres')(d) || under('src/store/sql')(d);
    assert.deepEqual(
      violations((f) => ['src/api', 'src/modules', 'src/http'].some((dir) => under(dir)(f)), backend),
      [],
    );
    const drivers = [...graph.keys()].filter(
      (f) => !under('src/store')(f) && /from\s+['"](better-sqlite3|postgres)['"]/.test(readFileSync(join(root, f), 'utf8')),
    );
    assert.deepEqual(drivers, [], 'database clients are used in src/store only');
  });

  it('the SQLite store does not lean on the PostgreSQL one; PostgreSQL uses of SQLite are its staging file, its replica and schema only', () => {
    assert.deepEqual(violations(under('src/store/sqlite'), under('src/store/postgres')), []);
    const uses = violations(under('src/store/postgres'), under('src/store/sqlite')).map((v) => v.split(' → ')[1]);
    assert.deepEqual(
      // the import builds in a staging file; the incremental path writes that file, kept as a local replica
      [...new Set(uses)]
        .sort()
        .filter(
          (d) => !['src/store/sqlite/import/writer.ts', 'src/store/sqlite/update/writer.ts', 'src/store/sqlite/schema.ts'].includes(d),
        ),
      [],
    );
  });

  it('the SQL the two engines share leans on neither engine', () => {
    assert.deepEqual(
      violations(under('src/store/sql'), (d) => under('src/store/sqlite')(d) || under('src/store/postgres')(d)),
      [],
    );
  });

  it('the store knows nothing above it (no API core, modules, HTTP or CLI)', () => {
    assert.deepEqual(
      violations(under('src/store'), (d) => ['src/api', 'src/modules', 'src/http', 'src/cli'].some((dir) => under(dir)(d))),
      [],
    );
  });

  it('wiki knowledge reads no store and knows nothing above it', () => {
    assert.deepEqual(
      violations(under('src/wiki'), (d) =>
        ['src/store', 'src/api', 'src/modules', 'src/http', 'src/cli', 'src/importer'].some((dir) => under(dir)(d)),
      ),
      [],
    );
  });

  it('the API core does not reach into the HTTP layer or the CLI, and modules not into HTTP', () => {
    assert.deepEqual(
      violations(under('src/api'), (d) => under('src/http')(d) || under('src/cli')(d)),
      [],
    );
    assert.deepEqual(
      violations(under('src/modules'), (d) => under('src/http')(d) || under('src/cli')(d)),
      [],
    );
  });

  it('serving does not depend on the importer', () => {
    assert.deepEqual(
      violations((f) => ['src/api', 'src/modules', 'src/http', 'src/store'].some((dir) => under(dir)(f)), under('src/importer')),
      [],
    );
  });

  it('the wikitext engine is one place the importer and the modules use, and uses neither', () => {
    assert.deepEqual(
      violations(under('src/wikitext'), (d) =>
        ['src/importer', 'src/modules', 'src/api', 'src/http', 'src/store', 'src/cli'].some((dir) => under(dir)(d)),
      ),
      [],
    );
  });

  it('the importer writes only through the ImportWriter interface (no SQLite, no backend)', () => {
    assert.deepEqual(violations(under('src/importer'), under('src/store/sqlite')), []);
    const direct = [...graph.keys()].filter(
      (f) => under('src/importer')(f) && /from\s+['"]better-sqlite3['"]/.test(readFileSync(join(root, f), 'utf8')),
    );
    assert.deepEqual(direct, []);
    // of the store, the importer sees the writer interface and the function that opens one
    const storeDeps = violations(under('src/importer'), under('src/store')).map((v) => v.split(' → ')[1]);
    assert.deepEqual([...new Set(storeDeps)].sort(), ['src/store/import-writer.ts', 'src/store/open.ts', 'src/store/update-writer.ts']);
  });

  it('the product imports nothing from scripts/ or bench/', () => {
    assert.deepEqual(
      violations(under('src'), (d) => under('scripts')(d) || under('bench')(d)),
      [],
    );
  });

  it('the PHP behaviours and the demo encoders use nothing of src/ but wiki knowledge', () => {
    for (const dir of ['src/php', 'src/demo'])
      assert.deepEqual(
        violations(under(dir), (d) => !under(dir)(d) && !under('src/wiki')(d)),
        [],
      );
  });

  it('serving and importing do not use the demo wiki encoders', () => {
    assert.deepEqual(
      violations(
        (f) => ['src/api', 'src/modules', 'src/http', 'src/store', 'src/importer'].some((dir) => under(dir)(f)),
        under('src/demo'),
      ),
      [],
    );
  });

  it('has no import circle', () => {
    const state = new Map<string, 'open' | 'done'>();
    const circles: string[] = [];
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        circles.push([...path.slice(path.indexOf(f)), f].join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const d of graph.get(f) ?? []) visit(d, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of graph.keys()) visit(f, []);
    assert.deepEqual(circles, []);
  });

  it('the asynchronous helpers modules share are awaited wherever they are called', () => {
    // a forgotten await compiles, and on SQLite it even works by the order of microtasks: a server database
    // would then add generated pages after the generator has finished
    const helpers = ['generatePageRows', 'titleOrPageId', 'commentLinks', 'fetchTransclusions'];
    const floating: string[] = [];
    for (const f of graph.keys()) {
      const lines = readFileSync(join(root, f), 'utf8').split('\n');
      lines.forEach((line, i) => {
        for (const h of helpers) {
          if (new RegExp(`\\b${h}\\(`).test(line) && !new RegExp(`(await|async function|function|return)\\s+${h}\\(|import`).test(line))
            floating.push(`${f}:${i + 1}: ${line.trim()}`);
        }
      });
    }
    assert.deepEqual(floating, []);
  });
});

describe('architecture: the layout of test/', () => {
  it('keeps every test file in the folder of what it tests', () => {
    const tests = join(root, 'test');
    const folders = ['api', 'cli', 'clients', 'follow', 'http', 'importer', 'modules', 'semantic', 'store', 'wiki', 'wikitext'];
    const misplaced = sources(tests)
      .map((f) => relative(tests, f))
      .filter((f) => f.endsWith('.test.ts'))
      .filter((f) => !['architecture.test.ts', 'readme.test.ts'].includes(f) && !folders.includes(dirname(f)));
    assert.deepEqual(misplaced, []);
  });
});
