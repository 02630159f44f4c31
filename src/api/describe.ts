/**
 * Describes modules from their declarations, for action=help (HTML) and action=paraminfo (data):
 * the same declarations that the core validates with, so the documentation cannot drift.
 */
import type { AnyModule, ParamDecl, ParamDecls } from './types.js';
import type { ModuleDirectory } from './types.js';
import { htmlspecialchars as escapeHtml } from '../wiki/html.js';
import { PAGESET_PARAMS } from './query.js';
import { FORMATS, deprecationWarning, kindOf, type FormatName, type PrinterKind } from './format/printer.js';

export interface ModuleRef {
  /** 'main', 'query', 'query+allcategories', 'tokens', 'json', ... */
  path: string;
  name: string;
  prefix: string;
  description: string;
  params: ParamDecls;
  examples: string[];
  /** 'action', 'format', 'prop', 'list', 'meta'; undefined for main */
  group?: string;
  generator?: boolean;
  className: string;
  helpUrls: string[];
  readRights: boolean;
  deprecated: boolean;
  internal?: boolean;
  writeRights?: boolean;
  mustBePosted?: boolean;
  tokenType?: string;
  source: ModuleSource;
}

export interface ModuleSource {
  name: string;
  license: string;
}

const MEDIAWIKI: ModuleSource = { name: 'MediaWiki', license: 'GPL-2.0+' };
const EXTENSION_SOURCES: Record<string, ModuleSource> = {
  browsebysubject: { name: 'Semantic MediaWiki', license: 'GPL-2.0+' },
  smwinfo: { name: 'Semantic MediaWiki', license: 'GPL-2.0+' },
  sfautocomplete: { name: 'Semantic Forms', license: 'GPL-2.0+' },
};

const DOC = 'https://www.mediawiki.org/wiki/';
/**
 * 1.25's class names and help URLs of the modules that do not declare their own (getHelpUrls() of
 * REL1_25 links API:<Name> without the Special:MyLanguage/ that later versions add).
 */
const KNOWN: Record<string, [className: string, helpUrls: string[]]> = {
  main: ['ApiMain', []],
  help: ['ApiHelp', [DOC + 'API:Main_page', DOC + 'API:FAQ', DOC + 'API:Quick_start_guide']],
  paraminfo: ['ApiParamInfo', [DOC + 'API:Parameter_information']],
  query: ['ApiQuery', [DOC + 'API:Query', DOC + 'API:Meta', DOC + 'API:Properties', DOC + 'API:Lists']],
  tokens: ['ApiTokens', [DOC + 'API:Tokens_(action)']],
  expandtemplates: ['ApiExpandTemplates', [DOC + 'API:Parsing_wikitext#expandtemplates']],
  browsebysubject: ['SMW\\MediaWiki\\Api\\BrowseBySubject', ['https://semantic-mediawiki.org/wiki/Help:API:browsebysubject']],
  sfautocomplete: ['SFAutocompleteAPI', []],
  json: ['ApiFormatJson', []],
  jsonfm: ['ApiFormatJson', []],
  'query+info': ['ApiQueryInfo', [DOC + 'API:Info']],
  'query+revisions': ['ApiQueryRevisions', [DOC + 'API:Revisions']],
  'query+categories': ['ApiQueryCategories', [DOC + 'API:Categories']],
  'query+duplicatefiles': ['ApiQueryDuplicateFiles', [DOC + 'API:Duplicatefiles']],
  'query+imageinfo': ['ApiQueryImageInfo', [DOC + 'API:Imageinfo']],
  'query+images': ['ApiQueryImages', [DOC + 'API:Images']],
  'query+fileusage': ['ApiQueryBacklinksprop', [DOC + 'API:Fileusage']],
  'query+allpages': ['ApiQueryAllPages', [DOC + 'API:Allpages']],
  'query+categorymembers': ['ApiQueryCategoryMembers', [DOC + 'API:Categorymembers']],
  'query+allcategories': ['ApiQueryAllCategories', [DOC + 'API:Allcategories']],
  'query+allimages': ['ApiQueryAllImages', [DOC + 'API:Allimages']],
  'query+allfileusages': ['ApiQueryAllLinks', [DOC + 'API:Allfileusages']],
  'query+imageusage': ['ApiQueryBacklinks', [DOC + 'API:Imageusage']],
  'query+querypage': ['ApiQueryQueryPage', [DOC + 'API:Querypage']],
  'query+siteinfo': ['ApiQuerySiteinfo', [DOC + 'API:Siteinfo']],
  'query+userinfo': ['ApiQueryUserInfo', [DOC + 'API:Userinfo']],
  'query+tokens': ['ApiQueryTokens', [DOC + 'API:Tokens']],
  'query+allmessages': ['ApiQueryAllMessages', [DOC + 'API:Allmessages']],
  // modules other branches add: their 1.25 class names (not all follow the module name)
  parse: ['ApiParse', [DOC + 'API:Parsing_wikitext#parse']],
  compare: ['ApiComparePages', [DOC + 'API:Compare']],
  opensearch: ['ApiOpenSearch', [DOC + 'API:Opensearch']],
  'query+users': ['ApiQueryUsers', [DOC + 'API:Users']],
  'query+allusers': ['ApiQueryAllUsers', [DOC + 'API:Allusers']],
  'query+usercontribs': ['ApiQueryContributions', [DOC + 'API:Usercontribs']],
  'query+contributors': ['ApiQueryContributors', [DOC + 'API:Contributors']],
  'query+logevents': ['ApiQueryLogEvents', [DOC + 'API:Logevents']],
  'query+recentchanges': ['ApiQueryRecentChanges', [DOC + 'API:Recentchanges']],
  'query+links': ['ApiQueryLinks', [DOC + 'API:Links']],
  'query+templates': ['ApiQueryLinks', [DOC + 'API:Templates']],
  'query+iwlinks': ['ApiQueryIWLinks', [DOC + 'API:Iwlinks']],
  'query+langlinks': ['ApiQueryLangLinks', [DOC + 'API:Langlinks']],
  'query+extlinks': ['ApiQueryExternalLinks', [DOC + 'API:Extlinks']],
  'query+linkshere': ['ApiQueryBacklinksprop', [DOC + 'API:Linkshere']],
  'query+transcludedin': ['ApiQueryBacklinksprop', [DOC + 'API:Transcludedin']],
  'query+redirects': ['ApiQueryBacklinksprop', [DOC + 'API:Redirects']],
  'query+backlinks': ['ApiQueryBacklinks', [DOC + 'API:Backlinks']],
  'query+embeddedin': ['ApiQueryBacklinks', [DOC + 'API:Embeddedin']],
  'query+alllinks': ['ApiQueryAllLinks', [DOC + 'API:Alllinks']],
  'query+alltransclusions': ['ApiQueryAllLinks', [DOC + 'API:Alltransclusions']],
  'query+allredirects': ['ApiQueryAllLinks', [DOC + 'API:Allredirects']],
  'query+pageprops': ['ApiQueryPageProps', [DOC + 'API:Pageprops']],
  'query+pageswithprop': ['ApiQueryPagesWithProp', [DOC + 'API:Pageswithprop']],
  'query+exturlusage': ['ApiQueryExtLinksUsage', [DOC + 'API:Exturlusage']],
  'query+prefixsearch': ['ApiQueryPrefixSearch', [DOC + 'API:Prefixsearch']],
  'query+search': ['ApiQuerySearch', [DOC + 'API:Search']],
  'query+random': ['ApiQueryRandom', [DOC + 'API:Random']],
  'query+categoryinfo': ['ApiQueryCategoryInfo', [DOC + 'API:Categoryinfo']],
};

/** Modules that need no read right (isReadMode() false in 1.25). */
const NO_READ = new Set(['main', 'help', 'paraminfo', 'query+tokens', 'json', 'jsonfm']);

function titleCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** paraminfo's error text for a path that names no module (ApiBase::getModuleFromPath of 1.25). */
export class BadModulePath extends Error {}

/**
 * Resolve a module path as paraminfo's `modules` and help's `modules` take it ('main', 'query',
 * 'query+allpages', 'json'): the module, or a BadModulePath with 1.25's warning text.
 */
export function resolveModule(path: string, registry: ModuleDirectory, mainParams: ParamDecls): ModuleRef | BadModulePath {
  if (path === 'main') return mainRef(mainParams);
  let parts = path.split('+');
  // a '+' typed into a URL arrives as a space
  if (parts.length === 1) parts = path.split(' ');
  const [head, ...rest] = parts;
  let top: ModuleRef | undefined;
  const action = registry.actions.find((m) => m.name === head);
  if (action) top = ref(action, action.name);
  else if ((FORMATS as readonly string[]).includes(head)) top = formatRef(head);
  if (!top) return new BadModulePath(`The module "main" does not have a submodule "${head}"`);
  if (rest.length === 0) return top;
  if (top.path !== 'query') return new BadModulePath(`The module "${head}" has no submodules`);
  const q = registry.query.find((m) => m.name === rest[0]);
  if (!q) return new BadModulePath(`The module "query" does not have a submodule "${rest[0]}"`);
  if (rest.length > 1) return new BadModulePath(`The module "query+${q.name}" has no submodules`);
  return ref(q, `query+${q.name}`);
}

/** Resolve a module path; undefined when it names no module. */
export function findModule(path: string, registry: ModuleDirectory, mainParams: ParamDecls): ModuleRef | undefined {
  const r = resolveModule(path, registry, mainParams);
  return r instanceof BadModulePath ? undefined : r;
}

function mainRef(mainParams: ParamDecls): ModuleRef {
  return {
    path: 'main',
    name: 'main',
    prefix: '',
    description: 'The main module of the API.',
    params: mainParams,
    examples: [],
    className: 'ApiMain',
    helpUrls: [],
    readRights: false,
    deprecated: false,
    source: MEDIAWIKI,
  };
}

/** The page set as the deprecated pagesetmodule reports it (ApiPageSet of the query module). */
export function pageSetRef(registry: ModuleDirectory): ModuleRef {
  const query = registry.actions.find((m) => m.name === 'query')!;
  const params: ParamDecls = {};
  for (const name of Object.keys(PAGESET_PARAMS)) params[name] = query.params[name];
  return {
    path: 'pageset',
    name: 'pageset',
    prefix: '',
    description: 'The set of pages to work on.',
    params,
    examples: [],
    className: 'ApiPageSet',
    helpUrls: [],
    readRights: true,
    deprecated: false,
    source: MEDIAWIKI,
  };
}

const JSON_FORMAT_PARAMS: ParamDecls = {
  callback: {
    type: 'string',
    help: 'If specified, wraps the output into a given function call. For safety, all user-specific data will be restricted.',
  },
  utf8: {
    type: 'boolean',
    default: false,
    help: 'If specified, encodes most (but not all) non-ASCII characters as UTF-8 instead of replacing them with hexadecimal escape sequences. Default when formatversion is not 1.',
  },
  ascii: {
    type: 'boolean',
    default: false,
    help: 'If specified, encodes all non-ASCII using hexadecimal escape sequences. Default when formatversion is 1.',
  },
  formatversion: { type: ['1', '2', 'latest'], default: '1', help: 'Output formatting' },
};

/** Each format printer's parameters (getAllowedParams of its class in 1.25) */
const FORMAT_PARAMS: Readonly<Record<PrinterKind, ParamDecls>> = {
  json: JSON_FORMAT_PARAMS,
  yaml: JSON_FORMAT_PARAMS,
  php: { formatversion: { type: ['1', '2', 'latest'], default: '1', help: 'Output formatting' } },
  xml: {
    xslt: {
      type: 'string',
      help: 'If specified, adds the named page as an XSL stylesheet. The value must be a title in the MediaWiki namespace ending in .xsl.',
    },
    includexmlnamespace: { type: 'boolean', default: false, help: 'If specified, adds an XML namespace.' },
  },
  raw: {},
  wddx: {},
  txt: {},
  dbg: {},
  dump: {},
  none: {},
};

/** apihelp-<format>-description of 1.25 (markup left out), the printer's class */
const FORMAT_DESCRIPTIONS: Readonly<Record<PrinterKind, readonly [string, string]>> = {
  json: ['Output data in JSON format', 'ApiFormatJson'],
  yaml: ['Output data in YAML format', 'ApiFormatYaml'],
  raw: ['Output data with the debugging elements in JSON format', 'ApiFormatJson'],
  php: ['Output data in serialized PHP format', 'ApiFormatPhp'],
  xml: ['Output data in XML format', 'ApiFormatXml'],
  wddx: ['Output data in WDDX format', 'ApiFormatWddx'],
  txt: ["Output data in PHP's print_r() format", 'ApiFormatTxt'],
  dbg: ["Output data in PHP's var_export() format", 'ApiFormatDbg'],
  dump: ["Output data in PHP's var_dump() format", 'ApiFormatDump'],
  none: ['Output nothing', 'ApiFormatNone'],
};

function formatRef(name: string): ModuleRef {
  const kind = kindOf(name as FormatName);
  const [description, className] = FORMAT_DESCRIPTIONS[kind];
  return {
    path: name,
    name,
    prefix: '',
    group: 'format',
    params: FORMAT_PARAMS[kind],
    // ApiFormatBase::getExamplesMessages, getHelpUrls
    examples: [`action=query&meta=siteinfo&siprop=namespaces&format=${name}`],
    description: kind === 'none' ? description + '.' : name.endsWith('fm') ? description + ' (pretty-print in HTML).' : description + '.',
    className,
    helpUrls: ['https://www.mediawiki.org/wiki/API:Data_formats'],
    readRights: false,
    deprecated: deprecationWarning(name as FormatName) !== undefined,
    source: MEDIAWIKI,
  };
}

function ref(m: AnyModule, path: string): ModuleRef {
  const known = KNOWN[path];
  const cls = m.className ?? known?.[0] ?? (m.kind === 'action' ? 'Api' + titleCase(m.name) : 'ApiQuery' + titleCase(m.name));
  return {
    path,
    name: m.name,
    prefix: m.prefix,
    description: m.description,
    params: m.params,
    examples: m.examples ?? [],
    group: m.kind === 'action' ? 'action' : m.kind,
    generator: m.kind !== 'action' ? !!m.generator : undefined,
    className: cls,
    helpUrls: m.helpUrls ?? known?.[1] ?? [DOC + 'API:' + titleCase(m.name)],
    readRights: m.readRights ?? !NO_READ.has(path),
    deprecated: !!m.deprecated,
    internal: !!m.internal,
    writeRights: !!m.writeMode,
    mustBePosted: !!m.mustBePosted,
    tokenType: m.needsToken,
    source: EXTENSION_SOURCES[m.name] ?? MEDIAWIKI,
  };
}

export function allModuleRefs(registry: ModuleDirectory, mainParams: ParamDecls): ModuleRef[] {
  const out: ModuleRef[] = [mainRef(mainParams)];
  for (const a of [...registry.actions].sort((x, y) => (x.name < y.name ? -1 : 1))) {
    out.push(ref(a, a.name));
    if (a.name === 'query')
      for (const kind of ['prop', 'list', 'meta'] as const)
        for (const q of registry.query.filter((m) => m.kind === kind).sort((x, y) => (x.name < y.name ? -1 : 1)))
          out.push(ref(q, `query+${q.name}`));
  }
  return out;
}

function typeName(d: ParamDecl): string {
  return Array.isArray(d.type) ? 'enum' : (d.type as string);
}

/**
 * One parameter as 1.25's ApiParamInfo::getModuleInfo reports it, keys in its order: name,
 * description, required, deprecated, default, multi (+ limits), allowsduplicates, type, submodules,
 * submoduleparamprefix, max, highmax, min.
 */
export function paramInfo(name: string, d: ParamDecl, description?: string, tokenType?: string): Record<string, unknown> {
  const out: Record<string, unknown> = { name };
  if (description !== undefined) out.description = description;
  out.required = !!d.required;
  if (d.deprecated) out.deprecated = true;
  if (name === 'token' && tokenType !== undefined) out.tokentype = tokenType;
  if (d.default !== undefined) {
    const v = Array.isArray(d.default) ? d.default.join('|') : d.default;
    if (d.type === 'boolean') out.default = !!v;
    else if (d.type === 'integer' || d.type === 'limit') out.default = Math.trunc(Number(v));
    else if (d.type === 'string' || d.type === 'text') out.default = String(v);
    else out.default = v;
  }
  out.multi = !!d.multi;
  if (d.multi) {
    // ApiBase::LIMIT_SML1 for clients without apihighlimits (every client here is anonymous)
    out.limit = 50;
    out.lowlimit = 50;
    out.highlimit = 500;
  }
  if (d.allowDuplicates) out.allowsduplicates = true;
  if (d.submodules) {
    const names = Object.keys(d.submodules).sort();
    out.type = names;
    out.submodules = Object.fromEntries(names.map((n) => [n, d.submodules![n]]));
    if (d.submoduleParamPrefix !== undefined) out.submoduleparamprefix = d.submoduleParamPrefix;
  } else {
    out.type = Array.isArray(d.type) ? [...d.type] : d.type;
  }
  if (d.type === 'limit') {
    out.max = d.max ?? 500;
    out.highmax = d.highmax ?? 5000;
    out.min = d.min ?? 1;
  } else if (d.type === 'integer') {
    if (d.max !== undefined) out.max = d.max;
    if (d.highmax !== undefined) out.highmax = d.highmax;
    if (d.min !== undefined) out.min = d.min;
  }
  return out;
}

function describeValue(d: ParamDecl): string {
  const parts: string[] = [];
  if (Array.isArray(d.type))
    parts.push(
      `One ${d.multi ? 'or more ' : ''}of: ${d.type.map((v) => `<span class="apihelp-value">${escapeHtml(v)}</span>`).join(', ')}`,
    );
  else parts.push(`Type: ${escapeHtml(typeName(d))}${d.multi ? ' (list, separated with <kbd>|</kbd>)' : ''}`);
  if (d.type === 'limit') parts.push(`No more than ${d.max ?? 500} allowed; <kbd>max</kbd> gives that`);
  if (d.required) parts.push('This parameter is required.');
  if (d.default !== undefined && d.type !== 'boolean')
    parts.push(`Default: ${escapeHtml(String(Array.isArray(d.default) ? d.default.join('|') : d.default))}`);
  return parts.join('. ');
}

/** The HTML help page for a list of modules. */
export function helpHtml(modules: ModuleRef[], apiUrl: string): string {
  const sections = modules.map((m) => {
    const rows = Object.entries(m.params)
      .map(
        ([n, d]) =>
          `<dt id="${escapeHtml(m.path)}:${escapeHtml(m.prefix + n)}"><code>${escapeHtml(m.prefix + n)}</code></dt><dd>${escapeHtml(d.help)}<br><small>${describeValue(d)}</small></dd>`,
      )
      .join('\n');
    const examples = m.examples
      .map((e) => `<li><a href="${escapeHtml(apiUrl)}?${escapeHtml(e)}"><code>api.php?${escapeHtml(e)}</code></a></li>`)
      .join('\n');
    const kind =
      m.group && m.group !== 'action'
        ? ` <small>(${m.group}${m.generator ? ', generator' : ''}; prefix <code>${escapeHtml(m.prefix)}</code>)</small>`
        : '';
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
