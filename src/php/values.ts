/**
 * PHP values as PHP's printers see them, and those printers: serialize(), print_r(), var_export(),
 * var_dump() of PHP 5 (the PHP MediaWiki 1.25 ran on): `precision` 14 for print_r and var_dump,
 * `serialize_precision` 17 for serialize and var_export.
 */
import { phpFloatToString } from './numbers.js';

export type PhpKey = string | number;
export type PhpScalar = string | number | boolean | null;
/** A PHP array: its entries in order; `assoc` where a printer tells objects from lists (wddx). */
export interface PhpArrayValue {
  entries: Array<[PhpKey, PhpValue]>;
  assoc: boolean;
}
export type PhpValue = PhpScalar | PhpArrayValue;

/** A JS number as PHP holds it: an int when it is one (and fits), else a float. */
function isPhpInt(n: number): boolean {
  return Number.isSafeInteger(n);
}

/** `%.17G` (php_gcvt with serialize_precision 17): 0.1 → 0.10000000000000001, 2.0 → 2, 1e25 → 1.0E+25. */
export function phpSerializeFloat(x: number): string {
  if (Number.isNaN(x)) return 'NAN';
  if (!Number.isFinite(x)) return x > 0 ? 'INF' : '-INF';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const [mantissa, exponent] = Math.abs(x).toExponential(16).split('e');
  const digits = mantissa!.replace('.', '').replace(/0+$/, '') || '0';
  const decpt = Number(exponent) + 1;
  let out: string;
  if (decpt < -3 || decpt > 17) {
    const e = decpt - 1;
    out = digits[0] + '.' + (digits.length > 1 ? digits.slice(1) : '0') + 'E' + (e < 0 ? '-' : '+') + String(Math.abs(e));
  } else if (decpt <= 0) out = '0.' + '0'.repeat(-decpt) + digits;
  else if (digits.length <= decpt) out = digits + '0'.repeat(decpt - digits.length);
  else out = digits.slice(0, decpt) + '.' + digits.slice(decpt);
  return x < 0 ? '-' + out : out;
}

/** PHP's string conversion of a scalar (echo, print_r, XML text): true "1", false and null "". */
export function phpScalarString(v: PhpScalar): string {
  if (v === null || v === false) return '';
  if (v === true) return '1';
  if (typeof v === 'number') return isPhpInt(v) ? String(v) : phpFloatToString(v);
  return v;
}

/** serialize() */
export function phpSerialize(v: PhpValue): string {
  const out: string[] = [];
  serializeInto(v, out);
  return out.join('');
}

function serializeKey(k: PhpKey, out: string[]): void {
  if (typeof k === 'number') out.push('i:', String(k), ';');
  else out.push('s:', String(Buffer.byteLength(k, 'utf8')), ':"', k, '";');
}

function serializeInto(v: PhpValue, out: string[]): void {
  if (v === null) out.push('N;');
  else if (typeof v === 'boolean') out.push(v ? 'b:1;' : 'b:0;');
  else if (typeof v === 'number') out.push(isPhpInt(v) ? `i:${v};` : `d:${phpSerializeFloat(v)};`);
  else if (typeof v === 'string') serializeKey(v, out);
  else {
    out.push('a:', String(v.entries.length), ':{');
    for (const [k, item] of v.entries) {
      serializeKey(k, out);
      serializeInto(item, out);
    }
    out.push('}');
  }
}

/** the text a writer of PHP's dumps (print_r, var_export, var_dump) makes of `v`, starting at `level` */
function written(v: PhpValue, level: number, into: (v: PhpValue, level: number, out: string[]) => void): string {
  const out: string[] = [];
  into(v, level, out);
  return out.join('');
}

/** print_r( $v, true ) */
export function phpPrintR(v: PhpValue): string {
  return written(v, 0, printRInto);
}

function printRInto(v: PhpValue, indent: number, out: string[]): void {
  if (v === null || typeof v !== 'object') {
    out.push(phpScalarString(v));
    return;
  }
  const pad = ' '.repeat(indent);
  out.push('Array\n', pad, '(\n');
  for (const [k, item] of v.entries) {
    out.push(pad, '    [', String(k), '] => ');
    printRInto(item, indent + 8, out);
    out.push('\n');
  }
  out.push(pad, ')\n');
}

/** var_export( $v, true ) */
export function phpVarExport(v: PhpValue): string {
  return written(v, 1, varExportInto);
}

function exportString(s: string): string {
  return "'" + s.replace(/[\\']/g, '\\$&').replace(/\0/g, '\' . "\\0" . \'') + "'";
}

function varExportInto(v: PhpValue, level: number, out: string[]): void {
  if (v === null) out.push('NULL');
  else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
  else if (typeof v === 'number') out.push(isPhpInt(v) ? String(v) : phpSerializeFloat(v));
  else if (typeof v === 'string') out.push(exportString(v));
  else {
    if (level > 1) out.push('\n', ' '.repeat(level - 1));
    out.push('array (\n');
    for (const [k, item] of v.entries) {
      out.push(' '.repeat(level + 1), typeof k === 'number' ? String(k) : exportString(k), ' => ');
      varExportInto(item, level + 2, out);
      out.push(',\n');
    }
    if (level > 1) out.push(' '.repeat(level - 1));
    out.push(')');
  }
}

/** var_dump( $v ), as ob_get_contents() catches it (no HTML: no xdebug) */
export function phpVarDump(v: PhpValue): string {
  return written(v, 1, varDumpInto);
}

function varDumpInto(v: PhpValue, level: number, out: string[]): void {
  if (level > 1) out.push(' '.repeat(level - 1));
  if (v === null) out.push('NULL\n');
  else if (typeof v === 'boolean') out.push(`bool(${v ? 'true' : 'false'})\n`);
  else if (typeof v === 'number') out.push(isPhpInt(v) ? `int(${v})\n` : `float(${phpFloatToString(v)})\n`);
  else if (typeof v === 'string') out.push(`string(${Buffer.byteLength(v, 'utf8')}) "`, v, '"\n');
  else {
    out.push(`array(${v.entries.length}) {\n`);
    for (const [k, item] of v.entries) {
      out.push(' '.repeat(level + 1), typeof k === 'number' ? `[${k}]=>\n` : `["${k}"]=>\n`);
      varDumpInto(item, level + 2, out);
    }
    if (level > 1) out.push(' '.repeat(level - 1));
    out.push('}\n');
  }
}
