/**
 * list=users (ApiQueryUsers of 1.25): facts about the named users, in the order asked. The users are
 * the dump's registered contributors; they have the implicit groups only and are never blocked.
 */
import { ANON_TOKEN } from '../../wiki/users.js';
import { queryModule } from '../../api/types.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { IMPLICIT_GROUPS, canonicalUserName, groupRights } from '../../wiki/user-groups.js';

const PROPS = ['blockinfo', 'groups', 'implicitgroups', 'rights', 'editcount', 'registration', 'emailable', 'gender'];

export const usersModule = queryModule({
  cacheMode: (params) => (params.token !== undefined ? 'private' : 'public'),
  kind: 'list',
  name: 'users',
  prefix: 'us',
  description: 'Get information about a list of users.',
  params: {
    prop: { type: PROPS, multi: true, help: 'Which pieces of information to include.' },
    users: { type: 'string', multi: true, help: 'A list of users to obtain the same information for.' },
    token: { type: ['userrights'], multi: true, deprecated: true, help: 'Use action=query&meta=tokens instead.' },
  },
  examples: ['action=query&list=users&ususers=Олена Коваль|Тарас&usprop=groups|editcount|gender'],
  async run(ctx) {
    const p = ctx.params;
    const props = new Set((p.prop as string[] | undefined) ?? []);
    const out = ctx.result.queryList('users');
    const good: string[] = [];
    for (const u of (p.users as string[] | undefined) ?? []) {
      const n = canonicalUserName(ctx.wiki.codec, u);
      if (n === null) out.push({ name: u, invalid: true });
      else if (!good.includes(n)) good.push(n);
    }
    const found = new Map((await ctx.store.history.usersByName(good)).map((r) => [r.name, r]));
    for (const name of good) {
      const u = found.get(name);
      if (!u) {
        out.push({ name, missing: true });
        continue;
      }
      const v: Record<string, unknown> = { userid: u.userid, name: u.name };
      if (props.has('editcount')) v.editcount = u.editcount;
      if (props.has('registration')) v.registration = u.registration === null ? null : mwToIso(u.registration);
      if (props.has('groups')) v.groups = [...IMPLICIT_GROUPS];
      if (props.has('implicitgroups')) v.implicitgroups = [...IMPLICIT_GROUPS];
      if (props.has('rights')) v.rights = groupRights(IMPLICIT_GROUPS);
      // blockinfo: nobody is blocked; emailable: a dump carries no e-mail addresses
      if (props.has('emailable')) v.emailable = false;
      if (props.has('gender')) v.gender = 'unknown';
      // the deprecated ustoken: ApiQueryUsers::getUserrightsToken hands anyone their edit token (none
      // without same-origin security: the token function is missing and PHP's call gives null)
      for (const t of (p.token as string[] | undefined) ?? []) v[t + 'token'] = ctx.lacksSameOriginSecurity ? null : ANON_TOKEN;
      out.push(v);
    }
  },
});
