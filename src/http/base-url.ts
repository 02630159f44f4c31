/**
 * The base URL (scheme://host) an API answer names in its links: as the client addressed the server, or
 * through a trusted proxy as the proxy was addressed. A Host that is not a host name is not echoed: the
 * answer names the loopback address instead.
 */
import type { FastifyRequest } from 'fastify';

const HOST_RE = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

/** Base URLs made from a request's scheme and Host, the last one remembered (a server is addressed by few names). */
export class BaseUrls {
  private lastHost: string | undefined;
  private lastTls = false;
  private lastBase = '';

  /** scheme://host for a request over TLS or not, with this Host header */
  of(tls: boolean, host: string | undefined): string {
    if (host === this.lastHost && tls === this.lastTls && host !== undefined) return this.lastBase;
    const name = host ?? '';
    this.lastHost = host;
    this.lastTls = tls;
    this.lastBase = `${tls ? 'https' : 'http'}://${HOST_RE.test(name) ? name : '127.0.0.1'}`;
    return this.lastBase;
  }

  /** the base URL of a request on a Fastify route (through a trusted proxy: as the proxy was addressed) */
  ofRequest(request: FastifyRequest): string {
    return this.of(request.protocol === 'https', request.host);
  }
}
