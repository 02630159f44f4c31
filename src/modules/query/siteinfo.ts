/**
 * meta=siteinfo (ApiQuerySiteinfo of 1.25): every siprop, in the order asked for. The facts come from
 * the imported site (names, namespaces, statistics) and from the configuration a Ukrainian 1.25 wiki
 * with Semantic MediaWiki 2.2 and Semantic Forms 3.3 has (src/wiki/site-facts.ts and its data files).
 */
import { languageName } from '../../wiki/interwiki.js';
import { queryModule, type QueryModuleContext } from '../../api/types.js';
import { BC_BOOLS, bcAssoc, withContent, type Obj } from '../../api/result.js';
import { LEGAL_TITLE_CHARS } from '../../wiki/titles.js';
import { MEDIAWIKI_VERSION, WIKIQUERY_VERSION } from '../../wiki/wiki.js';
import { fallbackChain } from '../../wiki/language.js';
import { USER_GROUPS } from '../../wiki/user-groups.js';
import { MessageLoader } from '../message-loader.js';
import { ARTICLE_PATH, pageUrl, serverOf } from '../../wiki/files.js';
import { SPECIAL_PAGE_ALIASES, fixSpecialName } from '../../wiki/special-pages.js';
import {
  FUNCTION_HOOKS,
  LANGUAGE_NAMES,
  MAGIC_WORDS,
  PROTOCOLS,
  VARIABLES,
  defaultUserOptions,
  extensionTags,
} from '../../wiki/site-facts.js';
import { DEFAULT_EXTENSION_TAGS } from '../../wikitext/preprocessor/tokenizer.js';

const PROPS = [
  'general',
  'namespaces',
  'namespacealiases',
  'specialpagealiases',
  'magicwords',
  'interwikimap',
  'dbrepllag',
  'statistics',
  'usergroups',
  'libraries',
  'extensions',
  'fileextensions',
  'rightsinfo',
  'restrictions',
  'languages',
  'skins',
  'extensiontags',
  'functionhooks',
  'showhooks',
  'variables',
  'protocols',
  'defaultoptions',
];

const FILE_EXTENSIONS = ['png', 'gif', 'jpg', 'jpeg', 'webp', 'svg', 'pdf'];
const LINK_PREFIX_CHARSET = '„«';

export const siteinfoModule = queryModule({
  kind: 'meta',
  name: 'siteinfo',
  prefix: 'si',
  description: 'Return general information about the site.',
  params: {
    prop: { type: PROPS, multi: true, default: 'general', help: 'Which information to get.' },
    filteriw: { type: ['local', '!local'], help: 'Return only local or only nonlocal entries of the interwiki map.' },
    showalldb: { type: 'boolean', default: false, help: 'List all database servers, not just the one lagging the most.' },
    numberingroup: { type: 'boolean', default: false, help: 'Lists the number of users in user groups.' },
    inlanguagecode: { type: 'string', help: 'Language code for localised language names (best effort) and skin names.' },
  },
  examples: [
    'action=query&meta=siteinfo&siprop=general|namespaces|namespacealiases|statistics',
    'action=query&meta=siteinfo&siprop=interwikimap&sifilteriw=local',
  ],
  async run(ctx) {
    const q = ctx.result.object('query');
    for (const prop of ctx.params.prop as string[]) {
      switch (prop) {
        case 'general':
          ctx.markVolatile('clock'); // general.time is the current time
          q.general = await general(ctx);
          break;
        case 'namespaces':
          q.namespaces = namespaces(ctx);
          break;
        case 'namespacealiases':
          q.namespacealiases = ctx.wiki.codec.aliases
            .filter((a) => ctx.wiki.codec.namespaces.has(a.id))
            .map((a) => withContent({ id: a.id }, 'alias', a.alias));
          break;
        case 'specialpagealiases':
          q.specialpagealiases = SPECIAL_PAGE_ALIASES.map((p) => ({ realname: p.realname, aliases: [...p.aliases] }));
          break;
        case 'magicwords':
          q.magicwords = MAGIC_WORDS.map((m) => ({ name: m.name, aliases: [...m.aliases], 'case-sensitive': m['case-sensitive'] }));
          break;
        case 'interwikimap':
          q.interwikimap = interwikimap(ctx);
          break;
        case 'dbrepllag':
          // one SQLite database, never lagging: LoadBalancer::getMaxLag of a single server
          q.dbrepllag = [{ host: '', lag: 0 }];
          break;
        case 'statistics':
          q.statistics = { ...(await ctx.store.site.statistics()) };
          break;
        case 'usergroups':
          q.usergroups = await usergroups(ctx);
          break;
        case 'libraries':
          // composer.lock of a 1.25 tarball lists no external libraries (vendor/ came with 1.26)
          q.libraries = [];
          break;
        case 'extensions':
          q.extensions = extensions(ctx);
          break;
        case 'fileextensions':
          q.fileextensions = FILE_EXTENSIONS.map((e) => ({ ext: e }));
          break;
        case 'rightsinfo':
          q.rightsinfo = { url: '', text: '' };
          break;
        case 'restrictions':
          q.restrictions = {
            types: ['create', 'edit', 'move', 'upload'],
            levels: ['', 'autoconfirmed', 'sysop'],
            cascadinglevels: ['sysop'],
            semiprotectedlevels: ['autoconfirmed'],
          };
          break;
        case 'languages':
          q.languages = LANGUAGE_NAMES.map(([code, name]) => withContent({ code }, 'name', name));
          break;
        case 'skins':
          q.skins = [
            withContent({ code: 'vector', default: true }, 'name', 'Векторне'),
            withContent({ code: 'fallback', unusable: true }, 'name', 'Fallback'),
            withContent({ code: 'apioutput', unusable: true }, 'name', 'ApiOutput'),
          ];
          break;
        case 'extensiontags':
          q.extensiontags = extensionTags(DEFAULT_EXTENSION_TAGS);
          break;
        case 'functionhooks':
          q.functionhooks = [...FUNCTION_HOOKS];
          break;
        case 'showhooks':
          // no PHP hooks run here
          q.showhooks = [];
          break;
        case 'variables':
          q.variables = [...VARIABLES];
          break;
        case 'protocols':
          q.protocols = [...PROTOCOLS];
          break;
        case 'defaultoptions':
          q.defaultoptions = defaultOptions(ctx);
          break;
      }
    }
  },
});

/** ApiQuerySiteinfo::appendGeneralInfo of 1.25, keys in its order. */
async function general(ctx: QueryModuleContext): Promise<Record<string, unknown>> {
  const info = ctx.wiki.info;
  const server = serverOf(ctx.request.apiUrl);
  const [main, dbversion] = await Promise.all([
    new MessageLoader(ctx.store, ctx.wiki).get('mainpage', ctx.wiki.lang),
    ctx.store.site.dbVersion(),
  ]);
  const mainpage = main === false ? 'Головна сторінка' : main;
  const fallback = fallbackChain(ctx.wiki.lang)
    .slice(1)
    .map((code) => ({ code }));
  const out: Obj = {
    mainpage,
    base: pageUrl(server, mainpage.replace(/ /g, '_')),
    sitename: info.sitename,
    logo: `${server}/resources/assets/wiki.png`,
    generator: `MediaWiki ${MEDIAWIKI_VERSION} (wikiquery ${WIKIQUERY_VERSION})`,
    phpversion: process.version,
    phpsapi: 'node',
    dbtype: ctx.store.site.dbType,
    dbversion,
    // $wgAllowExternalImages is off and $wgEnableImageWhitelist on by default
    imagewhitelistenabled: true,
    langconversion: true,
    titleconversion: true,
    // MessagesUk.php: $linkPrefixExtension = true, $linkPrefixCharset = '„«'
    linkprefixcharset: LINK_PREFIX_CHARSET,
    linkprefix: `/^((?>.*[^${LINK_PREFIX_CHARSET}]|))(.+)$/sDu`,
    linktrail: '/^([a-zабвгґдеєжзиіїйклмнопрстуфхцчшщьєюяёъы“»]+)(.*)$/sDu',
    legaltitlechars: LEGAL_TITLE_CHARS,
    case: info.case,
    lang: ctx.wiki.lang,
    fallback,
    rtl: false,
    fallback8bitEncoding: 'windows-1251',
    readonly: false,
    // edits are taken only when they are forwarded to an upstream wiki (1.25: set when $wgEnableWriteAPI)
    writeapi: ctx.request.writeApi === true,
    timezone: 'UTC',
    timeoffset: 0,
    articlepath: ARTICLE_PATH,
    scriptpath: '',
    script: '/index.php',
    variantarticlepath: false,
    server,
    servername: new URL(server).hostname,
    wikiid: info.dbname,
    time: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    misermode: false,
    maxuploadsize: 104857600,
    thumblimits: bcAssoc([120, 150, 180, 200, 250, 300]),
    imagelimits: bcAssoc([
      { width: 320, height: 240 },
      { width: 640, height: 480 },
      { width: 800, height: 600 },
      { width: 1024, height: 768 },
      { width: 1280, height: 1024 },
    ]),
    favicon: `${server}/favicon.ico`,
  };
  out[BC_BOOLS] = ['variantarticlepath'];
  return out;
}

function namespaces(ctx: QueryModuleContext): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const ns of ctx.wiki.codec.namespaces.values()) {
    const v: Record<string, unknown> = { id: ns.id, case: ns.case };
    withContent(v, 'name', ns.name);
    v.subpages = ns.subpages ?? false;
    if (ns.canonical) v.canonical = ns.canonical;
    v.content = ns.id === 0;
    v.nonincludable = false;
    out.set(String(ns.id), v);
  }
  return out;
}

/** appendInterwikiMap: entries in prefix order, filtered by iw_local */
function interwikimap(ctx: QueryModuleContext): unknown[] {
  const filter = ctx.params.filteriw as string | undefined;
  return ctx.wiki.interwiki.entries
    .filter((e) => filter === undefined || (filter === 'local') === e.local)
    .map((e) => {
      const v: Record<string, unknown> = { prefix: e.prefix };
      if (e.local) v.local = true;
      if (e.trans) v.trans = true;
      // a prefix that is a language code of Names.php carries its name (an interlanguage prefix)
      const language = languageName(e.prefix);
      if (language) v.language = language;
      v.url = e.url.startsWith('//') ? serverOf(ctx.request.apiUrl).replace(/\/\/.*$/, '') + e.url : e.url;
      v.protorel = e.url.startsWith('//');
      if (e.wikiid) v.wikiid = e.wikiid;
      if (e.api) v.api = e.api;
      return v;
    });
}

async function usergroups(ctx: QueryModuleContext): Promise<unknown[]> {
  const counts = ctx.params.numberingroup ? await ctx.store.site.statistics() : null;
  return USER_GROUPS.map((g) => {
    const v: Record<string, unknown> = { name: g.name, rights: [...g.rights] };
    if (counts) {
      // '*' and the autopromoted groups have no size; user is every account, sysop the admins
      if (g.name === 'user') v.number = counts.users;
      else if (g.name === 'sysop') v.number = counts.admins;
      else if (g.name !== '*' && g.name !== 'autoconfirmed') v.number = 0;
    }
    return v;
  });
}

function extensions(ctx: QueryModuleContext): unknown[] {
  const license = (name: string) => {
    const special = ctx.wiki.codec.namespaces.get(-1)?.name ?? 'Special';
    return pageUrl('', `${special}:${fixSpecialName('Version')}/License/${name}`.replace(/ /g, '_'));
  };
  return [
    {
      type: 'semantic',
      name: 'Semantic MediaWiki',
      descriptionmsg: 'smw-desc',
      author: 'Markus Krötzsch, Jeroen De Dauw, James Hong Kong, ...',
      url: 'https://semantic-mediawiki.org',
      version: '2.2',
      'license-name': 'GPL-2.0+',
      license: license('Semantic MediaWiki'),
    },
    {
      type: 'semantic',
      name: 'Semantic Forms',
      descriptionmsg: 'semanticforms-desc',
      author: 'Yaron Koren, Stephan Gambke, ...',
      url: 'https://www.mediawiki.org/wiki/Extension:Semantic_Forms',
      version: '3.3',
      'license-name': 'GPL-2.0+',
      license: license('Semantic Forms'),
    },
  ];
}

/** User::getDefaultOptions of 1.25; every value keeps its type in formatversion 1 (META_BC_BOOLS) */
function defaultOptions(ctx: QueryModuleContext): Obj {
  const out: Obj = defaultUserOptions(ctx.wiki.lang, ctx.wiki.codec.namespaces.keys());
  out[BC_BOOLS] = Object.keys(out);
  return out;
}
