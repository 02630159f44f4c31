/**
 * The parameter shapes many modules share, declared once (as MediaWiki's modules share ApiBase's
 * LIMIT_BIG1/LIMIT_BIG2 constants and the standard 'continue' and 'dir' messages).
 */
import type { ParamDecl } from './types.js';

/** ApiBase::LIMIT_BIG1 and LIMIT_BIG2: 500 for users, 5000 for bots and sysops. */
export const LIMIT_BIG1 = 500;
export const LIMIT_BIG2 = 5000;

/** A `limit` parameter: at least 1, at most `max` (`highmax` with apihighlimits); `limit=max` allowed. */
export function limitParam(def: number | undefined, help: string, max = LIMIT_BIG1, highmax = LIMIT_BIG2): ParamDecl {
  const decl: ParamDecl = { type: 'limit', min: 1, max, highmax, help };
  if (def !== undefined) decl.default = def;
  return decl;
}

/** The standard `continue` parameter of a module that continues. */
export function continueParam(help = 'When more results are available, use this to continue.'): ParamDecl {
  return { type: 'string', help };
}

/** A `dir` parameter: ascending/descending by default, or the given values (newer/older for time listings). */
export function dirParam(
  help = 'The direction in which to list.',
  values: readonly string[] = ['ascending', 'descending'],
  def = values[0],
): ParamDecl {
  return { type: values, default: def, help };
}

/** A `namespace` parameter, checked against the wiki's namespaces (ApiBase's 'namespace' type). */
export function namespaceParam(help: string, opts: { multi?: boolean; default?: string | number } = {}): ParamDecl {
  const decl: ParamDecl = { type: 'namespace', help };
  if (opts.multi) decl.multi = true;
  if (opts.default !== undefined) decl.default = opts.default;
  return decl;
}
