/**
 * gzip and brotli by Accept-Encoding. @fastify/compress compresses whatever the handler sends; answers
 * kept in the response cache are compressed once per encoding here, with the same negotiation and
 * settings, and the compressed bytes are cached with the answer (a cache hit costs no compression).
 */
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import compress from '@fastify/compress';
import { negotiate } from '@fastify/accept-negotiator';

export type Encoding = 'br' | 'gzip';
/** preferred first when the client weighs them equally (brotli at quality 5: as fast as gzip -6 on our JSON, a little smaller) */
export const ENCODINGS: Encoding[] = ['br', 'gzip'];
/** below this a compressed body saves less than its headers cost */
export const THRESHOLD = 1024;
const BROTLI = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } };

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, { encodings: ENCODINGS, threshold: THRESHOLD, brotliOptions: BROTLI });
}

/** The encoding @fastify/compress would choose for this request (null: send as it is). */
export function chooseEncoding(acceptEncoding: string | undefined, bodyLength: number): Encoding | null {
  if (acceptEncoding === undefined || bodyLength < THRESHOLD) return null;
  const e = negotiate(acceptEncoding.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), ENCODINGS);
  return e === 'br' || e === 'gzip' ? e : null;
}

export function encodeBody(body: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br' ? zlib.brotliCompressSync(body, BROTLI) : zlib.gzipSync(body);
}

/** Vary with Accept-Encoding added once. */
export function varyWithEncoding(vary: string | undefined): string {
  if (!vary) return 'Accept-Encoding';
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}
