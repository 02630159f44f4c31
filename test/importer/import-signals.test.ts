/**
 * Issue 15, defects 3, 4 and 9 (the importer under abuse).
 * 3: a signal in any phase stops the import with a non-zero exit and leaves the old database as it was
 *    (after pass 2 the import used to finish, exit 0 and replace it: its last phases never yielded to the
 *    event loop, so the signal handler never ran).
 * 4: an interrupted import leaves no temporary file; those of killed imports are swept by the next one.
 * 9: odd page ids are refused with the dump line, or handled and reported with it.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { generateDemo } from '../../src/demo/build.js';
import { importWiki } from '../../src/importer/import.js';

const CHILD = path.resolve(import.meta.dirname, '../helpers/import-signal-child.js');
const CLI = path.resolve(import.meta.dirname, '../../src/cli/import-command.js');
let dir: string;
let demo: string;
let db: string;
/** the previous database: a complete import of the demo, put back before each test */
let OLD: Buffer;

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-signals-'));
  demo = path.join(dir, 'demo');
  generateDemo(demo);
  db = path.join(dir, 'wiki.sqlite');
  await importWiki({ dump: path.join(demo, 'dump.xml'), db, lang: 'uk', progress: false, log: () => {} });
  OLD = fs.readFileSync(db);
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const sha = (f: string) => crypto.createHash('sha1').update(fs.readFileSync(f)).digest('hex');
const leftovers = () => fs.readdirSync(dir).filter((n) => n.startsWith('wiki.sqlite.tmp-'));

function runChild(pattern: string, signal: string, inlineQueries = true): { status: number | null; stderr: string } {
  const args = [CHILD, path.join(demo, 'dump.xml'), db, path.join(demo, 'files'), path.join(demo, 'messages'), pattern, signal];
  const r = spawnSync(process.execPath, inlineQueries ? args : [...args, 'no-inline-queries'], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, stderr: r.stderr };
}

describe('an import stops on a signal in every phase', () => {
  // the log line after which the signal arrives, i.e. the phase it interrupts. The demo's pages have
  // inline queries: the hooks' own tables are finished before the link indexes, and the reports' thread
  // runs beside the statistics and the last indexes. Without inline query links (the last two) the
  // hooks' own tables are finished while the reports' thread runs.
  const phases: Array<[string, string, boolean?]> = [
    ['^pass 1:', 'the history (revision indexes, users, recent changes)'],
    ['^history:', 'files'],
    ['^files:', 'messages'],
    ['^pass 2:', 'the search index'],
    ['^search index', 'analysis hooks'],
    [': finished', "the hooks' own tables (the autocompletion thread running)"],
    ['tables finished', 'link indexes, inline query links'],
    ['^inline queries', 'categories'],
    ['^link indexes', "the reports' thread, statistics and the remaining indexes"],
    ['^reports', 'the indexes the reports waited for'],
    ['^indexes, statistics', 'the rename'],
    ['^link indexes', "the reports' thread and the hooks' own tables beside it", false],
    ['tables finished', "statistics and indexes while the reports' thread runs", false],
  ];
  let n = 0;
  for (const [pattern, phase, inlineQueries = true] of phases) {
    const signal = n++ % 2 === 0 ? 'SIGTERM' : 'SIGINT';
    it(`${signal} before ${phase}${inlineQueries ? '' : ' (no inline queries)'}: exit ${signal === 'SIGINT' ? 130 : 143}, old database byte-identical, no temporary file`, () => {
      fs.writeFileSync(db, OLD);
      const before = sha(db);
      const r = runChild(pattern, signal, inlineQueries);
      assert.equal(r.status, signal === 'SIGINT' ? 130 : 143, r.stderr);
      assert.equal(sha(db), before);
      assert.deepEqual(leftovers(), []);
    });
  }

  it('without a signal the same import completes and replaces the database', () => {
    fs.writeFileSync(db, OLD);
    const r = runChild('^never logged$', 'SIGTERM');
    assert.equal(r.status, 0, r.stderr);
    assert.notEqual(sha(db), crypto.createHash('sha1').update(OLD).digest('hex'));
    assert.deepEqual(leftovers(), []);
  });

  it('temporary files of killed imports are swept by the next import; a running import’s are not', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    const live = process.ppid; // the test runner: alive, and not this import
    // -ac, -reports: the files of the autocompletion index's and the reports' threads (-wal, -shm: the
    // build file while a thread reads it)
    const stale = [
      `wiki.sqlite.tmp-${dead}`,
      `wiki.sqlite.tmp-${dead}-journal`,
      `wiki.sqlite.tmp-${dead}-wal`,
      `wiki.sqlite.tmp-${dead}-shm`,
      `wiki.sqlite.tmp-${dead}-ac`,
      `wiki.sqlite.tmp-${dead}-ac-journal`,
      `wiki.sqlite.tmp-${dead}-reports`,
      `wiki.sqlite.tmp-${dead}-reports-journal`,
    ];
    for (const f of stale) fs.writeFileSync(path.join(dir, f), 'partial database');
    fs.writeFileSync(path.join(dir, `wiki.sqlite.tmp-${live}`), 'another import at work');
    const lines: string[] = [];
    await importWiki({ dump: path.join(demo, 'dump.xml'), db, lang: 'uk', progress: false, log: (l) => lines.push(l) });
    assert.deepEqual(leftovers(), [`wiki.sqlite.tmp-${live}`]);
    assert.ok(lines.includes(`removed wiki.sqlite.tmp-${dead}, left by an import (process ${dead}) that was killed`), lines.join('\n'));
    fs.unlinkSync(path.join(dir, `wiki.sqlite.tmp-${live}`));
  });
});

describe('odd page ids', () => {
  const head =
    '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="uk">\n' +
    '  <siteinfo><sitename>Вікі</sitename><case>first-letter</case></siteinfo>\n';
  const page = (title: string, id: string, rev = '7', ts = '2015-01-01T00:00:00Z') =>
    `  <page>\n    <title>${title}</title>\n    <ns>0</ns>\n    <id>${id}</id>\n` +
    `    <revision><id>${rev}</id><timestamp>${ts}</timestamp><contributor><username>A</username><id>1</id></contributor>` +
    `<text xml:space="preserve">текст</text></revision>\n  </page>\n`;
  const run = (pages: string[]) => {
    const file = path.join(dir, 'ids.xml');
    fs.writeFileSync(file, head + pages.join('') + '</mediawiki>\n');
    fs.writeFileSync(db, OLD);
    return spawnSync(process.execPath, [CLI, file, '--db', db], { encoding: 'utf8' });
  };
  const lineOf = (pages: string[], needle: string) => (head + pages.join('')).split('\n').findIndex((l) => l.includes(needle)) + 1;

  for (const [id, why] of [
    ['0', 'is not a positive integer'],
    ['-5', 'is not a positive integer'],
    ['9007199254740993', 'is out of range'],
    ['9223372036854775808', 'is out of range'],
  ]) {
    it(`page id ${id}: an error naming the dump line, the old database kept`, () => {
      const pages = [page('Перша', '1'), page('Друга', id, '8')];
      const r = run(pages);
      assert.equal(r.status, 1, r.stderr);
      const line = lineOf(pages, `<id>${id}</id>`);
      assert.match(
        r.stderr,
        new RegExp(`ids\\.xml:${line}:\\d+: <page> id ${id.replace('-', '\\-')} ${why}|ids\\.xml:${line}:\\d+: <id> ${id} ${why}`),
      );
      assert.ok(fs.readFileSync(db).equals(OLD));
      assert.deepEqual(leftovers(), []);
    });
  }

  it('ids past 2^53 no longer collide: the two pages are refused, not merged', () => {
    const r = run([page('Перша', '9007199254740993'), page('Друга', '9007199254740992', '8')]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /is out of range/);
  });

  it('a repeated page id is reported with its dump line and the copy kept', () => {
    const pages = [page('Перша', '3', '7', '2015-01-01T00:00:00Z'), page('Друга', '3', '8', '2014-01-01T00:00:00Z')];
    const r = run(pages);
    assert.equal(r.status, 0, r.stderr);
    const line = (head + pages[0]).split('\n').length; // the second <page> opens on the line after the first ends
    assert.match(
      r.stderr,
      new RegExp(
        `warning: .*ids\\.xml:${line}: page id 3 \\("Друга"\\) was already used by an earlier page of the dump; the copy with the newer latest revision \\(7\\) is kept`,
      ),
    );
  });
});
