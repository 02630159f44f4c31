/**
 * The dump reader: schema 0.11 with reordered elements, deleted text and uploads, read in order; the same
 * items read on a thread of its own; a malformed dump's error.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { DumpError, readDump, type DumpItem, type DumpPage } from '../../src/importer/dump-reader.js';
import { readDumpThreaded, type ThreadedDumpItem } from '../../src/importer/dump-thread.js';
import { encodeRevisionText } from '../../src/store/open.js';
import { sha1HexToBase36 } from '../../src/wiki/files.js';
import { dumpXml, page, pageIds } from '../helpers/dump-pages.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-dump-reader-'));

after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('dump reader', () => {
  it('reads schema 0.11 with reordered elements, deleted text and uploads: every revision as read, then the page with its first and latest', async () => {
    const file = path.join(dir, 'v011.xml');
    fs.writeFileSync(
      file,
      `<?xml version="1.0"?>
<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.11/" version="0.11" xml:lang="uk">
  <page>
    <title>Сторінка</title><ns>0</ns><id>5</id>
    <revision>
      <id>3</id><parentid>2</parentid><timestamp>2020-01-03T00:00:00Z</timestamp>
      <contributor><username>C</username><id>3</id></contributor>
      <origin>3</origin><model>wikitext</model><format>text/x-wiki</format>
      <text bytes="12" sha1="x" xml:space="preserve">третя &amp; остання</text><sha1>abc</sha1>
    </revision>
    <revision>
      <id>1</id><timestamp>2020-01-01T00:00:00Z</timestamp>
      <contributor deleted="deleted" /><minor/>
      <sha1>def</sha1><text bytes="5" deleted="deleted" /><model>wikitext</model>
    </revision>
    <revision>
      <id>2</id><timestamp>2020-01-02T00:00:00Z</timestamp><contributor><ip>::1</ip></contributor>
      <text bytes="3">два</text>
    </revision>
  </page>
</mediawiki>`,
    );
    const items = [];
    for await (const it of readDump(file)) items.push(it);
    assert.deepEqual(
      items.map((i) => i.type),
      ['revision', 'revision', 'revision', 'page'],
    );
    const revs = items.flatMap((i) => (i.type === 'revision' ? [i.revision] : []));
    assert.deepEqual(
      revs.map((r) => [r.id, r.user, r.deleted, r.text]),
      [
        [3, 'C', 0, 'третя & остання'],
        [1, '', 5, null],
        [2, '::1', 0, 'два'],
      ],
    );
    const p = (items[3] as { page: DumpPage }).page;
    assert.equal(p.revisionCount, 3);
    assert.deepEqual([p.first.id, p.first.user, p.first.minor, p.first.text], [1, '', true, null]);
    assert.deepEqual(
      [p.latest.id, p.latest.parentId, p.latest.user, p.latest.userId, p.latest.sha1, p.latest.text, p.latest.bytes],
      [3, 2, 'C', 3, 'abc', 'третя & остання', 12],
    );
  });

  it('reads the same items on a thread of its own, revision texts encoded there or left for the writer; the same errors', async () => {
    // enough pages for several batches, so that some texts come encoded and some as text
    const many = path.join(dir, 'threaded.xml');
    const firstId = pageIds.next;
    fs.writeFileSync(
      many,
      dumpXml(
        Array.from({ length: 1500 }, (_, i) => page(`Сторінка ${i}`, i % 3 === 0 ? 10 : 0, `текст ${i} [[Київ]] `.repeat(1 + (i % 7)))),
      ),
    );
    pageIds.next = firstId;
    for (const file of [path.join(dir, 'v011.xml'), many]) {
      const plain: DumpItem[] = [];
      for await (const it of readDump(file)) plain.push(it);
      const threaded: ThreadedDumpItem[] = [];
      for await (const it of readDumpThreaded(file)) threaded.push(it);
      assert.equal(threaded.length, plain.length);
      threaded.forEach(({ item, prepared }, i) => {
        const want = plain[i];
        if (prepared) {
          assert.ok(want.type === 'revision' && item.type === 'revision' && want.revision.text !== null);
          assert.deepEqual(Buffer.from(prepared.encoded), Buffer.from(encodeRevisionText(want.revision.text)));
          assert.equal(prepared.len, Buffer.byteLength(want.revision.text));
          const text = want.revision.text;
          assert.equal(prepared.sha1, want.revision.sha1 || sha1HexToBase36(crypto.createHash('sha1').update(text).digest('hex')));
          assert.deepEqual(item, { ...want, revision: { ...want.revision, text: null } });
        } else assert.deepEqual(item, want);
      });
    }
    const cut = path.join(dir, 'threaded-cut.xml');
    fs.writeFileSync(cut, fs.readFileSync(many, 'utf8').slice(0, 200000));
    const drain = async (items: AsyncIterable<unknown>) => {
      for await (const _ of items);
    };
    const plainError = await drain(readDump(cut)).then(
      () => null,
      (e: Error) => e,
    );
    const threadedError = await drain(readDumpThreaded(cut)).then(
      () => null,
      (e: Error) => e,
    );
    assert.ok(plainError instanceof DumpError && threadedError instanceof DumpError);
    assert.equal(threadedError.message, plainError.message);
  });
});
