/** What the updater refuses before it writes anything: a batch out of bounds, an item of an unknown kind or shape. */
import path from 'node:path';
import type { UpdateItem } from '../update-items.js';

/** A batch or an item the updater refuses, before it writes anything. */
export class UpdateRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpdateRefused';
  }
}

/** items of one batch at most */
export const MAX_BATCH_ITEMS = 100_000;
/** bytes of one revision text at most ($wgMaxArticleSize is 2 MiB; a dump of another wiki may allow more) */
export const MAX_TEXT_BYTES = 16 * 1024 * 1024;
/** a batch the updater takes: bounded, every item of a known kind and shape */
export function checkBatch(batch: readonly UpdateItem[]): void {
  if (!Array.isArray(batch)) throw new UpdateRefused('a batch is an array of items');
  if (batch.length > MAX_BATCH_ITEMS) throw new UpdateRefused(`a batch of ${batch.length} items (at most ${MAX_BATCH_ITEMS})`);
  batch.forEach((item, i) => {
    const problem = itemProblem(item);
    if (problem !== null) throw new UpdateRefused(`item ${i} of the batch: ${problem}`);
  });
}

function itemProblem(item: UpdateItem): string | null {
  if (item === null || typeof item !== 'object') return 'not an object';
  const id = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;
  const text = (t: string | null) =>
    t === null || (typeof t === 'string' && t.length <= MAX_TEXT_BYTES && Buffer.byteLength(t) <= MAX_TEXT_BYTES);
  switch (item.type) {
    case 'siteinfo':
      return null;
    case 'revision':
      if (!id(item.page?.id) || !id(item.revision?.id)) return 'a revision needs its page id and its id';
      if (!text(item.revision.text)) return `revision ${item.revision.id}: its text is over ${MAX_TEXT_BYTES} bytes`;
      return null;
    case 'page':
      if (!id(item.page?.id) || typeof item.page.title !== 'string' || !item.page.latest || !item.page.first)
        return 'a page needs its id, title and revisions';
      if (!text(item.page.latest.text)) return `page ${item.page.id}: its text is over ${MAX_TEXT_BYTES} bytes`;
      return null;
    case 'logitem':
      return id(item.logitem?.id) ? null : 'a log item needs its id';
    case 'upload':
      return item.upload && typeof item.upload.filename === 'string' ? null : 'an upload needs its file name';
    case 'deletion':
      return id(item.pageId) ? null : 'a deletion needs the page id';
    case 'recentchange':
      return id(item.change?.rcid) && typeof item.change.title === 'string' ? null : 'a recent change needs its rcid and title';
    case 'user':
      return id(item.user?.id) && typeof item.user.name === 'string' && item.user.name !== '' ? null : 'a user needs an id and a name';
    case 'file': {
      const p = item.file?.path;
      if (typeof p !== 'string' || p === '' || p.split('/').some((s) => s === '..' || s === '') || path.isAbsolute(p))
        return 'a file needs a relative path below the files directory';
      return item.file.upload && typeof item.file.upload.filename === 'string' ? null : 'a file needs its upload record';
    }
    case 'position': {
      const p = item.position;
      return p && typeof p.api === 'string' && /^\d{14}$/.test(p.timestamp) && Number.isSafeInteger(p.rcid) && Number.isSafeInteger(p.logid)
        ? null
        : 'a position needs api, a TS_MW timestamp, rcid and logid';
    }
    default:
      return `unknown item type ${JSON.stringify((item as { type?: unknown }).type)}`;
  }
}
