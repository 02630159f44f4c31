/**
 * Requests Node's HTTP parser refuses before any route sees them.
 *
 * Raw UTF-8 in the URL (`curl '…?subject=Київ'`): nginx and PHP accept it and MediaWiki answers as if
 * it had been percent-encoded; Node's parser (llhttp) refuses any byte above 0x7F in a request target,
 * even in its lenient mode. Such a request is rescued: its request line is percent-encoded and the
 * request replayed through the same server on a stand-in socket, answered, and the connection closed.
 * Only refused requests take this path, so ordinary requests pay nothing for it.
 *
 * Everything else the parser refuses gets MediaWiki's error object (code `badrequest`) with the
 * status Node chose (400, 408 timeout, 431 headers too large) and `Connection: close`.
 */
import { Duplex } from 'node:stream';
import { STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { refusalBody } from './refusal.js';

const RESCUED = Symbol('wikiquery.rescued');
const MAX_RESCUE_BYTES = 64 * 1024;

type ParseError = Error & { code?: string; rawPacket?: Buffer };

export function makeClientErrorHandler(server: () => Server, apiUrl: () => string) {
  return (err: ParseError, socket: Socket): void => {
    const marked = socket as Socket & { [RESCUED]?: boolean };
    if (marked[RESCUED]) return; // the stand-in socket answers; the parser's later complaints are moot
    if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable) {
      socket.destroy();
      return;
    }
    if (err.code === 'HPE_INVALID_URL' && err.rawPacket && !(socket instanceof StandIn)) {
      const fixed = rescueRequest(err.rawPacket);
      if (fixed) {
        marked[RESCUED] = true;
        replay(server(), socket, fixed);
        return;
      }
    }
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const body = refusalBody(describe(err), apiUrl());
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        'MediaWiki-API-Error: badrequest\r\n' +
        'X-Content-Type-Options: nosniff\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  };
}

function describe(err: ParseError): string {
  switch (err.code) {
    case 'HPE_INVALID_URL':
      return 'invalid characters in the URL';
    case 'HPE_HEADER_OVERFLOW':
      return 'request headers too large';
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 'the request took too long to arrive';
    default:
      return 'malformed HTTP request';
  }
}

/**
 * The first request of the packet with every byte of its request target that llhttp refuses
 * percent-encoded, or null when the packet does not hold one whole request without a body of unknown
 * length (then it is refused as malformed).
 */
export function rescueRequest(packet: Buffer): Buffer | null {
  if (packet.length > MAX_RESCUE_BYTES) return null;
  const lineEnd = packet.indexOf('\r\n');
  const headEnd = packet.indexOf('\r\n\r\n');
  if (lineEnd < 0 || headEnd < 0) return null;
  const line = packet.subarray(0, lineEnd);
  const firstSpace = line.indexOf(0x20);
  const lastSpace = line.lastIndexOf(0x20);
  if (firstSpace <= 0 || lastSpace <= firstSpace + 1 || !/^HTTP\/1\.[01]$/.test(line.subarray(lastSpace + 1).toString('latin1')))
    return null;
  const head = packet.subarray(lineEnd, headEnd + 4).toString('latin1');
  if (/\r\ntransfer-encoding:/i.test(head)) return null;
  const contentLength = /\r\ncontent-length:[ \t]*(\d+)[ \t]*\r\n/i.exec(head);
  const bodyLength = contentLength ? Number(contentLength[1]) : 0;
  if (headEnd + 4 + bodyLength > packet.length) return null;
  const target = line.subarray(firstSpace + 1, lastSpace);
  let encoded = '';
  for (const byte of target) {
    // bytes above 0x7F (UTF-8) and the printable characters nginx passes through but llhttp refuses
    encoded +=
      byte >= 0x80 ||
      byte === 0x22 ||
      byte === 0x3c ||
      byte === 0x3e ||
      byte === 0x5c ||
      byte === 0x5e ||
      byte === 0x60 ||
      byte === 0x7b ||
      byte === 0x7d
        ? '%' + byte.toString(16).toUpperCase().padStart(2, '0')
        : String.fromCharCode(byte);
    if (byte < 0x21 || byte === 0x7f) return null; // controls: malformed whatever the encoding
  }
  // one request only: `Connection: close` makes the server end the connection after answering it
  const headers = head.replace(/\r\nconnection:[^\r]*/gi, '').replace(/^\r\n/, '\r\nConnection: close\r\n');
  return Buffer.concat([
    line.subarray(0, firstSpace + 1),
    Buffer.from(encoded, 'latin1'),
    line.subarray(lastSpace),
    Buffer.from(headers, 'latin1'),
    packet.subarray(headEnd + 4, headEnd + 4 + bodyLength),
  ]);
}

/** A socket that reads the rescued request and writes to the client's real socket. */
class StandIn extends Duplex {
  constructor(private readonly real: Socket) {
    super({ allowHalfOpen: true });
    real.on('close', () => this.destroy());
  }
  static {
    // the addresses are the real socket's: the request log and the API read them
    for (const name of ['remoteAddress', 'remotePort', 'remoteFamily', 'localAddress', 'localPort'] as const) {
      Object.defineProperty(StandIn.prototype, name, {
        get(this: StandIn) {
          return this.real[name];
        },
      });
    }
  }
  get encrypted() {
    return false;
  }
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  override _read(): void {}
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    if (this.real.writable) this.real.write(chunk, cb);
    else cb();
  }
  override _final(cb: (e?: Error | null) => void): void {
    this.real.end();
    cb();
  }
  override _destroy(err: Error | null, cb: (e?: Error | null) => void): void {
    if (!this.real.destroyed) this.real.end();
    cb(err);
  }
}

function replay(server: Server, real: Socket, request: Buffer): void {
  const standIn = new StandIn(real);
  server.emit('connection', standIn);
  // no end of input here: the server would take it for an aborted request
  standIn.push(request);
}
