/**
 * action=tokens (deprecated in 1.25): anonymous users may not edit here, so every requested token
 * type is refused with a warning and `tokens` stays empty.
 */
import type { ActionModule } from '../api/types.js';
import { ANON_RIGHTS, TOKEN_RIGHTS } from '../wiki/users.js';

const TYPES = ['block', 'delete', 'edit', 'email', 'import', 'move', 'options', 'patrol', 'protect', 'unblock', 'watch'];

export const tokensModule: ActionModule = {
  kind: 'action',
  name: 'tokens',
  prefix: '',
  description: 'Deprecated. Gets tokens for data-modifying actions; use action=query&meta=tokens instead.',
  params: {
    type: { type: TYPES, multi: true, default: 'edit', help: 'Type of token(s) to request.' },
  },
  deprecated: true,
  examples: ['action=tokens', 'action=tokens&type=email|move'],
  run(ctx) {
    ctx.warn('action=tokens has been deprecated. Please use action=query&meta=tokens instead.');
    const tokens: Record<string, string> = {};
    for (const type of ctx.params.type as string[]) {
      // With a JSONP callback no token is ever handed out (same-origin policy not applied).
      const right = TOKEN_RIGHTS[type] ?? type;
      if (ctx.lacksSameOriginSecurity || !ANON_RIGHTS.includes(right)) {
        ctx.warn(`Action '${type}' is not allowed for the current user`);
        continue;
      }
      tokens[type + 'token'] = '+\\';
    }
    ctx.result.set('tokens', tokens);
  },
};
