/**
 * `serve --upstream API_URL`: the requests wikiquery does not answer itself -- writes and logins, requests
 * that depend on the user's upstream session, modules and formats it does not implement -- are sent to the
 * upstream MediaWiki and its answer relayed unchanged (status, headers, body), its cookies rewritten for
 * our host and path. Only the client's own request goes out, only to the configured api.php: the path and
 * host are ours to choose, the client names neither; hop-by-hop headers are dropped; the body is the one
 * Fastify already read under the request limits.
 *
 * Read-your-writes, as MediaWiki's ChronologyProtector: a forwarded write that succeeded gives its client a
 * cookie naming the recent change it made upstream; that client's next local reads wait (bounded) until
 * `follow` has applied that change. Clients without the cookie never wait.
 */
import http from 'node:http';
import https from 'node:https';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { FORMATS } from '../api/format/printer.js';

/** how often the upstream is asked for a write's recent change */
const POSITION_POLL_MS = 25;
/** how long a write's answer is held for its recent change to show upstream */
const POSITION_WAIT_MS = 3000;

/** the cookie naming the upstream position a client's reads wait for */
export const CHRONOLOGY_COOKIE = 'wikiquery_rcid';

/** Writes after which the client's reads wait for `follow` to apply what they changed. */
const POSITION_WRITES = new Set([
  'edit',
  'move',
  'delete',
  'undelete',
  'upload',
  'filerevert',
  'rollback',
  'import',
  'mergehistory',
  'protect',
]);

/** Actions that change the wiki or the session: always the upstream's (1.25's and newer wikis' names). */
const FORWARDED_ACTIONS = new Set([
  ...POSITION_WRITES,
  'login',
  'clientlogin',
  'logout',
  'createaccount',
  'purge',
  'watch',
  'block',
  'unblock',
  'emailuser',
  'patrol',
  'setnotificationtimestamp',
  'options',
  'tag',
  'managetags',
  'revisiondelete',
  'userrights',
  'imagerotate',
  'stashedit',
  'changeauthenticationdata',
  'removeauthenticationdata',
  'resetpassword',
  'linkaccount',
  'unlinkaccount',
  'echomarkread',
  'echomarkseen',
  'feedwatchlist',
]);

/**
 * query submodules that depend on the user's session whoever asks: tokens too, since a login token is bound
 * to the upstream session it opens (a token of ours fails the login: "Received incorrect login token")
 */
const SESSION_SUBMODULES = new Set(['tokens', 'watchlist', 'watchlistraw', 'notifications', 'unreadnotificationpages']);
/** … and those that do when the request carries the upstream's session */
const LOGGED_IN_SUBMODULES = new Set(['userinfo']);

/** RFC 7230 6.1's hop-by-hop headers, and what the forwarder sets itself */
const DROPPED_REQUEST_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
  'expect',
  'x-forwarded-for',
  'x-forwarded-host',
  'x-forwarded-proto',
  'forwarded',
]);
const DROPPED_RESPONSE_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'content-length',
]);

export interface UpstreamOptions {
  /** the upstream's api.php */
  apiUrl: string;
  /** how long an upstream answer may take (default 60 s) */
  timeoutMs?: number;
  /** bytes of an upstream answer relayed (default 64 MiB) */
  maxAnswerBytes?: number;
  /** how long a client's read waits for `follow` after its write (default 5 s) */
  waitMs?: number;
  /** the upstream recent-change id `follow` has applied (null: unknown) */
  appliedRcid?: () => Promise<number | null>;
}

/** A request as the forwarder sees it: Fastify's, with the body bytes it read. */
export interface ForwardedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  ip: string;
  rawBody: Buffer | undefined;
}

export interface RelayedAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

export class Upstream {
  private readonly target: URL;
  private readonly agent: http.Agent;
  private readonly timeoutMs: number;
  private readonly maxAnswerBytes: number;
  readonly waitMs: number;
  private readonly appliedRcid: (() => Promise<number | null>) | undefined;

  constructor(opts: UpstreamOptions) {
    const target = new URL(opts.apiUrl);
    if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error(`--upstream ${opts.apiUrl}: an http: or https: URL`);
    target.search = '';
    target.hash = '';
    this.target = target;
    this.agent = target.protocol === 'https:' ? new https.Agent({ keepAlive: true }) : new http.Agent({ keepAlive: true });
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.maxAnswerBytes = opts.maxAnswerBytes ?? 64 * 1024 * 1024;
    this.waitMs = opts.waitMs ?? 5000;
    this.appliedRcid = opts.appliedRcid;
  }

  get apiUrl(): string {
    return this.target.href;
  }

  /**
   * Is this request the upstream's? `raw` holds the request's parameters (query string and body).
   * Anonymous reads of modules wikiquery implements stay local.
   */
  forwards(
    raw: Record<string, string>,
    headers: IncomingHttpHeaders,
    actionNames: ReadonlySet<string>,
    queryNames: ReadonlySet<string>,
  ): boolean {
    const action = raw.action;
    if (action === undefined) return false;
    if (FORWARDED_ACTIONS.has(action) || !actionNames.has(action)) return true;
    if (raw.format !== undefined && !(FORMATS as readonly string[]).includes(raw.format)) return true;
    const session = hasUpstreamSession(headers.cookie);
    // a logged-in client's assertion is checked where its session lives
    if (session && raw.assert !== undefined) return true;
    if (action === 'tokens') return true;
    if (action !== 'query') return false;
    for (const group of ['list', 'prop', 'meta', 'generator']) {
      const value = raw[group];
      if (value === undefined) continue;
      for (const name of value.split('|')) {
        if (name === '') continue;
        if (SESSION_SUBMODULES.has(name) || !queryNames.has(name)) return true;
        if (session && LOGGED_IN_SUBMODULES.has(name)) return true;
      }
    }
    return false;
  }

  /** The upstream's answer to the client's request, or MediaWiki's error object when it has none. */
  async relay(request: ForwardedRequest, apiUrl: string): Promise<RelayedAnswer> {
    const queryStart = request.url.indexOf('?');
    const path = this.target.pathname + (queryStart < 0 ? '' : request.url.slice(queryStart));
    const headers: Record<string, string | string[]> = {};
    // a header the Connection header names is hop-by-hop too
    const hopByHop = connectionTokens(request.headers.connection);
    for (const name in request.headers) {
      const value = request.headers[name];
      if (value === undefined || DROPPED_REQUEST_HEADERS.has(name) || hopByHop.has(name)) continue;
      headers[name] = value;
    }
    headers.host = this.target.host;
    headers['x-forwarded-for'] = request.ip;
    if (request.rawBody !== undefined) headers['content-length'] = String(request.rawBody.length);
    let answer: { status: number; headers: IncomingHttpHeaders; body: Buffer };
    try {
      answer = await this.send(request.method, path, headers, request.rawBody);
    } catch (e) {
      const timeout = e instanceof UpstreamError && e.code === 'upstreamtimeout';
      const code = e instanceof UpstreamError ? e.code : 'upstreamerror';
      const info = timeout
        ? `The wiki's upstream (${this.target.host}) did not answer in time`
        : `The wiki's upstream (${this.target.host}) gave no usable answer`;
      return {
        status: timeout ? 504 : 502,
        headers: { 'content-type': 'application/json; charset=utf-8', 'mediawiki-api-error': code, 'x-content-type-options': 'nosniff' },
        body: Buffer.from(JSON.stringify({ error: { code, info, '*': `See ${apiUrl} for API usage` } }), 'utf8'),
      };
    }
    const out: Record<string, string | string[]> = {};
    for (const name in answer.headers) {
      const value = answer.headers[name];
      if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
      out[name] = name === 'set-cookie' ? (value as string[]).map(rewriteCookie) : value;
    }
    return { status: answer.status, headers: out, body: answer.body };
  }

  /**
   * Before a forwarded write that moves the upstream's position: its newest recent-change id (0 when it
   * has none or cannot say), else null (no request made).
   */
  async positionBefore(action: string | undefined, cookie: string | undefined, ip: string): Promise<number | null> {
    if (action === undefined || !POSITION_WRITES.has(action)) return null;
    try {
      const newest = (await this.recentChanges(cookie, ip, 1)).changes[0];
      return newest === undefined ? 0 : newest.rcid;
    } catch {
      return 0;
    }
  }

  /**
   * After a forwarded write: when it succeeded, the recent-change id it made upstream (the position the
   * client's reads then wait for), else null. MediaWiki writes the recent change after the answer (a
   * deferred update, run once the client has its answer), so the upstream is asked until a change newer
   * than `before` made by the writer (as the upstream names the client: its session's user, or its
   * address) is there, for a few seconds at most; past that, the upstream's newest change.
   */
  async positionAfter(
    action: string | undefined,
    answer: RelayedAnswer,
    request: { cookie: string | undefined; ip: string },
    before: number | null,
  ): Promise<number | null> {
    if (action === undefined || before === null || answer.status !== 200) return null;
    if (answer.headers['mediawiki-api-error'] !== undefined) return null;
    const type = answer.headers['content-type'];
    if (typeof type !== 'string' || !type.includes('json')) return null;
    let result: Record<string, unknown>;
    try {
      result = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return null;
    }
    const own = result[action] as Record<string, unknown> | undefined;
    if (result.error !== undefined || own === undefined || (typeof own.result === 'string' && own.result !== 'Success')) return null;
    if (own.nochange !== undefined) return null;
    const until = Date.now() + Math.min(this.waitMs, POSITION_WAIT_MS);
    let newest: number | null = null;
    for (;;) {
      try {
        const { user, changes } = await this.recentChanges(request.cookie, request.ip, 50);
        if (changes.length > 0) newest = Math.max(newest ?? 0, changes[0]!.rcid);
        for (const change of changes) {
          if (change.rcid <= before) break;
          if (user !== undefined && change.user === user) return change.rcid;
        }
      } catch {
        // asked again until the bound
      }
      const left = until - Date.now();
      if (left <= 0) return newest;
      await new Promise((resolve) => setTimeout(resolve, Math.min(POSITION_POLL_MS, left)));
    }
  }

  /** The upstream's newest recent changes, newest first, and the name it gives the client. */
  private async recentChanges(
    cookie: string | undefined,
    ip: string,
    limit: number,
  ): Promise<{ user: string | undefined; changes: Array<{ rcid: number; user: unknown }> }> {
    // the client's address as its write named it: an anonymous writer is known upstream by it
    const headers: Record<string, string> = { host: this.target.host, 'x-forwarded-for': ip };
    // a wiki that is not world-readable lists its changes to the logged-in client only
    if (cookie !== undefined) headers.cookie = cookie;
    const answer = await this.send(
      'GET',
      `${this.target.pathname}?action=query&meta=userinfo&list=recentchanges&rcprop=ids%7Cuser&rclimit=${limit}&format=json`,
      headers,
      undefined,
    );
    const parsed = JSON.parse(answer.body.toString('utf8')) as {
      query?: { userinfo?: { name?: unknown }; recentchanges?: Array<{ rcid?: unknown; user?: unknown }> };
    };
    const name = parsed.query?.userinfo?.name;
    const changes: Array<{ rcid: number; user: unknown }> = [];
    for (const change of parsed.query?.recentchanges ?? []) {
      if (typeof change.rcid === 'number' && Number.isSafeInteger(change.rcid)) changes.push({ rcid: change.rcid, user: change.user });
    }
    return { user: typeof name === 'string' ? name : undefined, changes };
  }

  /**
   * Before a local read of a client that wrote: wait until `follow` has applied its position, at most
   * waitMs. Null when the read may be answered as it is, else the lag warning to add.
   */
  async waitFor(cookie: string | undefined): Promise<string | null> {
    const wanted = chronologyPosition(cookie);
    if (wanted === null || this.appliedRcid === undefined) return null;
    const until = Date.now() + this.waitMs;
    for (;;) {
      const applied = await this.appliedRcid().catch(() => null);
      if (applied !== null && applied >= wanted) return null;
      const left = until - Date.now();
      if (left <= 0) {
        return `Waited ${this.waitMs / 1000} s for this wiki to apply your last change (the upstream's recent change ${wanted}); it has applied ${applied ?? 'none'}: this answer may not show your change yet`;
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(50, left)));
    }
  }

  close(): void {
    this.agent.destroy();
  }

  private send(
    method: string,
    path: string,
    headers: Record<string, string | string[]>,
    body: Buffer | undefined,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
    const transport = this.target.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = transport.request(
        {
          protocol: this.target.protocol,
          hostname: this.target.hostname,
          port: this.target.port,
          method,
          path,
          headers,
          agent: this.agent,
          timeout: this.timeoutMs,
        },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > this.maxAnswerBytes) {
              res.destroy();
              reject(new UpstreamError('upstreamerror', 'answer too large'));
              return;
            }
            chunks.push(chunk);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', (e) => reject(new UpstreamError('upstreamerror', e.message)));
        },
      );
      const deadline = setTimeout(() => {
        req.destroy(new UpstreamError('upstreamtimeout', 'timeout'));
      }, this.timeoutMs);
      req.on('close', () => clearTimeout(deadline));
      req.on('timeout', () => req.destroy(new UpstreamError('upstreamtimeout', 'timeout')));
      req.on('error', (e) => reject(e instanceof UpstreamError ? e : new UpstreamError('upstreamerror', e.message)));
      req.end(body);
    });
  }
}

class UpstreamError extends Error {
  constructor(
    readonly code: 'upstreamerror' | 'upstreamtimeout',
    message: string,
  ) {
    super(message);
  }
}

/** MediaWiki's session cookie is `<wiki id>_session` (a bot password's too) */
export function hasUpstreamSession(cookie: string | string[] | undefined): boolean {
  if (typeof cookie !== 'string') return false;
  return /(?:^|;\s*)[^=;\s]+_session=[^;\s]/.test(cookie);
}

/** the position a client's cookie names, or null */
export function chronologyPosition(cookie: string | string[] | undefined): number | null {
  if (typeof cookie !== 'string') return null;
  const match = new RegExp(`(?:^|;\\s*)${CHRONOLOGY_COOKIE}=(\\d{1,15})(?:;|$)`).exec(cookie);
  return match === null ? null : Number(match[1]);
}

/** the Set-Cookie header naming the client's position (ChronologyProtector's cookie lives 10 s; ours the wait) */
export function chronologyCookie(rcid: number, waitMs: number): string {
  return `${CHRONOLOGY_COOKIE}=${rcid}; Max-Age=${Math.max(10, Math.ceil(waitMs / 1000) * 2)}; Path=/; HttpOnly; SameSite=Lax`;
}

/** An upstream cookie for our host and path: no Domain (ours is the request's host), Path=/ */
function rewriteCookie(cookie: string): string {
  const parts = cookie.split(';');
  const kept: string[] = [parts[0]!];
  for (let i = 1; i < parts.length; i++) {
    const attribute = parts[i]!.trim();
    const name = attribute.split('=', 1)[0]!.toLowerCase();
    if (name === 'domain' || name === 'path') continue;
    kept.push(attribute);
  }
  kept.push('Path=/');
  return kept.join('; ');
}

function connectionTokens(connection: string | undefined): Set<string> {
  const tokens = new Set<string>();
  if (connection === undefined) return tokens;
  for (const token of connection.split(',')) tokens.add(token.trim().toLowerCase());
  return tokens;
}
