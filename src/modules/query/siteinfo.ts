/**
 * meta=siteinfo: general facts (with a generator string that existing clients accept as MediaWiki 1.25
 * and that names wikiquery), namespaces, namespace aliases, statistics and a few more lists.
 */
import type { QueryModule, QueryModuleContext } from '../../api/types.js';
import { withContent } from '../../api/result.js';
import { LEGAL_TITLE_CHARS } from '../../wiki/titles.js';
import { MEDIAWIKI_VERSION, WIKIQUERY_VERSION } from '../../wiki/wiki.js';
import { fallbackChain } from '../../wiki/language.js';
import { ANON_RIGHTS } from '../../wiki/users.js';
import { MessageLoader } from '../message-loader.js';
import { ARTICLE_PATH, pageUrl, serverOf } from '../../wiki/files.js';

const PROPS = ['general', 'namespaces', 'namespacealiases', 'statistics', 'usergroups', 'extensions', 'fileextensions', 'rightsinfo', 'languages', 'protocols'];

const FILE_EXTENSIONS = ['png', 'gif', 'jpg', 'jpeg', 'webp', 'svg', 'pdf'];
const PROTOCOLS = ['bitcoin:', 'ftp://', 'ftps://', 'geo:', 'git://', 'gopher://', 'http://', 'https://', 'irc://', 'ircs://', 'magnet:', 'mailto:', 'mms://', 'news:', 'nntp://', 'redis://', 'sftp://', 'sip:', 'sips:', 'sms:', 'ssh://', 'svn://', 'tel:', 'telnet://', 'urn:', 'worldwind://', 'xmpp:', '//'];
const LANGUAGES: Array<[string, string]> = [
  ['en', 'English'],
  ['ru', 'русский'],
  ['uk', 'українська'],
];

export const siteinfoModule: QueryModule = {
  kind: 'meta',
  name: 'siteinfo',
  prefix: 'si',
  description: 'Return general information about the site.',
  params: {
    prop: { type: PROPS, multi: true, default: 'general', help: 'Which information to get.' },
    filteriw: { type: ['local', '!local'], help: 'Return only local or only nonlocal entries of the interwiki map (there are none).' },
    showalldb: { type: 'boolean', default: false, help: 'List all database servers, not just the one lagging the most.' },
    numberingroup: { type: 'boolean', default: false, help: 'Lists the number of users in user groups.' },
    inlanguagecode: { type: 'string', help: 'Language code for localised language names.' },
  },
  examples: ['action=query&meta=siteinfo&siprop=general|namespaces|namespacealiases|statistics'],
  cacheMode: () => 'public',
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
        case 'statistics':
          q.statistics = { ...(await ctx.store.site.statistics()) };
          break;
        case 'usergroups':
          q.usergroups = [{ name: '*', rights: ANON_RIGHTS, ...(ctx.params.numberingroup ? { number: 0 } : {}) }];
          break;
        case 'extensions':
          q.extensions = [
            { type: 'semantic', name: 'Semantic MediaWiki', version: '2.2.1', descriptionmsg: 'smw-desc', author: 'wikiquery re-implementation (browsebysubject)' },
            { type: 'semantic', name: 'Semantic Forms', version: '3.3', descriptionmsg: 'semanticforms-desc', author: 'wikiquery re-implementation (sfautocomplete)' },
          ];
          break;
        case 'fileextensions':
          q.fileextensions = FILE_EXTENSIONS.map((e) => ({ ext: e }));
          break;
        case 'rightsinfo':
          q.rightsinfo = { url: '', text: '' };
          break;
        case 'languages':
          q.languages = LANGUAGES.map(([code, name]) => withContent({ code }, 'name', name));
          break;
        case 'protocols':
          q.protocols = PROTOCOLS;
          break;
      }
    }
  },
};

async function general(ctx: QueryModuleContext): Promise<Record<string, unknown>> {
  const info = ctx.wiki.info;
  const server = serverOf(ctx.request.apiUrl);
  const [main, dbversion] = await Promise.all([new MessageLoader(ctx.store, ctx.wiki).get('mainpage', ctx.wiki.lang), ctx.store.site.dbVersion()]);
  const mainpage = main === false ? 'Головна сторінка' : main;

  const fallback = fallbackChain(ctx.wiki.lang).slice(1).map((code) => ({ code }));
  return {
    mainpage,
    base: pageUrl(server, mainpage.replace(/ /g, '_')),
    sitename: info.sitename,
    logo: `${server}/resources/assets/wiki.png`,
    generator: `MediaWiki ${MEDIAWIKI_VERSION} (wikiquery ${WIKIQUERY_VERSION})`,
    phpversion: process.version,
    phpsapi: 'node',
    dbtype: 'sqlite',
    dbversion,
    langconversion: true,
    titleconversion: true,
    linkprefixcharset: '',
    linkprefix: '',
    linktrail: '/^([a-zабвгґдеєжзиіїйклмнопрстуфхцчшщьєюяёъы“»]+)(.*)$/sDu',
    legaltitlechars: LEGAL_TITLE_CHARS,
    case: info.case,
    lang: ctx.wiki.lang,
    fallback,
    fallback8bitEncoding: 'windows-1251',
    writeapi: false,
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
    thumblimits: [120, 150, 180, 200, 250, 300],
    imagelimits: [
      { width: 320, height: 240 },
      { width: 640, height: 480 },
      { width: 800, height: 600 },
      { width: 1024, height: 768 },
      { width: 1280, height: 1024 },
    ],
    favicon: `${server}/favicon.ico`,
  };
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
