/** Small pieces several query modules use the same way. */
import type { QueryModuleContext } from '../../api/types.js';
import { texts } from '../../api/errors.js';

/**
 * ApiQueryBase::titlePartToKey with MediaWiki's error: a from/to/prefix value as a DB key within `ns`;
 * undefined stays undefined, text that cannot be a title ends the request with the prefixed
 * `invalidtitle` (dieUsageMsg goes through dieUsage, which prefixes the code: `acinvalidtitle`).
 */
export function titlePartOrDie(ctx: QueryModuleContext, text: string | undefined, ns: number): string | undefined {
  if (text === undefined) return undefined;
  const key = ctx.wiki.codec.titlePartToKey(text, ns);
  if (key === null) ctx.die('invalidtitle', texts.invalidTitle(text));
  return key;
}
