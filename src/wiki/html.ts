/**
 * HTML escaping, once: PHP's htmlspecialchars() as MediaWiki 1.25 calls it. The default flags of its
 * PHP (ENT_COMPAT) escape & < > and the double quote; ENT_QUOTES (`quotes: 'both'`, used by
 * Sanitizer::escapeHtmlAllowEntities for comments) escapes the single quote too, as `&#039;`.
 */
const COMPAT = /[&<>"]/g;
const BOTH = /[&<>"']/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };
const replace = (c: string) => ENTITY[c];

export function htmlspecialchars(s: string, quotes: 'double' | 'both' = 'double'): string {
  const re = quotes === 'both' ? BOTH : COMPAT;
  re.lastIndex = 0;
  return re.test(s) ? s.replace(re, replace) : s;
}

const TAGS_ONLY = /["<>]/g;

/** Xml::escapeTagsOnly: < > and the double quote, entities left as written (<nowiki>, <pre> bodies) */
export function escapeTagsOnly(s: string): string {
  TAGS_ONLY.lastIndex = 0;
  return TAGS_ONLY.test(s) ? s.replace(TAGS_ONLY, replace) : s;
}

const XML_TEXT = /[&<>]/g;

/** libxml's escaping of a text node (DOMDocument::saveXML): & < >, quotes as they are */
export function escapeXmlText(s: string): string {
  XML_TEXT.lastIndex = 0;
  return XML_TEXT.test(s) ? s.replace(XML_TEXT, replace) : s;
}

const ELEMENT_TEXT = /[&<]/g;

/** Html::element's escaping of an element's text in MediaWiki 1.25: & and < only */
export function escapeElementText(s: string): string {
  ELEMENT_TEXT.lastIndex = 0;
  return ELEMENT_TEXT.test(s) ? s.replace(ELEMENT_TEXT, replace) : s;
}

const DECODE = /&(?:amp|lt|gt|quot);/g;
const DECODED: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

/** PHP's htmlspecialchars_decode() with its default flags (ENT_COMPAT): the four entities htmlspecialchars makes */
export function htmlspecialcharsDecode(s: string): string {
  return s.includes('&') ? s.replace(DECODE, (e) => DECODED[e]) : s;
}

const COMMENT_UNSAFE = /[-&]/g;

/**
 * Text made safe inside an HTML comment as Parser::parse does with its limit report: "-" becomes U+2010
 * ("‐", which looks the same but cannot close the comment) and "&" is escaped.
 */
export function commentSafe(s: string): string {
  return s.replace(COMMENT_UNSAFE, (c) => (c === '-' ? '\u2010' : ENTITY[c]));
}
