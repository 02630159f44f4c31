/** meta=userinfo: every client is the anonymous user, named by its IP address. */
import type { QueryModule } from '../../api/types.js';
import { ANON_GROUPS, ANON_RIGHTS } from '../../wiki/users.js';
import { BC_BOOLS } from '../../api/result.js';
import { defaultUserOptions } from '../../wiki/site-facts.js';

const PROPS = [
  'blockinfo',
  'hasmsg',
  'groups',
  'implicitgroups',
  'rights',
  'changeablegroups',
  'options',
  'preferencestoken',
  'editcount',
  'ratelimits',
  'email',
  'realname',
  'acceptlang',
  'registrationdate',
  'unreadcount',
];

export const userinfoModule: QueryModule = {
  kind: 'meta',
  name: 'userinfo',
  prefix: 'ui',
  description: 'Get information about the current user.',
  params: {
    prop: { type: PROPS, multi: true, help: 'Which pieces of information to include.' },
  },
  examples: ['action=query&meta=userinfo&uiprop=groups|rights'],
  cacheMode: () => 'private',
  run(ctx) {
    ctx.markVolatile('client'); // the anonymous user is named by the client's address
    const props = new Set((ctx.params.prop as string[] | undefined) ?? []);
    const info: Record<string, unknown> = { id: 0, name: ctx.request.ip, anon: true };
    // blockinfo: anonymous readers here are never blocked, so nothing is added (as for an unblocked user).
    if (props.has('groups')) info.groups = ANON_GROUPS;
    if (props.has('implicitgroups')) info.implicitgroups = ANON_GROUPS;
    if (props.has('rights')) info.rights = ANON_RIGHTS;
    if (props.has('changeablegroups')) info.changeablegroups = { add: [], remove: [], 'add-self': [], 'remove-self': [] };
    if (props.has('options')) {
      // ApiQueryUserInfo.php:110-113 of 1.25: the anonymous user's options are User::getDefaultOptions,
      // each value keeping its type in formatversion 1 (META_BC_BOOLS)
      const options = defaultUserOptions(ctx.wiki.lang, ctx.wiki.codec.namespaces.keys());
      options[BC_BOOLS] = Object.keys(options);
      info.options = options;
    }
    if (props.has('editcount')) info.editcount = 0;
    if (props.has('ratelimits')) info.ratelimits = {};
    if (props.has('realname')) info.realname = '';
    if (props.has('acceptlang')) {
      info.acceptlang = (ctx.request.headers['accept-language'] ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((s) => {
          const [code, q] = s.split(';q=');
          return { q: q === undefined ? 1 : Number(q), '*': code.toLowerCase() };
        });
    }
    if (props.has('unreadcount')) info.unreadcount = 0;
    ctx.result.object('query').userinfo = info;
  },
};
