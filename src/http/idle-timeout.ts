/**
 * The idle timeout of a connection (a socket that neither sends nor takes bytes for this long, such as a
 * client that stopped reading its answer, is closed) without a timer per request. Node's own
 * (`server.timeout`) re-arms a socket timer when each request starts, a new Timeout and a bound function
 * each time, besides the keep-alive timer every server has; here one interval looks at every connection
 * each second instead, and a connection that has shown no progress for the whole timeout gets the
 * 'timeout' event Node's timer would have emitted (Node's http server then destroys it unless a listener
 * takes the event), within a second of the time Node would have.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { LiveList } from './live-list.js';

interface Watched {
  read: number;
  written: number | undefined;
  pending: number;
  /** Date.now() when progress was last seen */
  since: number;
  /** 'timeout' emitted since the last progress (Node's timer fires once until the socket is active again) */
  fired: boolean;
}

/** on a watched socket: what was seen of it */
const WATCHED = Symbol('idle.watched');
type WatchedSocket = Socket & { [WATCHED]: Watched };

/** Watch the server's connections; returns the function that stops watching. */
export function watchIdleConnections(server: Server, timeoutMs: number): () => void {
  // the open connections (not a Map keyed by socket: clients that open a connection per request would
  // make it one of the promoted chains live-list.ts describes)
  const watched = new LiveList<WatchedSocket>();
  const onClose = function (this: WatchedSocket) {
    watched.delete(this);
  };
  const onConnection = (socket: Socket) => {
    const watchedSocket = socket as WatchedSocket;
    watchedSocket[WATCHED] = {
      read: socket.bytesRead,
      written: socket.bytesWritten,
      pending: socket.writableLength,
      since: Date.now(),
      fired: false,
    };
    watched.add(watchedSocket);
    socket.once('close', onClose);
  };
  server.on('connection', onConnection);
  const sweep = () => {
    const now = Date.now();
    watched.forEach((socket) => {
      const seen = socket[WATCHED];
      // bytes read, handed to the socket, or taken by the kernel from its queue (a write completing)
      const read = socket.bytesRead;
      const written = socket.bytesWritten;
      const pending = socket.writableLength;
      if (read !== seen.read || written !== seen.written || pending !== seen.pending) {
        seen.read = read;
        seen.written = written;
        seen.pending = pending;
        seen.since = now;
        seen.fired = false;
      } else if (!seen.fired && now - seen.since >= timeoutMs && !socket.destroyed) {
        seen.fired = true;
        socket.emit('timeout');
      }
    });
  };
  const timer = setInterval(sweep, Math.min(1000, timeoutMs)).unref();
  return () => {
    clearInterval(timer);
    server.off('connection', onConnection);
    watched.clear();
  };
}
