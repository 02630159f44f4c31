/**
 * PHP's urlencode() and rawurlencode(). PHP encodes bytes; MediaWiki validates its input as UTF-8
 * first, so a lone surrogate reaches them as U+FFFD.
 */

/** encodeURIComponent refuses lone surrogates; PHP would see U+FFFD after UTF-8 validation, so do we. */
export function wellFormed(s: string): string {
  return s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** PHP rawurlencode (RFC 3986): everything but A-Z a-z 0-9 - _ . ~ is percent-encoded, upper-case hex. */
export function rawUrlEncode(s: string): string {
  return encodeURIComponent(wellFormed(s)).replace(/[!'()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** PHP urlencode(): "+" for space, only [A-Za-z0-9_.-] left alone. */
export function phpUrlencode(s: string): string {
  return encodeURIComponent(wellFormed(s))
    .replace(/[!'()*~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+');
}
