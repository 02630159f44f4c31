/**
 * External URLs as MediaWiki 1.25 records them: the protocols it links ($wgUrlProtocols), the URL
 * cleaning of Sanitizer::cleanUrl and Parser::replaceUnusualEscapes, and the reversed-host index of
 * externallinks.el_index (wfMakeUrlIndexes), by which list=exturlusage finds the links of a domain.
 */
import { decodeCharReferences } from './titles.js';

/** $wgUrlProtocols of 1.25, in its order */
export const URL_PROTOCOLS = [
  'bitcoin:',
  'ftp://',
  'ftps://',
  'geo:',
  'git://',
  'gopher://',
  'http://',
  'https://',
  'irc://',
  'ircs://',
  'magnet:',
  'mailto:',
  'mms://',
  'news:',
  'nntp://',
  'redis://',
  'sftp://',
  'sip:',
  'sips:',
  'sms:',
  'ssh://',
  'svn://',
  'tel:',
  'telnet://',
  'urn:',
  'worldwind://',
  'xmpp:',
  '//',
];

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** wfUrlProtocols(): the alternation for regexes */
export const PROTOCOL_ALTERNATION = URL_PROTOCOLS.map(escapeRe).join('|');
export const PROTOCOL_ALTERNATION_NO_REL = URL_PROTOCOLS.filter((p) => p !== '//')
  .map(escapeRe)
  .join('|');

/** Sanitizer::cleanUrl: entities decoded, then control characters, brackets, quotes and '|' escaped. */
export function cleanUrl(url: string): string {
  let u = decodeCharReferences(url);
  u = u.replace(/[\][<>"\x00-\x20\x7f|]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
  const m = /^([^:]+:)(\/\/[^/]+)?([\s\S]*)$/i.exec(u);
  if (!m) return u;
  // characters IDNs ignore (soft hyphen, ZWJ, ZWNJ, …) and whitespace (PCRE's \s with /u, which PHP
  // compiles with PCRE_UCP: \p{Z}, \h, \v) are dropped from the host
  let host = (m[2] ?? '').replace(
    /[\p{Z}\t\n\x0b\f\r\x85\u180e]|\u00ad|\u034f|\u1806|\u180b|\u180c|\u180d|\u200b|\u2060|\ufeff|\u200c|\u200d|[\ufe00-\ufe0f]/gu,
    '',
  );
  const v6 = /^\/\/%5B([0-9A-Fa-f:.]+)%5D((:\d+)?)$/.exec(host);
  if (v6) host = `//[${v6[1]}]${v6[2]}`;
  return m[1] + host + m[3];
}

/** Parser::replaceUnusualEscapes: %XX of a harmless printable ASCII character becomes the character. */
export function replaceUnusualEscapes(url: string): string {
  return url.replace(/%[0-9A-Fa-f]{2}/g, (m) => {
    const code = parseInt(m.slice(1), 16);
    const c = String.fromCharCode(code);
    return code > 32 && code < 127 && !'"#%<>[\\]^`{|}'.includes(c) ? c : m;
  });
}

interface UrlBits {
  scheme: string;
  delimiter: string;
  host: string;
  port?: string;
  path?: string;
  query?: string;
  fragment?: string;
}

/** wfParseUrl (PHP's parse_url with MediaWiki's corrections), or null when it fails. */
export function parseUrl(url: string): UrlBits | null {
  const relative = url.startsWith('//');
  const u = relative ? 'http:' + url : url;
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):([\s\S]*)$/.exec(u);
  if (!m) return null;
  const scheme = m[1].toLowerCase();
  let rest = m[2];
  let delimiter: string;
  if (URL_PROTOCOLS.includes(scheme + '://') && rest.startsWith('//')) delimiter = '://';
  else if (URL_PROTOCOLS.includes(scheme + ':')) delimiter = ':';
  else return null;
  const bits: UrlBits = { scheme: relative ? '' : scheme, delimiter: relative ? '//' : delimiter, host: '' };
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    bits.fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  const q = rest.indexOf('?');
  if (q >= 0) {
    bits.query = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (delimiter === '://') {
    rest = rest.slice(2);
    const slash = rest.indexOf('/');
    let authority = slash < 0 ? rest : rest.slice(0, slash);
    if (slash >= 0) bits.path = rest.slice(slash);
    const at = authority.lastIndexOf('@');
    if (at >= 0) authority = authority.slice(at + 1);
    const port = /^(.*):(\d*)$/.exec(authority);
    if (port && !authority.endsWith(']')) {
      authority = port[1];
      if (port[2] !== '') bits.port = port[2];
    }
    bits.host = authority;
  } else {
    // parse_url reads the host of mailto:/news: as the path; MediaWiki moves it back
    bits.host = rest;
    bits.path = '';
  }
  return bits;
}

/**
 * wfMakeUrlIndexes: the el_index forms of a URL -- scheme, delimiter, host labels reversed and lowercased
 * with a trailing '.', then port, path ('/' when none), query, fragment. A protocol-relative URL gets an
 * http: and an https: form. Mail addresses reverse only their domain. No index for a URL MediaWiki cannot parse.
 */
export function urlIndexes(url: string): string[] {
  const bits = parseUrl(url);
  if (bits === null) return [];
  let reversed: string;
  if (bits.scheme === 'mailto') {
    const parts = bits.host.split('@');
    const domain = parts.length >= 2 ? parts.slice(1).join('@').split('.').reverse().join('.').toLowerCase() : '';
    reversed = domain + '@' + parts[0];
  } else {
    reversed = bits.host.split('.').reverse().join('.').toLowerCase();
  }
  if (!reversed.endsWith('.')) reversed += '.';
  let index = bits.scheme + bits.delimiter + reversed;
  if (bits.port !== undefined) index += ':' + bits.port;
  index += bits.path !== undefined && bits.path !== '' ? bits.path : bits.delimiter === ':' ? '' : '/';
  if (bits.query !== undefined) index += '?' + bits.query;
  if (bits.fragment !== undefined) index += '#' + bits.fragment;
  return bits.scheme === '' ? ['http:' + index, 'https:' + index] : [index];
}

/**
 * LinkFilter::makeLikeArray of 1.25 reduced to what keepOneWildcard leaves: the el_index prefix that
 * `protocol + query` selects. A leading `*.` in the host matches the domain and its subdomains; otherwise
 * the host is exact and the path (default '/') a prefix. Null when MediaWiki refuses the query
 * (unparseable, or a '*' elsewhere).
 */
export function urlIndexPrefix(query: string, protocol: string): string | null {
  const bits = parseUrl(protocol + query);
  if (bits === null) return null;
  let host = bits.host;
  let wildcard = false;
  if (bits.scheme === 'mailto' && host.includes('@')) {
    const [user, domain] = host.split('@', 2);
    host = domain.split('.').reverse().join('.').toLowerCase() + '@' + user;
  } else if (bits.scheme === 'mailto') {
    host = host.split('.').reverse().join('.').toLowerCase();
  } else {
    if (host.startsWith('*.')) {
      wildcard = true;
      host = host.slice(2);
    }
    host = host.split('.').reverse().join('.').toLowerCase();
    if (!host.endsWith('.')) host += '.';
  }
  if (host.includes('*')) return null;
  let like = bits.scheme + bits.delimiter + host;
  if (wildcard) return like;
  if (bits.port !== undefined) like += ':' + bits.port;
  if (bits.scheme !== 'mailto') like += bits.path !== undefined && bits.path !== '' ? bits.path : '/';
  if (bits.query !== undefined) like += '?' + bits.query;
  return like;
}

/** The protocol parameter of extlinks/exturlusage: '' and the $wgUrlProtocols without '//', by name ('http', 'mailto'). */
export const PROTOCOL_NAMES = ['', ...URL_PROTOCOLS.filter((p) => p !== '//').map((p) => p.slice(0, p.indexOf(':')))];

/** ApiQueryExtLinksUsage::getProtocolPrefix: 'http' → 'http://', '' → none. */
export function protocolPrefix(name: string): string | undefined {
  if (name === '') return undefined;
  return URL_PROTOCOLS.find((p) => p.startsWith(name)) ?? name;
}

/** wfExpandUrl(..., PROTO_CANONICAL) for a protocol-relative URL: the canonical server's protocol (http). */
export function expandUrl(url: string, canonicalProtocol = 'http:'): string {
  return url.startsWith('//') ? canonicalProtocol + url : url;
}
