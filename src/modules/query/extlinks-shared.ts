/** The protocol/query filter of prop=extlinks and list=exturlusage (ApiQueryExtLinksUsage::prepareUrlQuerySearchString of 1.25). */
import type { QueryModuleContext } from '../../api/types.js';
import { protocolPrefix, urlIndexPrefix } from '../../wiki/external-urls.js';

/** The el_index prefix to select, or undefined for every link; dies with bad_query as 1.25 does. */
export function indexPrefixOf(ctx: QueryModuleContext): string | undefined {
  const protocol = protocolPrefix((ctx.params.protocol as string | undefined) ?? '');
  const query = ctx.params.query as string | undefined;
  if (query !== undefined && query !== '') {
    const prefix = urlIndexPrefix(query, protocol ?? 'http://');
    if (prefix === null) ctx.die('bad_query', 'Invalid query');
    return prefix;
  }
  return protocol;
}

/** eloffset/euoffset: PHP (int) of the value, never below 0 */
export function offsetOf(ctx: QueryModuleContext): number {
  const v = ctx.params.offset as number | undefined;
  return v !== undefined && v > 0 ? v : 0;
}
