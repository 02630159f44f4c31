/**
 * Uploaded files as MediaWiki 1.25 addresses them: the hashed upload path (`$wgHashedUploadDirectory`,
 * `/images/a/ab/Name.png` where a/ab are the first 1 and 2 hex digits of md5(DB key)), the description
 * page URL, the URL encodings PHP uses for each, and the two SHA-1 forms (img_sha1 is base 36).
 *
 * One place for these rules: imageinfo/allimages report the URLs, the HTTP layer serves the bytes there.
 */
import { createHash } from 'node:crypto';
import { rawUrlEncode, wellFormed } from '../php/url.js';

/** `$wgUploadPath` with an empty script path. */
export const UPLOAD_PATH = '/images';
/** `$wgArticlePath` as siteinfo reports it. */
export const ARTICLE_PATH = '/index.php/$1';
/** ARTICLE_PATH around its `$1`: put together rather than replaced, so that a "$$" of a title stays two dollars */
const ARTICLE_PATH_PARTS = ARTICLE_PATH.split('$1') as [string, string];

/** FileRepo::getHashPathForLevel(name, 2): 'a/ab/' from md5 of the DB key (UTF-8 bytes). */
export function hashPath(name: string): string {
  const h = createHash('md5').update(name, 'utf8').digest('hex');
  return `${h[0]}/${h.slice(0, 2)}/`;
}

/**
 * wfUrlencode: PHP urlencode (space → '+', '~' encoded) with ; @ $ ! * ( ) , / ~ : left readable, as
 * MediaWiki encodes titles in page URLs.
 */
export function wfUrlencode(s: string): string {
  return encodeURIComponent(wellFormed(s))
    .replace(/'/g, '%27')
    .replace(/%20/g, '+')
    .replace(/%(3B|40|24|2C|2F|3A)/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

/** Server-relative URL of an uploaded file: `/images/a/ab/Name.png` (LocalFile::getUrl). */
export function fileUrlPath(name: string): string {
  return `${UPLOAD_PATH}/${hashPath(name)}${rawUrlEncode(name)}`;
}

/** Absolute URL of an uploaded file for a server such as `http://127.0.0.1:8080`. */
export function fileUrl(server: string, name: string): string {
  return server + fileUrlPath(name);
}

/**
 * Absolute URL of a page (Title::getFullURL) from its prefixed DB key, e.g. `Файл:Name.png`; with a query
 * (`diff=2&oldid=1`), index.php's.
 */
/** $wgArticlePath with the encoded title in place of $1 (PHP's str_replace: a "$$" in the title stays) */
export function localArticlePath(encodedTitle: string): string {
  return ARTICLE_PATH_PARTS[0] + encodedTitle + ARTICLE_PATH_PARTS[1];
}

export function pageUrl(server: string, prefixedDbKey: string, query = ''): string {
  const title = wfUrlencode(prefixedDbKey);
  return query === '' ? server + localArticlePath(title) : `${server}/index.php?title=${title}&${query}`;
}

/** The server part (`http://host:port`) of the request's api.php URL. */
export function serverOf(apiUrl: string): string {
  return new URL(apiUrl).origin;
}

/** 40 hex digits → MediaWiki's base-36 SHA-1 (wfBaseConvert(hex, 16, 36, 31)). */
export function sha1HexToBase36(hex: string): string {
  return BigInt('0x' + hex)
    .toString(36)
    .padStart(31, '0');
}

/** MediaWiki's base-36 SHA-1 → 40 hex digits (wfBaseConvert(b36, 36, 16, 40)). */
export function sha1Base36ToHex(b36: string): string {
  let n = 0n;
  for (const c of b36.toLowerCase()) n = n * 36n + BigInt(parseInt(c, 36));
  return n.toString(16).padStart(40, '0');
}

/** File::splitMime: 'image/png' → ['image', 'png']; a value without '/' → [value, 'unknown']. */
export function splitMime(mime: string): [string, string] {
  const i = mime.indexOf('/');
  return i < 0 ? [mime, 'unknown'] : [mime.slice(0, i), mime.slice(i + 1)];
}
