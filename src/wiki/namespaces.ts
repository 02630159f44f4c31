/**
 * Namespaces of a Ukrainian MediaWiki 1.25 (+ SMW 2.2, Semantic Forms 3.3): numbers, local names,
 * English canonical names and aliases. The dump's <siteinfo> may rename namespaces (the project namespace
 * always is); `NamespaceTable` merges what the dump says over these defaults.
 */

export interface NamespaceInfo {
  id: number;
  /** local name with spaces ('' for the main namespace) */
  name: string;
  /** English canonical name with spaces (undefined for main) */
  canonical?: string;
  /** 'first-letter' or 'case-sensitive' */
  case: 'first-letter' | 'case-sensitive';
  subpages?: boolean;
  content?: boolean;
}

export const NS_MEDIA = -2;
export const NS_SPECIAL = -1;
export const NS_MAIN = 0;
export const NS_USER = 2;
export const NS_PROJECT = 4;
export const NS_FILE = 6;
export const NS_MEDIAWIKI = 8;
export const NS_TEMPLATE = 10;
export const NS_CATEGORY = 14;
export const NS_PROPERTY = 102;
export const NS_FORM = 106;

/** MediaWiki's uk names (MessagesUk.php) and the extension namespaces; project names come from the sitename. */
export function defaultNamespaces(siteName: string): NamespaceInfo[] {
  const meta = siteName.replace(/_/g, ' ');
  const list: Array<[number, string, string | undefined]> = [
    [-2, 'Медіа', 'Media'],
    [-1, 'Спеціальна', 'Special'],
    [0, '', undefined],
    [1, 'Обговорення', 'Talk'],
    [2, 'Користувач', 'User'],
    [3, 'Обговорення користувача', 'User talk'],
    [4, meta, 'Project'],
    [5, 'Обговорення ' + ukGenitive(meta), 'Project talk'],
    [6, 'Файл', 'File'],
    [7, 'Обговорення файлу', 'File talk'],
    [8, 'MediaWiki', 'MediaWiki'],
    [9, 'Обговорення MediaWiki', 'MediaWiki talk'],
    [10, 'Шаблон', 'Template'],
    [11, 'Обговорення шаблону', 'Template talk'],
    [12, 'Довідка', 'Help'],
    [13, 'Обговорення довідки', 'Help talk'],
    [14, 'Категорія', 'Category'],
    [15, 'Обговорення категорії', 'Category talk'],
    [102, 'Property', 'Property'],
    [103, 'Property talk', 'Property talk'],
    [104, 'Type', 'Type'],
    [105, 'Type talk', 'Type talk'],
    [106, 'Форма', 'Form'],
    [107, 'Обговорення форми', 'Form talk'],
    [108, 'Concept', 'Concept'],
    [109, 'Concept talk', 'Concept talk'],
  ];
  return list.map(([id, name, canonical]) => ({
    id,
    name,
    canonical,
    case: 'first-letter' as const,
    subpages: id > 0 && (id % 2 === 1 || id === 2 || id === 4 || id === 12 || id === 102) ? true : undefined,
    content: id === 0 ? true : undefined,
  }));
}

/** uk aliases (MessagesUk.php $namespaceAliases) and the global Image/Image_talk aliases of Setup.php. */
export const DEFAULT_ALIASES: Array<{ id: number; alias: string }> = [
  { id: -1, alias: 'Спеціальні' },
  { id: 6, alias: 'Image' },
  { id: 6, alias: 'Зображення' },
  { id: 7, alias: 'Image talk' },
  { id: 7, alias: 'Обговорення зображення' },
  { id: 11, alias: 'Обговорення шаблона' },
];

/** LanguageUk::convertGrammar for the genitive, used for the project talk namespace name. */
export function ukGenitive(word: string): string {
  if (/[a-z_]/i.test(word)) return word;
  if (/[вВ]ікі$/.test(word)) return word;
  if (word.endsWith('ь')) return word.slice(0, -1) + 'я';
  if (word.endsWith('ія')) return word.slice(0, -2) + 'ії';
  if (word.endsWith('ка')) return word.slice(0, -2) + 'ки';
  if (word.endsWith('ти')) return word.slice(0, -2) + 'тей';
  if (word.endsWith('ди')) return word.slice(0, -2) + 'дів';
  if (word.endsWith('ник')) return word + 'а';
  return word;
}
