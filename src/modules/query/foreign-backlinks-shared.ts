/**
 * What list=langbacklinks and list=iwbacklinks share (ApiQueryLangBacklinks and ApiQueryIWBacklinks of
 * 1.25 are the same code over langlinks and iwlinks): the parameters, the `<code>|<title>|<page id>`
 * continuation, and the entries (or the generator's pages).
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { texts } from '../../api/errors.js';
import type { ParamDecls, QueryModuleContext } from '../../api/types.js';
import type { ForeignBacklinkRow, ForeignBacklinksOptions } from '../../store/relation-store.js';
import { dieBadContinue } from './shared.js';

export interface ForeignLinkKind {
  /** the module's list name */
  list: 'langbacklinks' | 'iwbacklinks';
  /** the parameter naming the language or prefix: lang, prefix */
  codeParam: 'lang' | 'prefix';
  /** the prop values naming the code and the title: lllang/lltitle, iwprefix/iwtitle */
  props: [code: string, title: string];
  read(ctx: QueryModuleContext, o: ForeignBacklinksOptions): Promise<ForeignBacklinkRow[]>;
}

export function foreignBacklinkParams(codeParam: 'lang' | 'prefix', codeHelp: string, props: [string, string]): ParamDecls {
  const params: ParamDecls = {};
  params[codeParam] = { type: 'string', help: codeHelp };
  params.title = { type: 'string', help: `Link to search for. Must be used with ${codeParam}.` };
  params.continue = continueParam();
  params.limit = limitParam(10, 'How many total pages to return.');
  params.prop = { type: props, multi: true, default: '', help: 'Which properties to get.' };
  params.dir = dirParam('The direction in which to list.');
  return params;
}

export async function runForeignBacklinks(ctx: QueryModuleContext, kind: ForeignLinkKind): Promise<void> {
  const p = ctx.params;
  const code = p[kind.codeParam] as string | undefined;
  // dieUsageMsg( array( 'missingparam', … ) ), prefixed by dieUsage
  if (p.title !== undefined && code === undefined) ctx.die('no' + kind.codeParam, texts.missingParam(kind.codeParam));
  let after: ForeignBacklinksOptions['after'];
  if (p.continue !== undefined) {
    const cont = (p.continue as string).split('|');
    if (cont.length !== 3) dieBadContinue(ctx);
    // PHP's intval: leading digits, else 0
    after = { code: cont[0], title: cont[1], from: Number.parseInt(cont[2], 10) || 0 };
  }
  const limit = p.limit as number;
  const rows = await kind.read(ctx, {
    code,
    title: p.title as string | undefined,
    after,
    descending: p.dir === 'descending',
    limit: limit + 1,
  });
  const props = new Set(p.prop as string[]);
  const out = ctx.generator ? null : ctx.result.queryList(kind.list);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (i === limit) {
      ctx.setContinue('continue', `${r.code}|${r.title}|${r.from}`);
      break;
    }
    if (ctx.generator) {
      ctx.generator.add({ ns: r.ns, dbkey: r.dbkey });
      continue;
    }
    const entry: Record<string, unknown> = { pageid: r.from, ns: r.ns, title: ctx.wiki.titleText(r.ns, r.dbkey) };
    if (r.redirect) entry.redirect = true;
    if (props.has(kind.props[0])) entry[kind.props[0]] = r.code;
    if (props.has(kind.props[1])) entry[kind.props[1]] = r.title;
    if (!ctx.result.fits(entry)) {
      ctx.setContinue('continue', `${r.code}|${r.title}|${r.from}`);
      break;
    }
    out!.push(entry);
  }
}
