/**
 * A response-cache hit written at the cost of a bare node:http answer. Node's writeHead validates every
 * header name and value, matches each against the names it treats specially and concatenates the header
 * block, on every response; a cached answer's headers never change, so its block is made once (per
 * encoding, per second for the Date line) and handed to the response as writeHead would have stored it.
 * Only the common case is taken: a keep-alive response without 100-continue, Connection or Keep-Alive
 * headers of our own; any other response is written by writeHead. The bytes are those writeHead gives
 * (test/hit-path.test.ts compares them).
 *
 * The request side: a hit needs five request headers (and, with `--upstream`, the Cookie), read from the raw list without building the
 * request's header object (Node builds it on first access, lower-casing and merging every header).
 */
import { STATUS_CODES, validateHeaderName, validateHeaderValue, type ServerResponse } from 'node:http';

/** The fields of Node's ServerResponse (http/_http_outgoing.js) that decide the header block Node would write. */
interface NodeResponse {
  _header: string | null;
  _headerSent: boolean;
  _removedConnection: boolean;
  _expect_continue?: boolean;
  _keepAliveTimeout?: number;
  _maxRequestsPerSocket?: number;
  _defaultKeepAlive: boolean;
  shouldKeepAlive: boolean;
  maxRequestsOnConnectionReached?: boolean;
  sendDate: boolean;
  statusMessage: string;
}

/** What a hit needs of the request's headers, as Node's header object would give them. */
export interface HitHeaders {
  /** the first Host (Node keeps the first of repeated Host headers) */
  host: string | undefined;
  /** every Accept-Encoding joined with ', ' (as Node joins them) */
  acceptEncoding: string | undefined;
  origin: boolean;
  /** Content-Length or Transfer-Encoding: the request has a body */
  body: boolean;
  /** every Cookie joined with '; ' (as Node joins them) */
  cookie: string | undefined;
}

/** Read the headers a hit needs from the raw [name, value, …] list into `out` (reused: no object per request). */
export function readHitHeaders(raw: string[], out: HitHeaders): HitHeaders {
  out.host = undefined;
  out.acceptEncoding = undefined;
  out.origin = false;
  out.body = false;
  out.cookie = undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    switch (name.length) {
      case 4:
        if (out.host === undefined && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) out.host = raw[i + 1];
        break;
      case 6:
        if (name === 'Origin' || name === 'origin') out.origin = true;
        else if (name === 'Cookie' || name === 'cookie')
          out.cookie = out.cookie === undefined ? raw[i + 1] : `${out.cookie}; ${raw[i + 1]}`;
        else {
          const lower = name.toLowerCase();
          if (lower === 'origin') out.origin = true;
          else if (lower === 'cookie') out.cookie = out.cookie === undefined ? raw[i + 1] : `${out.cookie}; ${raw[i + 1]}`;
        }
        break;
      case 14:
        if (name === 'Content-Length' || name.toLowerCase() === 'content-length') out.body = true;
        break;
      case 15:
        if (name === 'Accept-Encoding' || name === 'accept-encoding' || name.toLowerCase() === 'accept-encoding') {
          out.acceptEncoding = out.acceptEncoding === undefined ? raw[i + 1] : `${out.acceptEncoding}, ${raw[i + 1]}`;
        }
        break;
      case 17:
        if (name === 'Transfer-Encoding' || name.toLowerCase() === 'transfer-encoding') out.body = true;
        break;
    }
  }
  return out;
}

/** Header names whose presence changes what Node adds to the block (matchHeader in _http_outgoing.js). */
const SPECIAL = new Set(['connection', 'transfer-encoding', 'content-length', 'date', 'expect', 'trailer', 'keep-alive']);

/**
 * The status line and header lines of an answer whose flat list ends with its one Content-Length, as
 * writeHead would write them; null when writeHead must write them (a name Node treats specially, or a
 * name or value it would refuse: then it throws as it always did).
 */
export function headerHead(status: number, list: string[]): string | null {
  if (status < 200 || status === 204 || status === 304 || status > 999) return null;
  const lines = headerLines(list, list.length);
  if (lines === null || lines.lengths !== 1) return null;
  return `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\n${lines.text}`;
}

/** the header lines of list[0, end) as writeHead writes them, and how many Content-Length lines; null as headerHead */
function headerLines(list: string[], end: number): { text: string; lengths: number } | null {
  let text = '';
  let lengths = 0;
  for (let i = 0; i < end; i += 2) {
    const name = list[i]!;
    const value = list[i + 1]!;
    const lower = name.toLowerCase();
    if (lower === 'content-length') lengths++;
    else if (SPECIAL.has(lower)) return null;
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch {
      return null;
    }
    text += `${name}: ${value}\r\n`;
  }
  return { text, lengths };
}

/**
 * The header lines of the last few computed answers, by their header list without its Content-Length:
 * answers of one server differ in few ways (the API's error header, caching, CORS), so most find theirs
 * here and skip writeHead's checks. A miss makes the lines (and checks them) once.
 */
const FRESH_KEPT = 8;
const freshLists: string[][] = [];
const freshLines: Array<string | null> = [];

function sameList(a: string[], b: string[], end: number): boolean {
  if (a.length !== end) return false;
  for (let i = 0; i < end; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Write a computed answer whose flat header list ends with its Content-Length (as finishDirect makes it):
 * the status line and header lines from the memo above, then Content-Length, Date and the keep-alive lines
 * as writeHead and _storeHeader would. False (nothing written) when this response needs writeHead.
 */
export function writeFresh(res: ServerResponse, status: number, list: string[], body: Buffer | string): boolean {
  const response = res as unknown as NodeResponse;
  if (status < 200 || status === 204 || status === 304 || status > 999 || response._header) return false;
  const end = list.length - 2;
  if (end < 0 || list[end] !== 'content-length') return false;
  const tail = keepAliveTail(response);
  if (tail === null) return false;
  let lines: string | null | undefined;
  for (let k = 0; k < freshLists.length; k++) {
    if (sameList(freshLists[k]!, list, end)) {
      lines = freshLines[k];
      break;
    }
  }
  if (lines === undefined) {
    const made = headerLines(list, end);
    lines = made !== null && made.lengths === 0 ? made.text : null;
    if (freshLists.length === FRESH_KEPT) {
      freshLists.shift();
      freshLines.shift();
    }
    freshLists.push(list.slice(0, end));
    freshLines.push(lines);
  }
  if (lines === null) return false;
  res.statusCode = status;
  const message = response.statusMessage || (response.statusMessage = STATUS_CODES[status] ?? 'unknown');
  response._header = `HTTP/1.1 ${status} ${message}\r\n${lines}content-length: ${list[end + 1]}\r\n${dateLine()}${tail}\r\n`;
  response._headerSent = false;
  res.end(body);
  return true;
}

// The Date line, made once a second as Node's own (utcDate in _http_outgoing.js); `dateEpoch` counts the
// seconds so a stored block knows when its line is out of date.
let dateText = '';
let dateEpoch = 0;
const resetDate = () => {
  dateText = '';
};

function dateLine(): string {
  if (dateText === '') {
    const now = new Date();
    dateText = `Date: ${now.toUTCString()}\r\n`;
    dateEpoch++;
    setTimeout(resetDate, 1000 - now.getMilliseconds()).unref();
  }
  return dateText;
}

// The Connection and Keep-Alive lines of a keep-alive answer, for the last timeout and limit seen
let tailTimeout: number | undefined = -1;
let tailMax: number | undefined = -1;
let tailDefault = false;
let tailText = '';

/** The lines _storeHeader ends a keep-alive response with; null when this response is not the common case. */
function keepAliveTail(response: NodeResponse): string | null {
  if (
    !response.shouldKeepAlive ||
    response.maxRequestsOnConnectionReached ||
    response._removedConnection ||
    response._expect_continue ||
    !response.sendDate
  )
    return null;
  if (
    response._keepAliveTimeout !== tailTimeout ||
    response._maxRequestsPerSocket !== tailMax ||
    response._defaultKeepAlive !== tailDefault
  ) {
    tailTimeout = response._keepAliveTimeout;
    tailMax = response._maxRequestsPerSocket;
    tailDefault = response._defaultKeepAlive;
    tailText = 'Connection: keep-alive\r\n';
    if (tailTimeout && tailDefault) {
      const max = ~~(tailMax ?? 0) > 0 ? `, max=${tailMax}` : '';
      tailText += `Keep-Alive: timeout=${Math.floor(tailTimeout / 1000)}${max}\r\n`;
    }
  }
  return tailText;
}

/** A cached answer's header block, kept with it: `head` plus the Date and keep-alive lines of one second. */
export interface Block {
  head: string | null;
  text: string;
  epoch: number;
  tail: string;
}

export const newBlock = (head: string | null): Block => ({ head, text: '', epoch: -1, tail: '' });

/**
 * Write a stored answer with its stored header block; false (nothing written) when this response needs
 * writeHead. The response then ends as after writeHead and end(body): the same fields set, the same bytes.
 */
export function writeBlock(res: ServerResponse, status: number, block: Block, body: Buffer): boolean {
  const response = res as unknown as NodeResponse;
  if (block.head === null || response._header) return false;
  const tail = keepAliveTail(response);
  if (tail === null) return false;
  const date = dateLine();
  if (block.epoch !== dateEpoch || block.tail !== tail) {
    block.text = `${block.head}${date}${tail}\r\n`;
    block.epoch = dateEpoch;
    block.tail = tail;
  }
  res.statusCode = status;
  if (!response.statusMessage) response.statusMessage = STATUS_CODES[status] ?? 'unknown';
  response._header = block.text;
  response._headerSent = false;
  res.end(body);
  return true;
}
