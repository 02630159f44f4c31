/**
 * ApiMain: one request from decoded parameters to rendered bytes. Picks the printer, checks the main
 * parameters (origin, maxlag, assert), dispatches the action module, collects warnings, reports
 * unrecognized parameters, turns failures into MediaWiki's error object, sets the cache headers, and
 * appends debuginfo when the server runs with --debug.
 */
import { ApiError, texts } from './errors.js';
import { CONTENT, type Obj } from './result.js';
import { extractParams } from './params.js';
import {
  DEFAULT_PRINTER,
  FORMATS,
  deprecationWarning,
  kindOf,
  printerOptions,
  printerParamSet,
  printsAscii,
  render,
  type FormatName,
  type PrinterOptions,
  type Rendered,
} from './format/printer.js';
import { wfUrlencode } from '../wiki/files.js';
import { htmlspecialchars } from '../wiki/html.js';
import type { ActionModule, CacheMode, CustomPrinter, ModuleDirectory, ParamDecls, QueryModule, RequestInfo } from './types.js';
import { RequestState } from './request-state.js';
import type { Store } from '../store/store.js';
import type { Wiki } from '../wiki/wiki.js';
import { queryLog, type QueryLogEntry } from '../store/query-log.js';
import { debugInfo } from './debuginfo.js';
import { ANONYMOUS, handleCors, type CorsPolicy } from './cors.js';
import { ANON_TOKEN, DEFAULT_READ_ONLY_REASON } from '../wiki/users.js';

const NO_CORS: CorsPolicy = { allow: [], except: [] };
/** a module's own printer (opensearch's JSON, help's page) takes JSON's parameters unless it says otherwise */
const CUSTOM_PRINTER_PARAMS: ReadonlySet<string> = printerParamSet('json');

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** UTF-8 bytes, or text */
  body: string | Buffer;
  /**
   * Whether the same request will get the same answer (the database never changes while serving):
   * false, or for how long and for whom.
   */
  cacheable: false | { untilSecondEnds: boolean; perClient: boolean };
}

export interface Registry {
  actions: ActionModule[];
  query: QueryModule[];
}

export const MAIN_PARAMS = (actions: string[]): ParamDecls => ({
  action: { type: actions, default: 'help', help: 'Which action to perform.', submodules: Object.fromEntries(actions.map((a) => [a, a])) },
  // a submodule parameter's values are sorted, as ApiParamInfo sorts them
  format: {
    type: [...FORMATS].sort(),
    default: 'jsonfm',
    help: 'The format of the output.',
    submodules: Object.fromEntries([...FORMATS].sort().map((f) => [f, f])),
  },
  maxlag: { type: 'integer', help: 'Maximum lag can be used when MediaWiki is installed on a database replicated cluster.' },
  smaxage: { type: 'integer', default: 0, help: 'Set the s-maxage header to this many seconds. Errors are never cached.' },
  maxage: { type: 'integer', default: 0, help: 'Set the max-age header to this many seconds. Errors are never cached.' },
  assert: { type: ['user', 'bot'], help: 'Verify the user is logged in if set to "user", or has the bot userright if "bot".' },
  requestid: { type: 'string', help: 'Any value given here will be included in the response. May be used to distinguish requests.' },
  servedby: { type: 'boolean', default: false, help: 'Include the hostname that served the request in the results.' },
  curtimestamp: { type: 'boolean', default: false, help: 'Include the current timestamp in the result.' },
  origin: { type: 'string', help: 'When accessing the API using a cross-domain AJAX request (CORS), set this to the originating domain.' },
  uselang: { type: 'string', default: 'user', help: 'Language to use for message translations.' },
});

export interface ApiOptions {
  debug?: boolean;
  cors?: CorsPolicy;
  maxResultSize?: number;
  /**
   * A query without `continue` or `rawcontinue` continues as in MediaWiki 1.26+ (`continue` and
   * `batchcomplete`), not 1.25's raw `query-continue`: for clients written against today's MediaWiki.
   */
  newContinuation?: boolean;
  /** $wgReadOnly: the reason a write module's `readonly` error gives */
  readOnlyReason?: string;
  /** seconds the database is behind the wiki it follows (`maxlag`; 0: not following) */
  lag?: () => number;
}

export class ApiMain {
  private readonly actions: Map<string, ActionModule>;
  readonly mainParams: ParamDecls;
  private readonly directory: ModuleDirectory;

  constructor(
    readonly store: Store,
    readonly wiki: Wiki,
    readonly registry: Registry,
    readonly opts: ApiOptions = {},
  ) {
    this.actions = new Map(registry.actions.map((m) => [m.name, m]));
    this.mainParams = MAIN_PARAMS([...this.actions.keys()].sort());
    this.directory = { actions: registry.actions, query: registry.query, mainParams: this.mainParams };
  }

  async handle(req: RequestInfo, phpArrayParams: string[] = []): Promise<ApiResponse> {
    if (!this.opts.debug) return this.execute(req, phpArrayParams, null);
    const log: QueryLogEntry[] = [];
    return queryLog.run(log, () => this.execute(req, phpArrayParams, log));
  }

  private async execute(req: RequestInfo, phpArrayParams: string[], queries: QueryLogEntry[] | null): Promise<ApiResponse> {
    // debuginfo's elapsed time; no clock read otherwise
    const started = this.opts.debug ? process.hrtime.bigint() : 0n;
    const raw = req.raw;
    const headers: Record<string, string> = { 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff' };
    const state = new RequestState(
      req,
      this.wiki,
      this.store,
      raw.callback !== undefined || raw.origin === ANONYMOUS,
      this.opts.maxResultSize,
      this.opts.newContinuation === true,
    );
    // the debug log is read only by debuginfo
    if (this.opts.debug) state.debugLog.push(`Start request ${req.method} ${req.url}`);

    // CORS: an origin that the Origin header does not vouch for ends the request at once.
    if (raw.origin !== undefined) {
      const cors = handleCors(raw.origin, req.method, (name) => req.headers[name], this.opts.cors ?? NO_CORS);
      if (cors.kind === 'mismatch') {
        return {
          status: 403,
          headers: Object.assign({}, headers, { 'Cache-Control': 'no-cache', 'Content-Type': 'text/plain; charset=utf-8' }),
          body: texts.originMismatch() + '\n',
          cacheable: false,
        };
      }
      if (cors.kind === 'ok') Object.assign(headers, cors.headers);
    }
    if (req.method === 'OPTIONS') return { status: 200, headers, body: '', cacheable: false };

    const fmt = raw.format ?? 'jsonfm';
    let printer: PrinterOptions = DEFAULT_PRINTER;
    let mainParams: Record<string, any> = { maxage: 0, smaxage: 0 };
    try {
      for (const name of phpArrayParams) state.warn('main', texts.phpArray(name));
      if (req.warnings !== undefined) for (const text of req.warnings) state.warn('main', text);
      if (!(FORMATS as readonly string[]).includes(fmt)) throw new ApiError('unknown_format', texts.unknownValue('format', fmt));
      try {
        printer = printerOptions(fmt as FormatName, raw);
        if (printer.format === 'json') state.compactJson = printsAscii(printer) ? 'ascii' : 'utf8';
        state.formatVersion = printer.formatversion;
      } catch (e) {
        // The printer failed on its own parameters: MediaWiki re-prints the error with default printer params.
        if (e instanceof ApiError) state.warn('main', 'Error printer failed (will retry without params): ' + e.info);
        printer = Object.assign({}, DEFAULT_PRINTER, { format: fmt as FormatName });
        throw e;
      }
      mainParams = extractParams(this.mainParams, '', { raw, used: state.used }, state.sink('main'));
      if (mainParams.requestid !== undefined) state.result.set('requestid', mainParams.requestid);
      if (mainParams.maxlag !== undefined) {
        // ApiMain::checkMaxLag: the lag of a followed database is the replication lag a bot waits on
        const lag = this.opts.lag?.() ?? 0;
        if (lag > mainParams.maxlag) {
          headers['Retry-After'] = String(Math.max(mainParams.maxlag, 5));
          headers['X-Database-Lag'] = String(lag);
          throw new ApiError('maxlag', texts.maxlag(lag));
        }
      }
      const module = this.actions.get(mainParams.action)!;
      if (this.opts.debug) state.debugLog.push(`API ${req.method} anonymous ${mainParams.action}`);
      let custom: CustomPrinter | null = null;
      if (module.core) {
        const ctx = state.coreContext(module, this.directory);
        checkAsserts(mainParams);
        custom = module.customPrinter?.(ctx) ?? null;
        if (custom?.errorFormat !== undefined) printer = this.errorFallback(custom.errorFormat, raw);
        const ran = module.run(ctx);
        if (ran) await ran;
      } else {
        // ApiMain::executeAction: the module's parameters (its token last), then setupModule's token
        // checks, checkExecutePermissions, setupExternalResponse's POST check, then the asserts
        const ctx = state.context(module);
        if (module.needsToken !== undefined || module.writeMode || module.mustBePosted) this.checkWriteModule(module, ctx.params, req);
        checkAsserts(mainParams);
        custom = module.customPrinter?.(ctx) ?? null;
        if (custom?.errorFormat !== undefined) printer = this.errorFallback(custom.errorFormat, raw);
        // a synchronous module costs no extra turn of the microtask queue
        const ran = module.run(ctx);
        if (ran) await ran;
      }
      this.reportUnused(state, raw, custom ? (custom.params ?? CUSTOM_PRINTER_PARAMS) : printerParamSet(printer.format));
      if (mainParams.curtimestamp) state.result.set('curtimestamp', new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
      if (custom) {
        const body = custom.render(state.result);
        return {
          status: 200,
          headers: Object.assign({}, headers, custom.headers, { 'Content-Type': custom.contentType }),
          body,
          cacheable: reuse(state),
        };
      }
    } catch (e) {
      const err = e instanceof ApiError ? e : this.internalError(e, state);
      if (printer.format !== 'json' && printer.format !== 'jsonfm') await this.preparePrinter(state, printer);
      return this.errorResponse(err, state, printer, headers, mainParams, req);
    }
    const cache = cacheHeaders(state.cacheMode, mainParams.smaxage ?? 0, mainParams.maxage ?? 0);
    // OutputPage keeps one Vary list: the cache mode's Accept-Encoding, Cookie, then CORS's Origin
    if (cache.Vary && headers.Vary) cache.Vary = `${cache.Vary}, ${headers.Vary}`;
    Object.assign(headers, cache);
    let tree: unknown = state.result.entries();
    if (this.opts.debug && queries) {
      state.result.set('debuginfo', debugInfo(state, req, queries, started));
      tree = state.result.entries();
    }
    if (printer.format !== 'json' && printer.format !== 'jsonfm') {
      await this.preparePrinter(state, printer);
      tree = state.result.entries();
    }
    let out: Rendered;
    try {
      out = render(emptyAsArray(tree), printer, req.apiUrl, queryString(req.url));
    } catch (e) {
      // a printer that cannot represent the answer (format=php, bug 66776) fails as a module would
      if (!(e instanceof ApiError)) throw e;
      return this.errorResponse(e, state, printer, headers, mainParams, req);
    }
    if (out.extraHeaders) Object.assign(headers, out.extraHeaders);
    headers['Content-Type'] = out.contentType;
    // curtimestamp and Expires hold for this second; debuginfo (timings, memory) for no time at all
    if (mainParams.curtimestamp || headers.Expires !== undefined) state.volatility.clock = true;
    return { status: 200, headers, body: out.body, cacheable: this.opts.debug ? false : reuse(state) };
  }

  /** ApiMain::setupModule's token checks, checkExecutePermissions' write checks and the POST check of 1.25. */
  private checkWriteModule(module: ActionModule, params: Record<string, any>, req: RequestInfo): void {
    if (module.needsToken !== undefined) {
      const name = module.prefix + 'token';
      if (new URLSearchParams(queryString(req.url)).has(name)) {
        throw new ApiError('mustposttoken', `The '${name}' parameter was found in the query string, but must be in the POST body`);
      }
      // an anonymous user's token of every type is EDIT_TOKEN_SUFFIX (LoggedOutEditToken)
      if (params.token !== ANON_TOKEN) throw new ApiError('badtoken', 'Invalid token');
    }
    if (module.writeMode) {
      throw new ApiError('readonly', 'The wiki is currently in read-only mode', {
        readonlyreason: this.opts.readOnlyReason ?? DEFAULT_READ_ONLY_REASON,
      });
    }
    if (module.mustBePosted && req.method !== 'POST')
      throw new ApiError('mustbeposted', `The ${module.name} module requires a POST request`);
  }

  /** The printer a custom printer hands its errors to (ApiFormatRaw's errorFallback), with the request's options. */
  private errorFallback(format: FormatName, raw: Record<string, string>): PrinterOptions {
    try {
      return printerOptions(format, raw);
    } catch {
      return Object.assign({}, DEFAULT_PRINTER, { format });
    }
  }

  /** ApiMain::reportUnusedParams: every request parameter neither a module nor the printer reads. */
  private reportUnused(state: RequestState, raw: Record<string, string>, printerParamSet: ReadonlySet<string>): void {
    const unused = Object.keys(raw).filter((k) => !state.used.has(k) && !printerParamSet.has(k));
    if (unused.length) state.warn('main', texts.unrecognizedParams(unused));
  }

  /**
   * What a printer other than JSON does before it prints: the deprecated formats' warning
   * (ApiFormatBase::markDeprecated), format=xml's stylesheet (ApiFormatXml::addXslt, which looks the
   * page up). Both are the printer's, so an error answer gets them too.
   */
  private async preparePrinter(state: RequestState, printer: PrinterOptions): Promise<void> {
    const deprecated = deprecationWarning(printer.format);
    if (deprecated !== undefined) state.warn(printer.format, deprecated);
    if (kindOf(printer.format) !== 'xml' || printer.xslt === undefined) return;
    const title = this.wiki.codec.parse(printer.xslt, 0);
    let exists = false;
    if (title !== null) {
      try {
        exists = (await this.store.pages.byTitles([{ ns: title.ns, dbkey: title.dbkey }])).length > 0;
      } catch {
        exists = false;
      }
    }
    if (title === null || !exists) state.warn(printer.format, 'Invalid or non-existent stylesheet specified');
    else if (title.ns !== 8) state.warn(printer.format, 'Stylesheet should be in the MediaWiki namespace.');
    else if (!title.dbkey.endsWith('.xsl')) state.warn(printer.format, 'Stylesheet should have .xsl extension.');
    else {
      const href = `/index.php?title=${wfUrlencode(this.wiki.codec.prefixedDbKey(title.ns, title.dbkey))}&action=raw`;
      printer.stylesheetHref = htmlspecialchars(href);
    }
  }

  private internalError(e: unknown, state: RequestState): ApiError {
    const id = Math.random().toString(16).slice(2, 10);
    const cls = e instanceof Error ? e.constructor.name : 'Exception';
    const msg = e instanceof Error ? e.message : String(e);
    state.log.push({ msg: `[${id}] ${msg}`, type: 'warn', caller: 'ApiMain::handleException' });
    process.emitWarning(`[${id}] ${e instanceof Error ? e.stack : msg}`);
    return new ApiError(`internal_api_error_${cls}`, `[${id}] Exception Caught: ${msg}`);
  }

  private errorResponse(
    err: ApiError,
    state: RequestState,
    printer: PrinterOptions,
    headers: Record<string, string>,
    mainParams: Record<string, any>,
    req: RequestInfo,
  ): ApiResponse {
    // Everything but requestid and the warnings collected so far is discarded.
    const warnings = state.getWarnings();
    const top = new Map<string, unknown>();
    if (mainParams.requestid !== undefined) top.set('requestid', mainParams.requestid);
    if (warnings) top.set('warnings', warnings);
    const error: Obj = { code: err.code, info: err.info, ...err.extra };
    error[CONTENT] = 'docref';
    error.docref = `See ${req.apiUrl} for API usage`;
    top.set('error', error);
    let out: Rendered;
    try {
      out = render(top, printer, req.apiUrl, queryString(req.url));
    } catch {
      // the printer cannot represent the error either (format=php of a requestid with the flash policy tag)
      out = render(top, DEFAULT_PRINTER, req.apiUrl, queryString(req.url));
    }
    return {
      status: err.status,
      headers: Object.assign({}, headers, out.extraHeaders, {
        'Content-Type': out.contentType,
        'MediaWiki-API-Error': err.code,
        'Cache-Control': `private, must-revalidate, max-age=${Number(mainParams.maxage) || 0}`,
      }),
      body: out.body,
      // internal errors carry a log id; everything else fails the same way every time
      cacheable: err.code.startsWith('internal_api_error') ? false : reuse(state),
    };
  }
}

/** ApiMain::checkAsserts: the user is anonymous and no bot. */
function checkAsserts(mainParams: Record<string, any>): void {
  if (mainParams.assert === 'user') throw new ApiError('assertuserfailed', texts.assertUser());
  if (mainParams.assert === 'bot') throw new ApiError('assertbotfailed', texts.assertBot());
}

function reuse(state: RequestState): ApiResponse['cacheable'] {
  if (state.volatility.always) return false;
  return { untilSecondEnds: state.volatility.clock, perClient: state.volatility.client };
}

/** ApiMain::sendCacheHeaders for a response without session cookies (we have no sessions). */
function cacheHeaders(mode: CacheMode, smaxage: number, maxage: number): Record<string, string> {
  if (mode !== 'private' && (smaxage > 0 || maxage > 0)) {
    const h: Record<string, string> = {
      'Cache-Control': `s-maxage=${smaxage}, max-age=${maxage}, public`,
      Expires: expiresHeader(Math.min(smaxage, maxage)),
    };
    if (mode === 'anon-public-user-private') h.Vary = 'Accept-Encoding, Cookie';
    return h;
  }
  return { 'Cache-Control': `private, must-revalidate, max-age=${maxage}` };
}

/** The last instant an HTTP-date can name (RFC 7231 dates have four-digit years). */
const LAST_HTTP_DATE_SECONDS = 253402300799; // 9999-12-31T23:59:59Z

/**
 * ApiMain::sendCacheHeaders' Expires: the epoch's first second for a max age of 0, else now + max age.
 * A max age past what an HTTP-date can name (maxage=99999999999999 gave "Invalid Date") is clamped to
 * the last such date, the same "never" for every cache.
 */
export function expiresHeader(maxAge: number, nowMs = Date.now()): string {
  const seconds = maxAge <= 0 ? 1 : Math.min(Math.floor(nowMs / 1000) + maxAge, LAST_HTTP_DATE_SECONDS);
  return new Date(seconds * 1000).toUTCString();
}

/** PHP prints an empty result array as [] */
function emptyAsArray(tree: unknown): unknown {
  return tree instanceof Map && tree.size === 0 ? [] : tree;
}

function queryString(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i + 1);
}
