/**
 * The configuration facts of a Ukrainian MediaWiki 1.25 (+ SMW 2.2, Semantic Forms 3.3) that siteinfo
 * reports: DefaultSettings.php values, the core magic words, parser hooks and language names.
 * Data files: `data/magic-words.json`, `data/languages.json` (see `data/README.md`).
 */
import magicWordData from './data/magic-words.json' with { type: 'json' };
import languageData from './data/languages.json' with { type: 'json' };

export interface MagicWord {
  name: string;
  aliases: string[];
  'case-sensitive': boolean;
}

export const MAGIC_WORDS: readonly MagicWord[] = magicWordData as MagicWord[];

/** Language::fetchLanguageNames(): code → autonym */
export const LANGUAGE_NAMES: ReadonlyArray<readonly [string, string]> = languageData as Array<[string, string]>;

/** The revision magic words ({{REVISIONID}} …): variables, and functions of another page's revision */
const REVISION_WORDS = [
  'revisionid',
  'revisionday',
  'revisionday2',
  'revisionmonth',
  'revisionmonth1',
  'revisionyear',
  'revisiontimestamp',
  'revisionuser',
];

/** CoreParserFunctions' URL functions: function hooks, which the preprocessor keeps as written */
export const URL_FUNCTIONS = ['localurl', 'localurle', 'fullurl', 'fullurle', 'canonicalurl', 'canonicalurle'];

/** CoreParserFunctions' site statistics functions: function hooks, which the preprocessor keeps as written */
export const STATISTICS_FUNCTIONS = [
  'numberofpages',
  'numberofusers',
  'numberofactiveusers',
  'numberofarticles',
  'numberoffiles',
  'numberofadmins',
];

/** MagicWord::getVariableIDs() of 1.25 (no NUMBEROFVIEWS: hit counters left core in 1.25) */
export const VARIABLES = [
  '!',
  'currentmonth',
  'currentmonth1',
  'currentmonthname',
  'currentmonthnamegen',
  'currentmonthabbrev',
  'currentday',
  'currentday2',
  'currentdayname',
  'currentyear',
  'currenttime',
  'currenthour',
  'localmonth',
  'localmonth1',
  'localmonthname',
  'localmonthnamegen',
  'localmonthabbrev',
  'localday',
  'localday2',
  'localdayname',
  'localyear',
  'localtime',
  'localhour',
  'numberofarticles',
  'numberoffiles',
  'numberofedits',
  'articlepath',
  'pageid',
  'sitename',
  'server',
  'servername',
  'scriptpath',
  'stylepath',
  'pagename',
  'pagenamee',
  'fullpagename',
  'fullpagenamee',
  'namespace',
  'namespacee',
  'namespacenumber',
  'currentweek',
  'currentdow',
  'localweek',
  'localdow',
  ...REVISION_WORDS,
  'revisionsize',
  'subpagename',
  'subpagenamee',
  'talkspace',
  'talkspacee',
  'subjectspace',
  'subjectspacee',
  'talkpagename',
  'talkpagenamee',
  'subjectpagename',
  'subjectpagenamee',
  'numberofusers',
  'numberofactiveusers',
  'numberofpages',
  'currentversion',
  'rootpagename',
  'rootpagenamee',
  'basepagename',
  'basepagenamee',
  'currenttimestamp',
  'localtimestamp',
  'directionmark',
  'contentlanguage',
  'numberofadmins',
  'cascadingsources',
];

/**
 * Parser function hooks: CoreParserFunctions::register, then the ParserFunctions functions the
 * preprocessor implements, Semantic MediaWiki's and Semantic Forms' functions.
 */
export const FUNCTION_HOOKS = [
  'ns',
  'nse',
  'urlencode',
  'lcfirst',
  'ucfirst',
  'lc',
  'uc',
  ...URL_FUNCTIONS,
  'formatnum',
  'grammar',
  'gender',
  'plural',
  'bidi',
  ...STATISTICS_FUNCTIONS,
  'numberingroup',
  'numberofedits',
  'language',
  'padleft',
  'padright',
  'anchorencode',
  'defaultsort',
  'filepath',
  'pagesincategory',
  'pagesize',
  'protectionlevel',
  'namespace',
  'namespacee',
  'namespacenumber',
  'talkspace',
  'talkspacee',
  'subjectspace',
  'subjectspacee',
  'pagename',
  'pagenamee',
  'fullpagename',
  'fullpagenamee',
  'rootpagename',
  'rootpagenamee',
  'basepagename',
  'basepagenamee',
  'subpagename',
  'subpagenamee',
  'talkpagename',
  'talkpagenamee',
  'subjectpagename',
  'subjectpagenamee',
  'pageid',
  ...REVISION_WORDS,
  'cascadingsources',
  'int',
  'special',
  'speciale',
  'tag',
  'formatdate',
  'displaytitle',
  'if',
  'ifeq',
  'switch',
  'ifexist',
  'ifexpr',
  'iferror',
  'expr',
  'titleparts',
  'ask',
  'show',
  'subobject',
  'set_recurring_event',
  'declare',
  'concept',
  'set',
  'info',
  'default_form',
  'forminput',
  'formlink',
  'formredlink',
  'queryformlink',
  'arraymap',
  'arraymaptemplate',
  'autoedit',
];

/** Parser::getTags(): the core tags, then the extension tags this wiki's preprocessor knows */
export function extensionTags(preprocessorTags: readonly string[]): string[] {
  const core = ['pre', 'nowiki', 'gallery', 'indicator'];
  return [...core, ...preprocessorTags.filter((t) => !core.includes(t))].map((t) => `<${t}>`);
}

/** $wgUrlProtocols of 1.25 (the one list, in external-urls.ts) */
export { URL_PROTOCOLS as PROTOCOLS } from './external-urls.js';

/** $wgDefaultUserOptions of 1.25 ('skin' filled from $wgDefaultSkin by User::getDefaultOptions) */
export const DEFAULT_USER_OPTIONS: Record<string, string | number | boolean> = {
  ccmeonemails: 0,
  cols: 80,
  date: 'default',
  diffonly: 0,
  disablemail: 0,
  editfont: 'default',
  editondblclick: 0,
  editsectiononrightclick: 0,
  enotifminoredits: 0,
  enotifrevealaddr: 0,
  enotifusertalkpages: 1,
  enotifwatchlistpages: 1,
  extendwatchlist: 1,
  fancysig: 0,
  forceeditsummary: 0,
  gender: 'unknown',
  hideminor: 0,
  hidepatrolled: 0,
  imagesize: 2,
  math: 1,
  minordefault: 0,
  newpageshidepatrolled: 0,
  nickname: '',
  norollbackdiff: 0,
  numberheadings: 0,
  previewonfirst: 0,
  previewontop: 1,
  rcdays: 7,
  rclimit: 50,
  rows: 25,
  showhiddencats: 0,
  shownumberswatching: 1,
  showtoolbar: 1,
  skin: 'vector',
  stubthreshold: 0,
  thumbsize: 5,
  underline: 2,
  uselivepreview: 0,
  usenewrc: 1,
  watchcreations: 1,
  watchdefault: 1,
  watchdeletion: 0,
  watchlistdays: 3,
  watchlisthideanons: 0,
  watchlisthidebots: 0,
  watchlisthideliu: 0,
  watchlisthideminor: 0,
  watchlisthideown: 0,
  watchlisthidepatrolled: 0,
  watchmoves: 0,
  watchrollback: 0,
  wllimit: 250,
  useeditwarning: 1,
  prefershttps: 1,
};

/** LanguageConverter::$languagesWithVariants of 1.25: User::getDefaultOptions adds variant-<code> for each */
export const LANGUAGES_WITH_VARIANTS = ['gan', 'iu', 'kk', 'ku', 'shi', 'sr', 'tg', 'uz', 'zh'];

/**
 * User::getDefaultOptions of 1.25 (User.php:1501-1526): $wgDefaultUserOptions with the skin, the content
 * language, a variant-<code> for each language with variants and searchNs<n> for every namespace from 0 up
 * (SearchEngine::searchableNamespaces; $wgNamespacesToBeSearchedDefault = [0 => true]).
 */
export function defaultUserOptions(lang: string, namespaces: Iterable<number>): Record<string | symbol, unknown> {
  const out: Record<string | symbol, unknown> = Object.assign({}, DEFAULT_USER_OPTIONS);
  out.language = lang;
  for (const code of LANGUAGES_WITH_VARIANTS) out[code === lang ? 'variant' : `variant-${code}`] = code;
  for (const ns of [...namespaces].filter((n) => n >= 0).sort((a, b) => a - b)) out[`searchNs${ns}`] = ns === 0;
  return out;
}
