/**
 * action=checktoken (ApiCheckToken of 1.25): whether a token is valid for an anonymous user, whose
 * every token is EDIT_TOKEN_SUFFIX (User::matchEditToken); `generated` is the time a longer token
 * carries after its 32 hex digits (User::getEditTokenTimestamp).
 */
import type { ActionModule } from '../api/types.js';
import { ANON_TOKEN } from '../wiki/users.js';

/** the last second an ISO 8601 timestamp of four-digit years can name */
const LAST_SECOND = 253402300799;

export const checktokenModule: ActionModule = {
  kind: 'action',
  name: 'checktoken',
  prefix: '',
  description: 'Check the validity of a token from action=query&meta=tokens.',
  params: {
    type: { type: ['csrf', 'patrol', 'rollback', 'userrights', 'watch'], required: true, help: 'Type of token being tested.' },
    token: { type: 'string', required: true, help: 'Token to test.' },
    maxtokenage: { type: 'integer', help: 'Maximum allowed age of the token, in seconds.' },
  },
  examples: ['action=checktoken&type=csrf&token=123ABC'],
  helpUrls: ['https://www.mediawiki.org/wiki/API:Checktoken'],
  run(ctx) {
    const token = ctx.params.token as string;
    // an anonymous user's token never expires: maxtokenage cannot make it 'expired'
    const res: Record<string, string> = { result: token === ANON_TOKEN ? 'valid' : 'invalid' };
    if (token.length > 32 + ANON_TOKEN.length) {
      // PHP's hexdec skips every character that is not a hex digit
      const digits = token.slice(32, -ANON_TOKEN.length).replace(/[^0-9a-fA-F]/g, '');
      const seconds = digits === '' ? 0 : Number.parseInt(digits, 16);
      if (seconds <= LAST_SECOND) res.generated = new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
    }
    ctx.result.set('checktoken', res);
  },
};
