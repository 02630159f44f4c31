/**
 * Stopping without cutting anyone off, in bounded time. On `begin()` the server stops accepting
 * connections, closes the idle keep-alive ones, and answers the requests still running with
 * `Connection: close` so their connections end with them; connections that turn idle meanwhile are
 * closed as they do; whatever is left when the grace period ends is cut. Without this a keep-alive
 * client holds the process for Fastify's 72 s keep-alive timeout.
 */
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';

export class GracefulClose {
  private stoppingSince: number | null = null;
  private done: Promise<void> | null = null;

  constructor(private readonly app: FastifyInstance) {
    // registered on the app itself: applies to every route
    // callback style: no promise per response
    app.addHook('onSend', (_request, reply, payload, done) => {
      if (this.stoppingSince !== null) reply.header('Connection', 'close');
      done(null, payload);
    });
  }

  get stopping(): boolean {
    return this.stoppingSince !== null;
  }

  /** Resolves when every connection has ended (at most `graceMs` plus a moment). */
  begin(graceMs: number, onForced?: (connections: number) => void): Promise<void> {
    if (this.done) return this.done;
    this.stoppingSince = Date.now();
    const server: Server = this.app.server;
    this.done = new Promise<void>((resolve) => {
      let finished = false;
      // connections that finish their last response after the close started become idle: close them too
      const sweep = setInterval(() => server.closeIdleConnections(), 100);
      const deadline = setTimeout(() => {
        server.getConnections((_err, n) => {
          if (n > 0) onForced?.(n);
          server.closeAllConnections();
        });
      }, graceMs);
      deadline.unref();
      sweep.unref();
      const finish = () => {
        if (finished) return;
        finished = true;
        clearInterval(sweep);
        clearTimeout(deadline);
        resolve();
      };
      // app.close(): onClose hooks, then server.close() — no new connections, idle ones closed
      this.app.close().then(finish, finish);
    });
    return this.done;
  }
}
