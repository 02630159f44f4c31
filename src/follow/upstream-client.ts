/**
 * The upstream wiki's api.php as the follower talks to it: form-encoded POSTs (titles and revision ids
 * never overflow a URL), JSON answers read with a size bound and a time bound, MediaWiki's error object
 * and malformed answers turned into `UpstreamError`s, retries with exponential backoff, continuation,
 * and a bot-password login (action=login with a login token, the session cookies kept) for wikis that
 * are not world-readable.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface UpstreamOptions {
  /** the upstream's api.php */
  api: string;
  /** bot-password login: `User@appid` and the generated password */
  user?: string;
  password?: string;
  /** per request (default 60 s) */
  timeoutMs?: number;
  /** largest answer read (default 64 MiB); a larger one is an error, not a partial read */
  maxBytes?: number;
  /** largest file downloaded (default 1 GiB) */
  maxFileBytes?: number;
  /** attempts of one request before the error is thrown (default 5) */
  attempts?: number;
  /** the first retry's delay (default 1 s), doubled each time up to 30 s */
  backoffMs?: number;
  log?: (line: string) => void;
}

/** An upstream answer that cannot be used: the request failed, timed out, or the answer is malformed or an API error. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    /** MediaWiki's error code when the upstream answered with its error object */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}

export type ApiParams = Record<string, string | number | undefined>;
export type ApiAnswer = Record<string, any>;

const USER_AGENT = 'wikiquery-follow/1 (https://www.mediawiki.org/wiki/API:Etiquette)';
/** error codes that say "come back later", not "this request is wrong" */
const TRANSIENT_CODES = new Set([
  'maxlag',
  'readonly',
  'ratelimited',
  'internal_api_error_DBQueryError',
  'internal_api_error_DBConnectionError',
]);

export class UpstreamClient {
  readonly api: string;
  private readonly cookies = new Map<string, string>();
  private readonly timeoutMs: number;
  private readonly maxBytes: number;
  private readonly maxFileBytes: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly log: (line: string) => void;
  private loggedIn = false;

  constructor(private readonly opts: UpstreamOptions) {
    this.api = opts.api;
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.maxBytes = opts.maxBytes ?? 64 * 1048576;
    this.maxFileBytes = opts.maxFileBytes ?? 1024 * 1048576;
    this.attempts = opts.attempts ?? 5;
    this.backoffMs = opts.backoffMs ?? 1000;
    this.log = opts.log ?? (() => {});
  }

  /** One request, no retry: the answer's JSON, or an UpstreamError. */
  async once(params: ApiParams): Promise<ApiAnswer> {
    const body = new URLSearchParams();
    body.set('format', 'json');
    for (const [k, v] of Object.entries(params)) if (v !== undefined) body.set(k, String(v));
    const res = await this.request(this.api, { method: 'POST', body });
    const text = (await this.readBounded(res, this.maxBytes)).toString('utf8');
    if (res.status !== 200) throw new UpstreamError(`${this.api}: HTTP ${res.status}`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UpstreamError(
        `${this.api}: the answer is not JSON (${text.length} characters, starting ${JSON.stringify(text.slice(0, 60))})`,
      );
    }
    if (json === null || typeof json !== 'object' || Array.isArray(json))
      throw new UpstreamError(`${this.api}: the answer is not a JSON object`);
    const answer = json as ApiAnswer;
    if (answer.error !== undefined) {
      const code = typeof answer.error?.code === 'string' ? answer.error.code : 'unknown';
      const info = typeof answer.error?.info === 'string' ? answer.error.info : '';
      throw new UpstreamError(`${this.api}: ${code}: ${info}`, code);
    }
    return answer;
  }

  /** A request retried with backoff while it fails for a reason that may pass (network, timeouts, 5xx, malformed answers, maxlag). */
  async call(params: ApiParams): Promise<ApiAnswer> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (this.opts.user !== undefined && !this.loggedIn) await this.login();
        return await this.once(params);
      } catch (e) {
        const err = e instanceof UpstreamError ? e : new UpstreamError(`${this.api}: ${(e as Error).message}`);
        const permanent =
          err.code !== undefined && !TRANSIENT_CODES.has(err.code) && !/^(readapidenied|assertuserfailed|assertbotfailed)$/.test(err.code);
        if (err.code !== undefined && /^(readapidenied|assertuserfailed|assertbotfailed)$/.test(err.code)) this.loggedIn = false;
        if (permanent || attempt >= this.attempts) throw err;
        const delay = Math.min(30_000, this.backoffMs * 2 ** (attempt - 1));
        this.log(`upstream: ${err.message}; retrying in ${(delay / 1000).toFixed(1)} s`);
        await sleep(delay);
      }
    }
  }

  /**
   * Every answer of a query with continuation (`continue=` style, MediaWiki 1.21+), in order. The caller
   * may stop early; `maxRequests` bounds a run-away continuation.
   */
  async *continued(params: ApiParams, maxRequests = 100_000): AsyncGenerator<ApiAnswer> {
    let cont: Record<string, string> = { continue: '' };
    for (let n = 0; n < maxRequests; n++) {
      const answer = await this.call(Object.assign({}, params, cont));
      yield answer;
      const next = answer.continue;
      if (next === undefined || next === null || typeof next !== 'object') return;
      cont = {};
      for (const [k, v] of Object.entries(next)) cont[k] = String(v);
    }
    throw new UpstreamError(`${this.api}: more than ${maxRequests} continuations of one query`);
  }

  /** Bot-password login: a login token (meta=tokens, or action=login's NeedToken on 1.25), then action=login. */
  async login(): Promise<void> {
    const { user, password } = this.opts;
    if (user === undefined || password === undefined) return;
    let token: string | undefined;
    try {
      const t = await this.once({ action: 'query', meta: 'tokens', type: 'login' });
      token = t.query?.tokens?.logintoken;
    } catch {
      token = undefined;
    }
    if (typeof token !== 'string') {
      const first = await this.once({ action: 'login', lgname: user, lgpassword: password });
      token = first.login?.token;
    }
    const answer = await this.once({ action: 'login', lgname: user, lgpassword: password, lgtoken: token });
    const result = answer.login?.result;
    if (result !== 'Success') {
      throw new UpstreamError(
        `${this.api}: login as ${user} failed: ${result ?? 'no result'}${answer.login?.reason ? ` (${answer.login.reason})` : ''}`,
        'loginfailed',
      );
    }
    this.loggedIn = true;
  }

  /**
   * Downloads `url` into `dest` (through a temporary file renamed into place), checking its SHA-1
   * (hex) and size; retried like `call`.
   */
  async download(url: string, dest: string, sha1hex: string, size: number): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        if (size > this.maxFileBytes)
          throw new UpstreamError(`${url}: ${size} bytes, more than the ${this.maxFileBytes} allowed`, 'toolarge');
        const res = await this.request(new URL(url, this.api).toString(), { method: 'GET' });
        const bytes = await this.readBounded(res, Math.min(this.maxFileBytes, size + 1));
        if (res.status !== 200) throw new UpstreamError(`${url}: HTTP ${res.status}`);
        const got = createHash('sha1').update(bytes).digest('hex');
        if (got !== sha1hex) throw new UpstreamError(`${url}: SHA-1 ${got}, the upstream says ${sha1hex}`);
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        const tmp = `${dest}.part-${process.pid}`;
        fs.writeFileSync(tmp, bytes);
        fs.renameSync(tmp, dest);
        return;
      } catch (e) {
        const err = e instanceof UpstreamError ? e : new UpstreamError(`${url}: ${(e as Error).message}`);
        if (err.code === 'toolarge' || attempt >= this.attempts) throw err;
        const delay = Math.min(30_000, this.backoffMs * 2 ** (attempt - 1));
        this.log(`upstream: ${err.message}; retrying in ${(delay / 1000).toFixed(1)} s`);
        await sleep(delay);
      }
    }
  }

  private async request(url: string, init: { method: string; body?: URLSearchParams }): Promise<Response> {
    const headers: Record<string, string> = { 'User-Agent': USER_AGENT };
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let res: Response;
    try {
      res = await fetch(url, {
        method: init.method,
        body: init.body,
        headers,
        redirect: 'follow',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (e) {
      const cause = (e as { cause?: { code?: string } }).cause?.code;
      throw new UpstreamError(
        `${url}: ${(e as Error).name === 'TimeoutError' ? `no answer in ${this.timeoutMs / 1000} s` : (cause ?? (e as Error).message)}`,
      );
    }
    for (const line of res.headers.getSetCookie()) {
      const m = /^([^=;\s]+)=([^;]*)/.exec(line);
      if (m === null) continue;
      if (m[2] === 'deleted' || /;\s*expires=Thu, 01[- ]Jan[- ]1970/i.test(line)) this.cookies.delete(m[1]);
      else this.cookies.set(m[1], m[2]);
    }
    return res;
  }

  /** The body, or an error as soon as it passes `limit` bytes (the rest is not read). */
  private async readBounded(res: Response, limit: number): Promise<Buffer> {
    const declared = Number(res.headers.get('content-length') ?? '-1');
    if (declared > limit) {
      await res.body?.cancel();
      throw new UpstreamError(`${res.url}: an answer of ${declared} bytes, more than the ${limit} allowed`);
    }
    const chunks: Buffer[] = [];
    let total = 0;
    if (res.body === null) return Buffer.alloc(0);
    try {
      for await (const chunk of res.body) {
        total += chunk.byteLength;
        if (total > limit) {
          throw new UpstreamError(`${res.url}: an answer of more than the ${limit} bytes allowed`);
        }
        chunks.push(Buffer.from(chunk));
      }
    } catch (e) {
      if (e instanceof UpstreamError) throw e;
      throw new UpstreamError(
        `${res.url}: the answer broke off: ${(e as Error).name === 'TimeoutError' ? 'timed out' : (e as Error).message}`,
      );
    }
    return Buffer.concat(chunks, total);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
