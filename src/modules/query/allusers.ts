/**
 * list=allusers (ApiQueryAllUsers of 1.25): the registered users (the dump's contributors) in name
 * order. Only implicit groups exist, so a group filter leaves nobody and an exclusion keeps everybody.
 */
import { dirParam, limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { ALL_RIGHTS, EXPLICIT_GROUPS, IMPLICIT_GROUPS, groupRights } from '../../wiki/user-groups.js';

/** User::getCanonicalName without validation, as ApiQueryAllUsers::getCanonicalUserName: spaces, first letter up. */
function canonical(s: string): string {
  const t = s.replace(/_/g, ' ');
  return t.charAt(0).toLocaleUpperCase('uk') + t.slice(1);
}

export const allusersModule = queryModule({
  kind: 'list',
  name: 'allusers',
  prefix: 'au',
  description: 'Enumerate all registered users.',
  params: {
    from: { type: 'string', help: 'The user name to start enumerating from.' },
    to: { type: 'string', help: 'The user name to stop enumerating at.' },
    prefix: { type: 'string', help: 'Search for all users that begin with this value.' },
    dir: dirParam('Direction to sort in.'),
    group: { type: EXPLICIT_GROUPS, multi: true, help: 'Only include users in the given groups.' },
    excludegroup: { type: EXPLICIT_GROUPS, multi: true, help: 'Exclude users in the given groups.' },
    rights: { type: ALL_RIGHTS, multi: true, help: 'Only include users with the given rights.' },
    prop: {
      type: ['blockinfo', 'groups', 'implicitgroups', 'rights', 'editcount', 'registration'],
      multi: true,
      help: 'Which pieces of information to include.',
    },
    limit: limitParam(10, 'How many total user names to return.'),
    witheditsonly: { type: 'boolean', default: false, help: 'Only list users who have made edits.' },
    activeusers: { type: 'boolean', default: false, help: 'Only list users active in the last 30 days.' },
  },
  examples: ['action=query&list=allusers&aufrom=Т'],
  async run(ctx) {
    const p = ctx.params;
    const props = new Set((p.prop as string[] | undefined) ?? []);
    if (p.group !== undefined && p.excludegroup !== undefined)
      ctx.die('group-excludegroup', 'group and excludegroup cannot be used together');
    const out = ctx.result.queryList('allusers');
    // 1.25 turns rights into the groups that have them and joins user_groups, where implicit groups never
    // are: with nobody in an explicit group, both filters leave nobody
    if ((p.group as string[] | undefined)?.length || (p.rights as string[] | undefined)?.length) return;
    // activeusers counts actions of the last 30 days before the current time: a dump's users have none
    if (p.activeusers) return;
    const limit = p.limit as number;
    const rows = await ctx.store.history.userRange({
      from: p.from === undefined ? undefined : canonical(p.from),
      to: p.to === undefined ? undefined : canonical(p.to),
      prefix: p.prefix === undefined ? undefined : canonical(p.prefix),
      descending: p.dir === 'descending',
      withEditsOnly: p.witheditsonly,
      limit: limit + 1,
    });
    rows.forEach((u, i) => {
      if (i === limit) {
        ctx.setContinue('from', u.name);
        return;
      }
      const v: Record<string, unknown> = { userid: u.userid, name: u.name };
      if (props.has('editcount')) v.editcount = u.editcount;
      if (props.has('registration')) v.registration = u.registration === null ? '' : mwToIso(u.registration);
      if (props.has('groups')) v.groups = [...IMPLICIT_GROUPS];
      if (props.has('implicitgroups')) v.implicitgroups = [...IMPLICIT_GROUPS];
      if (props.has('rights')) v.rights = groupRights(IMPLICIT_GROUPS);
      out.push(v);
    });
  },
});
