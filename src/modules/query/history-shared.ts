/**
 * What the time-ordered history lists (list=logevents, list=recentchanges) read and print alike: their
 * `<timestamp>|<id>` continuation and the titles inside log parameters.
 */
import type { QueryModuleContext } from '../../api/types.js';
import { dieBadContinue } from './shared.js';

/**
 * The `<14-digit timestamp>|<id>` continuation split in two, or undefined when the client sent none;
 * any other value ends the request with `badcontinue`.
 */
export function timestampIdContinue(ctx: QueryModuleContext): string[] | undefined {
  if (ctx.params.continue === undefined) return undefined;
  const cont = (ctx.params.continue as string).split('|');
  if (cont.length !== 2 || !/^\d{14}$/.test(cont[0]) || !/^\d+$/.test(cont[1])) dieBadContinue(ctx);
  return cont;
}

/** How formatLogParams shows a title named in a log entry's parameters (null when it is not one). */
export function logTitleInfo(ctx: QueryModuleContext): (text: string) => { ns: number; title: string } | null {
  return (text) => {
    const t = ctx.wiki.codec.parse(text, 0);
    return t && { ns: t.ns, title: ctx.wiki.titleText(t.ns, t.dbkey) };
  };
}
