/**
 * DifferenceEngine of MediaWiki 1.25 over the store, for action=compare, prop=revisions' rvdiffto and
 * the feeds: which two revisions a diff compares (mapDiffPrevNext, loadRevisionData), whether it may be
 * shown (getDiffBody's checks), and its body with the line numbers in the user's language
 * (localiseLineNumbers). The table itself is src/wiki/diff/.
 *
 * 1.25 keeps diff bodies in $wgMemc, which a default installation does not have (CACHE_NONE): every
 * diff is computed, and a body never carries the "diff cache key" comment of a cache hit.
 */
import type { ModuleContext } from '../api/types.js';
import type { RevisionRecord } from '../store/history-store.js';
import { localiseLineNumbers, tableDiffBody } from '../wiki/diff/table.js';
import { htmlspecialchars } from '../wiki/html.js';
import { formatNumText } from '../wiki/language.js';
import { userLanguage } from '../wiki/messages.js';
import { messageText } from '../wikitext/message-transform.js';
import { MessageLoader } from './message-loader.js';

/** Where a revision's diff goes: a revision id, or the previous, next or current revision of its page */
export type DiffTarget = number | 'prev' | 'next';

/** the two revisions of a diff as DifferenceEngine's getOldid/getNewid see them before loading */
export interface DiffIds {
  /** false: the revision has no previous one (mapDiffPrevNext) */
  oldid: number | false;
  /** 0: the page's current revision */
  newid: number;
}

/**
 * DifferenceEngine::mapDiffPrevNext and loadRevisionIds for a revision of a page and a target: 'prev'
 * compares the previous revision with this one, 'next' this one with the next (the current one, 0, when
 * there is no next), a number this one with that revision (0: the page's current revision).
 */
export async function mapDiffPrevNext(ctx: ModuleContext, rev: RevisionRecord, target: DiffTarget): Promise<DiffIds> {
  if (target === 'prev') {
    const prev = await ctx.store.history.pageHistory({ pageid: rev.pageid, dir: 'older', orderBy: 'id', startId: rev.revid - 1, limit: 1 });
    return { oldid: prev.length ? prev[0].revid : false, newid: rev.revid };
  }
  if (target === 'next') {
    const next = await ctx.store.history.pageHistory({ pageid: rev.pageid, dir: 'newer', orderBy: 'id', startId: rev.revid + 1, limit: 1 });
    return { oldid: rev.revid, newid: next.length ? next[0].revid : 0 };
  }
  return { oldid: rev.revid, newid: target };
}

/**
 * DifferenceEngine::getDiffBody for two revision ids (newid 0: the latest revision of `currentOf`):
 * null where 1.25 returns false (a revision missing, its text hidden or missing), '' for a revision
 * compared with itself or with nothing before it; `computed` says whether a diff was made (1.25's cache
 * miss, which $wgAPIMaxUncachedDiffs counts).
 */
export async function revisionDiffBody(
  ctx: ModuleContext,
  ids: DiffIds,
  currentOf: number | null,
): Promise<{ body: string | null; computed: boolean }> {
  let newRev: RevisionRecord | undefined;
  if (ids.newid) newRev = (await ctx.store.history.revisionsByIds([ids.newid]))[0];
  else if (currentOf !== null) newRev = (await ctx.store.history.latestRevisions([currentOf]))[0];
  if (!newRev) return { body: null, computed: false };
  let oldRev: RevisionRecord | undefined;
  if (ids.oldid !== false) {
    oldRev = (await ctx.store.history.revisionsByIds([ids.oldid]))[0];
    if (!oldRev) return { body: null, computed: false };
  }
  if (oldRev?.textHidden || newRev.textHidden) return { body: null, computed: false };
  if (!oldRev || oldRev.revid === newRev.revid) return { body: '', computed: false };
  const texts = await ctx.store.history.texts([oldRev.revid, newRev.revid]);
  const oldText = texts.get(oldRev.revid);
  const newText = texts.get(newRev.revid);
  if (oldText === undefined || newText === undefined) return { body: null, computed: true };
  return { body: await diffBody(ctx, oldText, newText), computed: true };
}

/** the diff body of two texts with its line numbers localised (generateTextDiffBody + localiseLineNumbers) */
export async function diffBody(ctx: ModuleContext, oldText: string, newText: string): Promise<string> {
  return localiseDiff(ctx, tableDiffBody(oldText, newText));
}

/**
 * DifferenceEngine::localiseLineNumbers: msg('lineno')->numParams(n)->escaped() in the user language
 * ("Рядок 12:"), every number of the body read with one message look-up.
 */
export async function localiseDiff(ctx: ModuleContext, body: string): Promise<string> {
  const numbers = new Set<string>();
  for (const m of body.matchAll(/<!--LINE (\d+)-->/g)) numbers.add(m[1]);
  if (numbers.size === 0) return body;
  const lang = userLanguage(ctx.request.raw.uselang, ctx.wiki.lang);
  const loader = new MessageLoader(ctx.store, ctx.wiki);
  await loader.prefetch(['lineno'], lang);
  const title = { ns: 0, dbkey: 'API' };
  const shown = await loader.render((m) => {
    const out = new Map<string, string>();
    // Message::escaped() of a missing message is "&lt;lineno&gt;", escaped once
    const exists = m.exists('lineno', lang);
    for (const n of numbers)
      out.set(n, exists ? htmlspecialchars(messageText(m, 'lineno', [formatNumText(n, lang)], lang, title)) : '&lt;lineno&gt;');
    return out;
  });
  return localiseLineNumbers(body, (n) => shown.get(n)!);
}
