/** meta=tokens: anonymous users always get the literal token '+\' (EDIT_TOKEN_SUFFIX). */
import type { QueryModule } from '../../api/types.js';

export const metaTokensModule: QueryModule = {
  kind: 'meta',
  name: 'tokens',
  prefix: '',
  description: 'Gets tokens for data-modifying actions.',
  params: {
    type: { type: ['csrf', 'patrol', 'rollback', 'userrights', 'watch'], multi: true, default: 'csrf', help: 'Types of token to request.' },
  },
  examples: ['action=query&meta=tokens'],
  cacheMode: () => 'private',
  run(ctx) {
    if (ctx.lacksSameOriginSecurity) {
      ctx.warn('Tokens may not be obtained when the same-origin policy is not applied');
      return;
    }
    const tokens: Record<string, string> = {};
    for (const t of ctx.params.type as string[]) tokens[t + 'token'] = '+\\';
    ctx.result.object('query').tokens = tokens;
  },
};
