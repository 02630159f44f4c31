/**
 * `wikiquery import` of dumps as they come: .xml, .gz, .bz2 multistream, stdin, and what is refused.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import zlib from 'node:zlib';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { DumpSourceError, openDump } from '../../src/importer/dump-source.js';
import { run, scratchDirectory, SMALL } from '../helpers/cli.js';

const scratch = scratchDirectory('wikiquery-cli-');

describe('import: dumps as they come', () => {
  const pagesOf = (db: string) => {
    const r = run(['import', SMALL, '--db', db, '--quiet']);
    return r;
  };

  it('plain, gzip, bzip2 (multistream) and stdin give the same wiki; the format is read from the content', () => {
    const plain = pagesOf(path.join(scratch.path, 'plain.sqlite'));
    assert.equal(plain.status, 0, plain.stderr);
    assert.match(
      plain.stdout,
      /^Imported 5 pages, 0 files, 0 messages, \d+ links in [\d.]+ s \(\d+ pages\/s\), peak RSS \d+ MB, search index [\d.]+ MB; import id \d{14}-[0-9a-f]{8}\n$/,
    );
    // names that say nothing (or the wrong thing) about the content
    const gz = path.join(scratch.path, 'dump.data');
    writeFileSync(gz, zlib.gzipSync(readFileSync(SMALL)));
    const bz = path.join(scratch.path, 'dump.xml');
    copyFileSync(SMALL + '.bz2', bz);
    for (const [what, args, input] of [
      ['gzip', ['import', gz], undefined],
      ['bzip2', ['import', bz], undefined],
      ['stdin', ['import', '-'], readFileSync(SMALL)],
      ['gzip on stdin', ['import', '-'], zlib.gzipSync(readFileSync(SMALL))],
      ['bzip2 on stdin', ['import', '-'], readFileSync(SMALL + '.bz2')],
    ] as const) {
      const db = path.join(scratch.path, `${what.replace(/ /g, '-')}.sqlite`);
      const r = run([...args, '--db', db, '--quiet'], { input });
      assert.equal(r.status, 0, `${what}: ${r.stderr}`);
      assert.match(r.stdout, /^Imported 5 pages, 0 files, 0 messages, /, what);
      assert.equal(r.stdout.replace(/ in .*/, ''), plain.stdout.replace(/ in .*/, ''), what);
    }
  });

  it('bzip2 without a system decoder: the in-process one reads multistream files and reports damage', async () => {
    const read = async (file: string) => {
      const src = await openDump(file, { bzip2: 'js' });
      assert.equal(src.compression, 'bzip2');
      const parts: Buffer[] = [];
      for await (const c of src.stream) parts.push(c);
      return Buffer.concat(parts);
    };
    assert.deepEqual(await read(SMALL + '.bz2'), readFileSync(SMALL));
    const cut = path.join(scratch.path, 'cut-js.bz2');
    writeFileSync(cut, readFileSync(SMALL + '.bz2').subarray(0, 1000));
    await assert.rejects(
      read(cut),
      (e: Error) => e instanceof DumpSourceError && /^.*cut-js\.bz2: corrupt bzip2 data \(.+\)$/.test(e.message),
    );
  });

  it('refuses what is no dump, saying how to unpack other archives; FILE stays as it was', () => {
    const db = path.join(scratch.path, 'refused.sqlite');
    const cases: Array<[string, Buffer, RegExp]> = [
      [
        'a.7z',
        Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]),
        /a\.7z: a 7-Zip archive, which wikiquery does not read; decompress it on the fly: 7z e -so DUMP\.7z \| wikiquery import - --db FILE$/,
      ],
      [
        'a.xz',
        Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0, 0]),
        /a\.xz: xz-compressed, .*: xz -dc DUMP\.xz \| wikiquery import - --db FILE$/,
      ],
      ['a.txt', Buffer.from('hello, world\n'), /a\.txt: not a MediaWiki XML dump \(neither XML nor gzip nor bzip2 data\)$/],
      ['empty.xml', Buffer.alloc(0), /empty\.xml: empty, not a dump$/],
      ['cut.xml.bz2', readFileSync(SMALL + '.bz2').subarray(0, 1000), /cut\.xml\.bz2: corrupt bzip2 data \(.+\)$/],
      ['cut.xml.gz', zlib.gzipSync(readFileSync(SMALL)).subarray(0, 500), /cut\.xml\.gz: corrupt gzip data \(unexpected end of file\)$/],
    ];
    for (const [name, bytes, re] of cases) {
      const f = path.join(scratch.path, name);
      writeFileSync(f, bytes);
      const r = run(['import', f, '--db', db, '--quiet']);
      assert.equal(r.status, 1, name);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], new RegExp(`^wikiquery import: .*${re.source}`), name);
      assert.equal(existsSync(db), false, name);
      assert.deepEqual(
        readdirSync(scratch.path).filter((n) => n.startsWith('refused.sqlite')),
        [],
        name,
      );
    }
  });

  it('says what a wiki imported without --files or --messages will lack', () => {
    const r = run(['import', SMALL, '--db', path.join(scratch.path, 'notes.sqlite')]);
    assert.equal(r.status, 0);
    assert.match(r.stderr, /^note: no --files: the wiki will have no files/m);
    assert.match(
      r.stderr,
      /^note: no --messages and no MediaWiki: pages in the dump: meta=allmessages and every interface text the API renders .* will be empty; give --messages the languages\/i18n folder of a MediaWiki installation/m,
    );
    const demo = path.join(scratch.path, 'with.sqlite');
    const msgDir = path.join(scratch.path, 'i18n');
    mkdirSync(msgDir);
    writeFileSync(path.join(msgDir, 'uk.json'), JSON.stringify({ mainpage: 'Головна сторінка', august: 'серпень' }));
    // MediaWiki's images/ as it is: hashed directories of uploads, and directories that hold none
    const filesDir = path.join(scratch.path, 'images');
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    for (const rel of [
      '0/01/Real.png',
      'archive/0/01/20150101000000!Real.png',
      'thumb/0/01/Real.png/120px-Real.png',
      'temp/x.png',
      'lockdir/x.lock',
      'deleted/a/b/c.png',
    ]) {
      mkdirSync(path.dirname(path.join(filesDir, rel)), { recursive: true });
      writeFileSync(path.join(filesDir, rel), png);
    }
    const w = run(['import', SMALL, '--db', demo, '--messages', msgDir, '--files', filesDir]);
    assert.equal(w.status, 0, w.stderr);
    assert.doesNotMatch(w.stderr, /^note:/m);
    assert.match(w.stdout, /^Imported 5 pages, 1 files, 2 messages, /);
  });
});
