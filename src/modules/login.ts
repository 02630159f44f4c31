/**
 * action=login (ApiLogin of 1.25). This wiki keeps no passwords and no sessions, so no one logs in; the
 * answers follow LoginForm::authenticateUserData's order all the same (NoName, NeedToken, WrongToken,
 * Illegal, NotExists, EmptyPass, WrongPass), so that a client learns why in 1.25's words. The login
 * token is derived from the name instead of kept in a session: the token of the first answer is
 * accepted by the second without a cookie.
 */
import { createHash } from 'node:crypto';
import type { ActionModule } from '../api/types.js';
import { canonicalUserName } from '../wiki/user-groups.js';

/** $wgCookiePrefix: wfWikiID() of a wiki without table prefix */
const COOKIE_PREFIX = 'wikiquery';

function loginToken(name: string): string {
  return createHash('md5').update(`wikiquery-login\n${name}`).digest('hex');
}

export const loginModule: ActionModule = {
  kind: 'action',
  name: 'login',
  prefix: 'lg',
  description:
    'Log in and get authentication cookies. In the event of a successful log-in, the needed cookies will be included in the HTTP response headers.',
  params: {
    name: { type: 'string', help: 'User name.' },
    password: { type: 'string', help: 'Password.' },
    domain: { type: 'string', help: 'Domain (optional).' },
    token: { type: 'string', help: 'Login token obtained in first request.' },
  },
  examples: ['action=login&lgname=user&lgpassword=password', 'action=login&lgname=user&lgpassword=password&lgtoken=123ABC'],
  helpUrls: ['https://www.mediawiki.org/wiki/API:Login'],
  readRights: false,
  mustBePosted: true,
  async run(ctx) {
    if (ctx.lacksSameOriginSecurity) {
      ctx.result.set('login', { result: 'Aborted', reason: 'Cannot log in when the same-origin policy is not applied' });
      return;
    }
    const p = ctx.params;
    const name = (p.name as string | undefined) ?? '';
    const result: Record<string, unknown> = {};
    if (name === '') result.result = 'NoName';
    else if (p.token === undefined || p.token === '') {
      result.result = 'NeedToken';
      result.token = loginToken(name);
      result.cookieprefix = COOKIE_PREFIX;
      result.sessionid = loginToken(name).slice(0, 26);
    } else if (p.token !== loginToken(name)) result.result = 'WrongToken';
    else {
      const canonical = canonicalUserName(ctx.wiki.codec, name);
      if (canonical === null) result.result = 'Illegal';
      else if ((await ctx.store.history.usersByName([canonical])).length === 0) result.result = 'NotExists';
      else result.result = (p.password ?? '') === '' ? 'EmptyPass' : 'WrongPass';
    }
    ctx.result.set('login', result);
  },
};

/** action=logout (ApiLogout of 1.25): there is no session to end; the answer is 1.25's empty one. */
export const logoutModule: ActionModule = {
  kind: 'action',
  name: 'logout',
  prefix: '',
  description: 'Log out and clear session data.',
  params: {},
  examples: ['action=logout'],
  helpUrls: ['https://www.mediawiki.org/wiki/API:Logout'],
  readRights: false,
  run() {},
};
