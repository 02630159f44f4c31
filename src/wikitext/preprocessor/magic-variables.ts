/**
 * Magic variables ({{PAGENAME}}, {{CURRENTYEAR}}, {{SITENAME}} …, Parser::getVariableValue) and the
 * title magic words they share with their function forms ({{PAGENAME:title}}).
 */
import { wfUrlencode } from '../../wiki/files.js';
import { escapeWikiText } from './escape-wikitext.js';
import { LITERAL, type Expander, type TitleInfo, type Variable } from './expander.js';

export type TitleWord =
  | 'pagename'
  | 'pagenamee'
  | 'fullpagename'
  | 'fullpagenamee'
  | 'basepagename'
  | 'basepagenamee'
  | 'subpagename'
  | 'subpagenamee'
  | 'rootpagename'
  | 'rootpagenamee'
  | 'namespace'
  | 'namespacee'
  | 'namespacenumber'
  | 'talkspace'
  | 'talkspacee'
  | 'subjectspace'
  | 'subjectspacee'
  | 'talkpagename'
  | 'talkpagenamee'
  | 'subjectpagename'
  | 'subjectpagenamee';

/** Case-sensitive synonyms (English and MessagesUk.php) of the title magic words. */
export const TITLE_WORDS: Record<TitleWord, string[]> = {
  pagename: ['PAGENAME', 'НАЗВА_СТОРІНКИ', 'НАЗВАНИЕ_СТРАНИЦЫ'],
  pagenamee: ['PAGENAMEE', 'НАЗВА_СТОРІНКИ_2', 'НАЗВАНИЕ_СТРАНИЦЫ_2'],
  fullpagename: ['FULLPAGENAME', 'ПОВНА_НАЗВА_СТОРІНКИ', 'ПОЛНОЕ_НАЗВАНИЕ_СТРАНИЦЫ'],
  fullpagenamee: ['FULLPAGENAMEE', 'ПОВНА_НАЗВА_СТОРІНКИ_2', 'ПОЛНОЕ_НАЗВАНИЕ_СТРАНИЦЫ_2'],
  basepagename: ['BASEPAGENAME', 'ОСНОВА_НАЗВИ_ПІДСТОРІНКИ', 'ОСНОВА_НАЗВАНИЯ_СТРАНИЦЫ'],
  basepagenamee: ['BASEPAGENAMEE', 'ОСНОВА_НАЗВИ_ПІДСТОРІНКИ_2', 'ОСНОВА_НАЗВАНИЯ_СТРАНИЦЫ_2'],
  subpagename: ['SUBPAGENAME', 'НАЗВА_ПІДСТОРІНКИ', 'НАЗВАНИЕ_ПОДСТРАНИЦЫ'],
  subpagenamee: ['SUBPAGENAMEE', 'НАЗВА_ПІДСТОРІНКИ_2', 'НАЗВАНИЕ_ПОДСТРАНИЦЫ_2'],
  rootpagename: ['ROOTPAGENAME'],
  rootpagenamee: ['ROOTPAGENAMEE'],
  namespace: ['NAMESPACE', 'ПРОСТІР_НАЗВ', 'ПРОСТРАНСТВО_ИМЁН'],
  namespacee: ['NAMESPACEE', 'ПРОСТІР_НАЗВ_2', 'ПРОСТРАНСТВО_ИМЁН_2'],
  namespacenumber: ['NAMESPACENUMBER'],
  talkspace: ['TALKSPACE', 'ПРОСТІР_ОБГОВОРЕННЯ', 'ПРОСТРАНСТВО_ОБСУЖДЕНИЙ'],
  talkspacee: ['TALKSPACEE', 'ПРОСТІР_ОБГОВОРЕННЯ_2', 'ПРОСТРАНСТВО_ОБСУЖДЕНИЙ_2'],
  subjectspace: ['SUBJECTSPACE', 'ARTICLESPACE', 'ПРОСТІР_СТАТЕЙ', 'ПРОСТРАНСТВО_СТАТЕЙ'],
  subjectspacee: ['SUBJECTSPACEE', 'ARTICLESPACEE', 'ПРОСТІР_СТАТЕЙ_2', 'ПРОСТРАНСТВО_СТАТЕЙ_2'],
  talkpagename: ['TALKPAGENAME', 'НАЗВА_СТОРІНКИ_ОБГОВОРЕННЯ', 'НАЗВАНИЕ_СТРАНИЦЫ_ОБСУЖДЕНИЯ'],
  talkpagenamee: ['TALKPAGENAMEE', 'НАЗВА_СТОРІНКИ_ОБГОВОРЕННЯ_2', 'НАЗВАНИЕ_СТРАНИЦЫ_ОБСУЖДЕНИЯ_2'],
  subjectpagename: ['SUBJECTPAGENAME', 'ARTICLEPAGENAME', 'НАЗВА_СТАТТІ', 'НАЗВАНИЕ_СТРАНИЦЫ_СТАТЬИ'],
  subjectpagenamee: ['SUBJECTPAGENAMEE', 'ARTICLEPAGENAMEE', 'НАЗВА_СТАТТІ_2', 'НАЗВАНИЕ_СТРАНИЦЫ_СТАТЬИ_2'],
};

/** The value of a title magic word for a title (CoreParserFunctions / Parser::getVariableValue). */
export function titleWord(expander: Expander, word: TitleWord, t: TitleInfo): string {
  const subject = t.ns >= 0 ? t.ns & ~1 : t.ns;
  const talk = t.ns >= 0 ? t.ns | 1 : -1;
  const url = (s: string): string => wfUrlencode(s.replace(/ /g, '_'));
  const prefixed = (ns: number): string => expander.prefixedText(ns, t.text, ns === t.ns ? t.nsText : undefined);
  switch (word) {
    case 'pagename':
      return escapeWikiText(t.text);
    case 'pagenamee':
      return escapeWikiText(url(t.text));
    case 'fullpagename':
      return escapeWikiText(prefixed(t.ns));
    case 'fullpagenamee':
      return escapeWikiText(url(prefixed(t.ns)));
    case 'subpagename':
    case 'subpagenamee': {
      const s = expander.hasSubpages(t.ns) ? t.text.slice(t.text.lastIndexOf('/') + 1) : t.text;
      return escapeWikiText(word === 'subpagename' ? s : url(s));
    }
    case 'basepagename':
    case 'basepagenamee': {
      const slash = t.text.lastIndexOf('/');
      const s = expander.hasSubpages(t.ns) && slash >= 0 ? t.text.slice(0, slash) : t.text;
      return escapeWikiText(word === 'basepagename' ? s : url(s));
    }
    case 'rootpagename':
    case 'rootpagenamee': {
      const s = expander.hasSubpages(t.ns) ? (t.text.split('/').find((x) => x !== '') ?? '') : t.text;
      return escapeWikiText(word === 'rootpagename' ? s : url(s));
    }
    case 'namespace':
      return t.nsText;
    case 'namespacee':
      return url(t.nsText);
    case 'namespacenumber':
      return String(t.ns);
    case 'talkspace':
      return talk < 0 ? '' : expander.nsName(talk);
    case 'talkspacee':
      return talk < 0 ? '' : url(expander.nsName(talk));
    case 'subjectspace':
      return subject === t.ns ? t.nsText : expander.nsName(subject);
    case 'subjectspacee':
      return url(subject === t.ns ? t.nsText : expander.nsName(subject));
    case 'talkpagename':
      return talk < 0 ? '' : escapeWikiText(prefixed(talk));
    case 'talkpagenamee':
      return talk < 0 ? '' : escapeWikiText(url(prefixed(talk)));
    case 'subjectpagename':
      return escapeWikiText(prefixed(subject));
    case 'subjectpagenamee':
      return escapeWikiText(url(prefixed(subject)));
  }
}

const UK_MONTHS = [
  'січень',
  'лютий',
  'березень',
  'квітень',
  'травень',
  'червень',
  'липень',
  'серпень',
  'вересень',
  'жовтень',
  'листопад',
  'грудень',
];
export const UK_MONTHS_GEN = [
  'січня',
  'лютого',
  'березня',
  'квітня',
  'травня',
  'червня',
  'липня',
  'серпня',
  'вересня',
  'жовтня',
  'листопада',
  'грудня',
];
const UK_MONTHS_ABBR = ['січ', 'лют', 'бер', 'квіт', 'трав', 'чер', 'лип', 'сер', 'вер', 'жов', 'лис', 'груд'];
const UK_DAYS = ['неділя', 'понеділок', 'вівторок', 'середа', 'четвер', "п'ятниця", 'субота'];

export function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** ISO-8601 week number (PHP date('W')). */
function isoWeek(d: Date): number {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const dow = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - dow);
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  return Math.ceil(((t.getTime() - yearStart) / 86400000 + 1) / 7);
}

/** CURRENT… and LOCAL… variables (the wiki's local time is taken to be UTC). */
const TIME_WORDS: Array<[string[], (d: Date) => string]> = [
  [['YEAR', 'ПОТОЧНИЙ_РІК', 'ЛОКАЛЬНИЙ_РІК'], (d) => String(d.getUTCFullYear())],
  [['MONTH', 'MONTH2', 'ПОТОЧНИЙ_МІСЯЦЬ', 'ПОТОЧНИЙ_МІСЯЦЬ_2', 'ЛОКАЛЬНИЙ_МІСЯЦЬ', 'ЛОКАЛЬНИЙ_МІСЯЦЬ_2'], (d) => pad2(d.getUTCMonth() + 1)],
  [['MONTH1', 'ПОТОЧНИЙ_МІСЯЦЬ_1', 'ЛОКАЛЬНИЙ_МІСЯЦЬ_1'], (d) => String(d.getUTCMonth() + 1)],
  [['MONTHNAME', 'НАЗВА_ПОТОЧНОГО_МІСЯЦЯ', 'НАЗВА_ЛОКАЛЬНОГО_МІСЯЦЯ'], (d) => UK_MONTHS[d.getUTCMonth()]],
  [['MONTHNAMEGEN', 'НАЗВА_ПОТОЧНОГО_МІСЯЦЯ_РОД', 'НАЗВА_ЛОКАЛЬНОГО_МІСЯЦЯ_РОД'], (d) => UK_MONTHS_GEN[d.getUTCMonth()]],
  [['MONTHABBREV', 'НАЗВА_ПОТОЧНОГО_МІСЯЦЯ_АБР', 'НАЗВА_ЛОКАЛЬНОГО_МІСЯЦЯ_АБР'], (d) => UK_MONTHS_ABBR[d.getUTCMonth()]],
  [['DAY', 'ПОТОЧНИЙ_ДЕНЬ', 'ЛОКАЛЬНИЙ_ДЕНЬ'], (d) => String(d.getUTCDate())],
  [['DAY2', 'ПОТОЧНИЙ_ДЕНЬ_2', 'ЛОКАЛЬНИЙ_ДЕНЬ_2'], (d) => pad2(d.getUTCDate())],
  [['DAYNAME', 'НАЗВА_ПОТОЧНОГО_ДНЯ', 'НАЗВА_ЛОКАЛЬНОГО_ДНЯ'], (d) => UK_DAYS[d.getUTCDay()]],
  [['DOW', 'ПОТОЧНИЙ_ДЕНЬ_ТИЖНЯ', 'ЛОКАЛЬНИЙ_ДЕНЬ_ТИЖНЯ'], (d) => String(d.getUTCDay())],
  [['WEEK', 'ПОТОЧНИЙ_ТИЖДЕНЬ', 'ЛОКАЛЬНИЙ_ТИЖДЕНЬ'], (d) => String(isoWeek(d))],
  [['TIME', 'ПОТОЧНИЙ_ЧАС', 'ЛОКАЛЬНИЙ_ЧАС'], (d) => `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`],
  [['HOUR', 'ПОТОЧНА_ГОДИНА', 'ЛОКАЛЬНА_ГОДИНА'], (d) => pad2(d.getUTCHours())],
  [
    ['TIMESTAMP', 'МІТКА_ПОТОЧНОГО_ЧАСУ', 'МІТКА_ЛОКАЛЬНОГО_ЧАСУ'],
    (d) =>
      `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}${pad2(d.getUTCSeconds())}`,
  ],
];

/** Variables MediaWiki knows but this module cannot compute: they stay as written (never a template). */
const UNSUPPORTED_VARIABLES = (
  'NUMBEROFPAGES NUMBEROFARTICLES NUMBEROFFILES NUMBEROFUSERS NUMBEROFACTIVEUSERS NUMBEROFEDITS NUMBEROFVIEWS ' +
  'NUMBEROFADMINS REVISIONID REVISIONDAY REVISIONDAY2 REVISIONMONTH REVISIONMONTH1 REVISIONYEAR REVISIONTIMESTAMP ' +
  'REVISIONUSER REVISIONSIZE PAGEID SERVER SERVERNAME SCRIPTPATH STYLEPATH CURRENTVERSION PAGESIZE PROTECTIONLEVEL ' +
  'PAGESINCATEGORY PAGESINCAT КІЛЬКІСТЬ_СТОРІНОК КІЛЬКІСТЬ_СТАТЕЙ КІЛЬКІСТЬ_ФАЙЛІВ КІЛЬКІСТЬ_КОРИСТУВАЧІВ ' +
  'КІЛЬКІСТЬ_РЕДАГУВАНЬ СЕРВЕР НАЗВА_СЕРВЕРА ШЛЯХ_ДО_СКРИПТУ ПОТОЧНА_ВЕРСІЯ ІД_ВЕРСІЇ'
).split(' ');

/** Magic variables: {{NAME}} without arguments, case-sensitive. */
export const MAGIC_VARIABLES = new Map<string, Variable>();
for (const [word, names] of Object.entries(TITLE_WORDS) as Array<[TitleWord, string[]]>) {
  for (const n of names) MAGIC_VARIABLES.set(n, (expander) => titleWord(expander, word, expander.current));
}
for (const [names, fmt] of TIME_WORDS) {
  for (const n of names) {
    const f: Variable = (expander) => fmt(expander.ctx.now ?? new Date());
    if (/^[A-Z0-9]+$/.test(n)) {
      MAGIC_VARIABLES.set('CURRENT' + n, f);
      MAGIC_VARIABLES.set('LOCAL' + n, f);
    } else MAGIC_VARIABLES.set(n, f);
  }
}
for (const n of ['SITENAME', 'НАЗВА_САЙТУ', 'НАЗВАНИЕ_САЙТА']) MAGIC_VARIABLES.set(n, (expander) => expander.ctx.siteName ?? LITERAL);
for (const n of ['CONTENTLANGUAGE', 'CONTENTLANG', 'МОВА_ВМІСТУ', 'ЯЗЫК_СОДЕРЖАНИЯ'])
  MAGIC_VARIABLES.set(n, (expander) => expander.ctx.contentLanguage ?? 'uk');
for (const n of ['DIRECTIONMARK', 'DIRMARK', 'НАПРЯМОК_ПИСЬМА']) MAGIC_VARIABLES.set(n, () => '\u200e');
for (const n of UNSUPPORTED_VARIABLES) MAGIC_VARIABLES.set(n, () => LITERAL);
MAGIC_VARIABLES.set('!', () => '|');
