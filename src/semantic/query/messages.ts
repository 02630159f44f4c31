/**
 * SMW 2.2's query and concept messages, in the content language (i18n/uk.json of SMW 2.2), as SMW
 * produces them with wfMessage()->inContentLanguage().
 */

const MESSAGES: Record<string, string> = {
  smw_querytoolarge:
    'Наступні умови запиту не можуть бути опрацьовані в зв’язку з обмеженнями цього вікі в розмірі та/або глибині запиту: $1.',
  smw_toomanyclosing: '«$1» зустрічається занадто багато разів.',
  smw_unexpectedpart: 'Фрагмент запиту «$1» — незрозумілий. Результати можуть відрізнятись від очікуваних.',
  smw_emptysubquery: 'Деякий підзапит не містить інформації про умову.',
  smw_valuesubquery: 'Підзапити не підтримуються для значень властивості «$1».',
  smw_propvalueproblem: 'Значення властивості «$1» — незрозуміле.',
  smw_misplacedsubquery: 'Деякий підзапит був використаний у невідповідному місці.',
  smw_badqueryatom: 'Певна частина «<nowiki>[[…]]</nowiki>» — незрозуміла.',
  smw_misplacedsymbol: 'Символ «$1» використано у невідповідному місці.',
  smw_noclosingbrackets: 'Деякі з «<nowiki>[[</nowiki>» у запиті не було закрито відповідними «]]».',
  smw_notitle: '«$1» неможливо використати у якості назви сторінки у цій вікі.',
  smw_wrong_namespace: 'Тут дозволено лише сторінки в просторі назв «$1».',
  smw_nofloat: '«$1» не є числом',
  smw_nodatetime: 'Дата «$1» — незрозуміла.',
  smw_noboolean: '«$1» не розпізнається як булове значення (значення «так/ні»).',
  smw_baduri: 'Використовувати адреси (URI), що мають форму «$1» не дозволяється.',
  smw_emptystring: 'Використовувати пусті рядки не дозволяється.',
  smw_noproperty: '" $1 " не можна використовувати як ім\'я властивості в цій вікі.',
  smw_unitnotallowed: '«$1» не оголошена як допустима одиниця виміру цієї властивості.',
  smw_unsupportedunit: 'Перетворення для одиниці виміру «$1» не підтримується.',
  smw_bad_geocoord: '«$1» не розпізнано як географічні координати.',
  smw_concept_cache_miss:
    'Концепцію «$1» неможливо використати у цей момент, оскільки налаштування цієї вікі вимагає попередньої автономної обробки. Якщо проблема не вирішиться протягом певного часу, зверніться до адміністратора сайту.',
  // not in SMW 2.2's uk.json: the English text
  'smw-query-condition-circular': 'A possible circular condition has been detected in "$1".',
  smw_no_concept_namespace: 'Концепції можна означувати лише у просторі назв «Концепція:».',
  smw_multiple_concepts: 'Кожна сторінка концепції може мати лише одне означення концепції.',
  smw_concept_description: 'Опис концепції «$1».',
  smw_viewasrdf: 'вивід RDF',
};

export function smwMessage(key: string, ...args: string[]): string {
  const text = MESSAGES[key] ?? key;
  return text.replace(/\$(\d)/g, (m, n: string) => args[Number(n) - 1] ?? m);
}
