/** action=paraminfo: the module declarations as data, for clients that build requests from them. */
import type { CoreActionModule } from '../api/types.js';
import { findModule, paramInfo } from '../api/describe.js';

export const paraminfoModule: CoreActionModule = {
  kind: 'action',
  core: true,
  name: 'paraminfo',
  prefix: '',
  description: 'Obtain information about API modules.',
  params: {
    modules: { type: 'string', multi: true, help: 'List of module names (values of the action and format parameters, or main). Submodules can be specified with a +.' },
    helpformat: { type: ['html', 'wikitext', 'raw', 'none'], default: 'none', help: 'Format of help strings.' },
    querymodules: { type: 'string', multi: true, deprecated: true, help: 'List of query module names (value of prop, meta or list parameter). Use modules=query+foo instead of querymodules=foo.' },
    mainmodule: { type: 'boolean', default: false, deprecated: true, help: 'Get information about the main (top-level) module as well. Use modules=main instead.' },
    pagesetmodule: { type: 'boolean', default: false, deprecated: true, help: 'Get information about the pageset module (providing titles= and friends) as well.' },
    formatmodules: { type: ['json', 'jsonfm'], multi: true, help: 'List of format module names (value of format parameter). Use modules instead.' },
  },
  examples: ['action=paraminfo&modules=query+allcategories|query+allimages'],
  run(ctx) {
    const p = ctx.params;
    const paths: string[] = [...((p.modules as string[] | undefined) ?? [])];
    for (const q of (p.querymodules as string[] | undefined) ?? []) paths.push('query+' + q);
    if (p.mainmodule) paths.push('main');
    if (p.pagesetmodule) paths.push('pageset');
    const modules: unknown[] = [];
    const missing: unknown[] = [];
    for (const path of paths) {
      const m = findModule(path, ctx.modules, ctx.modules.mainParams);
      if (!m) {
        missing.push({ name: path, missing: true });
        continue;
      }
      const entry: Record<string, unknown> = {
        name: m.name,
        classname: 'wikiquery:' + m.path,
        path: m.path,
      };
      if (m.group && m.group !== 'action') entry.group = m.group;
      entry.prefix = m.prefix;
      entry.source = 'wikiquery';
      if (p.helpformat !== 'none') entry.description = m.description;
      if (m.generator) entry.generator = true;
      entry.parameters = Object.entries(m.params).map(([n, d]) => {
        const info = paramInfo(n, d);
        if (p.helpformat === 'none') delete info.description;
        return info;
      });
      entry.examples = m.examples.map((q) => ({ query: 'api.php?' + q }));
      modules.push(entry);
    }
    const out: Record<string, unknown> = {};
    if (modules.length || missing.length) out.modules = [...modules, ...missing];
    const formats = (p.formatmodules as string[] | undefined) ?? [];
    if (formats.length) {
      out.formatmodules = formats.map((f) => ({ name: f, classname: 'wikiquery:format+' + f, path: f, group: 'format', prefix: '', parameters: [] }));
    }
    ctx.result.set('paraminfo', out);
  },
};
