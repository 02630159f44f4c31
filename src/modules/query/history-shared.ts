/**
 * What the time-ordered history lists (list=logevents, list=recentchanges) read and print alike: their
 * `<timestamp>|<id>` continuation, the user fields of a row and the titles inside log parameters.
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

/** The user fields of a row: `userhidden` when the user is deleted, else `user` and `userid` as asked for (and `anon`). */
export function addUserFields(item: Record<string, unknown>, props: Set<string>, hidden: boolean, user: string, userid: number): void {
  if (!props.has('user') && !props.has('userid')) return;
  if (hidden) item.userhidden = true;
  else {
    if (props.has('user')) item.user = user;
    if (props.has('userid')) item.userid = userid;
    if (userid === 0) item.anon = true;
  }
}

/** How formatLogParams shows a title named in a log entry's parameters (null when it is not one). */
export function logTitleInfo(ctx: QueryModuleContext): (text: string) => { ns: number; title: string } | null {
  return (text) => {
    const t = ctx.wiki.codec.parse(text, 0);
    return t && { ns: t.ns, title: ctx.wiki.titleText(t.ns, t.dbkey) };
  };
}
