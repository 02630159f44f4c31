/**
 * list=logevents (ApiQueryLogEvents of 1.25): the log entries of the dump's <logitem>s, newest first by
 * default, with type/action, user, title and prefix filters and "timestamp|logid" continuation.
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { RowShape } from '../../api/result.js';
import { queryModule } from '../../api/types.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { formatLogParams } from '../../wiki/log-params.js';
import { formatComment, parsedCommentLinks } from './comments.js';
import { logTitleInfo, timestampIdContinue } from './history-shared.js';

/** $wgLogTypes of 1.25. */
export const LOG_TYPES = [
  '',
  'block',
  'protect',
  'rights',
  'delete',
  'upload',
  'move',
  'import',
  'patrol',
  'merge',
  'suppress',
  'tag',
  'managetags',
  'newusers',
];

/** array_keys($wgLogActions + $wgLogActionsHandlers) of 1.25. */
export const LOG_ACTIONS = [
  'block/block',
  'block/unblock',
  'block/reblock',
  'protect/protect',
  'protect/modify',
  'protect/unprotect',
  'protect/move_prot',
  'upload/upload',
  'upload/overwrite',
  'upload/revert',
  'import/upload',
  'import/interwiki',
  'merge/merge',
  'suppress/block',
  'suppress/reblock',
  'delete/delete',
  'delete/restore',
  'delete/event',
  'delete/revision',
  'move/move',
  'move/move_redir',
  'newusers/newusers',
  'newusers/create',
  'newusers/create2',
  'newusers/byemail',
  'newusers/autocreate',
  'patrol/patrol',
  'rights/rights',
  'rights/autopromote',
  'suppress/event',
  'suppress/delete',
  'suppress/revision',
  'tag/update',
  'managetags/create',
  'managetags/delete',
  'managetags/activate',
  'managetags/deactivate',
];

/** An item's members in the order 1.25 adds them (ApiQueryLogEvents::extractRowInfo) */
const ITEM_MEMBERS = [
  'logid',
  'actionhidden',
  'ns',
  'title',
  'pageid',
  'logpage',
  'params',
  'type',
  'action',
  'userhidden',
  'user',
  'userid',
  'anon',
  'timestamp',
  'commenthidden',
  'comment',
  'parsedcomment',
  'tags',
];
/** titles as text */
const ITEM = new RowShape(ITEM_MEMBERS);
/** titles as prefixed DB keys, printed as text */
const ITEM_KEYS = new RowShape(ITEM_MEMBERS, undefined, ['title']);
/** the dump carries no change tags: every item's list is this one, never written to */
const NO_TAGS: readonly string[] = Object.freeze([]);

const PROPS = ['ids', 'title', 'type', 'user', 'userid', 'timestamp', 'comment', 'parsedcomment', 'details', 'tags'];

export const logeventsModule = queryModule({
  kind: 'list',
  name: 'logevents',
  prefix: 'le',
  description: 'Get events from logs.',
  params: {
    prop: { type: PROPS, multi: true, default: 'ids|title|type|user|timestamp|comment|details', help: 'Which properties to get.' },
    type: { type: LOG_TYPES, help: 'Filter log entries to only this type.' },
    action: { type: LOG_ACTIONS, help: 'Filter log actions to only this action. Overrides letype.' },
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from.' },
    end: { type: 'timestamp', help: 'The timestamp to end enumerating.' },
    dir: dirParam('In which direction to enumerate.', ['newer', 'older'], 'older'),
    user: { type: 'user', help: 'Filter entries to those made by the given user.' },
    title: { type: 'string', help: 'Filter entries to those related to a page.' },
    namespace: namespaceParam('Filter entries to those in the given namespace.'),
    prefix: { type: 'string', help: 'Filter entries that start with this prefix.' },
    tag: { type: 'string', help: 'Only list event entries tagged with this tag.' },
    limit: limitParam(10, 'How many total event entries to return.'),
    continue: continueParam(),
  },
  examples: ['action=query&list=logevents'],
  async run(ctx) {
    const p = ctx.params;
    // ApiQueryLogEvents.php:46 of 1.25: requireMaxOneParameter( $params, 'title', 'prefix', 'namespace' )
    const given = ['title', 'prefix', 'namespace'].filter((n) => p[n] !== undefined);
    if (given.length > 1) {
      ctx.die('invalidparammix', `The parameters ${given.map((n) => ctx.encodeParamName(n)).join(', ')} can not be used together`);
    }
    const props = new Set(p.prop as string[]);
    let type: string | undefined;
    let action: string | undefined;
    if (p.action !== undefined) [type, action] = (p.action as string).split('/');
    else if (p.type !== undefined) type = p.type as string;
    const titleOf = (v: string | undefined, param: string) => {
      if (v === undefined) return undefined;
      const t = ctx.wiki.codec.parse(v, 0);
      if (t === null) ctx.die(`param_${param}`, `Bad title value '${v}'`);
      return { ns: t!.ns, dbkey: t!.dbkey };
    };
    const title = titleOf(p.title, 'title');
    const prefix = titleOf(p.prefix, 'prefix');
    const cont = timestampIdContinue(ctx);
    const from = cont && { timestamp: cont[0], logid: Number(cont[1]) };
    const limit = p.limit as number;
    // the dump carries no change tags
    const rows =
      p.tag !== undefined
        ? []
        : await ctx.store.history.logEvents({
            type,
            action,
            user: p.user,
            title,
            prefix,
            namespace: p.namespace as number | undefined,
            descending: p.dir === 'older',
            start: p.start,
            end: p.end,
            from,
            limit: limit + 1,
          });
    const pendingLinks = parsedCommentLinks(ctx, props, rows, limit);
    const links = pendingLinks && (await pendingLinks);
    const count = Math.min(rows.length, limit);
    if (rows.length > limit) ctx.setContinue('continue', `${rows[limit]!.timestamp}|${rows[limit]!.logid}`);
    const wiki = ctx.wiki;
    const ids = props.has('ids');
    const titles = props.has('title');
    const details = props.has('details');
    const types = props.has('type');
    const user = props.has('user');
    const userid = props.has('userid');
    const timestamp = props.has('timestamp');
    const comment = props.has('comment');
    const parsed = props.has('parsedcomment');
    const tags = props.has('tags');
    let keys = true;
    if (titles) for (let i = 0; i < count; i++) if (wiki.keyPrefix(rows[i]!.ns) === undefined) keys = false;
    const values = ctx.result.queryRows('logevents', keys ? ITEM_KEYS : ITEM).values;
    const titleInfo = details ? logTitleInfo(ctx) : null;
    for (let i = 0; i < count; i++) {
      const r = rows[i]!;
      values.push(ids ? r.logid : undefined);
      // actionhidden, ns, title, pageid, logpage, params
      if (!titles && !ids && !(details && r.params !== '')) values.push(undefined, undefined, undefined, undefined, undefined, undefined);
      // LogPage::DELETED_ACTION hides the title and the details from readers
      else if ((r.deleted & 1) !== 0) values.push(true, undefined, undefined, undefined, undefined, undefined);
      else {
        values.push(undefined);
        if (titles) {
          const prefix = keys ? wiki.keyPrefix(r.ns)! : '';
          values.push(r.ns, !keys ? wiki.titleText(r.ns, r.title) : prefix === '' ? r.title : prefix + r.title);
        } else values.push(undefined, undefined);
        if (ids) values.push(r.pageid, r.logpage);
        else values.push(undefined, undefined);
        values.push(details ? formatLogParams(r.params, r.type, r.timestamp, titleInfo!) : undefined);
      }
      if (types) values.push(r.type, r.action);
      else values.push(undefined, undefined);
      // userhidden, user, userid, anon
      if (!user && !userid) values.push(undefined, undefined, undefined, undefined);
      else if ((r.deleted & 4) !== 0) values.push(true, undefined, undefined, undefined);
      else values.push(undefined, user ? r.user : undefined, userid ? r.userid : undefined, r.userid === 0 ? true : undefined);
      values.push(timestamp ? mwToIso(r.timestamp) : undefined);
      // commenthidden, comment, parsedcomment
      if (!comment && !parsed) values.push(undefined, undefined, undefined);
      else if ((r.deleted & 2) !== 0) values.push(true, undefined, undefined);
      else values.push(undefined, comment ? r.comment : undefined, parsed ? formatComment(ctx, r.comment, links!) : undefined);
      values.push(tags ? NO_TAGS : undefined);
    }
  },
});
