/**
 * Load shedding. Requests are served one after another on the event loop, so when more arrive than it
 * can serve, each waits behind all the others and latency grows without bound (with a few hundred
 * connections, the worst request waited many seconds). The queue is counted two ways: requests in flight (received, not yet fully
 * handed to the socket: those waiting on asynchronous work or on a slow reader), and requests taken in
 * the current turn of the event loop — the sockets that were ready together, which synchronous handlers
 * serve one after the other, the last waiting for all the others. Past `maxConcurrent` by either count,
 * a request is answered at once (a few microseconds) as MediaWiki answers under replication lag:
 * HTTP 503, `Retry-After`, `X-Database-Lag` and the `maxlag` error object, which bots already know to
 * wait on and retry (pywikibot, mwn, mwclient).
 *
 * The same answer protects memory from clients that do not read: answers not yet taken by their sockets
 * are counted, and past `maxPendingBytes` new requests are shed until slow readers drain (or time out).
 * An answer is at most $wgAPIMaxResultSize of values (see src/api/result-size.ts), so the memory held by
 * answers is bounded by maxPendingBytes plus maxConcurrent answers.
 */
import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import { texts } from '../api/errors.js';
import { LiveList } from './live-list.js';

export interface LoadLimits {
  /** requests in flight at once; 0 = no limit */
  maxConcurrent: number;
  /** bytes of answers written and not yet taken by their clients; 0 = no limit */
  maxPendingBytes: number;
  /** Retry-After of a shed request (MediaWiki sends max(maxlag, 5)) */
  retryAfterSeconds: number;
}

export const DEFAULT_LOAD_LIMITS: LoadLimits = {
  maxConcurrent: 64,
  maxPendingBytes: 256 * 1024 * 1024,
  retryAfterSeconds: 5,
};

export interface LoadState {
  inFlight: number;
  pendingBytes: number;
  shed: number;
}

/** on the raw response of a request in flight: its answer bytes counted so far */
const BYTES = Symbol('loadBytes');
/** on the raw response of a direct request: what to call when it closes */
const CLOSED = Symbol('loadClosed');
/** on the raw response of a request in flight: Date.now() when it was admitted */
const STARTED = Symbol('loadStarted');
type Counted = { [BYTES]?: number; [CLOSED]?: (res: ServerResponse) => void; [STARTED]?: number };

/** The hooks of the routes that are shed (the API's): attached to those routes only, so other routes pay nothing. */
export interface LoadHooks {
  onRequest: onRequestHookHandler;
  onSend: onSendHookHandler;
}

/** The same accounting for requests answered without Fastify (server.ts's direct API path). */
export interface LoadGate {
  /** would a request arriving now be shed (nothing is counted) */
  wouldShed(): boolean;
  /** count a request that is not shed as taken in this turn of the event loop */
  take(): void;
  /**
   * count a taken request as in flight until its response closes, then call `closed` (one listener on
   * the response for both); a cache hit the socket took whole is never in flight and costs neither
   */
  admit(res: ServerResponse, closed?: (res: ServerResponse) => void): void;
  /** count bytes of an answer written for a request in flight */
  sent(res: ServerResponse, bytes: number): void;
}

export function createLoadShedding(limits: LoadLimits): { state: LoadState; hooks: LoadHooks; gate: LoadGate } {
  const state: LoadState = { inFlight: 0, pendingBytes: 0, shed: 0 };
  // the raw responses of the requests in flight, oldest first (not a Map: see live-list.ts)
  const admitted = new LiveList<ServerResponse & Counted>();
  // requests taken since the event loop was last between turns (reset in the check phase)
  let turn = 0;
  const endTurn = () => {
    turn = 0;
  };
  // one listener for every response ('close' comes once, after the last byte went to the socket or the
  // client went away), no closure per request
  function onClose(this: ServerResponse & Counted) {
    state.inFlight--;
    state.pendingBytes -= this[BYTES] ?? 0;
    admitted.delete(this);
    this[CLOSED]?.(this);
  }
  const takeTurn = () => {
    if (turn === 0) setImmediate(endTurn);
    turn++;
  };
  // with this request counted in the turn
  const over = () =>
    (limits.maxConcurrent > 0 && Math.max(state.inFlight + 1, turn) > limits.maxConcurrent) ||
    (limits.maxPendingBytes > 0 && state.pendingBytes > limits.maxPendingBytes);
  const admit = (res: ServerResponse & Counted) => {
    res[BYTES] = 0;
    state.inFlight++;
    res[STARTED] = Date.now();
    admitted.add(res);
    res.on('close', onClose);
  };
  const sent = (res: ServerResponse & Counted, n: number) => {
    // a shed request's own answer is not counted (it was never in flight)
    if (res[BYTES] === undefined) return;
    res[BYTES] += n;
    state.pendingBytes += n;
  };

  const onRequest: onRequestHookHandler = (request: FastifyRequest, reply: FastifyReply, done) => {
    takeTurn();
    if (over()) {
      state.shed++;
      const oldest = admitted.first()?.[STARTED];
      const lag = oldest === undefined ? 0 : Math.floor((Date.now() - oldest) / 1000);
      const host = request.headers.host ?? '127.0.0.1';
      const body = JSON.stringify({
        error: { code: 'maxlag', info: texts.maxlag(lag), '*': `See ${request.protocol}://${host}/api.php for API usage` },
      });
      reply
        .code(503)
        .header('Retry-After', String(limits.retryAfterSeconds))
        .header('X-Database-Lag', String(lag))
        .header('MediaWiki-API-Error', 'maxlag')
        .header('Cache-Control', 'no-cache')
        .header('X-Frame-Options', 'DENY')
        .type('application/json; charset=utf-8')
        .send(body);
      return;
    }
    admit(reply.raw);
    done();
  };

  const onSend: onSendHookHandler = (_request, reply, payload, done) => {
    sent(reply.raw, typeof payload === 'string' ? Buffer.byteLength(payload) : Buffer.isBuffer(payload) ? payload.length : 0);
    done(null, payload);
  };

  const gate: LoadGate = {
    wouldShed: () => {
      turn++;
      const shed = over();
      turn--;
      return shed;
    },
    take: takeTurn,
    admit: (res: ServerResponse & Counted, closed) => {
      res[CLOSED] = closed;
      admit(res);
    },
    sent,
  };

  return { state, hooks: { onRequest, onSend }, gate };
}
