/**
 * Output formats (ApiFormatJson and the *fm HTML wrapper): json, jsonfm (the default), JSONP callbacks.
 * The printer's own parameters (formatversion, utf8, ascii, callback) are read here.
 */
import { ApiError, texts } from '../errors.js';
import { toJson, toJsonBytes } from './json.js';
import { htmlspecialchars } from '../../wiki/html.js';

export const FORMATS = ['json', 'jsonfm'] as const;
export type FormatName = (typeof FORMATS)[number];

/** Parameters that belong to the printer and are never reported as unrecognized. */
export const PRINTER_PARAMS = ['callback', 'utf8', 'ascii', 'formatversion'];

export interface PrinterOptions {
  format: FormatName;
  formatversion: 1 | 2;
  utf8: boolean;
  ascii: boolean;
  /** sanitized JSONP callback name, or undefined */
  callback?: string;
}

/** Read the printer parameters; a bad formatversion throws (the caller re-prints with defaults). */
export function printerOptions(format: FormatName, raw: Record<string, string>): PrinterOptions {
  const fvRaw = raw.formatversion;
  let formatversion: 1 | 2 = 1;
  if (fvRaw !== undefined) {
    if (fvRaw === '2' || fvRaw === 'latest') formatversion = 2;
    else if (fvRaw !== '1') throw new ApiError('unknown_formatversion', texts.unknownValue('formatversion', fvRaw));
  }
  const callback = raw.callback !== undefined ? raw.callback.replace(/[^\][.'"_A-Za-z0-9]/g, '') : undefined;
  return { format, formatversion, utf8: raw.utf8 !== undefined, ascii: raw.ascii !== undefined, callback };
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
  const html = p.format === 'jsonfm';
  const ascii = printsAscii(p);
  // plain JSON, the answer of nearly every client, goes out as the writer's bytes
  if (!html && p.callback === undefined) {
    return {
      contentType: 'application/json; charset=utf-8',
      body: toJsonBytes(tree, { formatversion: p.formatversion, ascii, pretty: false }),
      extraHeaders: JSON_HEADERS,
    };
  }
  const json = toJson(tree, { formatversion: p.formatversion, ascii, pretty: html });
  const body = p.callback !== undefined ? `/**/${p.callback}(${json})` : json;
  if (html) return { contentType: 'text/html; charset=utf-8', body: htmlPage(body, apiUrl, query) };
  if (p.callback !== undefined) {
    return {
      contentType: 'text/javascript; charset=utf-8',
      body,
      extraHeaders: { 'Content-Disposition': 'inline; filename=api-result.js', 'MediaWiki-Login-Suppressed': 'true' },
    };
  }
  return { contentType: 'application/json; charset=utf-8', body, extraHeaders: JSON_HEADERS };
}

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'Content-Disposition': 'inline; filename=api-result.json' });

/** The jsonfm page: our own Ukrainian explanation, then the pretty JSON, HTML-escaped. */
function htmlPage(pretty: string, apiUrl: string, query: string): string {
  const params = new URLSearchParams(query);
  params.set('format', 'json');
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
Щоб отримати саму відповідь у форматі JSON, додайте до запиту <code>format=json</code>: <a href="${htmlspecialchars(jsonLink)}">${htmlspecialchars(jsonLink)}</a>.
Опис усіх модулів і параметрів — на <a href="${htmlspecialchars(apiUrl)}">сторінці довідки API</a>.</p>
</div>
<pre class="api-pretty-content">${htmlspecialchars(pretty)}</pre>
</div>
</div>
</body>
</html>
`;
}
