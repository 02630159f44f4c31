/**
 * Serialization of the result tree to JSON, formatversion 1 (MediaWiki's BC transform) or 2, compact or
 * pretty (PHP's JSON_PRETTY_PRINT: 4 spaces, "key": value), with PHP json_encode's escaping choices.
 */
import { ARRAY_TYPE, CONTENT } from '../result.js';

export interface JsonOptions {
  formatversion: 1 | 2;
  /** escape every non-ASCII character as \uXXXX (fv1 default; fv2 with ascii=1) */
  ascii: boolean;
  pretty: boolean;
}

export function toJson(root: unknown, opts: JsonOptions): string {
  const out: string[] = [];
  write(root, opts, out, opts.pretty ? '\n' : '');
  let s = out.join('');
  s = opts.ascii ? escapeNonAscii(s) : s.replace(/[\u2028\u2029]/g, escapeUnit);
  // A JSON answer must never be mistaken for a Flash cross-domain policy (FormatJson::encode).
  if (s.includes('<') && /<\s*cross-domain-policy\s*>/i.test(s)) s = s.replace(/<\s*cross-domain-policy\s*>/gi, (m) => m.replace('<', '\\u003C').replace('>', '\\u003E'));
  return s;
}

function escapeUnit(c: string): string {
  return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}

/** `\uXXXX` for every UTF-16 unit from U+0080, built once: Ukrainian answers escape most characters. */
let escapes: string[] | null = null;

/**
 * PHP json_encode's default: every non-ASCII UTF-16 unit as lowercase `\uXXXX` (astral characters as
 * their surrogate pair). A table and one pass: a regex with a callback was 15× slower on Cyrillic text.
 */
function escapeNonAscii(s: string): string {
  let out = '';
  let last = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (escapes === null) {
      escapes = new Array<string>(0x10000);
      for (let u = 0x80; u < 0x10000; u++) escapes[u] = '\\u' + u.toString(16).padStart(4, '0');
    }
    if (i > last) out += s.slice(last, i);
    out += escapes[c];
    last = i + 1;
  }
  return last === 0 ? s : out + s.slice(last);
}

/** The members of an object node in output order, after the fv1 transform (content to '*', last). */
function members(node: Record<string, unknown> | Map<string, unknown>, fv: 1 | 2): Array<[string, unknown]> {
  const entries: Array<[string, unknown]> = node instanceof Map ? [...node.entries()] : Object.entries(node);
  const contentKey = (node as { [CONTENT]?: string })[CONTENT];
  const list: Array<[string, unknown]> = [];
  let content: [string, unknown] | null = null;
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    if (fv === 1) {
      if (v === false) continue;
      if (k === contentKey) {
        content = ['*', v];
        continue;
      }
    }
    list.push([k, v]);
  }
  if (content) list.push(content);
  return list;
}

function write(v: unknown, opts: JsonOptions, out: string[], nl: string): void {
  const fv = opts.formatversion;
  switch (typeof v) {
    case 'string':
      out.push(JSON.stringify(v));
      return;
    case 'number':
      out.push(Number.isFinite(v) ? String(v) : '0');
      return;
    case 'boolean':
      out.push(fv === 1 ? (v ? '""' : '""') : v ? 'true' : 'false');
      return;
    case 'bigint':
      out.push(v.toString());
      return;
    case 'object':
      break;
    default:
      out.push('null');
      return;
  }
  if (v === null) {
    out.push('null');
    return;
  }
  const inner = nl === '' ? '' : nl + '    ';
  const colon = nl === '' ? ':' : ': ';
  const isBcArray = (v as { [ARRAY_TYPE]?: string })[ARRAY_TYPE] === 'BCarray';
  if (Array.isArray(v) || (fv === 2 && isBcArray)) {
    let items: unknown[] = Array.isArray(v) ? v : [...(v as Map<string, unknown>).values()];
    if (fv === 1) items = items.filter((x) => x !== false && x !== undefined);
    if (items.length === 0) {
      out.push('[]');
      return;
    }
    out.push('[');
    items.forEach((item, i) => {
      if (i) out.push(',');
      out.push(inner);
      write(item, opts, out, inner);
    });
    out.push(nl, ']');
    return;
  }
  const list = members(v as Record<string, unknown>, fv);
  if (list.length === 0) {
    out.push('{}');
    return;
  }
  out.push('{');
  list.forEach(([k, item], i) => {
    if (i) out.push(',');
    out.push(inner, JSON.stringify(k), colon);
    write(item, opts, out, inner);
  });
  out.push(nl, '}');
}
