/**
 * Describes modules from their declarations, for action=help (HTML) and action=paraminfo (data):
 * the same declarations that the core validates with, so the documentation cannot drift.
 */
import type { AnyModule, ParamDecl, ParamDecls } from './types.js';
import type { ModuleDirectory } from './types.js';
import { escapeHtml } from './format/printer.js';
import { PAGESET_PARAMS } from './query.js';

export interface ModuleRef {
  /** 'main', 'query', 'query+allcategories', 'tokens', ... */
  path: string;
  name: string;
  prefix: string;
  description: string;
  params: ParamDecls;
  examples: string[];
  group?: string;
  generator?: boolean;
}

/** Resolve a module path as paraminfo's `modules` takes it; undefined when unknown. */
export function findModule(path: string, registry: ModuleDirectory, mainParams: ParamDecls): ModuleRef | undefined {
  if (path === 'main') return { path, name: 'main', prefix: '', description: 'The main module of the API.', params: mainParams, examples: [] };
  if (path === 'pageset') return { path, name: 'pageset', prefix: '', description: 'The set of pages to work on.', params: PAGESET_PARAMS, examples: [] };
  const [head, sub] = path.split('+');
  if (sub !== undefined) {
    if (head !== 'query') return undefined;
    const m = registry.query.find((q) => q.name === sub);
    return m && ref(m, `query+${m.name}`);
  }
  const a = registry.actions.find((m) => m.name === head);
  return a && ref(a, a.name);
}

function ref(m: AnyModule, path: string): ModuleRef {
  return {
    path,
    name: m.name,
    prefix: m.prefix,
    description: m.description,
    params: m.params,
    examples: m.examples ?? [],
    group: m.kind === 'action' ? 'action' : m.kind,
    generator: m.kind !== 'action' ? !!m.generator : undefined,
  };
}

export function allModuleRefs(registry: ModuleDirectory, mainParams: ParamDecls): ModuleRef[] {
  const out: ModuleRef[] = [findModule('main', registry, mainParams)!];
  for (const a of [...registry.actions].sort((x, y) => (x.name < y.name ? -1 : 1))) {
    out.push(ref(a, a.name));
    if (a.name === 'query')
      for (const kind of ['prop', 'list', 'meta'] as const)
        for (const q of registry.query.filter((m) => m.kind === kind).sort((x, y) => (x.name < y.name ? -1 : 1))) out.push(ref(q, `query+${q.name}`));
  }
  return out;
}

function typeName(d: ParamDecl): string {
  return Array.isArray(d.type) ? 'enum' : (d.type as string);
}

/** One parameter as action=paraminfo reports it. */
export function paramInfo(name: string, d: ParamDecl): Record<string, unknown> {
  const out: Record<string, unknown> = { name };
  if (d.default !== undefined) out.default = Array.isArray(d.default) ? d.default.join('|') : d.default;
  if (d.multi) {
    out.multi = true;
    out.limit = 50;
    out.lowlimit = 50;
    out.highlimit = 500;
  }
  if (d.allowDuplicates) out.allowsduplicates = true;
  if (d.required) out.required = true;
  if (d.deprecated) out.deprecated = true;
  out.type = Array.isArray(d.type) ? [...d.type] : typeName(d) === 'text' ? 'string' : d.type;
  if (d.type === 'limit') {
    out.max = d.max ?? 500;
    out.highmax = d.highmax ?? 5000;
    out.min = d.min ?? 1;
  } else if (d.type === 'integer') {
    if (d.min !== undefined) out.min = d.min;
    if (d.max !== undefined) out.max = d.max;
  }
  out.description = d.help;
  return out;
}

function describeValue(d: ParamDecl): string {
  const parts: string[] = [];
  if (Array.isArray(d.type)) parts.push(`One ${d.multi ? 'or more ' : ''}of: ${d.type.map((v) => `<span class="apihelp-value">${escapeHtml(v)}</span>`).join(', ')}`);
  else parts.push(`Type: ${escapeHtml(typeName(d))}${d.multi ? ' (list, separated with <kbd>|</kbd>)' : ''}`);
  if (d.type === 'limit') parts.push(`No more than ${d.max ?? 500} allowed; <kbd>max</kbd> gives that`);
  if (d.required) parts.push('This parameter is required.');
  if (d.default !== undefined && d.type !== 'boolean') parts.push(`Default: ${escapeHtml(String(Array.isArray(d.default) ? d.default.join('|') : d.default))}`);
  return parts.join('. ');
}

/** The HTML help page for a list of modules. */
export function helpHtml(modules: ModuleRef[], apiUrl: string): string {
  const sections = modules.map((m) => {
    const rows = Object.entries(m.params)
      .map(([n, d]) => `<dt id="${escapeHtml(m.path)}:${escapeHtml(m.prefix + n)}"><code>${escapeHtml(m.prefix + n)}</code></dt><dd>${escapeHtml(d.help)}<br><small>${describeValue(d)}</small></dd>`)
      .join('\n');
    const examples = m.examples.map((e) => `<li><a href="${escapeHtml(apiUrl)}?${escapeHtml(e)}"><code>api.php?${escapeHtml(e)}</code></a></li>`).join('\n');
    const kind = m.group && m.group !== 'action' ? ` <small>(${m.group}${m.generator ? ', generator' : ''}; prefix <code>${escapeHtml(m.prefix)}</code>)</small>` : '';
    return `<section id="${escapeHtml(m.path)}">
<h2>${escapeHtml(m.path)}${kind}</h2>
<p>${escapeHtml(m.description)}</p>
${rows ? `<dl>\n${rows}\n</dl>` : ''}
${examples ? `<h3>Приклади</h3><ul>\n${examples}\n</ul>` : ''}
</section>`;
  });
  const toc = modules.map((m) => `<li><a href="#${escapeHtml(m.path)}">${escapeHtml(m.path)}</a></li>`).join('');
  return `<!DOCTYPE html>
<html lang="uk" dir="ltr">
<head><meta charset="UTF-8"><title>Довідка API — wikiquery</title>
<style>body{font-family:sans-serif;margin:1em 2em}dt{margin-top:.5em}section{border-top:1px solid #ccc;margin-top:1em}</style></head>
<body>
<h1>Довідка API</h1>
<p>Цей сервер відповідає як API MediaWiki 1.25 (лише читання) разом із модулями Semantic MediaWiki та Semantic Forms.
Описи нижче створено з тих самих оголошень параметрів, за якими сервер перевіряє запити.</p>
<ul>${toc}</ul>
${sections.join('\n')}
</body>
</html>
`;
}
