/**
 * format=wddx (deprecated in 1.25): ApiFormatWddx::slowWddxPrinter, the printer 1.25 used wherever PHP's
 * wddx extension was missing or broken (and always for wddxfm): a PHP list as <array>, anything else
 * as <struct> (AssocAsObject), with line breaks and indentation only in wddxfm.
 */
import { phpScalarString, type PhpValue } from '../../php/values.js';

export function toWddx(data: PhpValue, pretty: boolean): string {
  const nl = pretty ? '\n' : '';
  const out: string[] = [`<?xml version="1.0"?>${nl}`, `<wddxPacket version="1.0">${nl}`];
  const ind = pretty ? ' ' : '';
  out.push(`${ind}<header />${nl}`, `${ind}<data>${nl}`);
  slowWddxPrinter(out, data, 4, pretty);
  out.push(`${ind}</data>${nl}`, `</wddxPacket>${nl}`);
  return out.join('');
}

function slowWddxPrinter(out: string[], value: PhpValue, indent: number, pretty: boolean): void {
  const indstr = pretty ? ' '.repeat(indent) : '';
  const indstr2 = pretty ? ' '.repeat(indent + 2) : '';
  const nl = pretty ? '\n' : '';
  if (value !== null && typeof value === 'object') {
    // a non-empty array whose keys are not 0…n-1 is printed as an object
    const isList = !value.assoc || value.entries.length === 0 || value.entries.every((e, i) => e[0] === i);
    if (isList && !(value.assoc && value.entries.length > 0)) {
      out.push(`${indstr}<array length="${value.entries.length}">${nl}`);
      for (const [, item] of value.entries) slowWddxPrinter(out, item, indent + 2, pretty);
      out.push(`${indstr}</array>${nl}`);
    } else {
      out.push(`${indstr}<struct>${nl}`);
      for (const [k, item] of value.entries) {
        out.push(`${indstr2}<var name="${encodeAttribute(String(k))}">${nl}`);
        slowWddxPrinter(out, item, indent + 4, pretty);
        out.push(`${indstr2}</var>${nl}`);
      }
      out.push(`${indstr}</struct>${nl}`);
    }
  } else if (typeof value === 'number') {
    out.push(`${indstr}<number>${phpScalarString(value)}</number>${nl}`);
  } else if (typeof value === 'string') {
    out.push(`${indstr}<string>${escapeText(value)}</string>${nl}`);
  } else if (typeof value === 'boolean') {
    out.push(`${indstr}<boolean value="${value ? 'true' : 'false'}" />${nl}`);
  } else out.push(`${indstr}<null />${nl}`);
}

function escapeText(s: string): string {
  return s.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

function encodeAttribute(s: string): string {
  return escapeText(s).replace(/'/g, '&#039;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
