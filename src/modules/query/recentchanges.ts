/**
 * list=recentchanges (ApiQueryRecentChanges of 1.25) over the import's recentchanges table: the dump's
 * revisions and log entries of the $wgRCMaxAge (90 days) before the newest edit of the dump, as
 * rebuildrecentchanges.php would fill it. Also a generator (of the changed pages).
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { RowShape } from '../../api/result.js';
import { queryModule } from '../../api/types.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { sha1Base36ToHex } from '../../wiki/files.js';
import { formatLogParams } from '../../wiki/log-params.js';
import { formatComment, parsedCommentLinks } from './comments.js';
import { logTitleInfo, timestampIdContinue } from './history-shared.js';

const PROPS = [
  'user',
  'userid',
  'comment',
  'parsedcomment',
  'flags',
  'timestamp',
  'title',
  'ids',
  'sizes',
  'redirect',
  'patrolled',
  'loginfo',
  'tags',
  'sha1',
];
const SHOW = ['minor', '!minor', 'bot', '!bot', 'anon', '!anon', 'redirect', '!redirect', 'patrolled', '!patrolled', 'unpatrolled'];
/** RecentChange::getChangeTypes and the rc_type numbers */
const TYPES: Record<string, number> = { edit: 0, new: 1, log: 3, external: 5 };
const TYPE_NAMES: Array<string | undefined> = [];
for (const [name, type] of Object.entries(TYPES)) TYPE_NAMES[type] = name;

/**
 * An item's members in the order 1.25 adds them (ApiQueryRecentChanges::extractRowInfo): actionhidden
 * stands in the title's place, or among the log members when only those are asked for
 */
const ITEM_MEMBERS = [
  'type',
  'actionhidden',
  'ns',
  'title',
  'pageid',
  'revid',
  'old_revid',
  'rcid',
  'userhidden',
  'user',
  'userid',
  'anon',
  'bot',
  'new',
  'minor',
  'oldlen',
  'newlen',
  'timestamp',
  'commenthidden',
  'comment',
  'parsedcomment',
  'redirect',
  'actionhidden',
  'logid',
  'logtype',
  'logaction',
  'logparams',
  'tags',
  'sha1hidden',
  'sha1',
  'patroltoken',
];
/** titles as text */
const ITEM = new RowShape(ITEM_MEMBERS);
/** titles as prefixed DB keys, printed as text */
const ITEM_KEYS = new RowShape(ITEM_MEMBERS, undefined, ['title']);
/** the dump carries no change tags: every item's list is this one, never written to */
const NO_TAGS: readonly string[] = Object.freeze([]);

export const recentchangesModule = queryModule({
  cacheMode: (params) => (params.token !== undefined ? 'private' : 'public'),
  kind: 'list',
  name: 'recentchanges',
  prefix: 'rc',
  generator: true,
  description: 'Enumerate recent changes.',
  params: {
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from.' },
    end: { type: 'timestamp', help: 'The timestamp to end enumerating.' },
    dir: dirParam('In which direction to enumerate.', ['newer', 'older'], 'older'),
    namespace: namespaceParam('Filter log entries to only this namespace(s).', { multi: true }),
    user: { type: 'user', help: 'Only list changes by this user.' },
    excludeuser: { type: 'user', help: "Don't list changes by this user." },
    tag: { type: 'string', help: 'Only list changes tagged with this tag.' },
    prop: { type: PROPS, multi: true, default: 'title|timestamp|ids', help: 'Include additional pieces of information.' },
    token: { type: ['patrol'], multi: true, deprecated: true, help: 'Use action=query&meta=tokens instead.' },
    show: { type: SHOW, multi: true, help: 'Show only items that meet this criteria.' },
    limit: limitParam(10, 'How many total changes to return.'),
    // 1.25's default leaves out external changes (there are none in a dump)
    type: { type: Object.keys(TYPES), multi: true, default: 'edit|new|log', help: 'Which types of changes to show.' },
    toponly: { type: 'boolean', default: false, help: 'Only list changes which are the latest revision.' },
    continue: continueParam(),
  },
  examples: [
    'action=query&list=recentchanges&rcprop=title|ids|sizes|flags|user',
    'action=query&generator=recentchanges&rcshow=!patrolled&prop=info',
  ],
  async run(ctx) {
    const p = ctx.params;
    const props = new Set(p.prop as string[]);
    const show = new Set((p.show as string[] | undefined) ?? []);
    const conflict =
      ['minor', 'bot', 'anon', 'redirect', 'patrolled'].some((f) => show.has(f) && show.has('!' + f)) ||
      (show.has('unpatrolled') && (show.has('patrolled') || show.has('!patrolled')));
    if (conflict) ctx.die('show', 'Incorrect parameter - mutually exclusive values may not be supplied');
    // readers here have no patrol right
    if (show.has('patrolled') || show.has('!patrolled') || show.has('unpatrolled') || props.has('patrolled')) {
      ctx.die('permissiondenied', 'You need the patrol right to request the patrolled flag');
    }
    if (p.user !== undefined && p.excludeuser !== undefined) ctx.die('user-excludeuser', 'user and excludeuser cannot be used together');
    const cont = timestampIdContinue(ctx);
    const from = cont && { timestamp: cont[0], rcid: Number(cont[1]) };
    const limit = p.limit as number;
    const listing = ctx.generator === null;
    const flag = (name: string) => (show.has(name) ? true : show.has('!' + name) ? false : undefined);
    // the dump carries no change tags
    const rows =
      p.tag !== undefined
        ? []
        : await ctx.store.history.recentChanges({
            descending: p.dir === 'older',
            start: p.start,
            end: p.end,
            from,
            namespaces: p.namespace,
            user: p.user,
            excludeUser: p.excludeuser,
            types: (p.type as string[]).map((t) => TYPES[t]),
            minor: flag('minor'),
            bot: flag('bot'),
            anon: flag('anon'),
            redirect: flag('redirect'),
            topOnly: p.toponly,
            // a generator reads the titles alone
            read: {
              user: listing && (props.has('user') || props.has('userid')),
              comment: listing && (props.has('comment') || props.has('parsedcomment')),
              log: listing && props.has('loginfo'),
              redirect: listing && props.has('redirect'),
              sha1: listing && props.has('sha1'),
            },
            limit: limit + 1,
          });
    const pendingLinks = ctx.generator ? null : parsedCommentLinks(ctx, props, rows, limit);
    const links = pendingLinks && (await pendingLinks);
    const count = Math.min(rows.length, limit);
    if (rows.length > limit) ctx.setContinue('continue', `${rows[limit]!.timestamp}|${rows[limit]!.rcid}`);
    if (ctx.generator) {
      for (let i = 0; i < count; i++) ctx.generator.add({ ns: rows[i]!.ns, dbkey: rows[i]!.title });
      return;
    }
    const wiki = ctx.wiki;
    const title = props.has('title');
    const ids = props.has('ids');
    const user = props.has('user');
    const userid = props.has('userid');
    const flags = props.has('flags');
    const sizes = props.has('sizes');
    const timestamp = props.has('timestamp');
    const comment = props.has('comment');
    const parsed = props.has('parsedcomment');
    const redirect = props.has('redirect');
    const loginfo = props.has('loginfo');
    const tags = props.has('tags');
    const sha1 = props.has('sha1');
    const tokens = (p.token as string[] | undefined) ?? [];
    // the deprecated rctoken: an anonymous reader may not patrol (ApiQueryRecentChanges::getPatrolToken)
    const token = tokens.length > 0 && ctx.lacksSameOriginSecurity ? null : undefined;
    let keys = true;
    if (title) for (let i = 0; i < count; i++) if (wiki.keyPrefix(rows[i]!.ns) === undefined) keys = false;
    const values = ctx.result.queryRows('recentchanges', keys ? ITEM_KEYS : ITEM).values;
    const titleInfo = loginfo ? logTitleInfo(ctx) : null;
    for (let i = 0; i < count; i++) {
      const r = rows[i]!;
      const isLog = r.type === 3;
      const actionHidden = isLog && (r.deleted & 1) !== 0;
      values.push(TYPE_NAMES[r.type] ?? 'edit');
      // the title's and the ids' members, or actionhidden in their place
      if ((title || ids) && actionHidden) values.push(true, undefined, undefined, undefined, undefined, undefined);
      else {
        values.push(undefined);
        if (title) {
          const prefix = keys ? wiki.keyPrefix(r.ns)! : '';
          values.push(r.ns, !keys ? wiki.titleText(r.ns, r.title) : prefix === '' ? r.title : prefix + r.title);
        } else values.push(undefined, undefined);
        if (ids) values.push(r.pageid, r.revid, r.oldRevid);
        else values.push(undefined, undefined, undefined);
      }
      values.push(ids ? r.rcid : undefined);
      // userhidden, user, userid, anon
      if (!user && !userid) values.push(undefined, undefined, undefined, undefined);
      else if ((r.deleted & 4) !== 0) values.push(true, undefined, undefined, undefined);
      else values.push(undefined, user ? r.user : undefined, userid ? r.userid : undefined, r.userid === 0 ? true : undefined);
      if (flags) values.push(r.bot, r.type === 1, r.minor);
      else values.push(undefined, undefined, undefined);
      if (sizes) values.push(r.oldLen ?? 0, r.newLen ?? 0);
      else values.push(undefined, undefined);
      values.push(timestamp ? mwToIso(r.timestamp) : undefined);
      // commenthidden, comment, parsedcomment
      if (!comment && !parsed) values.push(undefined, undefined, undefined);
      else if ((r.deleted & 2) !== 0) values.push(true, undefined, undefined);
      else values.push(undefined, comment ? r.comment : undefined, parsed ? formatComment(ctx, r.comment, links!) : undefined);
      values.push(redirect ? r.isRedirect : undefined);
      // the log entry's members; actionhidden here only when it is not already among the title's
      if (!loginfo || !isLog) values.push(undefined, undefined, undefined, undefined, undefined);
      else if (actionHidden) values.push(title || ids ? undefined : true, undefined, undefined, undefined, undefined);
      else
        values.push(undefined, r.logid, r.logType, r.logAction, formatLogParams(r.params ?? '', r.logType ?? '', r.timestamp, titleInfo!));
      values.push(tags ? NO_TAGS : undefined);
      if (!sha1 || r.sha1 === null) values.push(undefined, undefined);
      else if ((r.deleted & 1) !== 0) values.push(true, undefined);
      else values.push(undefined, r.sha1 ? sha1Base36ToHex(r.sha1) : '');
      values.push(token);
      if (token === undefined) for (const t of tokens) ctx.warn(`Action '${t}' is not allowed for the current user`);
    }
  },
});
