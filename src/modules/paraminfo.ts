/**
 * action=paraminfo (ApiParamInfo of 1.25): the module declarations as data, for clients that build
 * requests from them (pywikibot's ParamInfo, mwn). Unknown module paths are warnings, not entries.
 */
import type { CoreActionModule } from '../api/types.js';
import { htmlspecialchars as escapeHtml } from '../wiki/html.js';
import { BadModulePath, pageSetRef, paramInfo, resolveModule, type ModuleRef } from '../api/describe.js';
import { pageUrl, serverOf } from '../wiki/files.js';
import { fixSpecialName } from '../wiki/special-pages.js';
import { NS_SPECIAL } from '../wiki/namespaces.js';
import { FORMATS } from '../api/format/printer.js';

type HelpFormat = 'html' | 'wikitext' | 'raw' | 'none';

/** PHP truthiness of a string parameter (mainmodule and pagesetmodule have no type in 1.25) */
function phpTrue(v: unknown): boolean {
  return typeof v === 'string' && v !== '' && v !== '0';
}

/** The module; `queryModuleNames` types the deprecated querymodules parameter, as 1.25 does. */
export function createParaminfoModule(queryModuleNames: string[]): CoreActionModule {
  return {
    kind: 'action',
    core: true,
    name: 'paraminfo',
    prefix: '',
    description: 'Obtain information about API modules.',
    params: {
      modules: {
        type: 'string',
        multi: true,
        help: 'List of module names (values of the action and format parameters, or main). Submodules can be specified with a +.',
      },
      helpformat: { type: ['html', 'wikitext', 'raw', 'none'], default: 'none', help: 'Format of help strings.' },
      querymodules: {
        type: [...queryModuleNames].sort(),
        multi: true,
        deprecated: true,
        help: 'List of query module names (value of prop, meta or list parameter). Use modules=query+foo instead.',
      },
      mainmodule: {
        type: 'string',
        deprecated: true,
        help: 'Get information about the main (top-level) module as well. Use modules=main instead.',
      },
      pagesetmodule: {
        type: 'string',
        deprecated: true,
        help: 'Get information about the pageset module (providing titles= and friends) as well.',
      },
      formatmodules: {
        type: FORMATS,
        multi: true,
        deprecated: true,
        help: 'List of format module names (value of format parameter). Use modules instead.',
      },
    },
    examples: ['action=paraminfo&modules=parse|phpfm|query+allpages|query+siteinfo'],
    readRights: false,
    run(ctx) {
      const p = ctx.params;
      const helpFormat = p.helpformat as HelpFormat;
      const queryNames = (p.querymodules as string[] | undefined) ?? [];
      const formatNames = (p.formatmodules as string[] | undefined) ?? [];
      const paths: string[] = [...((p.modules as string[] | undefined) ?? []), ...queryNames.map((q) => 'query+' + q), ...formatNames];
      const server = serverOf(ctx.request.apiUrl);
      const specialNs = ctx.wiki.codec.namespaces.get(NS_SPECIAL)?.name ?? 'Special';
      const info = (m: ModuleRef) =>
        moduleInfo(m, helpFormat, (source) =>
          pageUrl(server, `${specialNs}:${fixSpecialName('Version')}/License/${source}`.replace(/ /g, '_')),
        );

      const res = new Map<string, unknown>();
      const add = (key: string, item: unknown) => {
        let list = res.get(key) as unknown[] | undefined;
        if (!list) res.set(key, (list = []));
        list.push(item);
      };
      for (const path of paths) {
        const m = resolveModule(path, ctx.modules, ctx.modules.mainParams);
        if (m instanceof BadModulePath) {
          ctx.warn(m.message);
          continue;
        }
        const item = info(m);
        // back compat: modules asked for through querymodules/formatmodules are listed under those keys
        if (path.startsWith('query+') && queryNames.includes(m.name) && m.group !== 'action') {
          item.querytype = m.group;
          add('querymodules', item);
        } else if (formatNames.includes(m.name)) add('formatmodules', item);
        else add('modules', item);
      }
      const out: Record<string, unknown> = { helpformat: helpFormat };
      for (const [k, v] of res) out[k] = v;
      if (phpTrue(p.mainmodule)) out.mainmodule = info(resolveModule('main', ctx.modules, ctx.modules.mainParams) as ModuleRef);
      if (phpTrue(p.pagesetmodule)) {
        const ps = info(pageSetRef(ctx.modules));
        delete ps.name;
        delete ps.path;
        delete ps.group;
        out.pagesetmodule = ps;
      }
      ctx.result.set('paraminfo', out);
    },
  };
}

/** One help message in the requested help format (ApiParamInfo::formatHelpMessages). */
function helpText(format: HelpFormat, key: string, text: string): unknown {
  switch (format) {
    case 'none':
      return undefined;
    case 'wikitext':
      return text;
    case 'html':
      return escapeHtml(text);
    case 'raw':
      return [{ key, params: [] }];
  }
}

/** ApiParamInfo::getModuleInfo of 1.25, keys in its order. */
function moduleInfo(m: ModuleRef, format: HelpFormat, licenseLink: (source: string) => string): Record<string, unknown> {
  const ret: Record<string, unknown> = { name: m.name, classname: m.className, path: m.path };
  if (m.group !== undefined) ret.group = m.group;
  ret.prefix = m.prefix;
  ret.source = m.source.name;
  ret.sourcename = m.source.name;
  ret.licensetag = m.source.license;
  ret.licenselink = licenseLink(m.source.name);
  const msgPath = m.path.replace(/\+/g, '-');
  const description = helpText(format, `apihelp-${msgPath}-description`, m.description);
  if (description !== undefined) ret.description = description;
  // ApiBase::getHelpFlags (+ ApiQueryGeneratorBase's generator flag)
  if (m.deprecated) ret.deprecated = true;
  if (m.internal) ret.internal = true;
  if (m.readRights) ret.readrights = true;
  if (m.writeRights) ret.writerights = true;
  if (m.mustBePosted) ret.mustbeposted = true;
  if (m.generator) ret.generator = true;
  ret.helpurls = [...m.helpUrls];
  if (format !== 'none') {
    ret.examples = m.examples.map((query, i) => ({ query, description: helpText(format, `apihelp-${msgPath}-example-${i + 1}`, query) }));
  }
  ret.parameters = Object.entries(m.params).map(([name, d]) =>
    paramInfo(name, d, helpText(format, `apihelp-${msgPath}-param-${name}`, d.help) as string | undefined, m.tokenType),
  );
  return ret;
}
