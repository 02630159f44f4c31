/**
 * gzip and brotli by Accept-Encoding. API answers are compressed here, synchronously, with the
 * negotiation of @fastify/compress (its streaming path costs several times more for a large body), and a cached
 * answer keeps its compressed forms (a cache hit costs no compression); the plugin compresses whatever
 * else the server sends (help pages through errors, /metrics).
 */
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import { negotiate } from '@fastify/accept-negotiator';
import type { Entry, ResponseCache } from './response-cache.js';

export type Encoding = 'br' | 'gzip';
/**
 * Preferred first when the client weighs them equally. Level 5 of both: on large JSON answers brotli 5
 * and gzip 5 make bodies of about the same size, and gzip's default 6 takes several times longer for a
 * body only a little smaller.
 */
export const ENCODINGS: Encoding[] = ['br', 'gzip'];
/** below this a compressed body saves less than its headers cost */
export const THRESHOLD = 1024;
const GZIP = { level: 5 };
const BROTLI = {
  params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
};

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { encodings: ENCODINGS, threshold: THRESHOLD, brotliOptions: BROTLI, zlibOptions: GZIP });
}

/** The encoding @fastify/compress would choose for this request (null: send as it is). */
export function chooseEncoding(acceptEncoding: string | undefined, bodyLength: number): Encoding | null {
  if (acceptEncoding === undefined || bodyLength < THRESHOLD) return null;
  const e = negotiate(acceptEncoding.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), ENCODINGS);
  return e === 'br' || e === 'gzip' ? e : null;
}

export function encodeBody(body: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(body, BROTLI) : zlib.gzipSync(body, GZIP);
}

/** Vary with Accept-Encoding added once. */
export function varyWithEncoding(vary: string | undefined): string {
  if (!vary) return 'Accept-Encoding';
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}

/** An answer's body as it is sent, and its Content-Encoding (null: as it is). */
export interface EncodedBody {
  body: Buffer | string;
  encoding: Encoding | null;
}

/**
 * API answers' bodies for the client's Accept-Encoding, compressed here rather than by the plugin:
 * synchronously (the plugin streams large bodies through zlib, which costs several times more), and
 * for a cached answer only once per encoding (kept with its entry).
 */
export class AnswerEncoder {
  /** the encoding chosen per Accept-Encoding value (clients send few distinct ones) */
  private readonly chosen = new Map<string, Encoding | null>();

  constructor(private readonly cache: ResponseCache) {}

  encodingOf(acceptEncoding: string | undefined, bodyLength: number): Encoding | null {
    if (acceptEncoding === undefined || bodyLength < THRESHOLD) return null;
    let encoding = this.chosen.get(acceptEncoding);
    if (encoding === undefined) {
      encoding = chooseEncoding(acceptEncoding, bodyLength);
      if (this.chosen.size >= 256) this.chosen.clear();
      this.chosen.set(acceptEncoding, encoding);
    }
    return encoding;
  }

  /** `plain` for this Accept-Encoding; `entry`: the cache entry it is the body of (null: not cached) */
  encode(acceptEncoding: string | undefined, plain: Buffer | string, entry: Entry | null): EncodedBody {
    const encoding = this.encodingOf(acceptEncoding, typeof plain === 'string' ? Buffer.byteLength(plain) : plain.length);
    if (encoding === null) return { body: plain, encoding };
    let body = entry?.encoded?.[encoding];
    if (!body) {
      body = encodeBody(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain, encoding);
      if (entry !== null) this.cache.addEncoded(entry, encoding, body);
    }
    return { body, encoding };
  }
}
