const ESCAPE_RE = /[\n\r](?:----|[#*: \n\r\t])|(?:ISBN|RFC|PMID)[ \t\r\n\f]|__|:\/\/|["&'<=>[\]{|};]/g;
const ESCAPE_CHAR: Record<string, string> = {
  '#': '&#35;',
  '*': '&#42;',
  ':': '&#58;',
  ' ': '&#32;',
  '\n': '&#10;',
  '\r': '&#13;',
  '\t': '&#9;',
  '\f': '&#12;',
};
const NON_SLASH_PROTOCOLS = /\b(bitcoin|geo|magnet|mailto|news|sip|sips|sms|tel|urn|xmpp):/gi;

/**
 * wfEscapeWikiText: what MediaWiki does to page names it substitutes, so that they cannot form markup
 * ("Кам'янка" → "Кам&#39;янка"). Consumers decode character references in titles, as MediaWiki does.
 */
export function escapeWikiText(text: string): string {
  const out = ('\n' + text).replace(ESCAPE_RE, (m) => {
    if (m.length === 1) return `&#${m.charCodeAt(0)};`;
    if (m === '__') return '_&#95;';
    if (m === '://') return '&#58;//';
    const c0 = m[0];
    if (c0 === '\n' || c0 === '\r') {
      if (m.endsWith('----')) return c0 + '&#45;---';
      if (m === '\r\n') return '&#13;\n';
      return c0 + ESCAPE_CHAR[m[1]];
    }
    return m.slice(0, -1) + ESCAPE_CHAR[m[m.length - 1]]; // ISBN/RFC/PMID + whitespace
  });
  return out.slice(1).replace(NON_SLASH_PROTOCOLS, '$1&#58;');
}
