/**
 * prop=revisions (ApiQueryRevisions of 1.25): the latest revision of each page, the revisions of revids=,
 * or (enumeration mode, one page) its history newest or oldest first. Content comes in the 1.25 form (`*` with contentformat and
 * contentmodel) or, when a client asks with rvslots (MediaWiki 1.32+ clients), under slots.main.
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { RowList, RowShape, withContent } from '../../api/result.js';
import type { QueryModuleContext } from '../../api/types.js';
import type { RevisionRecord } from '../../store/history-store.js';
import { texts } from '../../api/errors.js';
import { intval } from '../../api/params.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { addCommentFields, type CommentLinks, formatComment, parsedCommentLinks } from './comments.js';
import { sha1Base36ToHex } from '../../wiki/files.js';
import { DEFAULT_RENDER_OPTIONS, renderPage, renderRevision } from '../page-renderer.js';
import { userLanguage } from '../../wiki/messages.js';
import { dieBadContinue } from './shared.js';
import { addRevisionDiff, parseDiffParams } from './revision-diffs.js';
import { expand } from '../expandtemplates.js';
import { preprocessToXml } from '../../wikitext/preprocessor/xml.js';
import { CONTENT_FORMATS, isSupportedFormat } from '../../wiki/content-models.js';

const PROPS = [
  'ids',
  'flags',
  'timestamp',
  'user',
  'userid',
  'size',
  'sha1',
  'contentmodel',
  'comment',
  'parsedcomment',
  'content',
  'tags',
];

/** a revision's members without its text, in the order 1.25 adds them (ApiQueryRevisionsBase::extractRevisionInfo) */
const REVISION = new RowShape([
  'revid',
  'parentid',
  'minor',
  'userhidden',
  'user',
  'anon',
  'userid',
  'timestamp',
  'size',
  'sha1hidden',
  'sha1',
  'contentmodel',
  'commenthidden',
  'comment',
  'parsedcomment',
  'tags',
]);
/** the dump carries no change tags: every item's list is this one, never written to */
const NO_TAGS: readonly string[] = Object.freeze([]);

export const revisionsModule = queryModule({
  kind: 'prop',
  name: 'revisions',
  prefix: 'rv',
  // ApiQueryRevisionsBase is an ApiQueryGeneratorBase in 1.25: generator=revisions yields revision ids
  generator: true,
  // ApiQueryRevisions::getCacheMode: a request for tokens is private
  cacheMode: (params) => (params.token !== undefined ? 'private' : 'public'),
  description: 'Get revision information.',
  params: {
    prop: { type: PROPS, multi: true, default: 'ids|timestamp|flags|comment|user', help: 'Which properties to get for each revision.' },
    slots: {
      type: ['main', '*'],
      multi: true,
      help: 'Which revision slots to return data for (MediaWiki 1.32+ clients); only the main slot exists.',
    },
    limit: limitParam(undefined, 'Limit how many revisions will be returned (enumeration mode).'),
    startid: { type: 'integer', help: 'From which revision ID to start enumeration.' },
    endid: { type: 'integer', help: 'Stop revision enumeration on this revision ID.' },
    start: { type: 'timestamp', help: 'From which revision timestamp to start enumeration.' },
    end: { type: 'timestamp', help: 'Enumerate up to this timestamp.' },
    dir: dirParam('In which direction to enumerate.', ['newer', 'older'], 'older'),
    user: { type: 'user', help: 'Only include revisions made by user.' },
    excludeuser: { type: 'user', help: 'Exclude revisions made by user.' },
    tag: { type: 'string', help: 'Only list revisions tagged with this tag.' },
    parse: {
      type: 'boolean',
      default: false,
      help: 'Parse revision content (requires prop=content). For performance reasons, if this option is used, rvlimit is enforced to 1.',
    },
    expandtemplates: { type: 'boolean', default: false, help: 'Expand templates in revision content (requires prop=content).' },
    generatexml: { type: 'boolean', default: false, help: 'Generate XML parse tree for revision content (requires prop=content).' },
    section: { type: 'string', help: 'Only retrieve the content of this section number.' },
    diffto: {
      type: 'string',
      help: 'Revision ID to diff each revision to. Use "prev", "next" and "cur" for the previous, next and current revision respectively.',
    },
    difftotext: {
      type: 'text',
      help: 'Text to diff each revision to. Only diffs a limited number of revisions. Overrides rvdiffto. If rvsection is set, only that section will be diffed against this text.',
    },
    token: {
      type: ['rollback'],
      multi: true,
      deprecated: true,
      help: 'Which tokens to obtain for each revision. Use action=query&meta=tokens instead.',
    },
    contentformat: { type: CONTENT_FORMATS, help: 'Serialization format used for difftotext and expected for output of content.' },
    continue: continueParam(),
  },
  examples: [
    'action=query&prop=revisions&titles=Київ&rvprop=timestamp|user|comment|content',
    'action=query&prop=revisions&titles=Київ&rvlimit=5&rvprop=timestamp|user|comment',
  ],
  async run(ctx) {
    const p = ctx.params;
    const props = new Set(p.prop as string[]);
    const enumMode =
      p.limit !== undefined ||
      p.startid !== undefined ||
      p.endid !== undefined ||
      p.dir === 'newer' ||
      p.start !== undefined ||
      p.end !== undefined ||
      p.user !== undefined ||
      p.excludeuser !== undefined;
    const pageSet = ctx.pageSet;
    const pages = pageSet.good;
    const revCount = pageSet.revisionIds.size;
    if (revCount === 0 && pages.length === 0) return;
    if (revCount > 0 && enumMode) {
      ctx.die('revids', 'The revids= parameter may not be used with the list options (limit, startid, endid, dirNewer, start, end).');
    }
    if (enumMode && pages.length > 1) {
      ctx.die(
        'multpages',
        'titles, pageids or a generator was used to supply multiple pages, but the limit, startid, endid, dirNewer, user, excludeuser, start and end parameters may only be used on a single page.',
      );
    }
    const fetchContent = props.has('content');
    const diffs = await parseDiffParams(ctx);
    // a diff needs the revision's text: 1.25's fetchContent, with its smaller limits
    const needText = fetchContent || diffs !== null;
    // ApiQueryRevisionsBase.php:118-128 of 1.25: rvparse is read only when the content is fetched
    const parse = fetchContent && p.parse === true;
    const slots = p.slots as string[] | undefined;
    let list: RevisionRecord[];
    if (enumMode) {
      if (p.startid !== undefined && p.start !== undefined) ctx.die('badparams', 'start and startid cannot be used together');
      if (p.endid !== undefined && p.end !== undefined) ctx.die('badparams', 'end and endid cannot be used together');
      if (p.user !== undefined && p.excludeuser !== undefined) ctx.die('badparams', 'user and excludeuser cannot be used together');
      let startId = p.startid as number | undefined;
      let start = p.start as string | undefined;
      // 1.25 sends the next revision id as rvcontinue and reads it as rvstartid (rvstart is then ignored)
      if (p.continue !== undefined) {
        if (!/^-?\d+$/.test(p.continue)) dieBadContinue(ctx);
        startId = Number(p.continue);
        start = undefined;
      }
      // as a generator, rvlimit is read as any limit (ApiQueryRevisions::run: getParameter('limit') ?: 10)
      const limit = ctx.generator !== null ? ((p.limit as number | undefined) ?? 10) : enumLimit(ctx, needText, parse);
      list = await ctx.store.history.pageHistory({
        pageid: pages[0].pageid,
        dir: p.dir,
        orderBy: startId !== undefined || p.endid !== undefined ? 'id' : 'timestamp',
        startId,
        endId: p.endid,
        start,
        end: p.end,
        user: p.user,
        excludeUser: p.excludeuser,
        limit: limit + 1,
      });
      if (list.length > limit) {
        ctx.setContinue('continue', list[limit].revid);
        list = list.slice(0, limit);
      }
    } else if (revCount > 0) {
      // the page set read them already; 1.25 lists them by id
      const from = p.continue !== undefined ? intval(p.continue) : -Infinity;
      list = [...pageSet.revisionIds.values()].filter((r) => r.revid >= from).sort((a, b) => a.revid - b.revid);
    } else {
      let ids = pages.map((pg) => pg.pageid);
      let fromRev = 0;
      if (p.continue !== undefined) {
        const cont = p.continue.split('|');
        if (cont.length !== 2) dieBadContinue(ctx);
        const fromPage = intval(cont[0]);
        fromRev = intval(cont[1]);
        ids = ids.filter((id) => id >= fromPage);
        list = (await ctx.store.history.latestRevisions(ids)).filter((r) => r.pageid > fromPage || r.revid >= fromRev);
      } else list = await ctx.store.history.latestRevisions(ids);
      // 1.25 reads them ORDER BY rev_page, rev_id: the order a truncated answer continues in
      list.sort((a, b) => a.pageid - b.pageid || a.revid - b.revid);
    }
    if (!enumMode) {
      // ApiQueryRevisions.php:132-134, 304-321 of 1.25: without the list options rvlimit is 'max', the users'
      // maximum (1 with rvparse, 50 with content, else 500), and the rest continues from the next revision
      const max = parse ? 1 : needText ? 50 : 500;
      if (list.length > max) {
        const next = list[max];
        ctx.setContinue('continue', revCount > 0 ? next.revid : `${next.pageid}|${next.revid}`);
        list = list.slice(0, max);
      }
    }
    if (p.tag !== undefined) list = []; // the dump carries no change tags
    if (ctx.generator !== null) {
      // the generator's page set is the pages of these revisions (populateFromRevisionIDs), at most
      // rvlimit (10 by default) of them, continuing as the list does
      const limit = enumMode ? list.length : ((p.limit as number | undefined) ?? 10);
      for (let i = 0; i < list.length; i++) {
        const rev = list[i];
        if (i >= limit) {
          ctx.setContinue('continue', revCount > 0 ? rev.revid : `${rev.pageid}|${rev.revid}`);
          break;
        }
        ctx.generator.add({ revid: rev.revid });
      }
      return;
    }
    const tokens = (p.token as string[] | undefined) ?? [];
    const texts = needText
      ? await ctx.store.history.texts(list.filter((r) => !r.textHidden).map((r) => r.revid))
      : new Map<number, string>();
    const pendingLinks = parsedCommentLinks(ctx, props, list);
    const links = pendingLinks && (await pendingLinks);
    // the rows without texts (nor tokens to refuse) are written without an object per revision
    if (!needText && tokens.length === 0) {
      revisionRows(ctx, props, list, links, enumMode || revCount > 0);
      return;
    }
    const byPage = new Map<number, Record<string, unknown>[]>();
    for (const rev of list) {
      const v: Record<string, unknown> = {};
      if (props.has('ids')) {
        v.revid = rev.revid;
        v.parentid = rev.parentid;
      }
      if (props.has('flags') && rev.minor) v.minor = true;
      if (props.has('user') || props.has('userid')) {
        if (rev.userHidden) v.userhidden = true;
        else {
          if (props.has('user')) v.user = rev.user;
          if (rev.userid === 0) v.anon = true;
          if (props.has('userid')) v.userid = rev.userid;
        }
      }
      if (props.has('timestamp')) v.timestamp = mwToIso(rev.timestamp);
      if (props.has('size')) v.size = rev.size ?? 0;
      if (props.has('sha1')) {
        if (rev.textHidden) v.sha1hidden = true;
        else v.sha1 = rev.sha1 ? sha1Base36ToHex(rev.sha1) : '';
      }
      if (props.has('contentmodel')) v.contentmodel = rev.contentModel;
      addCommentFields(ctx, v, props, rev.commentHidden, rev.comment, links);
      if (props.has('tags')) v.tags = [];
      if (needText) {
        const text = texts.get(rev.revid);
        const title = pages.find((pg) => pg.pageid === rev.pageid)?.title ?? '';
        if (rev.textHidden) v.texthidden = true;
        else if (text === undefined) v.textmissing = true;
        else {
          const content = sectionOf(text, p.section);
          if (content === null) ctx.die('nosuchsection', `There is no section ${p.section} in r${rev.revid}`);
          if (fetchContent) {
            let shown: string | null = null;
            // ApiQueryRevisionsBase::extractRevisionInfo: the tree of the (section's) text, then the
            // expansion (Parser::preprocess, templates read from the wiki) unless rvparse renders it;
            // a diff compares the stored text (1.25 keeps $content apart from the $text it shows)
            if (p.generatexml) v.parsetree = preprocessToXml(content!);
            if (p.expandtemplates && !parse) {
              ctx.markVolatile('clock');
              shown = (await expand(ctx, content!, { ns: rev.ns, dbkey: title }, false, undefined)).text;
            }
            // rvparse: the content as action=parse renders it (the same renderer and parser cache)
            if (parse) shown = await renderRevisionText(ctx, rev, title, content!, p.section === undefined);
            const format = (p.contentformat as string | undefined) ?? rev.contentFormat;
            if (slots)
              v.slots = { main: withContent({ contentmodel: rev.contentModel, contentformat: format }, 'content', shown ?? content!) };
            // an expanded or rendered text comes alone; the stored one with its format and model, when
            // the model's handler writes the format asked for (ApiQueryRevisionsBase.php:330-350 of 1.25)
            else if (shown !== null) withContent(v, 'content', shown);
            else if (!isSupportedFormat(rev.contentModel, rev.contentFormat, format)) {
              ctx.warn(
                `The requested format ${format} is not supported for content model ${rev.contentModel} used by ${ctx.wiki.codec.prefixedDbKey(rev.ns, title)}`,
              );
              v.badcontentformat = true;
            } else withContent(Object.assign(v, { contentformat: format, contentmodel: rev.contentModel }), 'content', content!);
          }
          if (diffs) await addRevisionDiff(ctx, diffs, rev, ctx.wiki.codec.prefixedDbKey(rev.ns, title), content!, v);
        }
      }
      // the deprecated rvtoken: getRollbackToken refuses a reader without the rollback right; a request
      // that breaks the same-origin policy has no token functions, so the value itself is unknown
      // (ApiQueryRevisions.php:44-67, 331-341 of 1.25)
      for (const t of tokens) {
        ctx.warn(
          ctx.lacksSameOriginSecurity
            ? `Unrecognized value for parameter '${ctx.encodeParamName('token')}': ${t}`
            : `Action '${t}' is not allowed for the current user`,
        );
      }
      // ApiQueryBase::addPageSubItem → ApiResult::addValue: a revision that would take the answer past
      // $wgAPIMaxResultSize is not added, and the module continues from it (src/api/result-size.ts)
      if (!ctx.result.fits(v)) {
        ctx.setContinue('continue', enumMode || revCount > 0 ? rev.revid : `${rev.pageid}|${rev.revid}`);
        break;
      }
      let l = byPage.get(rev.pageid);
      if (!l) byPage.set(rev.pageid, (l = []));
      l.push(v);
    }
    for (const [pageid, revs] of byPage) {
      const entry = pageSet.entry(pageid);
      if (entry) entry.revisions = revs;
    }
  },
});

/**
 * The revisions' items without their text (no content, no diff): a row list per page, the members in the
 * order the loop above adds them. `byRevid`: the continuation names the revision alone.
 */
function revisionRows(
  ctx: QueryModuleContext,
  props: ReadonlySet<string>,
  list: readonly RevisionRecord[],
  links: CommentLinks | null,
  byRevid: boolean,
): void {
  const ids = props.has('ids');
  const flags = props.has('flags');
  const user = props.has('user');
  const userid = props.has('userid');
  const timestamp = props.has('timestamp');
  const size = props.has('size');
  const sha1 = props.has('sha1');
  const contentmodel = props.has('contentmodel');
  const comment = props.has('comment');
  const parsed = props.has('parsedcomment');
  const tags = props.has('tags');
  const byPage = new Map<number, RowList>();
  let rows: RowList | undefined;
  let rowsPage = -1;
  for (let i = 0; i < list.length; i++) {
    const rev = list[i]!;
    if (rev.pageid !== rowsPage) {
      rowsPage = rev.pageid;
      rows = byPage.get(rowsPage);
      if (rows === undefined) {
        rows = new RowList(REVISION);
        byPage.set(rowsPage, rows);
      }
    }
    const values = rows!.values;
    const start = values.length;
    if (ids) values.push(rev.revid, rev.parentid);
    else values.push(undefined, undefined);
    values.push(flags && rev.minor ? true : undefined);
    // userhidden, user, anon, userid
    if (!user && !userid) values.push(undefined, undefined, undefined, undefined);
    else if (rev.userHidden) values.push(true, undefined, undefined, undefined);
    else values.push(undefined, user ? rev.user : undefined, rev.userid === 0 ? true : undefined, userid ? rev.userid : undefined);
    values.push(timestamp ? mwToIso(rev.timestamp) : undefined, size ? (rev.size ?? 0) : undefined);
    if (!sha1) values.push(undefined, undefined);
    else if (rev.textHidden) values.push(true, undefined);
    else values.push(undefined, rev.sha1 ? sha1Base36ToHex(rev.sha1) : '');
    values.push(contentmodel ? rev.contentModel : undefined);
    // commenthidden, comment, parsedcomment
    if (!comment && !parsed) values.push(undefined, undefined, undefined);
    else if (rev.commentHidden) values.push(true, undefined, undefined);
    else values.push(undefined, comment ? rev.comment : undefined, parsed ? formatComment(ctx, rev.comment, links!) : undefined);
    values.push(tags ? NO_TAGS : undefined);
    // ApiQueryBase::addPageSubItem → ApiResult::addValue, as above
    if (!ctx.result.fitsValues(values, start)) {
      values.length = start;
      ctx.setContinue('continue', byRevid ? rev.revid : `${rev.pageid}|${rev.revid}`);
      break;
    }
  }
  for (const [pageid, revs] of byPage) {
    const entry = ctx.pageSet.entry(pageid);
    if (entry && revs.length > 0) entry.revisions = revs;
  }
}

async function renderRevisionText(
  ctx: QueryModuleContext,
  rev: RevisionRecord,
  dbkey: string,
  text: string,
  wholeRevision: boolean,
): Promise<string> {
  // rvparse renders with the request's user language, as ApiParse does; a section is rendered on its own
  const userLang = userLanguage(ctx.request.raw.uselang, ctx.wiki.lang);
  const o = { title: { ns: rev.ns, dbkey }, ...DEFAULT_RENDER_OPTIONS, userLang };
  if (!wholeRevision) return (await renderPage(ctx.store, ctx.wiki, Object.assign({}, o, { text }))).html;
  return (await renderRevision(ctx.store, ctx.wiki, Object.assign({}, o, { pageid: rev.pageid, revid: rev.revid, text: async () => text })))
    .html;
}

/**
 * rvlimit in enumeration mode (ApiQueryRevisionsBase.php:118-148 of 1.25): validated again with smaller maxima
 * when content is fetched (50 for users instead of 500) and 1 with rvparse, whose default is then 1 too;
 * 'max' means that maximum.
 */
function enumLimit(ctx: QueryModuleContext, fetchContent: boolean, parse: boolean): number {
  const max = parse ? 1 : fetchContent ? 50 : 500;
  const enc = ctx.encodeParamName('limit');
  if (ctx.request.raw[enc] === 'max') {
    (ctx.result.object('limits') as Record<string, unknown>).revisions = max;
    return max;
  }
  const v = ctx.params.limit as number | undefined;
  if (v === undefined) return parse ? 1 : 10;
  if (v > max) {
    ctx.warn(texts.overForUsers(enc, max, v));
    return max;
  }
  return v;
}

/** Section N of wikitext (0 = the lead), as ?section= selects it; null when there is no such section. */
function sectionOf(text: string, section: string | undefined): string | null {
  if (section === undefined) return text;
  if (!/^\d+$/.test(section)) return null;
  const n = Number(section);
  const heads = [...text.matchAll(/^(={1,6})[^=\n].*?\1[ \t]*$/gm)];
  if (n === 0) return heads.length ? text.slice(0, heads[0].index).replace(/\n+$/, '') : text;
  const h = heads[n - 1];
  if (!h) return null;
  const level = h[1].length;
  const next = heads.slice(n).find((x) => x[1].length <= level);
  return text.slice(h.index, next ? next.index : undefined).replace(/\n+$/, '');
}
