/**
 * PageSet.addTitles with `known` (a generator that read the pages with its titles, as generator=allimages
 * does): what it is told and what it looks up give the same page set as looking every title up.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoDatabase } from '../helpers/demo-server.js';
import { openStore } from '../../src/store/open.js';
import { Wiki } from '../../src/wiki/wiki.js';
import { PageSet, sortUnlessSorted } from '../../src/api/pageset.js';
import type { PageRef } from '../../src/store/page-store.js';
import { toJson } from '../../src/api/format/json.js';
import { TitleCodec } from '../../src/wiki/titles.js';

const shape = (ps: PageSet) =>
  JSON.stringify({ good: ps.good.map((p) => [p.pageid, p.ns, p.title, p.isRedirect]), missing: ps.missing, special: ps.special });

describe('PageSet.addTitles with known pages', () => {
  it('any mix of known pages, known absences and titles to look up gives the page set of looking all up', async () => {
    const { served } = await demoDatabase();
    const store = await openStore(served);
    try {
      const wiki = await Wiki.load(store.site);
      // existing pages of several namespaces, missing titles of several namespaces, a repeat, a special page
      const titles = [
        { ns: 6, dbkey: 'Tux.png' },
        { ns: 0, dbkey: 'Немає_такої' },
        { ns: 6, dbkey: 'Upload_only_photo.png' },
        { ns: 0, dbkey: 'Київ' },
        { ns: 6, dbkey: 'Немає.png' },
        { ns: 14, dbkey: 'Немає_категорії' },
        { ns: 6, dbkey: 'Borscht.png' },
        { ns: 0, dbkey: 'Київ' },
        { ns: -1, dbkey: 'Search' },
        { ns: 6, dbkey: 'Linux_logo.png' },
        { ns: 0, dbkey: 'Головна_сторінка' },
      ];
      const all = new PageSet(store, wiki);
      await all.addTitles(titles);
      assert.ok(all.good.length >= 4 && all.missing.length >= 4, shape(all));
      const rows = new Map((await store.pages.byTitles(titles.filter((t) => t.ns >= 0))).map((r) => [`${r.ns}:${r.title}`, r as PageRef]));
      // every way of telling: 0 look up, 1 known, 2 known for existing pages only, 3 known for missing only
      let sets = 0;
      for (let mask = 0; mask < 4 ** 4; mask++) {
        const known = titles.map((t, i) => {
          const how = Math.floor(mask / 4 ** (i % 4)) % 4;
          const row = rows.get(`${t.ns}:${t.dbkey}`) ?? null;
          if (how === 0 || t.ns < 0) return undefined;
          if (how === 1) return row;
          if (how === 2) return row ?? undefined;
          return row === null ? null : undefined;
        });
        const ps = new PageSet(store, wiki);
        await ps.addTitles(titles, known);
        assert.equal(shape(ps), shape(all), `mask ${mask}`);
        sets++;
      }
      assert.equal(sets, 256);
    } finally {
      await store.close?.();
    }
  });

  it('output with nothing to add to the entries (final) prints as the entries written one by one, in every form', async () => {
    const { served } = await demoDatabase();
    const store = await openStore(served);
    try {
      const wiki = await Wiki.load(store.site);
      // a namespace whose name has an underscore has no DB key prefix: its titles are written as text
      const odd = Object.create(wiki) as Wiki;
      const codec = TitleCodec.forSite('Вікі', [{ id: 6, name: 'Файл_дивний', canonical: 'File', case: 'first-letter' }]);
      odd.keyPrefix = (ns: number) => codec.keyPrefix(ns);
      odd.titleText = (ns: number, dbkey: string) => codec.prefixedText(ns, dbkey);
      const titles = [
        { ns: 6, dbkey: 'Tux.png' },
        { ns: 0, dbkey: 'Київ' },
        { ns: 6, dbkey: 'Borscht.png' },
        { ns: 0, dbkey: 'Головна_сторінка' },
        { ns: 14, dbkey: 'Немає' },
      ];
      const forms = [1, 2].flatMap((formatversion) =>
        [true, false].flatMap((ascii) => [true, false].map((pretty) => ({ formatversion: formatversion as 1 | 2, ascii, pretty }))),
      );
      for (const w of [wiki, odd]) {
        // existing pages only (the final form), and with a missing title (entries written one by one either way)
        for (const list of [titles.slice(0, 4), titles, titles.slice(1, 2)]) {
          const printed = async (final: boolean) => {
            const ps = new PageSet(store, w);
            await ps.addTitles(list);
            const q: Record<string, unknown> = {};
            ps.output(q, final);
            return forms.map((opts) => toJson({ query: q }, opts));
          };
          assert.deepEqual(await printed(true), await printed(false), `${w === odd ? 'odd ' : ''}${list.map((t) => t.dbkey).join('|')}`);
        }
      }
    } finally {
      await store.close?.();
    }
  });

  it('sortUnlessSorted sorts what is out of order and leaves order alone', () => {
    const cmp = (a: number, b: number) => a - b;
    assert.deepEqual(sortUnlessSorted([3, 1, 2], cmp), [1, 2, 3]);
    assert.deepEqual(sortUnlessSorted([1, 2, 2, 3], cmp), [1, 2, 2, 3]);
    assert.deepEqual(sortUnlessSorted([1, 3, 2], cmp), [1, 2, 3]);
    assert.deepEqual(sortUnlessSorted([], cmp), []);
  });
});
