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

/** End the request with the prefixed `badcontinue` error. */
export function dieBadContinue(ctx: QueryModuleContext): never {
  return ctx.die('badcontinue', texts.badContinue());
}

/**
 * The module's `continue` value split at '|', or undefined when the client sent none; a value that
 * does not have exactly `count` parts ends the request with `badcontinue`.
 */
export function continueParts(ctx: QueryModuleContext, count: number): string[] | undefined {
  const value = ctx.params.continue as string | undefined;
  if (value === undefined) return undefined;
  const parts = value.split('|');
  if (parts.length !== count) dieBadContinue(ctx);
  return parts;
}

/**
 * Hand pages to the generator as whole page rows (prop=info reads touched, lastrevid, length), in the
 * order of `ids`, which the page set keeps; ids without a page are left out.
 */
export function generatePageRows(ctx: QueryModuleContext, ids: number[]): void {
  const rows = new Map(ctx.store.pages.byIds(ids).map((r) => [r.pageid, r]));
  for (const id of ids) {
    const row = rows.get(id);
    if (row) ctx.generator!.add({ row });
  }
}
