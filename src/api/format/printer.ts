/**
 * Output formats of MediaWiki 1.25 (ApiMain::$Formats): json, php, xml, the deprecated txt, dbg, dump,
 * yaml and wddx, each also as an HTML page (…fm, ApiFormatBase's pretty-printer); rawfm (the tree with
 * its metadata, as JSON in the page) and none (nothing). Each printer's own parameters are read here.
 */
import { ApiError, texts } from '../errors.js';
import { toJson, toJsonBytes } from './json.js';
import { toXml, API_XML_NAMESPACE } from './xml.js';
import { toWddx } from './wddx.js';
import { toPhpValue } from './php-values.js';
import { rawTree } from './raw.js';
import { phpPrintR, phpSerialize, phpVarDump, phpVarExport } from '../../php/values.js';
import { escapeElementText, htmlspecialchars } from '../../wiki/html.js';

/** ApiMain::$Formats, in its order */
export const FORMATS = [
  'json',
  'jsonfm',
  'php',
  'phpfm',
  'wddx',
  'wddxfm',
  'xml',
  'xmlfm',
  'yaml',
  'yamlfm',
  'rawfm',
  'txt',
  'txtfm',
  'dbg',
  'dbgfm',
  'dump',
  'dumpfm',
  'none',
] as const;
export type FormatName = (typeof FORMATS)[number];

/** The printer class behind a format name (the name without 'fm'; rawfm is ApiFormatJson's raw mode). */
export type PrinterKind = 'json' | 'php' | 'wddx' | 'xml' | 'yaml' | 'raw' | 'txt' | 'dbg' | 'dump' | 'none';

/** Formats 1.25 still served with a deprecation warning (ApiFormatBase::markDeprecated). */
const DEPRECATED: ReadonlySet<PrinterKind> = new Set(['txt', 'dbg', 'dump', 'yaml', 'wddx']);

/** Each printer's own parameters (getAllowedParams), never reported as unrecognized when it prints. */
const JSON_PARAMS = ['callback', 'utf8', 'ascii', 'formatversion'];
const PARAMS_BY_KIND: Readonly<Record<PrinterKind, readonly string[]>> = {
  json: JSON_PARAMS,
  yaml: JSON_PARAMS,
  php: ['formatversion'],
  xml: ['xslt', 'includexmlnamespace'],
  wddx: [],
  raw: [],
  txt: [],
  dbg: [],
  dump: [],
  none: [],
};

/** The parameters of the printer of `format`. */
export function printerParams(format: FormatName): readonly string[] {
  return PARAMS_BY_KIND[kindOf(format)];
}

const PARAM_SETS_BY_KIND = new Map<PrinterKind, ReadonlySet<string>>(
  (Object.keys(PARAMS_BY_KIND) as PrinterKind[]).map((k) => [k, new Set(PARAMS_BY_KIND[k])]),
);

/** The same as a set, made once per process: never reported as unrecognized while this printer prints. */
export function printerParamSet(format: FormatName): ReadonlySet<string> {
  return PARAM_SETS_BY_KIND.get(kindOf(format))!;
}

export function kindOf(format: FormatName): PrinterKind {
  if (format === 'rawfm') return 'raw';
  return (format.endsWith('fm') ? format.slice(0, -2) : format) as PrinterKind;
}

export interface PrinterOptions {
  format: FormatName;
  formatversion: 1 | 2;
  utf8: boolean;
  ascii: boolean;
  /** sanitized JSONP callback name, or undefined */
  callback?: string;
  /** format=xml: the xslt parameter (checked and turned into stylesheetHref by the API core) */
  xslt?: string;
  /** format=xml: the `<?xml-stylesheet?>` href, escaped */
  stylesheetHref?: string;
  includexmlnamespace?: boolean;
  /** the root element of format=xml (ApiFormatXml::setRootElement) */
  xmlRoot?: string;
}

/** The deprecation warning of a deprecated format (under its own module name), or undefined. */
export function deprecationWarning(format: FormatName): string | undefined {
  if (!DEPRECATED.has(kindOf(format))) return undefined;
  const fm = format.endsWith('fm') ? 'fm' : '';
  return `format=${format} has been deprecated. Please use format=json${fm} instead.`;
}

function readFormatversion(raw: Record<string, string>): 1 | 2 {
  const fvRaw = raw.formatversion;
  if (fvRaw === undefined || fvRaw === '1') return 1;
  if (fvRaw === '2' || fvRaw === 'latest') return 2;
  throw new ApiError('unknown_formatversion', texts.unknownValue('formatversion', fvRaw));
}

/** Read the printer parameters; a bad formatversion throws (the caller re-prints with defaults). */
export function printerOptions(format: FormatName, raw: Record<string, string>): PrinterOptions {
  switch (kindOf(format)) {
    case 'json':
    case 'yaml': {
      const formatversion = readFormatversion(raw);
      const callback = raw.callback !== undefined ? raw.callback.replace(/[^\][.'"_A-Za-z0-9]/g, '') : undefined;
      return { format, formatversion, utf8: raw.utf8 !== undefined, ascii: raw.ascii !== undefined, callback };
    }
    case 'php':
      return { format, formatversion: readFormatversion(raw), utf8: false, ascii: false };
    case 'xml':
      return {
        format,
        formatversion: 1,
        utf8: false,
        ascii: false,
        xslt: raw.xslt,
        includexmlnamespace: raw.includexmlnamespace !== undefined,
      };
    default:
      return { format, formatversion: 1, utf8: false, ascii: false };
  }
}

export const DEFAULT_PRINTER: PrinterOptions = { format: 'jsonfm', formatversion: 1, utf8: false, ascii: false };

export interface Rendered {
  contentType: string;
  /** bytes (UTF-8) when the printer made them so; text otherwise */
  body: string | Buffer;
  extraHeaders?: Record<string, string>;
}

/** Does the answer escape every non-ASCII character? fv1 does unless utf8; fv2 emits UTF-8 unless ascii. */
export function printsAscii(p: PrinterOptions): boolean {
  return p.formatversion === 1 ? !p.utf8 : p.ascii;
}

export function render(tree: unknown, p: PrinterOptions, apiUrl: string, query: string): Rendered {
  const format = p.format;
  // plain JSON, the answer of nearly every client, goes out as the writer's bytes
  if (format === 'json' && p.callback === undefined) {
    return {
      contentType: 'application/json; charset=utf-8',
      body: toJsonBytes(tree, { formatversion: p.formatversion, ascii: printsAscii(p), pretty: false }),
      extraHeaders: JSON_HEADERS,
    };
  }
  const kind = kindOf(format);
  const html = format.endsWith('fm');
  if (kind === 'json' || kind === 'yaml') {
    const json = toJson(tree, { formatversion: p.formatversion, ascii: printsAscii(p), pretty: html });
    const body = p.callback !== undefined ? `/**/${p.callback}(${json})` : json;
    if (html) return { contentType: 'text/html; charset=utf-8', body: htmlPage(body, apiUrl, query, kind) };
    if (p.callback !== undefined) {
      return {
        contentType: 'text/javascript; charset=utf-8',
        body,
        extraHeaders: { 'Content-Disposition': 'inline; filename=api-result.js', 'MediaWiki-Login-Suppressed': 'true' },
      };
    }
    if (kind === 'yaml') return { contentType: 'application/yaml; charset=utf-8', body, extraHeaders: YAML_HEADERS };
    return { contentType: 'application/json; charset=utf-8', body, extraHeaders: JSON_HEADERS };
  }
  let text: string;
  switch (kind) {
    case 'none':
      return { contentType: 'text/plain; charset=utf-8', body: '', extraHeaders: NONE_HEADERS };
    case 'raw':
      // ApiFormatJson in raw mode: the tree untransformed, metadata and all, pretty and unescaped
      return {
        contentType: 'text/html; charset=utf-8',
        body: htmlPage(toJson(rawTree(tree), { formatversion: 2, ascii: false, pretty: true }), apiUrl, query, 'raw'),
      };
    case 'xml':
      text = toXml(tree, {
        rootName: p.xmlRoot ?? 'api',
        pretty: html,
        stylesheetHref: p.stylesheetHref,
        namespace: p.includexmlnamespace ? API_XML_NAMESPACE : undefined,
      });
      break;
    case 'php':
      text = phpSerialize(toPhpValue(tree, p.formatversion === 1));
      // ApiFormatPhp: the output handler would mangle the policy tag inside a serialized length (bug 66776)
      if (FLASH_POLICY.test(text)) {
        throw new ApiError(
          'internalerror',
          'This response cannot be represented using format=php. See https://bugzilla.wikimedia.org/show_bug.cgi?id=66776',
        );
      }
      break;
    case 'wddx':
      text = toWddx(toPhpValue(tree, true), html);
      break;
    case 'txt':
      text = mangleFlashPolicy(phpPrintR(toPhpValue(tree, true)));
      break;
    case 'dbg':
      text = mangleFlashPolicy(phpVarExport(toPhpValue(tree, true)));
      break;
    default:
      text = mangleFlashPolicy(phpVarDump(toPhpValue(tree, true)));
      break;
  }
  if (html) return { contentType: 'text/html; charset=utf-8', body: htmlPage(text, apiUrl, query, kind) };
  const type = MIME_TYPES[kind];
  return { contentType: `${type.mime}; charset=utf-8`, body: text, extraHeaders: type.headers };
}

const FLASH_POLICY = /<\s*cross-domain-policy\s*>/i;

/**
 * wfMangleFlashPolicy, which 1.25's output handler (WebStart.php's ob_start( 'wfOutputHandler' )) ran on
 * every answer: the printers that write text unescaped can carry the tag (JSON, XML and the HTML pages
 * escape its '<').
 */
function mangleFlashPolicy(text: string): string {
  return FLASH_POLICY.test(text) ? text.replace(/<\s*cross-domain-policy\s*>/gi, '<NOT-cross-domain-policy>') : text;
}

/** getMimeType of each printer, and the file name 1.26+ gives the answer (as JSON's here) */
const MIME_TYPES: Readonly<Record<string, { mime: string; headers: Readonly<Record<string, string>> }>> = {
  xml: { mime: 'text/xml', headers: { 'Content-Disposition': 'inline; filename=api-result.xml' } },
  php: { mime: 'application/vnd.php.serialized', headers: { 'Content-Disposition': 'inline; filename=api-result.php' } },
  wddx: { mime: 'text/xml', headers: { 'Content-Disposition': 'inline; filename=api-result.xml' } },
  // ApiFormatTxt/Dbg/Dump: "text/text", as IE7 would sniff text/plain for HTML
  txt: { mime: 'text/text', headers: { 'Content-Disposition': 'inline; filename=api-result.txt' } },
  dbg: { mime: 'text/text', headers: { 'Content-Disposition': 'inline; filename=api-result.txt' } },
  dump: { mime: 'text/text', headers: { 'Content-Disposition': 'inline; filename=api-result.txt' } },
};

const YAML_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Disposition': 'inline; filename=api-result.yaml' });
const NONE_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Disposition': 'inline; filename=api-result.txt' });

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Disposition': 'inline; filename=api-result.json' });

/** Each printer's name in the page's explanation and the format its link asks for */
const PAGE_FORMATS: Readonly<Record<PrinterKind, readonly [string, string]>> = {
  json: ['JSON', 'json'],
  yaml: ['YAML', 'yaml'],
  raw: ['JSON', 'json'],
  php: ['PHP', 'php'],
  xml: ['XML', 'xml'],
  wddx: ['WDDX', 'wddx'],
  txt: ['TXT', 'txt'],
  dbg: ['DBG', 'dbg'],
  dump: ['DUMP', 'dump'],
  none: ['NONE', 'none'],
};

/**
 * The …fm page: our own Ukrainian explanation, then the printer's text as ApiFormatBase::closePrinter of
 * 1.25 writes it, Html::element( 'pre', … ): only & and < escaped.
 */
function htmlPage(pretty: string, apiUrl: string, query: string, kind: PrinterKind): string {
  const [formatLabel, formatName] = PAGE_FORMATS[kind];
  const params = new URLSearchParams(query);
  params.set('format', formatName);
  const jsonLink = `${apiUrl}?${params.toString()}`;
  return `<!DOCTYPE html>
<html lang="uk" dir="ltr">
<head>
<meta charset="UTF-8">
<title>Результат запиту до API — wikiquery</title>
<meta name="robots" content="noindex,nofollow">
<style>body{font-family:sans-serif;margin:1em 2em}pre.api-pretty-content{white-space:pre-wrap;background:#f8f9fa;border:1px solid #eaecf0;padding:1em}</style>
</head>
<body>
<div class="mw-body" role="main">
<h1 class="firstHeading">Результат запиту до API</h1>
<div class="mw-body-content">
<div class="api-pretty-header">
<p>Ви бачите відповідь API у вигляді сторінки HTML: так її зручно читати людині й налагоджувати запити, але програмам вона не підходить.
Щоб отримати саму відповідь у форматі ${formatLabel}, додайте до запиту <code>format=${formatName}</code>: <a href="${htmlspecialchars(jsonLink)}">${htmlspecialchars(jsonLink)}</a>.
Опис усіх модулів і параметрів — на <a href="${htmlspecialchars(apiUrl)}">сторінці довідки API</a>.</p>
</div>
<pre class="api-pretty-content">${escapeElementText(pretty)}</pre>
</div>
</div>
</body>
</html>
`;
}
