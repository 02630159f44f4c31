/**
 * Fetching pages, revisions, files and users from the upstream in batches: as many ids or titles per
 * request as the upstream allows (`limit`: 50, or 500 with apihighlimits), continuation followed when
 * an answer is cut at the upstream's result size. Answers are read member by member; what cannot be
 * read is an UpstreamError (the batch is retried, nothing applied).
 */
import path from 'node:path';
import type { DumpRevision, DumpUpload } from '../importer/dump-reader.js';
import type { UserItem } from '../importer/update-items.js';
import { hashPath, sha1HexToBase36 } from '../wiki/files.js';
import { isoToMw } from '../wiki/timestamps.js';
import { UpstreamError, type ApiAnswer, type ApiParams, type UpstreamClient } from './upstream-client.js';

export const REVISION_PROPS = 'ids|timestamp|flags|comment|user|userid|content|sha1|size|contentmodel';

export interface FetchedPage {
  id: number;
  ns: number;
  /** prefixed title, as the upstream writes it */
  title: string;
  /** the page's newest revision (0 until prop=info was read) */
  lastRevId: number;
  revisions: Map<number, DumpRevision>;
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : 0;
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}
function flag(v: unknown): boolean {
  return v !== undefined && v !== false;
}

/** A revision of prop=revisions (1.25: content in `*`; 1.32+: in slots.main). */
export function readRevision(rev: ApiAnswer): DumpRevision {
  if (rev === null || typeof rev !== 'object' || num(rev.revid) <= 0 || typeof rev.timestamp !== 'string') {
    throw new UpstreamError(`a malformed revision: ${JSON.stringify(rev).slice(0, 200)}`);
  }
  const slot = rev.slots?.main ?? rev;
  const hidden = flag(slot.texthidden) || flag(rev.texthidden);
  const text = hidden ? null : typeof slot['*'] === 'string' ? slot['*'] : typeof slot.content === 'string' ? slot.content : null;
  if (text === null && !hidden) throw new UpstreamError(`revision ${rev.revid} came without its text`);
  const sha1 = str(slot.sha1 ?? rev.sha1);
  return {
    id: num(rev.revid),
    parentId: num(rev.parentid),
    timestamp: isoToMw(rev.timestamp),
    user: str(rev.user),
    userId: num(rev.userid),
    comment: str(rev.comment),
    minor: flag(rev.minor),
    deleted: (hidden ? 1 : 0) | (flag(rev.commenthidden) ? 2 : 0) | (flag(rev.userhidden) ? 4 : 0),
    model: str(slot.contentmodel ?? rev.contentmodel) || undefined,
    format: str(slot.contentformat ?? rev.contentformat) || undefined,
    sha1: /^[0-9a-f]{40}$/.test(sha1) ? sha1HexToBase36(sha1) : '',
    text,
    bytes: num(slot.size ?? rev.size),
  };
}

export class PageFetcher {
  readonly pages = new Map<number, FetchedPage>();
  /** prefixed title → page id of the pages that exist */
  readonly byTitle = new Map<string, number>();

  constructor(
    private readonly client: UpstreamClient,
    /** ids or titles per request */
    private readonly limit: number,
  ) {}

  private page(p: ApiAnswer): FetchedPage | null {
    if (p === null || typeof p !== 'object') throw new UpstreamError('a malformed page entry');
    if (p.missing !== undefined || p.invalid !== undefined || num(p.pageid) <= 0) return null;
    const id = num(p.pageid);
    let page = this.pages.get(id);
    if (page === undefined) {
      page = { id, ns: num(p.ns), title: str(p.title), lastRevId: 0, revisions: new Map() };
      this.pages.set(id, page);
    } else {
      page.ns = num(p.ns);
      page.title = str(p.title);
    }
    this.byTitle.set(page.title, id);
    if (num(p.lastrevid) > 0) page.lastRevId = num(p.lastrevid);
    if (Array.isArray(p.revisions))
      for (const rev of p.revisions) {
        const r = readRevision(rev);
        page.revisions.set(r.id, r);
      }
    return page;
  }

  private async each(params: ApiParams): Promise<void> {
    for await (const answer of this.client.continued(params)) {
      const pages = answer.query?.pages;
      // only bad revision ids (deleted meanwhile), or nothing asked for
      if (pages === undefined) continue;
      if (pages === null || typeof pages !== 'object') throw new UpstreamError(`${this.client.api}: a query answered without its pages`);
      for (const p of Array.isArray(pages) ? pages : Object.values(pages)) this.page(p);
    }
  }

  private chunks<T>(items: T[]): T[][] {
    const out: T[][] = [];
    for (let i = 0; i < items.length; i += this.limit) out.push(items.slice(i, i + this.limit));
    return out;
  }

  /**
   * These revisions with their text (revisions deleted meanwhile are left out), and their pages' newest
   * revision (prop=info in the same request: a round trip less per batch).
   */
  async revisions(revids: number[]): Promise<void> {
    for (const chunk of this.chunks([...new Set(revids)].sort((a, b) => a - b))) {
      await this.each({ action: 'query', prop: 'revisions|info', revids: chunk.join('|'), rvprop: REVISION_PROPS, rvslots: 'main' });
    }
  }

  /** A page's revisions (all, or from `since` on), oldest first. */
  async history(ref: { pageid: number } | { title: string }, since?: string): Promise<void> {
    const params: ApiParams = {
      action: 'query',
      prop: 'revisions|info',
      rvprop: REVISION_PROPS,
      rvslots: 'main',
      rvdir: 'newer',
      rvlimit: 'max',
    };
    if ('pageid' in ref) params.pageids = ref.pageid;
    else params.titles = ref.title;
    if (since !== undefined)
      params.rvstart = `${since.slice(0, 4)}-${since.slice(4, 6)}-${since.slice(6, 8)}T${since.slice(8, 10)}:${since.slice(10, 12)}:${since.slice(12, 14)}Z`;
    await this.each(params);
  }

  /**
   * prop=info of pages by id and by title: their current title and newest revision; pages gone are left out.
   * Pages whose newest revision an answer gave already (prop=info rides along with every revisions query)
   * are not asked again; titles always are (a title may have changed hands since).
   */
  async info(pageIds: number[], titles: string[]): Promise<void> {
    const ids = [...new Set(pageIds)].filter((id) => (this.pages.get(id)?.lastRevId ?? 0) === 0);
    for (const chunk of this.chunks(ids)) await this.each({ action: 'query', prop: 'info', pageids: chunk.join('|') });
    for (const chunk of this.chunks([...new Set(titles)])) await this.each({ action: 'query', prop: 'info', titles: chunk.join('|') });
  }
}

/** Every version of a file (oldest first), as prop=imageinfo lists them, with the current version's URL and SHA-1. */
export async function fileVersions(
  client: UpstreamClient,
  title: string,
): Promise<{ name: string; versions: DumpUpload[]; url: string; sha1hex: string; size: number } | null> {
  const versions: DumpUpload[] = [];
  let url = '';
  let sha1hex = '';
  let size = 0;
  let name = '';
  for await (const answer of client.continued({
    action: 'query',
    prop: 'imageinfo',
    titles: title,
    iiprop: 'timestamp|user|userid|comment|url|size|sha1|mime',
    iilimit: 'max',
  })) {
    const pages = answer.query?.pages;
    if (pages === null || typeof pages !== 'object') throw new UpstreamError(`${client.api}: imageinfo answered without its pages`);
    for (const p of Object.values(pages) as ApiAnswer[]) {
      if (!Array.isArray(p.imageinfo)) continue;
      name = str(p.title)
        .replace(/^[^:]*:/, '')
        .replace(/ /g, '_');
      for (const ii of p.imageinfo) {
        if (typeof ii?.timestamp !== 'string' || !/^[0-9a-f]{40}$/.test(str(ii.sha1)))
          throw new UpstreamError(`a malformed imageinfo of ${title}`);
        if (url === '') {
          url = str(ii.url);
          sha1hex = ii.sha1;
          size = num(ii.size);
        }
        versions.push({
          timestamp: isoToMw(ii.timestamp),
          user: str(ii.user),
          userId: num(ii.userid),
          comment: str(ii.comment),
          filename: name,
          size: num(ii.size),
          sha1base36: sha1HexToBase36(ii.sha1),
        });
      }
    }
  }
  if (name === '' || url === '') return null;
  versions.reverse();
  return { name, versions, url, sha1hex, size };
}

/** Where a file's bytes go below --files: MediaWiki's hashed layout, `a/ab/Name.png`. */
export function filePath(name: string): string {
  return path.posix.join(hashPath(name), name);
}

/** Accounts by name (list=users), with their registration and edit count. */
export async function fetchUsers(client: UpstreamClient, names: string[], limit: number): Promise<UserItem[]> {
  const out: UserItem[] = [];
  const unique = [...new Set(names)];
  for (let i = 0; i < unique.length; i += limit) {
    const answer = await client.call({
      action: 'query',
      list: 'users',
      ususers: unique.slice(i, i + limit).join('|'),
      usprop: 'registration|editcount',
    });
    const users = answer.query?.users;
    if (!Array.isArray(users)) throw new UpstreamError(`${client.api}: list=users answered without its list`);
    for (const u of users) {
      if (u.missing !== undefined || u.invalid !== undefined || num(u.userid) <= 0) continue;
      out.push({
        id: num(u.userid),
        name: str(u.name),
        registration: typeof u.registration === 'string' ? isoToMw(u.registration) : '',
        editCount: num(u.editcount),
      });
    }
  }
  return out;
}
