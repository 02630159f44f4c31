/**
 * A batch's revisions of a moved page, over a stand-in of MediaWiki's api.php that answers prop=revisions
 * and prop=info from a data file as MediaWiki does (test/data/follow/null-revisions.json): a move's null
 * revision is stamped when it is made, before the log entry whose time the move's change row carries, and
 * a change row can come after the rows of later changes. Every revision of the page reaches the batch, in
 * order, whatever the window holds of its rows.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildBatch } from '../../src/follow/batch.js';
import type { ChangeWindow } from '../../src/follow/changes.js';
import { UpstreamClient } from '../../src/follow/upstream-client.js';
import type { RecentChangeItem, UpdateItem } from '../../src/importer/update-items.js';

const here = path.dirname(fileURLToPath(import.meta.url));

interface WikiRevision {
  revid: number;
  parentid: number;
  timestamp: string;
  comment: string;
  content: string;
}
interface WikiPage {
  pageid: number;
  ns: number;
  title: string;
  revisions: WikiRevision[];
}
type ChangeData = Omit<RecentChangeItem, 'user' | 'userId' | 'comment' | 'minor' | 'bot' | 'oldLen' | 'newLen'> & {
  params?: Record<string, unknown>;
};
const data = JSON.parse(fs.readFileSync(path.join(here, '../../../test/data/follow/null-revisions.json'), 'utf8')) as {
  pages: WikiPage[];
  changes: Record<string, ChangeData>;
};

/** prop=revisions|info and prop=info as MediaWiki answers them (revids; pageids or titles with rvdir=newer and rvstart) */
function answer(params: URLSearchParams): unknown {
  const props = (params.get('prop') ?? '').split('|');
  const revision = (r: WikiRevision) => ({
    revid: r.revid,
    parentid: r.parentid,
    user: 'Admin',
    userid: 1,
    timestamp: r.timestamp,
    size: Buffer.byteLength(r.content),
    comment: r.comment,
    contentformat: 'text/x-wiki',
    contentmodel: 'wikitext',
    '*': r.content,
  });
  const entry = (p: WikiPage, revisions: WikiRevision[] | null) =>
    Object.assign(
      { pageid: p.pageid, ns: p.ns, title: p.title },
      props.includes('info') ? { lastrevid: p.revisions[p.revisions.length - 1].revid } : {},
      revisions !== null ? { revisions: revisions.map(revision) } : {},
    );
  const pages: Record<string, unknown> = {};
  const revids = params.get('revids');
  if (revids !== null) {
    const wanted = new Set(revids.split('|').map(Number));
    for (const p of data.pages) {
      const revs = p.revisions.filter((r) => wanted.has(r.revid)).sort((a, b) => a.revid - b.revid);
      if (revs.length > 0) pages[p.pageid] = entry(p, revs);
    }
    return { batchcomplete: '', query: { pages } };
  }
  const asked: Array<WikiPage | string> = [];
  for (const id of (params.get('pageids') ?? '').split('|').filter(Boolean))
    asked.push(data.pages.find((p) => p.pageid === Number(id)) ?? `#${id}`);
  for (const title of (params.get('titles') ?? '').split('|').filter(Boolean))
    asked.push(data.pages.find((p) => p.title === title) ?? title);
  let missing = -1;
  for (const p of asked) {
    if (typeof p === 'string') {
      pages[missing] = { ns: 0, title: p, missing: '' };
      missing--;
      continue;
    }
    const start = params.get('rvstart');
    pages[p.pageid] = entry(p, props.includes('revisions') ? p.revisions.filter((r) => start === null || r.timestamp >= start) : null);
  }
  return { batchcomplete: '', query: { pages } };
}

function windowOf(...names: string[]): ChangeWindow {
  const changes: RecentChangeItem[] = [];
  const logParams = new Map<number, Record<string, unknown>>();
  for (const name of names) {
    const c = data.changes[name];
    const change: RecentChangeItem = Object.assign(
      { user: 'Admin', userId: 1, comment: '', minor: false, bot: false, oldLen: 0, newLen: 0 },
      c,
    ) as RecentChangeItem & { params?: unknown };
    delete (change as { params?: unknown }).params;
    changes.push(change);
    if (c.params !== undefined) logParams.set(c.rcid, c.params);
  }
  changes.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.rcid - b.rcid));
  const last = changes[changes.length - 1];
  return { changes, logParams, logs: [], end: { api: '', timestamp: last.timestamp, rcid: last.rcid, logid: 0 }, complete: true };
}

function revisionsOf(items: UpdateItem[], pageId: number): number[] {
  return items.flatMap((i) => (i.type === 'revision' && i.page.id === pageId ? [i.revision.id] : []));
}

describe('follow: the revisions of a moved page in a batch', () => {
  let server: http.Server;
  let client: UpstreamClient;

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify(answer(new URLSearchParams(body))));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new UpstreamClient({ api: `http://127.0.0.1:${(server.address() as { port: number }).port}/api.php`, attempts: 1 });
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it("takes a 1.25 move's null revision, stamped before the move's row, which names no revision", async () => {
    // 1.25's MovePage sets no associated revision: the row's revid is 0, and the null revision (10:00:02)
    // is older than the row (10:00:03); the edit after the move makes 104 the page's newest revision
    const items = await buildBatch(windowOf('new', 'edit', 'move 1.25', 'edit after the move'), { client, limit: 50 });
    assert.deepEqual(revisionsOf(items, 7), [101, 102, 103, 104]);
    const page = items.find((i): i is Extract<UpdateItem, { type: 'page' }> => i.type === 'page' && i.page.id === 7);
    assert.equal(page?.page.title, 'A moved');
    assert.equal(page?.page.latest.id, 104);
    assert.ok(
      items.some((i) => i.type === 'page' && i.page.title === 'A'),
      'the redirect left behind',
    );
  });

  it("takes the null revision of a move whose row came after the next edit's (1.39's deferred log row)", async () => {
    // 1.39 writes a log entry's change row after the request has answered: a window read in between has
    // the edit after the move but not the move, whose row (with revid 103) comes with the next window
    const items = await buildBatch(windowOf('new', 'edit', 'edit after the move'), { client, limit: 50 });
    assert.deepEqual(revisionsOf(items, 7), [101, 102, 103, 104]);
    // and the next window, with the move's row: the null revision again (stored, it is skipped) and the redirect
    const next = await buildBatch(windowOf('move 1.39'), { client, limit: 50 });
    assert.ok(revisionsOf(next, 7).includes(103));
    assert.ok(
      next.some((i) => i.type === 'page' && i.page.title === 'A'),
      'the redirect left behind',
    );
  });
});
