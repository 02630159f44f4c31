/**
 * The API's GET requests without a body, answered straight from node:http: Fastify's routing, request
 * and reply objects, hooks and logger child cost more per request than a small answer. The answer,
 * its headers (names in lower case and in the order Fastify writes them), the load accounting, the
 * metrics and graceful closing are the same as on the Fastify route, which takes every other request:
 * other methods, bodies, a trusted proxy (its addresses), info-level request logging, and a server
 * that is closing. A response-cache hit reads only the request headers it needs (from the raw list), and
 * is written from the entry's stored header block and body (src/http/wire.ts) in one end(): no header
 * object, no per-request validation of its headers, and no in-flight accounting when the socket takes it
 * whole (then its metrics are counted at once). Direct answers are written at the end of the event-loop
 * turn, together (src/http/write-batch.ts).
 *
 * With `serve --upstream`, the requests that are the upstream's go to the Fastify route, which forwards
 * them: those whose Cookie names the upstream's session or a read-your-writes position (sorted and, for a
 * writer, held there), and, among the cache's misses, those whose parameters the forwarder claims (writes,
 * modules and formats wikiquery does not implement). A cache hit was answered here before, for the same
 * URL without such a cookie: it is local, and taken without decoding its parameters.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { HELP_LABELS, isError, type ApiAnswers, type ApiCall, type ApiReply } from './api-answers.js';
import type { BaseUrls } from './base-url.js';
import { varyWithEncoding, type AnswerEncoder, type Encoding } from './compression.js';
import type { LoadGate } from './load-shedding.js';
import type { Metrics, Series } from './metrics.js';
import { decodeParams, type DecodedParams } from './params.js';
import { refusalBody } from './refusal.js';
import type { Entry, Wire } from './response-cache.js';
import type { GracefulClose } from './shutdown.js';
import { chronologyPosition, hasUpstreamSession, type Upstream } from './upstream.js';
import { headerHead, newBlock, readHitHeaders, writeBlock, writeFresh, type Block, type HitHeaders } from './wire.js';
import { WriteBatch } from './write-batch.js';

/** on a direct request's response: the metrics series it is counted in (none: not an API answer) and its start */
const SERIES = Symbol('wikiquery.direct');
const START = Symbol('wikiquery.start');
type DirectResponse = ServerResponse & { [SERIES]?: Series; [START]?: number };

/** What the direct path shares with the rest of the server. */
export interface DirectPathStages {
  answers: ApiAnswers;
  encoder: AnswerEncoder;
  metrics: Metrics;
  loadGate: LoadGate;
  graceful: GracefulClose;
  baseUrls: BaseUrls;
  log: Logger;
  /** X-Forwarded-* are believed from some peers: requests go to Fastify, which reads them */
  behindProxy: boolean;
  /** `serve --upstream`: the requests it claims go to the Fastify route, which forwards them */
  upstream?: Upstream;
}

export class DirectPath {
  private closing = false;
  /** the direct answers of one event-loop turn, written together at its end */
  private readonly batch = new WriteBatch();
  /** the request headers a hit reads, filled per request */
  private readonly hitHeaders: HitHeaders = { host: undefined, acceptEncoding: undefined, origin: false, body: false, cookie: undefined };
  /** header names as Fastify's reply writes them (lower case), made once per name */
  private readonly lowerNames = new Map<string, string>();

  constructor(private readonly stages: DirectPathStages) {}

  /** Put the direct path in front of Fastify's request listener, which keeps every request it does not take. */
  install(app: FastifyInstance): void {
    app.addHook('onClose', (_instance, done) => {
      this.closing = true;
      done();
    });
    const [fastifyListener] = app.server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
    app.server.removeAllListeners('request');
    app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (!this.take(req, res)) fastifyListener!(req, res);
    });
  }

  /** Answer the request here, or false: it is Fastify's. */
  private take(req: IncomingMessage, res: ServerResponse): boolean {
    const { graceful, loadGate, log } = this.stages;
    if (req.method !== 'GET' || this.closing || graceful.stopping || this.stages.behindProxy) return false;
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const pathEnd = queryStart < 0 ? url.length : queryStart;
    if (!(pathEnd === 8 ? url.startsWith('/api.php') : pathEnd === 10 && url.startsWith('/w/api.php'))) return false;
    const headers = readHitHeaders(req.rawHeaders, this.hitHeaders);
    if (headers.body) return false;
    if (log.isLevelEnabled('info') || loadGate.wouldShed()) return false;
    const upstream = this.stages.upstream;
    if (upstream !== undefined && headers.cookie !== undefined && upstreamCookie(headers.cookie)) return false;
    const start = performance.now();
    const socket = req.socket as IncomingMessage['socket'] & { encrypted?: boolean };
    const ip = socket.remoteAddress!;
    const base = this.stages.baseUrls.of(socket.encrypted === true, headers.host);
    const hit = this.stages.answers.fromCache('GET', headers.origin, base, ip, url);
    if (hit) {
      loadGate.take();
      const acceptEncoding = headers.acceptEncoding;
      this.batch.defer(res, () => this.writeHit(res, acceptEncoding, hit, start));
      return true;
    }
    let params: DecodedParams | undefined;
    if (upstream !== undefined) {
      params = decodeParams(queryStart < 0 ? '' : url.slice(queryStart + 1), undefined);
      const answers = this.stages.answers;
      if (upstream.forwards(params.raw, req.headers, answers.actionNames, answers.queryNames)) return false;
    }
    loadGate.take();
    loadGate.admit(res, this.onResponseClose);
    void this.answer(res, { method: 'GET', url, headers: req.headers, ip, base, body: undefined, params }, hit === undefined, start);
    return true;
  }

  private async answer(res: ServerResponse, call: ApiCall, cacheable: boolean, start: number): Promise<void> {
    let apiReply: ApiReply;
    try {
      apiReply = await this.stages.answers.compute(call, cacheable);
    } catch (e) {
      this.refuse(res, e as Error, call.base, start);
      return;
    }
    const acceptEncoding = call.headers['accept-encoding'];
    if (apiReply.entry !== null && !this.stages.graceful.stopping) return this.writeEntry(res, acceptEncoding, apiReply.entry, start);
    const { body, encoding } = this.stages.encoder.encode(acceptEncoding, apiReply.body, apiReply.entry);
    const status = apiReply.answer.status;
    // A text answer (JSON answers are bytes already) goes out in one write with the header block, which
    // Node then sends as UTF-8 rather than Latin-1: the same bytes while the header values are ASCII, as
    // they are but for CORS's echo of the Origin header.
    const text = typeof body === 'string' && call.headers.origin !== undefined ? Buffer.from(body, 'utf8') : body;
    this.finish(
      res,
      status,
      this.headerList(apiReply.answer.headers, encoding),
      text,
      this.stages.metrics.series(apiReply.labels, status, apiReply.error),
      start,
    );
  }

  private lowerName(name: string): string {
    let lower = this.lowerNames.get(name);
    if (lower === undefined) {
      lower = name.toLowerCase();
      if (this.lowerNames.size < 256) this.lowerNames.set(name, lower);
    }
    return lower;
  }

  /** the headers of a direct answer as writeHead's flat list, named and ordered as Fastify's reply writes them */
  private headerList(given: Record<string, string>, encoding: Encoding | null): string[] {
    const list: string[] = [];
    let typed = false;
    for (const name in given) {
      const lower = this.lowerName(name);
      if (lower === 'content-type') typed = true;
      setHeader(list, lower, given[name]!);
    }
    if (encoding !== null) {
      setHeader(list, 'content-encoding', encoding);
      setHeader(list, 'vary', varyWithEncoding(given.Vary));
    }
    // as Fastify's reply.send of a Buffer, then the onSend hooks, then the length
    if (!typed) list.push('content-type', 'application/octet-stream');
    return list;
  }

  /** a cached answer's headers and body for this encoding, made once */
  private wireOf(acceptEncoding: string | undefined, entry: Entry): Wire {
    const encoding = this.stages.encoder.encodingOf(acceptEncoding, entry.body.length);
    let wire = entry.wire[encoding ?? ''];
    if (wire === undefined) {
      const { body } = this.stages.encoder.encode(acceptEncoding, entry.body, entry);
      const headers = this.headerList(entry.headers, encoding);
      headers.push('content-length', String(body.length));
      wire = entry.wire[encoding ?? ''] = { headers, body: body as Buffer, block: newBlock(headerHead(entry.status, headers)) };
    }
    return wire;
  }

  private seriesOf(entry: Entry): Series {
    let series = entry.tag as Series | undefined;
    if (series === undefined) entry.tag = series = this.stages.metrics.series(entry.labels ?? HELP_LABELS, entry.status, isError(entry));
    return series;
  }

  /** an answer just stored, for a request in flight since it arrived */
  private writeEntry(res: ServerResponse, acceptEncoding: string | undefined, entry: Entry, start: number): void {
    const wire = this.wireOf(acceptEncoding, entry);
    this.writeOut(res, entry.status, wire.headers, wire.body, wire.body.length, this.seriesOf(entry), start, wire.block);
  }

  /**
   * A hit: written at once from the stored header block. It is counted in flight (and its metrics taken
   * when its response closes) only when the socket did not take it whole; else it is over already, and
   * counted now.
   */
  private writeHit(res: ServerResponse, acceptEncoding: string | undefined, entry: Entry, start: number): void {
    const wire = this.wireOf(acceptEncoding, entry);
    const series = this.seriesOf(entry);
    send(res, entry.status, wire.headers, wire.body, wire.block);
    if (res.writableLength === 0) {
      // a socket destroyed by the write: the client never got it (as a response that closes unfinished)
      if (!res.socket?.destroyed) this.stages.metrics.observe(series, (performance.now() - start) / 1000);
      return;
    }
    this.stages.loadGate.admit(res, this.onResponseClose);
    this.stages.loadGate.sent(res, wire.body.length);
    const direct = res as DirectResponse;
    direct[SERIES] = series;
    direct[START] = start;
  }

  /** as the error handler answers on the Fastify route (ApiMain answers every failure itself: not expected) */
  private refuse(res: ServerResponse, error: Error, base: string, start: number): void {
    this.stages.log.info({ err: error }, 'request body refused');
    const body = Buffer.from(refusalBody(error.message, `${base}/api.php`), 'utf8');
    const headers = ['x-frame-options', 'DENY', 'mediawiki-api-error', 'badrequest', 'content-type', 'application/json; charset=utf-8'];
    // not an API answer: the metrics skip it, as the request log skips a request it has no labels for
    this.finish(res, 400, headers, body, undefined, start);
  }

  /** an answer not from the cache: its length (and, while closing, Connection: close) added to its headers */
  private finish(
    res: ServerResponse,
    status: number,
    headers: string[],
    body: Buffer | string,
    series: Series | undefined,
    start: number,
  ): void {
    if (this.stages.graceful.stopping) headers.push('connection', 'close');
    const bytes = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
    headers.push('content-length', String(bytes));
    this.writeOut(res, status, headers, body, bytes, series, start);
  }

  /** every direct answer's end: its bytes counted in flight, its series and start kept for the metrics, written */
  private writeOut(
    res: ServerResponse,
    status: number,
    headers: string[],
    body: Buffer | string,
    bytes: number,
    series: Series | undefined,
    start: number,
    block?: Block,
  ): void {
    this.stages.loadGate.sent(res, bytes);
    const direct = res as DirectResponse;
    direct[SERIES] = series;
    direct[START] = start;
    this.batch.defer(res, () => send(res, status, headers, body, block));
  }

  // called by the load accounting's close listener: the metrics of a direct request that was answered,
  // as the request log records them on 'finish'
  private readonly onResponseClose = (res: ServerResponse): void => {
    const direct = res as DirectResponse;
    const series = direct[SERIES];
    if (series !== undefined && res.writableFinished) this.stages.metrics.observe(series, (performance.now() - direct[START]!) / 1000);
  };
}

/** a Cookie header naming the upstream's session or a read-your-writes position */
function upstreamCookie(cookie: string): boolean {
  return hasUpstreamSession(cookie) || chronologyPosition(cookie) !== null;
}

/** set a header in a flat list, in place when it is there already (as on an object keyed by name) */
function setHeader(list: string[], name: string, value: string): void {
  for (let i = 0; i < list.length; i += 2) {
    if (list[i] === name) {
      list[i + 1] = value;
      return;
    }
  }
  list.push(name, value);
}

/** the answer's bytes: from a cached answer's stored header block, or a computed one's remembered header lines, when the response allows; else by writeHead */
function send(res: ServerResponse, status: number, headers: string[], body: Buffer | string, block?: Block): void {
  if (block !== undefined ? writeBlock(res, status, block, body as Buffer) : writeFresh(res, status, headers, body)) return;
  res.writeHead(status, headers);
  res.end(body);
}
