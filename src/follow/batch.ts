/**
 * One window of upstream changes → the UpdateItems of one batch, in the order the updater applies them:
 * for each change, what it did (a deletion in place; a page's revisions, oldest first, then the page with
 * its current title and newest revision, at the last change of the window that touched it; a file's
 * bytes fetched and checked), the recent-change rows themselves, the window's log entries among them in
 * the upstream's order, the new accounts, and the position reached. Pages are taken as they are upstream when the batch is read, so a
 * change that a later one undid is never applied half: the later one is already in the page.
 */
import path from 'node:path';
import type { DumpPage, DumpRevision, DumpUpload } from '../importer/dump-reader.js';
import type { UpdateItem } from '../importer/update-items.js';
import { type ChangeWindow, type LogEvent, OVERLAP_SECONDS, shiftSeconds } from './changes.js';
import { fetchUsers, filePath, fileVersions, PageFetcher, type FetchedPage } from './fetch.js';
import { logParamsToRaw } from './log-params.js';
import type { UpstreamClient } from './upstream-client.js';

export interface BatchOptions {
  client: UpstreamClient;
  /** titles or ids per request the upstream allows */
  limit: number;
  /** --files: where uploaded files' bytes go (without it, uploads change only the description pages) */
  filesDir?: string;
}

/** What a change asks for, and where in the window. */
interface Wants {
  /** page id → the last change index that touched it */
  lastTouch: Map<number, number>;
  /** title → the last change index that touched it (pages found by title: move targets, restores, uploads) */
  titleTouch: Map<string, number>;
}

const FILE_NS = 6;

/**
 * Where the history of a page a log action gave a null revision is read from: MediaWiki stamps the null
 * revision when it makes it and the log entry (whose time the change row has) later in the same request,
 * a second or more after under load; 1.25's move rows name no revision at all. As far back as the
 * follower already allows a request's writes to lag (revisions already stored are skipped).
 */
function nullRevisionSince(timestamp: string): string {
  return shiftSeconds(timestamp, -OVERLAP_SECONDS);
}

function titleOf(prefixed: string): string {
  return prefixed.replace(/^[^:]*:/, '');
}

export async function buildBatch(window: ChangeWindow, opts: BatchOptions): Promise<UpdateItem[]> {
  const { client } = opts;
  const fetcher = new PageFetcher(client, opts.limit);
  const wants: Wants = { lastTouch: new Map(), titleTouch: new Map() };
  const revids: number[] = [];
  const deletions = new Map<number, UpdateItem>();
  const files = new Map<string, number>();
  const histories: Array<{ ref: { pageid: number } | { title: string }; since?: string }> = [];

  window.changes.forEach((c, i) => {
    if (c.type === 'new' || c.type === 'edit') {
      if (c.revId > 0) revids.push(c.revId);
      if (c.pageId > 0) wants.lastTouch.set(c.pageId, i);
      return;
    }
    if (c.type !== 'log') return;
    const params = window.logParams.get(c.rcid) ?? {};
    switch (`${c.logType}/${c.logAction}`) {
      case 'move/move':
      case 'move/move_redir': {
        // the moved page (its null revision is the row's revid), the redirect left at the old title, the target
        if (c.revId > 0) revids.push(c.revId);
        if (c.pageId > 0) {
          wants.lastTouch.set(c.pageId, i);
          histories.push({ ref: { pageid: c.pageId }, since: nullRevisionSince(c.timestamp) });
        }
        wants.titleTouch.set(c.title, i);
        histories.push({ ref: { title: c.title } });
        if (typeof params.target_title === 'string') wants.titleTouch.set(params.target_title, i);
        break;
      }
      case 'delete/delete':
        deletions.set(i, { type: 'deletion', pageId: c.pageId, ns: c.ns, title: c.title });
        // whether it was undeleted since (the page is back under its id): then it is not removed
        wants.titleTouch.set(c.title, Math.max(i, wants.titleTouch.get(c.title) ?? -1));
        break;
      case 'delete/restore':
      case 'import/upload':
      case 'import/interwiki':
      case 'merge/merge':
        // the page's whole history comes (back): revisions already stored are skipped
        wants.titleTouch.set(c.title, i);
        histories.push({ ref: { title: c.title } });
        if (c.logType === 'merge' && typeof params.dest_title === 'string') {
          wants.titleTouch.set(params.dest_title, i);
          histories.push({ ref: { title: params.dest_title } });
        }
        break;
      case 'upload/upload':
      case 'upload/overwrite':
      case 'upload/revert':
        // the description page's first revision has no change row of its own; a re-upload's null revision is the row's revid
        if (c.revId > 0) revids.push(c.revId);
        wants.titleTouch.set(c.title, i);
        histories.push({ ref: { title: c.title }, since: c.logAction === 'upload' ? undefined : nullRevisionSince(c.timestamp) });
        if (c.ns === FILE_NS) files.set(c.title, i);
        break;
      default:
        break;
    }
  });

  await fetcher.revisions(revids);
  for (const h of histories) await fetcher.history(h.ref, h.since);
  await fetcher.info([...wants.lastTouch.keys()], [...wants.titleTouch.keys()]);
  // pages edited again after the window was read: their revisions up to the newest, so that a page item
  // carries a revision the batch has and no revision between is left out of the history
  for (const p of [...fetcher.pages.values()]) {
    if (p.lastRevId === 0 || p.revisions.has(p.lastRevId)) continue;
    let since = '';
    for (const r of p.revisions.values()) if (r.timestamp > since) since = r.timestamp;
    await fetcher.history({ pageid: p.id }, since === '' ? undefined : since);
  }
  // a revision between two the batch has but whose change row it lacks (a move's row written after the
  // edit that followed the move, so that the window has the edit but not the move): each revision's parent
  // is the one before it, or the history is read again from the oldest the batch has
  for (const p of [...fetcher.pages.values()]) {
    const oldest = firstGap(p);
    if (oldest !== null) await fetcher.history({ pageid: p.id }, oldest);
  }

  // a deletion whose row came late, after the undeletion's (rc ids are taken after the actions): the page is
  // back under the same id, so it stays, as it is now
  for (const [i, deletion] of deletions) {
    if (deletion.type === 'deletion' && deletion.pageId > 0 && fetcher.byTitle.get(deletion.title) === deletion.pageId) deletions.delete(i);
  }

  // each existing page at the last change that touched it, by id or by a title it has now
  const emitAt = new Map<number, number>();
  for (const [id, i] of wants.lastTouch) if (fetcher.pages.has(id)) emitAt.set(id, Math.max(i, emitAt.get(id) ?? -1));
  for (const [title, i] of wants.titleTouch) {
    const id = fetcher.byTitle.get(title);
    if (id !== undefined) emitAt.set(id, Math.max(i, emitAt.get(id) ?? -1));
  }
  const pagesAt = new Map<number, FetchedPage[]>();
  for (const [id, i] of emitAt) {
    const page = fetcher.pages.get(id);
    if (page === undefined || page.lastRevId === 0 || !page.revisions.has(page.lastRevId)) continue;
    const list = pagesAt.get(i) ?? [];
    list.push(page);
    pagesAt.set(i, list);
  }

  const uploadsOf = new Map<string, { versions: DumpUpload[]; item: UpdateItem | null }>();
  for (const title of files.keys()) {
    const f = await fileVersions(client, title);
    if (f === null) continue;
    let item: UpdateItem | null = null;
    if (opts.filesDir !== undefined) {
      const rel = filePath(f.name);
      await client.download(f.url, path.join(opts.filesDir, rel), f.sha1hex, f.size);
      item = { type: 'file', file: { upload: f.versions[f.versions.length - 1], path: rel } };
    }
    uploadsOf.set(title, { versions: f.versions, item });
  }

  // log entries in the upstream's order among the changes: each before the change row that reports it
  // (a deletion's entry removes the page at its title, so a restore after it must come after it too); the
  // entries recent changes lack, by their time
  const items: UpdateItem[] = [];
  let next = 0;
  const logsUpTo = (c: { timestamp: string; logId?: number } | null) => {
    while (next < window.logs.length) {
      const log = window.logs[next];
      if (c !== null && !(log.timestamp < c.timestamp || (c.logId !== undefined && log.logId <= c.logId))) break;
      items.push(logItem(log));
      next++;
    }
  };
  // an edit whose revision the upstream no longer has is of a page deleted since: MediaWiki removes its row
  // (LinksDeletionUpdate, which 1.39 runs after the deletion's request), so it is not written
  const fetched = new Set<number>();
  for (const p of fetcher.pages.values()) for (const id of p.revisions.keys()) fetched.add(id);
  window.changes.forEach((c, i) => {
    logsUpTo(c);
    const deletion = deletions.get(i);
    if (deletion !== undefined) items.push(deletion);
    for (const page of pagesAt.get(i) ?? []) pushPage(items, page, uploadsOf.get(page.title));
    if ((c.type === 'new' || c.type === 'edit') && c.revId > 0 && !fetched.has(c.revId)) return;
    items.push({ type: 'recentchange', change: c });
  });
  logsUpTo(null);
  const newUsers = window.logs.filter((l) => l.type === 'newusers').map((l) => titleOf(l.title));
  if (newUsers.length > 0) for (const user of await fetchUsers(client, newUsers, opts.limit)) items.push({ type: 'user', user });
  items.push({ type: 'position', position: window.end });
  return items;
}

/** The timestamp of a page's oldest fetched revision when a later one's parent is missing, else null. */
function firstGap(page: FetchedPage): string | null {
  if (page.revisions.size < 2) return null;
  let oldest: DumpRevision | null = null;
  for (const r of page.revisions.values())
    if (oldest === null || r.timestamp < oldest.timestamp || (r.timestamp === oldest.timestamp && r.id < oldest.id)) oldest = r;
  for (const r of page.revisions.values())
    if (r !== oldest && r.parentId > 0 && !page.revisions.has(r.parentId)) return (oldest as DumpRevision).timestamp;
  return null;
}

function logItem(log: LogEvent): UpdateItem {
  return {
    type: 'logitem',
    logitem: {
      id: log.logId,
      timestamp: log.timestamp,
      user: log.user,
      userId: log.userId,
      comment: log.comment,
      type: log.type,
      action: log.action,
      logtitle: log.title,
      params: logParamsToRaw(log.type, log.action, log.params),
      deleted: 0,
      page: log.pageId,
    },
  };
}

function pushPage(items: UpdateItem[], page: FetchedPage, upload: { versions: DumpUpload[]; item: UpdateItem | null } | undefined): void {
  const revisions = [...page.revisions.values()].sort((a, b) =>
    a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.id - b.id,
  );
  const ref = { id: page.id, ns: page.ns, title: page.title };
  for (const revision of revisions) items.push({ type: 'revision', page: ref, revision });
  const latest = page.revisions.get(page.lastRevId) as DumpRevision;
  const dumpPage: DumpPage = {
    id: page.id,
    line: 0,
    ns: page.ns,
    title: page.title,
    revisionCount: revisions.length,
    first: revisions[0],
    latest,
    uploads: upload?.versions ?? [],
  };
  items.push({ type: 'page', page: dumpPage });
  if (upload?.item) items.push(upload.item);
}
