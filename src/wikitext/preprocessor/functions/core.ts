/**
 * CoreParserFunctions' other functions: numbers and grammar (formatnum, plural, grammar, gender), {{int:}},
 * #language, #tag, DEFAULTSORT and DISPLAYTITLE, and those needing the live wiki, which stay as written.
 */
import { convertGrammar, convertPlural, formatNumText, parseFormattedNumber } from '../../../wiki/language.js';
import { htmlspecialchars } from '../../../wiki/html.js';
import { STATISTICS_FUNCTIONS, URL_FUNCTIONS } from '../../../wiki/site-facts.js';
import { phpFloatCast } from '../../../php/numbers.js';
import { phpTrim } from '../../../php/strings.js';
import { LITERAL, NOT_FOUND } from '../expander.js';
import type { ParserFunctionTable } from './table.js';

export function registerCoreFunctions(table: ParserFunctionTable): void {
  // the rawsuffix magic word ("R", uk "Н") is case-sensitive
  table.registerCaseInsensitive(['formatnum', 'ФОРМАТУВАТИ_ЧИСЛО', 'ФОРМАТИРОВАТЬ_ЧИСЛО'], (expander, call) => {
    const arg = expander.trimmedArg(call, 1);
    if (arg === 'R' || arg === 'Н') return parseFormattedNumber(call.first, expander.lang);
    if (arg === 'NOSEP') return call.first;
    return formatNumText(call.first, expander.lang);
  });

  table.registerCaseInsensitive(['plural', 'МНОЖИНА', 'МНОЖЕСТВЕННОЕ_ЧИСЛО'], (expander, call) => {
    const args = expander.allTrimmedArgs(call);
    const num = parseFormattedNumber(args[0], expander.lang);
    return convertPlural(/^\d+$/.test(num) ? Number(num) : phpFloatCast(num), args.slice(1), expander.lang);
  });

  table.registerCaseInsensitive(['grammar', 'ВІДМІНОК', 'ПАДЕЖ'], (expander, call) =>
    convertGrammar(expander.trimmedArg(call, 1), call.first, expander.lang),
  );

  table.registerCaseInsensitive(['gender', 'СТАТЬ', 'ПОЛ'], (expander, call) => {
    const forms = expander.allTrimmedArgs(call).slice(1);
    if (forms.length === 0) return '';
    return forms.length >= 3 ? forms[2] : forms[0];
  });

  table.registerCaseInsensitive(['int', 'ВНУТР'], (expander, call) => {
    const key = call.first;
    if (key === '') return NOT_FOUND;
    // Message::plain() in the parser options' user language, '<key>' when no such message exists (no hook:
    // no message exists); then parsed again in a frame holding the call's arguments, as braceSubstitution
    // does with a result that is not 'noparse'
    const args = expander.allTrimmedArgs(call).slice(1);
    const text = expander.ctx.interfaceMessage ? expander.ctx.interfaceMessage(key, args) : `<${htmlspecialchars(key)}>`;
    return expander.expandGenerated(text, expander.newChild(call.frame, call.node.parts, ''), false);
  });

  table.registerCaseInsensitive(
    ['#language', '#МОВА', '#ЯЗЫК'],
    (_expander, call) => LANGUAGE_NAMES[call.first.toLowerCase()] ?? call.first.toLowerCase(),
  );

  table.registerCaseInsensitive(['#tag', '#тег', '#мітка', '#метка', '#тэг'], (expander, call) => {
    const name = call.first.toLowerCase();
    if (!expander.extTagSet.has(name)) return `<span class="error">Unknown extension tag "${name}"</span>`;
    const parts = call.node.parts;
    const inner = parts.length > 0 ? expander.expandPart(parts[0], call.frame) : null;
    let attrs = '';
    for (const p of parts.slice(1)) {
      if (p.name === null) continue;
      const attrName = phpTrim(expander.expand(p.name, call.frame));
      let value = phpTrim(expander.expand(p.value, call.frame));
      const quoted = /^(?:["']([\s\S]+)["']|""|'')$/.exec(value);
      if (quoted) value = quoted[1] ?? '';
      // CoreParserFunctions::tagObj escapes both the name and the value
      attrs += ` ${htmlspecialchars(attrName)}="${htmlspecialchars(value)}"`;
    }
    return inner === null ? `<${name}${attrs}/>` : `<${name}${attrs}>${inner}</${name}>`;
  });

  table.registerCaseSensitive(
    [
      'DEFAULTSORT',
      'DEFAULTSORTKEY',
      'DEFAULTCATEGORYSORT',
      'СОРТУВАННЯ_ЗА_ЗАМОВЧУВАННЯМ',
      'СТАНДАРТНЕ_СОРТУВАННЯ',
      'СОРТУВАННЯ',
      'КЛЮЧ_СОРТУВАННЯ',
      'СОРТИРОВКА_ПО_УМОЛЧАНИЮ',
      'КЛЮЧ_СОРТИРОВКИ',
    ],
    (expander, call) => {
      if (call.first !== '') expander.setDefaultSort(call.first, expander.trimmedArg(call, 1).toLowerCase() === 'noreplace');
      return '';
    },
  );

  table.registerCaseSensitive(['DISPLAYTITLE', 'ПОКАЗАТИ_ЗАГОЛОВОК', 'ПОКАЗАТЬ_ЗАГОЛОВОК'], (expander, call) =>
    expander.setDisplayTitle(call.first, expander.trimmedArg(call, 1)),
  );

  // Functions that need the wiki's live state or its URLs: kept as written, and never taken for templates.
  table.registerCaseInsensitive(
    [
      ...URL_FUNCTIONS,
      'filepath',
      'special',
      'speciale',
      'bidi',
      '#formatdate',
      '#dateformat',
      ...STATISTICS_FUNCTIONS,
      'numberofedits',
      'numberofviews',
      'pageid',
      'cascadingsources',
      'ЛОКАЛЬНА_АДРЕСА',
      'ПОВНА_АДРЕСА',
      'ШЛЯХ_ДО_ФАЙЛУ',
      'спеціальна',
    ],
    () => LITERAL,
  );

  table.registerCaseSensitive(
    [
      'PAGESINCATEGORY',
      'PAGESINCAT',
      'PAGESIZE',
      'PROTECTIONLEVEL',
      'NUMBERINGROUP',
      'NUMINGROUP',
      'PAGESINNAMESPACE',
      'PAGESINNS',
      'REVISIONID',
      'REVISIONUSER',
      'REVISIONTIMESTAMP',
    ],
    () => LITERAL,
  );
}

const LANGUAGE_NAMES: Record<string, string> = {
  uk: 'українська',
  en: 'English',
  ru: 'русский',
  be: 'беларуская',
  'be-tarask': 'беларуская (тарашкевіца)',
  pl: 'polski',
  de: 'Deutsch',
  fr: 'français',
  es: 'español',
  it: 'italiano',
  pt: 'português',
  cs: 'čeština',
  sk: 'slovenčina',
  bg: 'български',
  sr: 'српски / srpski',
  hr: 'hrvatski',
  ro: 'română',
  hu: 'magyar',
  la: 'Latina',
  el: 'Ελληνικά',
  tr: 'Türkçe',
  ka: 'ქართული',
  crh: 'qırımtatarca',
  rue: 'русиньскый',
  yi: 'ייִדיש',
  he: 'עברית',
  lt: 'lietuvių',
  lv: 'latviešu',
  et: 'eesti',
  fi: 'suomi',
  sv: 'svenska',
  nl: 'Nederlands',
  ja: '日本語',
  zh: '中文',
  eo: 'Esperanto',
};

// keys come from the wikitext ({{#language:constructor}}, {{#expr: constructor}}): no prototype to find them in
Object.setPrototypeOf(LANGUAGE_NAMES, null);
