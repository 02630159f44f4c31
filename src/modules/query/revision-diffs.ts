/**
 * prop=revisions' rvdiffto and rvdifftotext (ApiQueryRevisionsBase of 1.25): each revision's diff to
 * another revision of its page (prev, next, cur or an id) or to a given text, under `diff`. As in 1.25,
 * only $wgAPIMaxUncachedDiffs (1) diffs are made per request: 1.25 keeps the others for a diff cache a
 * default installation does not have, so every further revision gets `notcached` instead.
 */
import { isSupportedFormat } from '../../wiki/content-models.js';
import type { QueryModuleContext } from '../../api/types.js';
import { CONTENT, type Obj } from '../../api/result.js';
import type { RevisionRecord } from '../../store/history-store.js';
import { type DiffTarget, diffBody, mapDiffPrevNext, revisionDiffBody } from '../difference-engine.js';

/** $wgAPIMaxUncachedDiffs of 1.25 */
const MAX_UNCACHED_DIFFS = 1;

export interface DiffRequest {
  /** rvdiffto: the revision to compare with (0: the page's current one) */
  target: DiffTarget | null;
  /** rvdifftotext: the text to compare with */
  text: string | null;
  /** diffs made so far in this request */
  made: number;
}

/**
 * ApiQueryRevisionsBase::parseParameters' part for diffs: null when neither parameter asks for one. An
 * invalid rvdiffto ends the request; a revision whose text is hidden is not diffed to, with a warning.
 */
export async function parseDiffParams(ctx: QueryModuleContext): Promise<DiffRequest | null> {
  const p = ctx.params;
  if (p.difftotext !== undefined) return { target: null, text: p.difftotext as string, made: 0 };
  if (p.diffto === undefined) return null;
  const raw = p.diffto as string;
  if (raw === 'cur' || raw === 'prev' || raw === 'next') return { target: raw === 'cur' ? 0 : raw, text: null, made: 0 };
  // ctype_digit: digits only, so never negative
  if (!/^[0-9]+$/.test(raw))
    ctx.die('diffto', `${ctx.encodeParamName('diffto')} must be set to a non-negative number, "prev", "next" or "cur"`);
  const id = Number(raw);
  // 1.25 checks the revision only when `$params['diffto'] != 0`
  if (id !== 0) {
    const rev = (await ctx.store.history.revisionsByIds([id]))[0];
    if (!rev) ctx.die('nosuchrevid', `There is no revision with ID ${raw}`);
    if (rev!.textHidden) {
      ctx.warn(`Couldn't diff to r${rev!.revid}: content is hidden`);
      return null;
    }
  }
  return { target: id, text: null, made: 0 };
}

/**
 * The `diff` member of a revision whose content is `content` (the section, with rvsection): its body, and
 * for rvdiffto the two revisions compared (`from` false: no previous revision; `to` 0: the current one).
 */
export async function addRevisionDiff(
  ctx: QueryModuleContext,
  req: DiffRequest,
  rev: RevisionRecord,
  prefixedDbKey: string,
  content: string,
  v: Record<string, unknown>,
): Promise<void> {
  if (req.made >= MAX_UNCACHED_DIFFS) {
    v.diff = { notcached: true };
    return;
  }
  const diff: Obj = {};
  v.diff = diff;
  if (req.text !== null) {
    // the text diffed to is read in rvcontentformat, which the revision's model must support
    if (
      ctx.params.contentformat !== undefined &&
      !isSupportedFormat(rev.contentModel, rev.contentFormat, ctx.params.contentformat as string)
    ) {
      ctx.warn(
        `The requested format ${ctx.params.contentformat} is not supported for content model ${rev.contentModel} used by ${prefixedDbKey}`,
      );
      diff.badcontentformat = true;
      return;
    }
    setBody(diff, await diffBody(ctx, content, req.text));
    req.made++;
    return;
  }
  const ids = await mapDiffPrevNext(ctx, rev, req.target!);
  diff.from = ids.oldid;
  diff.to = ids.newid;
  const { body, computed } = await revisionDiffBody(ctx, ids, rev.pageid);
  // a diff 1.25 cannot make is `false`, which formatversion 1 leaves out
  setBody(diff, body ?? false);
  if (computed) req.made++;
}

function setBody(diff: Obj, body: string | false): void {
  diff.body = body;
  diff[CONTENT] = 'body';
}
