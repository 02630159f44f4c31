/**
 * Edit and upload comments as the API shows them: `comment` as stored, `parsedcomment` as
 * Linker::formatComment renders it (links to existing pages, red links to missing ones), and hidden
 * comments as `commenthidden` -- alike in revisions, recentchanges, logevents, usercontribs and the
 * file modules.
 */
import type { ModuleContext, QueryModuleContext } from '../../api/types.js';
import { MessageLoader } from '../message-loader.js';
import { wfUrlencode } from '../../wiki/files.js';
import { htmlspecialchars } from '../../wiki/html.js';
import { replaceParameters } from '../../wiki/messages.js';

/** Sanitizer::escapeHtmlAllowEntities: htmlspecialchars with ENT_QUOTES */
const escapeHtml = (s: string) => htmlspecialchars(s, 'both');

/** [[target|label]]trail in a comment, as Linker::formatLinksInComment finds them. */
const COMMENT_LINK = /\[\[:?([^\]|]+)(?:\|([^\]]*))?\]\]([a-zабвгґдеєжзиіїйклмнопрстуфхцчшщьюя']*)/gu;

function unescapeTarget(target: string): string {
  return target
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#039;/g, "'");
}

/** What formatting comments needs from the store: which linked pages exist, and the red-link tooltip. */
export interface CommentLinks {
  /** "ns:dbkey" of the linked pages that exist */
  existing: Set<string>;
  /** the red-link-title message ("$1 (page does not exist)") */
  redLinkTitle: string;
}

/** Read, for a batch of comments, every linked page's existence (one store call) and the red-link message. */
export async function commentLinks(ctx: ModuleContext, comments: string[]): Promise<CommentLinks> {
  const targets = new Map<string, { ns: number; dbkey: string }>();
  for (const c of comments) {
    for (const m of escapeHtml(c).matchAll(COMMENT_LINK)) {
      const t = ctx.wiki.codec.parse(unescapeTarget(m[1]), 0);
      if (t !== null && t.ns >= 0) targets.set(t.ns + ':' + t.dbkey, { ns: t.ns, dbkey: t.dbkey });
    }
  }
  if (targets.size === 0) return { existing: new Set(), redLinkTitle: '' };
  const [rows, red] = await Promise.all([
    ctx.store.pages.byTitles([...targets.values()]),
    new MessageLoader(ctx.store, ctx.wiki).get('red-link-title', ctx.wiki.lang),
  ]);
  return { existing: new Set(rows.map((r) => r.ns + ':' + r.title)), redLinkTitle: red === false ? '$1 (page does not exist)' : red };
}

/**
 * commentLinks for the comments of the first `count` rows (the rows past it are the one read to see
 * whether to continue) when `parsedcomment` is among `props`; null when it is not.
 */
export function parsedCommentLinks(
  ctx: QueryModuleContext,
  props: ReadonlySet<string>,
  rows: readonly { comment: string }[],
  count = rows.length,
): Promise<CommentLinks> | null {
  if (!props.has('parsedcomment')) return null;
  const comments: string[] = [];
  const n = Math.min(count, rows.length);
  for (let i = 0; i < n; i++) comments.push(rows[i].comment);
  return commentLinks(ctx, comments);
}

/**
 * Linker::formatComment for upload comments: HTML-escaped text with [[internal links]] turned into
 * anchors (red links to missing pages). `links` comes from commentLinks over the same comments.
 */
export function formatComment(ctx: ModuleContext, comment: string, links: CommentLinks): string {
  const escaped = escapeHtml(comment);
  return escaped.replace(COMMENT_LINK, (all, target: string, label: string | undefined, trail: string) => {
    const t = ctx.wiki.codec.parse(unescapeTarget(target), 0);
    if (t === null) return all;
    const text = (label !== undefined && label !== '' ? label : target) + trail;
    const full = ctx.wiki.codec.prefixedDbKey(t.ns, t.dbkey);
    const shown = escapeHtml(ctx.wiki.titleText(t.ns, t.dbkey));
    const frag = t.fragment ? '#' + wfUrlencode(t.fragment.replace(/ /g, '_')) : '';
    if (t.ns < 0 || links.existing.has(t.ns + ':' + t.dbkey)) {
      return `<a href="/index.php/${wfUrlencode(full)}${frag}" title="${shown}">${text}</a>`;
    }
    const redTitle = replaceParameters(links.redLinkTitle, [ctx.wiki.titleText(t.ns, t.dbkey)]);
    return `<a href="/index.php?title=${wfUrlencode(full)}&amp;action=edit&amp;redlink=1" class="new" title="${escapeHtml(redTitle)}">${text}</a>`;
  });
}

/**
 * The comment fields of one row: `commenthidden` when the comment is deleted, else `comment` and
 * `parsedcomment` as asked for (`links` read by commentLinks when parsedcomment is).
 */
export function addCommentFields(
  ctx: QueryModuleContext,
  item: Record<string, unknown>,
  props: Set<string>,
  hidden: boolean,
  comment: string,
  links: CommentLinks | null,
): void {
  if (!props.has('comment') && !props.has('parsedcomment')) return;
  if (hidden) item.commenthidden = true;
  else {
    if (props.has('comment')) item.comment = comment;
    if (props.has('parsedcomment')) item.parsedcomment = formatComment(ctx, comment, links!);
  }
}
