/**
 * list=usercontribs (ApiQueryContributions of 1.25): the revisions of one or more users, or of every
 * user whose name starts with a prefix, newest first by default. With several users or a prefix the
 * order is (user, timestamp, revision id) and continuation names the user too.
 * The store reads each user and namespace along its own index range, at most limit + 1 rows each.
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { RowShape } from '../../api/result.js';
import { queryModule } from '../../api/types.js';
import type { ContributionOptions } from '../../store/history-store.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { canonicalUserName, isIp } from '../../wiki/user-groups.js';
import { formatComment, parsedCommentLinks } from './comments.js';
import { dieBadContinue } from './shared.js';

/** An item's members in the order 1.25 adds them (ApiQueryContributions::extractRowInfo) */
const ITEM_MEMBERS = [
  'texthidden',
  'userid',
  'user',
  'userhidden',
  'pageid',
  'revid',
  'parentid',
  'ns',
  'title',
  'timestamp',
  'new',
  'minor',
  'top',
  'comment',
  'parsedcomment',
  'size',
  'sizediff',
  'tags',
];
/** titles as text */
const ITEM = new RowShape(ITEM_MEMBERS);
/** titles as prefixed DB keys, printed as text */
const ITEM_KEYS = new RowShape(ITEM_MEMBERS, undefined, ['title']);
/** the dump carries no change tags: every item's list is this one, never written to */
const NO_TAGS: readonly string[] = Object.freeze([]);

const PROPS = ['ids', 'title', 'timestamp', 'comment', 'parsedcomment', 'size', 'sizediff', 'flags', 'patrolled', 'tags'];
const SHOW = ['minor', '!minor', 'patrolled', '!patrolled', 'top', '!top', 'new', '!new'];

export const usercontribsModule = queryModule({
  kind: 'list',
  name: 'usercontribs',
  prefix: 'uc',
  description: 'Get all edits by a user.',
  params: {
    limit: limitParam(10, 'The maximum number of contributions to return.'),
    start: { type: 'timestamp', help: 'The start timestamp to return from.' },
    end: { type: 'timestamp', help: 'The end timestamp to return to.' },
    continue: continueParam(),
    // 1.25 declares ucuser untyped and canonicalises each name itself (addresses stay as given)
    user: { type: 'string', multi: true, help: 'The users to retrieve contributions for.' },
    userprefix: { type: 'string', help: 'Retrieve contributions for all users whose names begin with this value. Overrides ucuser.' },
    dir: dirParam('In which direction to enumerate.', ['newer', 'older'], 'older'),
    namespace: namespaceParam('Only list contributions in these namespaces.', { multi: true }),
    prop: {
      type: PROPS,
      multi: true,
      default: 'ids|title|timestamp|comment|size|flags',
      help: 'Include additional pieces of information.',
    },
    show: { type: SHOW, multi: true, help: 'Show only items that meet these criteria.' },
    tag: { type: 'string', help: 'Only list revisions tagged with this tag.' },
    toponly: { type: 'boolean', default: false, deprecated: true, help: 'Only list changes which are the latest revision.' },
  },
  examples: ['action=query&list=usercontribs&ucuser=Олена Коваль', 'action=query&list=usercontribs&ucuserprefix=192.0.2.'],
  async run(ctx) {
    const p = ctx.params;
    const props = new Set(p.prop as string[]);
    const users: string[] = [];
    let prefix: string | undefined;
    // 1.25 matches the prefix exactly as given (rev_user_text LIKE 'prefix%')
    if (p.userprefix !== undefined) prefix = p.userprefix as string;
    else {
      const given = (p.user as string[] | undefined) ?? [];
      if (given.length === 0) ctx.die('param_user', 'User parameter may not be empty.');
      for (const u of given) {
        if (u === '') ctx.die('param_user', 'User parameter may not be empty');
        const name = isIp(u) ? u : canonicalUserName(ctx.wiki.codec, u);
        if (name === null) ctx.die('param_user', `User name ${u} is not valid`);
        if (!users.includes(name!)) users.push(name!);
      }
    }
    const multi = prefix !== undefined || users.length > 1;
    const show = new Set((p.show as string[] | undefined) ?? []);
    for (const f of ['minor', 'patrolled', 'top', 'new']) {
      if (show.has(f) && show.has('!' + f)) ctx.die('show', 'Incorrect parameter - mutually exclusive values may not be supplied');
    }
    if (show.has('patrolled') || show.has('!patrolled') || props.has('patrolled')) {
      ctx.die('permissiondenied', 'You need the patrol right to request the patrolled flag');
    }
    const descending = p.dir === 'older';
    let from: ContributionOptions['from'];
    if (p.continue !== undefined) {
      const cont = (p.continue as string).split('|');
      if (cont.length !== (multi ? 3 : 2)) dieBadContinue(ctx);
      const user = multi ? cont.shift()! : undefined;
      if (!/^\d+$/.test(cont[1]) || !/^\d{14}$/.test(cont[0])) dieBadContinue(ctx);
      from = { user, timestamp: cont[0], revid: Number(cont[1]) };
    }
    const limit = p.limit as number;
    const base = {
      descending,
      start: p.start as string | undefined,
      end: p.end as string | undefined,
      minor: show.has('minor') ? true : show.has('!minor') ? false : undefined,
      top: show.has('top') || p.toponly ? true : show.has('!top') ? false : undefined,
      isNew: show.has('new') ? true : show.has('!new') ? false : undefined,
    };
    // the dump carries no change tags
    const rows =
      p.tag !== undefined
        ? []
        : await ctx.store.history.contributions(
            Object.assign(base, {
              users: prefix === undefined ? users : undefined,
              prefix,
              namespaces: p.namespace as number[] | undefined,
              from,
              parentSizes: props.has('sizediff'),
              limit: limit + 1,
            }),
          );
    const pendingLinks = parsedCommentLinks(ctx, props, rows, limit);
    const links = pendingLinks && (await pendingLinks);
    const count = Math.min(rows.length, limit);
    if (rows.length > limit) {
      const r = rows[limit]!;
      ctx.setContinue('continue', multi ? `${r.user}|${r.timestamp}|${r.revid}` : `${r.timestamp}|${r.revid}`);
    }
    const wiki = ctx.wiki;
    const ids = props.has('ids');
    const titles = props.has('title');
    const timestamp = props.has('timestamp');
    const flags = props.has('flags');
    const comment = props.has('comment');
    const parsed = props.has('parsedcomment');
    const size = props.has('size');
    const sizediff = props.has('sizediff');
    const tags = props.has('tags');
    let keys = true;
    if (titles) for (let i = 0; i < count; i++) if (wiki.keyPrefix(rows[i]!.ns) === undefined) keys = false;
    const values = ctx.result.queryRows('usercontribs', keys ? ITEM_KEYS : ITEM).values;
    for (let i = 0; i < count; i++) {
      const r = rows[i]!;
      // 1.25 copies rev_user from the database row unconverted: a string
      values.push(r.textHidden ? true : undefined, String(r.userid), r.user, r.userHidden ? true : undefined);
      if (ids) values.push(r.pageid, r.revid, r.parentid);
      else values.push(undefined, undefined, undefined);
      if (titles) {
        const prefix = keys ? wiki.keyPrefix(r.ns)! : '';
        values.push(r.ns, !keys ? wiki.titleText(r.ns, r.title) : prefix === '' ? r.title : prefix + r.title);
      } else values.push(undefined, undefined);
      values.push(timestamp ? mwToIso(r.timestamp) : undefined);
      if (flags) values.push(r.parentid === 0, r.minor, r.top);
      else values.push(undefined, undefined, undefined);
      if (r.commentHidden) values.push(undefined, undefined);
      else values.push(comment ? r.comment : undefined, parsed ? formatComment(ctx, r.comment, links!) : undefined);
      values.push(size ? (r.size ?? undefined) : undefined);
      // Revision::getParentLengths: a parent that is not there counts as 0 bytes
      values.push(sizediff && r.size !== null ? r.size - (r.parentSize ?? 0) : undefined);
      values.push(tags ? NO_TAGS : undefined);
    }
  },
});
