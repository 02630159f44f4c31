/**
 * SMW 2.2's URI values (SMWURIValue for URL, Annotation URI, Email and Telephone number).
 */
import { rawUrlEncode } from '../../php/url.js';
import { DI } from '../types.js';
import type { ParseResult } from './data-item.js';

function encodeUriPart(s: string): string {
  return rawUrlEncode(s)
    .replace(/%3A/g, ':')
    .replace(/%2F/g, '/')
    .replace(/%23/g, '#')
    .replace(/%40/g, '@')
    .replace(/%3F/g, '?')
    .replace(/%3D/g, '=')
    .replace(/%26/g, '&')
    .replace(/%25/g, '%');
}

/** SMWDIUri::getURI: '//' only for http, https and ftp. */
export function uriItem(scheme: string, hierpart: string, query = '', fragment = ''): string {
  const slashes = scheme === 'http' || scheme === 'https' || scheme === 'ftp' ? '//' : '';
  return scheme + ':' + slashes + hierpart + (query ? '?' + query : '') + (fragment ? '#' + fragment : '');
}

/** SMWURIValue in URL mode. */
export function parseUrl(value: string): ParseResult {
  let v = value.trim();
  if (v === '') return { error: 'smw_emptystring' };
  let colon = v.indexOf(':');
  if (colon < 0) {
    v = 'http://' + v;
    colon = 4;
  }
  const scheme = v.slice(0, colon);
  let rest = v.slice(colon + 1);
  let hierpart: string;
  let query = '';
  let fragment = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    hierpart = rest.slice(0, q);
    rest = rest.slice(q + 1);
    const h = rest.indexOf('#');
    query = h >= 0 ? rest.slice(0, h) : rest;
    fragment = h >= 0 ? rest.slice(h + 1) : '';
  } else {
    const h = rest.indexOf('#');
    hierpart = h >= 0 ? rest.slice(0, h) : rest;
    fragment = h >= 0 ? rest.slice(h + 1) : '';
  }
  hierpart = encodeUriPart(hierpart);
  query = encodeUriPart(query);
  fragment = encodeUriPart(fragment);
  if (hierpart.startsWith('//')) hierpart = hierpart.slice(2);
  if (scheme === '' || /[^a-zA-Z]/.test(scheme) || hierpart === '') return { error: 'smw_baduri' };
  return { di: DI.URI, item: uriItem(scheme, hierpart, query, fragment) };
}

// Sanitizer::validateEmail (MediaWiki 1.25)
const EMAIL = /^[a-z0-9!#$%&'*+\-/=?^_`{|}~.]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*$/i;

/** SMWURIValue in email mode: mailto:<address>. */
export function parseEmail(value: string): ParseResult {
  let v = value.trim();
  if (v.startsWith('mailto:')) v = v.slice(7);
  if (v === '' || !EMAIL.test(v)) return { error: 'smw_baduri' };
  return { di: DI.URI, item: uriItem('mailto', encodeUriPart(v)) };
}

const TEL_GLOBAL = /^tel:\+[0-9\-.()]*[0-9][0-9\-.()]*$/;

/** SMWURIValue in telephone mode: spaces between digits become '-', 00 → +, a global number. */
export function parseTelephone(value: string): ParseResult {
  let v = value.trim();
  if (v.startsWith('tel:')) v = v.slice(4);
  let h = v.replace(/(?<=[0-9]) (?=[0-9])/g, '-').replace(/ /g, '');
  if (h.startsWith('00')) h = '+' + h.slice(2);
  if (h.replace(/[^0-9]/g, '').length < 6 || /[-+./][-./]/.test(h) || !TEL_GLOBAL.test('tel:' + h)) return { error: 'smw_baduri' };
  return { di: DI.URI, item: 'tel:' + h };
}
