/** What one render needs from outside, and what it records (ParserOutput). */
import type { TitleCodec } from '../../wiki/titles.js';
import type { HeadingMark } from '../preprocessor/context.js';
import { DUPLICATE_DISPLAYTITLE_UK } from '../preprocessor/expander.js';

export interface RenderFile {
  width: number;
  height: number;
  mediaType: string;
  /** e.g. image/png: which handler scales it (src/wiki/thumbnails.ts) */
  mime: string;
}

export interface LinkTarget {
  ns: number;
  dbkey: string;
}

/** the interface messages the HTML uses, in the content language */
export interface RenderMessages {
  editsection: string;
  /** "$1" = section title */
  editsectionhint: string;
  toc: string;
  /** "$1" = page title */
  'red-link-title': string;
  'thumbnail-more': string;
  /** "$1" = the reason (MediaTransformError) */
  thumbnail_error: string;
  /** "$1" = $wgMaxImageArea as Language::formatComputingNumbers writes it */
  thumbnail_toobigimagearea: string;
  /** "$1" = a number of megapixels */
  'size-megapixel': string;
  /** tracking category of pages showing a missing file */
  'broken-file-category': string;
  /** tracking category of category pages with __HIDDENCAT__ */
  'hidden-category-category': string;
  /** tracking category of pages whose {{DISPLAYTITLE:}} was refused */
  'restricted-displaytitle-ignored': string;
  /** tracking categories of __INDEX__ / __NOINDEX__ outside the content namespaces */
  'index-category': string;
  'noindex-category': string;
  /** tracking categories the expansion adds (ExpandResult.trackingCategories) */
  'duplicate-args-category': string;
  'expensive-parserfunction-category': string;
  'post-expand-template-argument-category': string;
  'post-expand-template-inclusion-category': string;
  'node-count-exceeded-category': string;
  'expansion-depth-exceeded-category': string;
  /** "$1" = the earlier display title, "$2" = the later one */
  'duplicate-displaytitle': string;
  /** the error an <indicator> without a name shows */
  'invalid-indicator-name': string;
  /** where RFC n and PMID n link ("$1" = n) */
  rfcurl: string;
  pubmedurl: string;
  /** the redirect header's text, in the page's language (Article::getRedirectHeaderHtml) */
  redirectto: string;
}

export interface RenderEnv {
  codec: TitleCodec;
  /** the page rendered */
  title: LinkTarget;
  messages: RenderMessages;
  /** existence of pages linked to: `${ns}|${dbkey}` → redirect?; absent = missing (filled after the link pass) */
  pages: Map<string, { redirect: boolean }>;
  /** uploaded files by DB key; once filesLoaded, a name not in the map is missing */
  files: Map<string, RenderFile>;
  filesLoaded?: boolean;
  /** the interwiki map: URLs of [[prefix:Title]] links */
  interwiki?: { get(prefix: string): unknown; isLanguage(prefix: string): boolean; url(prefix: string, title: string): string | undefined };
  /** the headings behind the expansion's heading markers (Parser::$mHeadings) */
  headings?: readonly HeadingMark[];
  /** per-request options of action=parse */
  editSections: boolean;
  toc: boolean;
}

/** ParserOutput: what the render found besides the HTML. */
export class RenderOutput {
  /** page links `${ns}|${dbkey}`, in order of first use */
  readonly links = new Map<string, LinkTarget>();
  readonly images = new Map<string, true>();
  readonly categories = new Map<string, string>();
  readonly langLinks: Array<{ lang: string; title: string }> = [];
  readonly iwLinks: Array<{ prefix: string; title: string; url?: string }> = [];
  readonly externalLinks: string[] = [];
  readonly properties = new Map<string, string>();
  sections: Array<{
    toclevel: number;
    level: string;
    line: string;
    number: string;
    index: string;
    fromtitle: string | false;
    byteoffset: number | null;
    anchor: string;
  }> = [];
  displayTitle?: string;
  defaultSort?: string;
  /** "__NOTOC__" etc. seen */
  readonly switches = new Set<string>();
  limitReport: Array<[string, unknown]> = [];
  /** ParserOutput::setIndicator: name → HTML, in the order first set (a later one of the same name replaces it in place) */
  readonly indicators = new Map<string, string>();
  /** ResourceLoader modules the output needs (ParserOutput::addModules) */
  readonly modules = new Set<string>();
  /** the files (DB keys) asked for that were not in env.files: the caller fetches and renders again */
  readonly filesWanted = new Set<string>();
}

export const linkKey = (ns: number, dbkey: string) => `${ns}|${dbkey}`;

/** the uk texts of these messages in MediaWiki 1.25's languages/i18n/uk.json, for a store without them */
/** the en.json texts of the interface ones, for a user language the store has no text for */
export const EN_INTERFACE_MESSAGES: Pick<
  RenderMessages,
  | 'editsection'
  | 'editsectionhint'
  | 'toc'
  | 'red-link-title'
  | 'thumbnail-more'
  | 'thumbnail_error'
  | 'thumbnail_toobigimagearea'
  | 'size-megapixel'
> = {
  editsection: 'edit',
  editsectionhint: 'Edit section: $1',
  toc: 'Contents',
  'red-link-title': '$1 (page does not exist)',
  'thumbnail-more': 'Enlarge',
  thumbnail_error: 'Error creating thumbnail: $1',
  thumbnail_toobigimagearea: 'File with dimensions greater than $1',
  'size-megapixel': '$1 MP',
};

export const UK_MESSAGES: Omit<RenderMessages, 'invalid-indicator-name'> = {
  editsection: 'ред.',
  editsectionhint: 'Редагувати розділ: $1',
  toc: 'Зміст',
  'red-link-title': '$1 (такої сторінки не існує)',
  'thumbnail-more': 'Збільшити',
  thumbnail_error: 'Помилка створення мініатюри: $1',
  thumbnail_toobigimagearea: 'Файл з розмірами більше, ніж $1',
  // not in uk.json nor ru.json: en.json's
  'size-megapixel': '$1 MP',
  'broken-file-category': 'Сторінки, що посилаються на неіснуючі файли',
  'hidden-category-category': 'Приховані категорії',
  'restricted-displaytitle-ignored': 'Сторінки, де ігноруються відображувані назви',
  redirectto: 'Перенаправити на:',
  'index-category': 'Індексовані сторінки',
  'noindex-category': 'Неіндексовані сторінки',
  'duplicate-args-category': 'Сторінки, що містять шаблон із кількома значеннями одного й того ж параметра',
  'expensive-parserfunction-category': 'Сторінки з дуже великою кількістю викликів ресурсомістких функцій',
  'post-expand-template-argument-category': 'Сторінки, які містять пропущені аргументи шаблонів',
  'post-expand-template-inclusion-category': 'Сторінки з перевищеним розміром включених шаблонів',
  'node-count-exceeded-category': 'Сторінки, на яких перевищено лічильник вузлів',
  'expansion-depth-exceeded-category': 'Сторінки, де перевищено глибину розгортання',
  'duplicate-displaytitle': DUPLICATE_DISPLAYTITLE_UK,
  rfcurl: '//tools.ietf.org/html/rfc$1',
  pubmedurl: '//www.ncbi.nlm.nih.gov/pubmed/$1?dopt=Abstract',
};

/** the tracking categories an expansion reports (ExpandResult.trackingCategories) */
const EXPANSION_TRACKING_MESSAGES = [
  'duplicate-args-category',
  'expensive-parserfunction-category',
  'post-expand-template-argument-category',
  'post-expand-template-inclusion-category',
  'node-count-exceeded-category',
  'expansion-depth-exceeded-category',
] as const;

/**
 * The messages naming tracking categories (Parser::addTrackingCategory): 1.25's
 * SpecialTrackingCategories::$coreTrackingCategories and restricted-displaytitle-ignored
 */
export const TRACKING_MESSAGES = [
  'broken-file-category',
  'hidden-category-category',
  'restricted-displaytitle-ignored',
  'index-category',
  'noindex-category',
  ...EXPANSION_TRACKING_MESSAGES,
] as const;

export type TrackingMessage = (typeof TRACKING_MESSAGES)[number];

export const EXPANSION_TRACKING: ReadonlySet<string> = new Set<TrackingMessage>(EXPANSION_TRACKING_MESSAGES);
