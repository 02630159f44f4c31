/**
 * list=logevents (ApiQueryLogEvents of 1.25): the log entries of the dump's <logitem>s, newest first by
 * default, with type/action, user, title and prefix filters and "timestamp|logid" continuation.
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { formatLogParams } from '../../wiki/log-params.js';
import { addCommentFields, parsedCommentLinks } from './comments.js';
import { addUserFields, logTitleInfo, timestampIdContinue } from './history-shared.js';
import { addTitleFields } from './shared.js';

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
    const out = ctx.result.queryList('logevents');
    const titleInfo = logTitleInfo(ctx);
    rows.forEach((r, i) => {
      if (i === limit) {
        ctx.setContinue('continue', `${r.timestamp}|${r.logid}`);
        return;
      }
      if (i > limit) return;
      const v: Record<string, unknown> = {};
      if (props.has('ids')) v.logid = r.logid;
      if (props.has('title') || props.has('ids') || (props.has('details') && r.params !== '')) {
        // LogPage::DELETED_ACTION hides the title and the details from readers
        if (r.deleted & 1) v.actionhidden = true;
        else {
          addTitleFields(ctx, v, props, r.ns, r.title);
          if (props.has('ids')) {
            v.pageid = r.pageid;
            v.logpage = r.logpage;
          }
          if (props.has('details')) v.params = formatLogParams(r.params, r.type, r.timestamp, titleInfo);
        }
      }
      if (props.has('type')) {
        v.type = r.type;
        v.action = r.action;
      }
      addUserFields(v, props, (r.deleted & 4) !== 0, r.user, r.userid);
      if (props.has('timestamp')) v.timestamp = mwToIso(r.timestamp);
      addCommentFields(ctx, v, props, (r.deleted & 2) !== 0, r.comment, links);
      if (props.has('tags')) v.tags = [];
      out.push(v);
    });
  },
});
