/**
 * list=recentchanges (ApiQueryRecentChanges of 1.25) over the import's recentchanges table: the dump's
 * revisions and log entries of the $wgRCMaxAge (90 days) before the newest edit of the dump, as
 * rebuildrecentchanges.php would fill it. Also a generator (of the changed pages).
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { sha1Base36ToHex } from '../../wiki/files.js';
import { formatLogParams } from '../../wiki/log-params.js';
import { addCommentFields, parsedCommentLinks } from './comments.js';
import { addUserFields, logTitleInfo, timestampIdContinue } from './history-shared.js';
import { addTitleFields } from './shared.js';

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
const TYPE_NAMES = new Map(Object.entries(TYPES).map(([k, v]) => [v, k]));

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
            limit: limit + 1,
          });
    const pendingLinks = ctx.generator ? null : parsedCommentLinks(ctx, props, rows, limit);
    const links = pendingLinks && (await pendingLinks);
    const out = ctx.generator ? null : ctx.result.queryList('recentchanges');
    const titleInfo = logTitleInfo(ctx);
    rows.forEach((r, i) => {
      if (i > limit) return;
      if (i === limit) {
        ctx.setContinue('continue', `${r.timestamp}|${r.rcid}`);
        return;
      }
      if (ctx.generator) {
        ctx.generator.add({ ns: r.ns, dbkey: r.title });
        return;
      }
      const isLog = r.type === 3;
      const v: Record<string, unknown> = { type: TYPE_NAMES.get(r.type) ?? 'edit' };
      if (props.has('title') || props.has('ids')) {
        if (isLog && r.deleted & 1) v.actionhidden = true;
        else {
          addTitleFields(ctx, v, props, r.ns, r.title);
          if (props.has('ids')) {
            v.pageid = r.pageid;
            v.revid = r.revid;
            v.old_revid = r.oldRevid;
          }
        }
      }
      if (props.has('ids')) v.rcid = r.rcid;
      addUserFields(v, props, (r.deleted & 4) !== 0, r.user, r.userid);
      if (props.has('flags')) {
        v.bot = r.bot;
        v.new = r.type === 1;
        v.minor = r.minor;
      }
      if (props.has('sizes')) {
        v.oldlen = r.oldLen ?? 0;
        v.newlen = r.newLen ?? 0;
      }
      if (props.has('timestamp')) v.timestamp = mwToIso(r.timestamp);
      addCommentFields(ctx, v, props, (r.deleted & 2) !== 0, r.comment, links);
      if (props.has('redirect')) v.redirect = r.isRedirect;
      if (props.has('loginfo') && isLog) {
        if (r.deleted & 1) v.actionhidden = true;
        else {
          v.logid = r.logid;
          v.logtype = r.logType;
          v.logaction = r.logAction;
          v.logparams = formatLogParams(r.params ?? '', r.logType ?? '', r.timestamp, titleInfo);
        }
      }
      if (props.has('tags')) v.tags = [];
      if (props.has('sha1') && r.sha1 !== null) {
        if (r.deleted & 1) v.sha1hidden = true;
        else v.sha1 = r.sha1 ? sha1Base36ToHex(r.sha1) : '';
      }
      // the deprecated rctoken: an anonymous reader may not patrol (ApiQueryRecentChanges::getPatrolToken)
      for (const t of (p.token as string[] | undefined) ?? []) {
        if (ctx.lacksSameOriginSecurity) v[t + 'token'] = null;
        else ctx.warn(`Action '${t}' is not allowed for the current user`);
      }
      out!.push(v);
    });
  },
});
