/**
 * What a change queues for re-analysis (MediaWiki's refreshLinks jobs, SMW's query dependencies), and
 * what a deletion takes with it, on a copy of the demo wiki changed through the updater: an SMW value
 * queues only the pages whose inline queries can see it; a page created or deleted queues the pages that
 * test it with {{#ifexist:}}; a message edit queues nothing; a deletion removes the page's recent changes.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { importInlineQueries } from '../../src/cli/import-command.js';
import type { DumpRevision } from '../../src/importer/dump-reader.js';
import { openUpdater, type Updater } from '../../src/importer/update.js';
import type { RecentChangeItem, UpdateItem } from '../../src/importer/update-items.js';
import { demoDatabase, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { describeOrSkip } from '../helpers/skip.js';
import { TEST_DB } from '../helpers/test-db.js';

const NS_BY_PREFIX: Record<string, number> = { Довідка: 12, MediaWiki: 8, Категорія: 14 };

/** pages the tests make, with ids and revision ids of their own, one second apart after the demo's newest */
class Changes {
  private readonly ids = new Map<string, number>();
  private nextPage = 3_000_000;
  private nextRev = 3_000_000;
  private nextRc = 3_000_000;
  private second = 0;
  private readonly latest = new Map<string, number>();

  private timestamp(): string {
    this.second++;
    return `20270102${String(Math.floor(this.second / 3600)).padStart(2, '0')}${String(Math.floor(this.second / 60) % 60).padStart(2, '0')}${String(this.second % 60).padStart(2, '0')}`;
  }

  private ns(title: string): number {
    const m = /^([^:]+):/.exec(title);
    return (m && NS_BY_PREFIX[m[1]]) ?? 0;
  }

  /** a new version of `title` (a new page the first time) with its recent change row */
  edit(title: string, text: string): UpdateItem[] {
    let id = this.ids.get(title);
    const created = id === undefined;
    if (id === undefined) this.ids.set(title, (id = this.nextPage++));
    const revision: DumpRevision = {
      id: this.nextRev++,
      parentId: this.latest.get(title) ?? 0,
      timestamp: this.timestamp(),
      user: 'Бот',
      userId: 0,
      comment: 'зміна',
      minor: false,
      deleted: 0,
      sha1: '',
      text,
      bytes: Buffer.byteLength(text),
    };
    this.latest.set(title, revision.id);
    const ns = this.ns(title);
    const change: RecentChangeItem = {
      rcid: this.nextRc++,
      type: created ? 'new' : 'edit',
      ns,
      title,
      pageId: id,
      revId: revision.id,
      oldRevId: revision.parentId,
      timestamp: revision.timestamp,
      user: 'Бот',
      userId: 0,
      comment: 'зміна',
      minor: false,
      bot: false,
      oldLen: 0,
      newLen: revision.bytes,
    };
    return [
      { type: 'revision', page: { id, ns, title }, revision },
      { type: 'page', page: { id, line: 0, ns, title, revisionCount: 1, first: revision, latest: revision, uploads: [] } },
      { type: 'recentchange', change },
    ];
  }

  /** `title` deleted, with the log row MediaWiki writes for it */
  delete(title: string): UpdateItem[] {
    const id = this.ids.get(title);
    assert.ok(id !== undefined, title);
    this.ids.delete(title);
    this.latest.delete(title);
    const ns = this.ns(title);
    const change: RecentChangeItem = {
      rcid: this.nextRc++,
      type: 'log',
      ns,
      title,
      pageId: id,
      revId: 0,
      oldRevId: 0,
      timestamp: this.timestamp(),
      user: 'Бот',
      userId: 0,
      comment: 'вилучення',
      minor: false,
      bot: false,
      oldLen: 0,
      newLen: 0,
      logId: 0,
      logType: 'delete',
      logAction: 'delete',
    };
    return [
      { type: 'deletion', pageId: id, ns, title },
      { type: 'recentchange', change },
    ];
  }
}

describeOrSkip(
  'exact refreshes: what a change queues, as MediaWiki and SMW queue it',
  { skip: TEST_DB === 'postgres' && 'SQLite first: PostgreSQL has no incremental writer yet', timeout: 300_000 },
  () => {
    let dir: string;
    let updater: Updater;
    let server: DemoServer;
    const changes = new Changes();

    /** one batch applied; the pages it queued (the backlog after it), then the queue drained */
    const apply = async (...items: UpdateItem[][]): Promise<number> => {
      await updater.apply(items.flat());
      const queued = updater.refreshBacklog();
      while (updater.refreshBacklog() > 0) await updater.refresh(500);
      return queued;
    };
    const categories = async (title: string): Promise<string[]> => {
      const a = await server.get({ action: 'query', prop: 'categories', titles: title, formatversion: 2 });
      return (a.json.query.pages[0].categories ?? []).map((c: { title: string }) => c.title);
    };
    const links = async (title: string): Promise<string[]> => {
      const a = await server.get({ action: 'query', prop: 'links', titles: title, pllimit: 'max', formatversion: 2 });
      return (a.json.query.pages[0].links ?? []).map((c: { title: string }) => c.title);
    };

    before(async () => {
      const demo = await demoDatabase();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-update-refresh-'));
      const db = path.join(dir, 'wiki.sqlite');
      fs.copyFileSync(demo.db, db);
      updater = await openUpdater(db, { log: () => {}, inlineQueries: importInlineQueries() });
      while (updater.refreshBacklog() > 0) await updater.refresh(500);
      server = await startDemoServer({ db });
    });

    after(async () => {
      await server?.close();
      updater?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('queues, for an SMW value, the pages whose inline queries name its property, category or namespace, or list the page', async () => {
      await apply(
        changes.edit('Запит А', '{{#ask: [[Поле А::+]] |format=list}}'),
        changes.edit('Запит Б', '{{#ask: [[Поле Б::+]] |format=list}}'),
        changes.edit('Запит категорії', '{{#ask: [[Категорія:Тестові сторінки]] |format=list}}'),
        changes.edit('Запит довідки', '{{#ask: [[Довідка:+]] |format=list}}'),
        changes.edit('Сторінка Х', 'Текст'),
      );
      // the demo's own pages with inline queries (cities, populations) see none of these
      assert.equal(await apply(changes.edit('Сторінка Х', 'Текст [[Поле А::так]]')), 1, 'the query of Поле А only');
      assert.deepEqual(await links('Запит А'), ['Сторінка Х'], 'and its result links to the page');
      assert.deepEqual(await links('Запит Б'), []);
      assert.equal(
        await apply(changes.edit('Сторінка Х', 'Текст [[Поле А::так]] [[Категорія:Тестові сторінки]]')),
        2,
        'the category query, and the query listing the page (its results show the page as it is): the value of Поле А is as it was',
      );
      assert.deepEqual(await links('Запит категорії'), ['Сторінка Х']);
      assert.equal(
        await apply(changes.edit('Сторінка Х', 'Текст [[Поле А::так]] [[Категорія:Тестові сторінки]] і ще')),
        0,
        'nothing SMW sees',
      );
      assert.equal(await apply(changes.edit('Довідка:Нова', 'Довідка')), 1, 'a page of the namespace a query lists');
      assert.ok((await links('Запит довідки')).includes('Довідка:Нова'), 'the demo has help pages of its own');
      assert.equal(await apply(changes.edit('Сторінка Х', 'Текст [[Поле Б::так]]')), 3, 'Поле А gone, Поле Б new, the category left');
      assert.deepEqual(await links('Запит А'), []);
      assert.deepEqual(await links('Запит Б'), ['Сторінка Х']);
    });

    it('queues the pages that test a page with {{#ifexist:}} when it is created or deleted, as their links', async () => {
      await apply(changes.edit('Перевірка', '{{#ifexist:Нова сторінка|[[Категорія:Є]]|[[Категорія:Немає]]}}'));
      assert.deepEqual(await categories('Перевірка'), ['Категорія:Немає']);
      assert.equal(await apply(changes.edit('Нова сторінка', 'Вона є')), 1);
      assert.deepEqual(await categories('Перевірка'), ['Категорія:Є']);
      assert.equal(await apply(changes.edit('Нова сторінка', 'Вона є, змінена')), 0, 'an edit changes no existence');
      assert.equal(await apply(changes.delete('Нова сторінка')), 1);
      assert.deepEqual(await categories('Перевірка'), ['Категорія:Немає']);
    });

    it('queues nothing for a message edit: 1.25 records no dependency of {{int:}}', async () => {
      // CoreParserFunctions::intFunction (1.25) reads the message through wfMessage and adds no link or
      // template to the parser output, and MessageCache::replace purges no page: a page using
      // {{int:}} keeps what it was parsed with until it is edited or purged
      await apply(changes.edit('MediaWiki:Тест-повідомлення', 'один'), changes.edit('Повідомлення в тексті', '{{int:тест-повідомлення}}'));
      assert.equal(await apply(changes.edit('MediaWiki:Тест-повідомлення', 'два')), 0);
    });

    it("removes a deleted page's recent changes but the log's, as 1.25's LinksDeletionUpdate", async () => {
      await apply(changes.edit('Видалена', 'раз'), changes.edit('Видалена', 'два'), changes.edit('Залишена', 'три'));
      const rc = async () =>
        (
          await server.get({
            action: 'query',
            list: 'recentchanges',
            rcprop: 'title',
            rclimit: 'max',
            rcstart: '2027-01-01T00:00:00Z',
            rcdir: 'newer',
            formatversion: 2,
          })
        ).json.query.recentchanges.map((r: { type: string; title: string }) => `${r.type} ${r.title}`);
      assert.deepEqual(
        (await rc()).filter((r: string) => /Видалена|Залишена/.test(r)),
        ['new Видалена', 'edit Видалена', 'new Залишена'],
      );
      await apply(changes.delete('Видалена'));
      assert.deepEqual(
        (await rc()).filter((r: string) => /Видалена|Залишена/.test(r)),
        ['new Залишена', 'log Видалена'],
      );
    });
  },
);
