/** action=help, the default action: the HTML help generated from the module declarations. */
import type { CoreActionModule } from '../api/types.js';
import { allModuleRefs, findModule, helpHtml, type ModuleRef } from '../api/describe.js';

export const helpModule: CoreActionModule = {
  kind: 'action',
  core: true,
  name: 'help',
  prefix: '',
  description: 'Display help for the specified modules.',
  params: {
    modules: {
      type: 'string',
      multi: true,
      default: 'main',
      help: 'Modules to display help for (values of the action and format parameters, or main). Submodules can be specified with a +.',
    },
    submodules: { type: 'boolean', default: false, help: 'Include help for submodules of the named module.' },
    recursivesubmodules: { type: 'boolean', default: false, help: 'Include help for submodules recursively.' },
    wrap: { type: 'boolean', default: false, help: 'Wrap the output in a standard API response structure.' },
    toc: { type: 'boolean', default: false, help: 'Include a table of contents in the HTML output.' },
  },
  examples: ['action=help', 'action=help&modules=query+allcategories'],
  // Unless wrap is set the help page is the answer itself, in any format (ApiHelp::getCustomPrinter's raw printer).
  customPrinter(ctx) {
    if (ctx.params.wrap) return null;
    return {
      contentType: 'text/html; charset=utf-8',
      headers: { 'Cache-Control': 'private, must-revalidate, max-age=0' },
      render: (result) => result.get('help-html') as string,
    };
  },
  run(ctx) {
    const names = ctx.params.modules as string[];
    const mainParams = ctx.modules.mainParams;
    let refs: ModuleRef[];
    if (names.length === 1 && names[0] === 'main' && ctx.request.raw.modules === undefined) {
      // the default page documents everything: the main module and every module below it
      refs = allModuleRefs(ctx.modules, mainParams);
    } else {
      refs = [];
      for (const n of names) {
        const r = findModule(n, ctx.modules, mainParams);
        if (!r) {
          ctx.warn(`Unrecognized value for parameter 'modules': ${n}`);
          continue;
        }
        refs.push(r);
        if ((ctx.params.submodules || ctx.params.recursivesubmodules) && n === 'query')
          refs.push(...allModuleRefs(ctx.modules, mainParams).filter((m) => m.path.startsWith('query+')));
      }
    }
    const html = helpHtml(refs, ctx.request.apiUrl);
    // wrap: the page inside the result, in the format= printer's form (ApiHelp::execute)
    if (ctx.params.wrap) ctx.result.set('help', { mime: 'text/html', help: html });
    else ctx.result.set('help-html', html);
  },
};
