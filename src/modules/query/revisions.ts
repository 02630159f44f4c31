/**
 * prop=revisions (ApiQueryRevisions of 1.25): the latest revision of each page, or (enumeration mode,
 * one page) its revisions newest or oldest first. An import keeps each page's first and latest revision,
 * so those are the revisions there are. Content comes in the 1.25 form (`*` with contentformat and
 * contentmodel) or, when a client asks with rvslots (MediaWiki 1.32+ clients), under slots.main.
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import type { QueryModule } from '../../api/types.js';
import { withContent } from '../../api/result.js';
import type { PageRow, RevisionRow } from '../../store/page-store.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { sha1Base36ToHex } from '../../wiki/files.js';
import { dieBadContinue } from './shared.js';

const PROPS = ['ids', 'flags', 'timestamp', 'user', 'userid', 'size', 'sha1', 'contentmodel', 'comment', 'parsedcomment', 'content', 'tags'];

export const revisionsModule: QueryModule = {
  kind: 'prop',
  name: 'revisions',
  prefix: 'rv',
  description: 'Get revision information.',
  params: {
    prop: { type: PROPS, multi: true, default: 'ids|timestamp|flags|comment|user', help: 'Which properties to get for each revision.' },
    slots: { type: ['main', '*'], multi: true, help: 'Which revision slots to return data for (MediaWiki 1.32+ clients); only the main slot exists.' },
    limit: limitParam(undefined, 'Limit how many revisions will be returned (enumeration mode).'),
    startid: { type: 'integer', help: 'From which revision ID to start enumeration.' },
    endid: { type: 'integer', help: 'Stop revision enumeration on this revision ID.' },
    start: { type: 'timestamp', help: 'From which revision timestamp to start enumeration.' },
    end: { type: 'timestamp', help: 'Enumerate up to this timestamp.' },
    dir: dirParam('In which direction to enumerate.', ['newer', 'older'], 'older'),
    user: { type: 'user', help: 'Only include revisions made by user.' },
    excludeuser: { type: 'user', help: 'Exclude revisions made by user.' },
    tag: { type: 'string', help: 'Only list revisions tagged with this tag.' },
    expandtemplates: { type: 'boolean', default: false, help: 'Expand templates in revision content (not supported here: content is returned as stored).' },
    section: { type: 'string', help: 'Only retrieve the content of this section number.' },
    contentformat: { type: ['text/x-wiki'], help: 'Serialization format used for difftotext and expected for output of content.' },
    continue: continueParam(),
  },
  examples: ['action=query&prop=revisions&titles=Київ&rvprop=timestamp|user|comment|content', 'action=query&prop=revisions&titles=Київ&rvlimit=5&rvprop=timestamp|user|comment'],
  cacheMode: () => 'public',
  async run(ctx) {
    const p = ctx.params;
    const props = new Set(p.prop as string[]);
    const enumMode = p.limit !== undefined || p.startid !== undefined || p.endid !== undefined || p.dir === 'newer' || p.start !== undefined || p.end !== undefined || p.user !== undefined || p.excludeuser !== undefined;
    const pages = ctx.pageSet.good;
    if (enumMode && pages.length > 1) {
      ctx.die('multpages', 'titles, pageids or a generator was used to supply multiple pages, but the limit, startid, endid, dirNewer, user, excludeuser, start and end parameters may only be used on a single page.');
    }
    const slots = p.slots as string[] | undefined;
    // Non-enumeration mode walks the pages as 1.25's query does (ORDER BY rev_page, rev_id) and resumes
    // at "pageid|revid", the continuation set when a revision did not fit in $wgAPIMaxResultSize.
    let from: [number, number] | null = null;
    if (!enumMode && p.continue !== undefined) {
      const cont = (p.continue as string).split('|');
      if (cont.length !== 2) dieBadContinue(ctx);
      from = [intvalOf(cont[0]), intvalOf(cont[1])];
    }
    // pages before the continuation point get nothing: their texts are not read
    const ids = pages.filter((pg) => from === null || pg.pageid >= from[0]).map((pg) => pg.pageid);
    // the revisions of every page, and the texts of the latest ones when asked for: two store calls
    const [revisions, texts] = await Promise.all([
      ctx.store.pages.revisions(ids),
      props.has('content') ? ctx.store.pages.latestTexts(ids) : Promise.resolve(new Map<number, string>()),
    ]);
    const item = (rev: RevisionRow, page: PageRow): Record<string, unknown> => {
      const v: Record<string, unknown> = {};
      if (props.has('ids')) {
        v.revid = rev.revid;
        v.parentid = rev.parentid;
      }
      if (props.has('flags') && rev.minor) v.minor = true;
      if (props.has('user')) {
        v.user = rev.user;
        if (rev.userid === 0) v.anon = true;
      }
      if (props.has('userid')) v.userid = rev.userid;
      if (props.has('timestamp')) v.timestamp = mwToIso(rev.timestamp);
      if (props.has('size')) v.size = rev.size;
      if (props.has('sha1')) v.sha1 = rev.sha1 ? sha1Base36ToHex(rev.sha1) : '';
      if (props.has('contentmodel')) v.contentmodel = 'wikitext';
      if (props.has('comment')) v.comment = rev.comment;
      if (props.has('parsedcomment')) v.parsedcomment = rev.comment.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
      if (props.has('tags')) v.tags = [];
      if (props.has('content')) {
        // only the latest revision's text is kept
        const text = rev.revid === page.latestRevId ? texts.get(rev.pageid) : undefined;
        if (text === undefined) v.texthidden = true;
        else {
          const content = sectionOf(text, p.section);
          if (content === null) ctx.die('nosuchsection', `There is no section ${p.section} in r${rev.revid}`);
          if (slots) v.slots = { main: withContent({ contentmodel: 'wikitext', contentformat: 'text/x-wiki' }, 'content', content!) };
          else withContent(Object.assign(v, { contentformat: 'text/x-wiki', contentmodel: 'wikitext' }), 'content', content!);
        }
      }
      return v;
    };
    const ordered = enumMode ? pages : [...pages].sort((a, b) => a.pageid - b.pageid);
    for (const page of ordered) {
      const revs = revisions.get(page.pageid);
      if (!revs) continue;
      let list: RevisionRow[] = [revs.latest];
      if (enumMode) {
        list = revs.first.revid === revs.latest.revid ? [revs.latest] : [revs.latest, revs.first];
        if (p.dir === 'newer') list.reverse();
        const newer = p.dir === 'newer';
        let startId = p.startid as number | undefined;
        if (p.continue !== undefined) {
          if (!/^\d+$/.test(p.continue)) dieBadContinue(ctx);
          startId = Number(p.continue);
        }
        list = list.filter((r) => {
          if (startId !== undefined && (newer ? r.revid < startId : r.revid > startId)) return false;
          if (p.endid !== undefined && (newer ? r.revid > p.endid : r.revid < p.endid)) return false;
          if (p.start !== undefined && (newer ? r.timestamp < p.start : r.timestamp > p.start)) return false;
          if (p.end !== undefined && (newer ? r.timestamp > p.end : r.timestamp < p.end)) return false;
          if (p.user !== undefined && r.user !== p.user) return false;
          if (p.excludeuser !== undefined && r.user === p.excludeuser) return false;
          return p.tag === undefined;
        });
        const limit = p.limit === undefined ? 10 : (p.limit as number);
        if (list.length > limit) {
          ctx.setContinue('continue', list[limit].revid);
          list = list.slice(0, limit);
        }
      } else if (p.tag !== undefined) list = [];
      else if (from !== null && (page.pageid < from[0] || (page.pageid === from[0] && revs.latest.revid < from[1]))) list = [];
      const items: Array<Record<string, unknown>> = [];
      let truncated = false;
      for (const rev of list) {
        const v = item(rev, page);
        // ApiQueryBase::addPageSubItem → ApiResult::addValue: a revision past $wgAPIMaxResultSize is not
        // added; the module continues from it (enumeration: its id; otherwise page id|revision id)
        if (!ctx.result.fits(v)) {
          ctx.setContinue('continue', enumMode ? rev.revid : `${page.pageid}|${rev.revid}`);
          truncated = true;
          break;
        }
        items.push(v);
      }
      if (items.length) ctx.pageSet.entry(page.pageid)!.revisions = items;
      if (truncated) break;
    }
  },
};

/** PHP intval of a continuation part */
function intvalOf(s: string): number {
  const m = /^\s*([+-]?\d+)/.exec(s);
  return m ? Number(m[1]) : 0;
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
