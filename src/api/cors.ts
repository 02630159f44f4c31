/**
 * MediaWiki 1.25's CORS handling (ApiMain::handleCORS, matchOrigin, matchRequestedHeaders,
 * wildcardToRegex), driven by the `origin` parameter: nothing happens without it; a value the Origin
 * header does not list ends the request with a plain-text 403; a value that is the header's only origin
 * and matches an allowed pattern ($wgCrossSiteAJAXdomains, minus $wgCrossSiteAJAXdomainExceptions) gets
 * the Access-Control headers. Patterns are host names (optionally with a port or path prefix) where `*`
 * is any run of characters and `?` one character, matched against the whole origin after `http(s)://`.
 *
 * `origin=*` is answered as MediaWiki 1.30+ answers it (1.25 refused it: no Origin header lists `*`):
 * anonymous CORS for any site, without credentials and without Vary (the answer is the same for every
 * origin); the request is then served as an anonymous one without same-origin security (no tokens).
 */
import { phpLooseEquals } from '../php/compare.js';
import { phpTrim } from '../php/strings.js';

export interface CorsPolicy {
  /** $wgCrossSiteAJAXdomains (`--cors-origin`) */
  allow: string[];
  /** $wgCrossSiteAJAXdomainExceptions (`--cors-except`) */
  except: string[];
}

export type CorsOutcome =
  /** `origin` not given: nothing to do */
  | { kind: 'none' }
  /** `origin` not among the Origin header's values */
  | { kind: 'mismatch' }
  /** headers to add (possibly none: an origin that is not allowed is served without them) */
  | { kind: 'ok'; headers: Record<string, string> };

/** What the Origin header may name besides the simple headers: MediaWiki's own whitelist. */
const ALLOWED_REQUEST_HEADERS = new Set([
  'accept',
  'accept-language',
  'content-language',
  'content-type',
  'accept-encoding',
  'dnt',
  'origin',
  'api-user-agent',
]);

export function handleCors(
  originParam: string | undefined,
  method: string,
  header: (name: string) => string | undefined,
  policy: CorsPolicy,
): CorsOutcome {
  if (originParam === undefined) return { kind: 'none' };
  if (originParam === ANONYMOUS) return anonymousCors(method, header);
  const originHeader = header('origin');
  // PHP: trim(), then preg_split('/\s+/')
  const trimmed = originHeader === undefined ? undefined : phpTrim(originHeader);
  const origins = trimmed === undefined ? [] : trimmed.split(/[ \t\n\r\f]+/);
  if (!origins.some((o) => phpLooseEquals(o, originParam))) return { kind: 'mismatch' };

  const headers: Record<string, string> = {};
  // several origins in one header (a redirect chain): never allowed, as in 1.25
  if (origins.length === 1 && matchOrigin(originParam, policy)) {
    const requestedMethod = header('access-control-request-method');
    const preflight = method === 'OPTIONS' && requestedMethod !== undefined;
    if (preflight) {
      // a method or header the actual request may not use: no CORS headers at all (and no Vary)
      if (requestedMethod !== 'POST' && requestedMethod !== 'GET') return { kind: 'ok', headers };
      const requestedHeaders = header('access-control-request-headers');
      if (requestedHeaders !== undefined) {
        if (!matchRequestedHeaders(requestedHeaders)) return { kind: 'ok', headers };
        headers['Access-Control-Allow-Headers'] = requestedHeaders;
      }
      headers['Access-Control-Allow-Methods'] = 'POST, GET';
    }
    headers['Access-Control-Allow-Origin'] = trimmed!;
    headers['Access-Control-Allow-Credentials'] = 'true';
    headers['Timing-Allow-Origin'] = trimmed!;
    if (!preflight) headers['Access-Control-Expose-Headers'] = 'MediaWiki-API-Error, Retry-After, X-Database-Lag';
  }
  headers.Vary = 'Origin';
  return { kind: 'ok', headers };
}

/** origin=*: requests from any site, never with the user's credentials */
export const ANONYMOUS = '*';

/** ApiMain::handleCORS of 1.30 for origin=*: no Origin check, `Access-Control-Allow-Origin: *`, no Vary. */
function anonymousCors(method: string, header: (name: string) => string | undefined): CorsOutcome {
  const headers: Record<string, string> = {};
  const requestedMethod = header('access-control-request-method');
  const preflight = method === 'OPTIONS' && requestedMethod !== undefined;
  if (preflight) {
    if (requestedMethod !== 'POST' && requestedMethod !== 'GET') {
      headers['MediaWiki-CORS-Rejection'] = 'Unsupported method requested in preflight';
      return { kind: 'ok', headers };
    }
    const requestedHeaders = header('access-control-request-headers');
    if (requestedHeaders !== undefined) {
      if (!matchRequestedHeaders(requestedHeaders)) {
        headers['MediaWiki-CORS-Rejection'] = 'Unsupported header requested in preflight';
        return { kind: 'ok', headers };
      }
      headers['Access-Control-Allow-Headers'] = requestedHeaders;
    }
    // 1.30's list; 1.39 adds HEAD
    headers['Access-Control-Allow-Methods'] = 'POST, GET';
  } else if (method !== 'POST' && method !== 'GET' && method !== 'HEAD') {
    headers['MediaWiki-CORS-Rejection'] = 'Unsupported method for simple request or actual request';
    return { kind: 'ok', headers };
  }
  headers['Access-Control-Allow-Origin'] = ANONYMOUS;
  headers['Access-Control-Allow-Credentials'] = 'false';
  if (!preflight) headers['Access-Control-Expose-Headers'] = 'MediaWiki-API-Error, Retry-After, X-Database-Lag, MediaWiki-Login-Suppressed';
  // the user is anonymous whatever cookies the browser sent (1.27+ session handling)
  headers['MediaWiki-Login-Suppressed'] = 'true';
  return { kind: 'ok', headers };
}

export function matchOrigin(value: string, policy: CorsPolicy): boolean {
  for (const rule of policy.allow) {
    if (wildcardToRegex(rule).test(value)) return !policy.except.some((e) => wildcardToRegex(e).test(value));
  }
  return false;
}

function matchRequestedHeaders(requested: string): boolean {
  if (phpTrim(requested) === '') return true;
  return requested.split(',').every((h) => ALLOWED_REQUEST_HEADERS.has(phpTrim(h).toLowerCase()));
}

const regexCache = new Map<string, RegExp>();
/** `*` → any run (lazy), `?` → one character; everything else literal; anchored after `http(s)://`. */
export function wildcardToRegex(wildcard: string): RegExp {
  let re = regexCache.get(wildcard);
  if (!re) {
    const body = wildcard
      .replace(/[.\\+^$()[\]{}|/=!<>:#-]/g, '\\$&')
      .replace(/\*/g, '.*?')
      .replace(/\?/g, '.');
    re = new RegExp(`^https?:\\/\\/${body}$`);
    regexCache.set(wildcard, re);
  }
  return re;
}
