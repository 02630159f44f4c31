/**
 * What one client may cost the server: the size of a request body (urlencoded or multipart, the same
 * limit for both), the number of multipart parts, how long a connection may take to send its headers
 * and its request, and how many connections are open at once.
 * (Node's own 400/408/431 answers, with Connection: close, are src/http/client-error.ts.)
 *
 * Beyond a limit the request is refused with 413 and MediaWiki's error object as soon as the limit is
 * known to be passed (a Content-Length over it, or the byte that passes it): the rest of the body is not
 * read and the connection is closed, so a 990 MB multipart upload costs at most the limit in memory.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { Busboy, type BusboyInstance } from '@fastify/busboy';

export interface HttpLimits {
  /** bytes of a request body, urlencoded or multipart (PHP's post_max_size plays this part for MediaWiki) */
  bodyBytes: number;
  /** parts of a multipart body (PHP's max_input_vars) */
  parts: number;
  /** open connections at once; more are closed as they arrive (the process needs a file descriptor each) */
  maxConnections: number;
  /** a connection must have sent its request line and headers within this time */
  headersTimeoutMs: number;
  /** … and its whole request (headers and body) within this time */
  requestTimeoutMs: number;
  /** an idle keep-alive connection is closed after this time */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_LIMITS: HttpLimits = {
  bodyBytes: 8 * 1024 * 1024,
  parts: 1000,
  maxConnections: 4096,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
};

/** A request refused by the HTTP layer; `statusCode` for Fastify's error handler. */
export class HttpLimitError extends Error {
  constructor(
    message: string,
    readonly statusCode: number,
  ) {
    super(message);
  }
}

export const tooLarge = (limit: number) => new HttpLimitError(`the request body is larger than the limit of ${limit} bytes`, 413);

/**
 * A multipart/form-data body as flat fields (the last of repeated names wins later, in decodeParams; here
 * repeated names collect into an array). File parts are read as their UTF-8 text, as fields are: clients
 * that send every parameter as a file part (some do) get the same answer. A value is never truncated:
 * every bound is an error.
 */
export function parseMultipart(
  headers: IncomingHttpHeaders,
  body: Readable,
  limits: HttpLimits,
): Promise<Record<string, string | string[]>> {
  return new Promise((resolve, reject) => {
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > limits.bodyBytes) {
      reject(tooLarge(limits.bodyBytes));
      return;
    }
    const fields: Record<string, string | string[]> = Object.create(null);
    const add = (name: string, value: string) => {
      const prev = fields[name];
      fields[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    };
    let done = false;
    let bb: BusboyInstance;
    const fail = (e: Error) => {
      if (done) return;
      done = true;
      body.unpipe(bb);
      // the rest of the body is not read: the error answer closes the connection
      body.pause();
      reject(e);
    };
    try {
      bb = new Busboy({
        headers: headers as { 'content-type': string },
        limits: { fieldSize: limits.bodyBytes, fileSize: limits.bodyBytes, fieldNameSize: 64 * 1024, parts: limits.parts },
      });
    } catch (e) {
      reject(new HttpLimitError((e as Error).message, 400));
      return;
    }
    let received = 0;
    body.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.bodyBytes) fail(tooLarge(limits.bodyBytes));
    });
    bb.on('field', (name: string, value: string, nameTruncated: boolean, valueTruncated: boolean) => {
      if (nameTruncated || valueTruncated) fail(tooLarge(limits.bodyBytes));
      else add(name, value);
    });
    bb.on('file', (name: string, file: Readable) => {
      const chunks: Buffer[] = [];
      file.on('data', (c: Buffer) => chunks.push(c));
      file.on('limit', () => fail(tooLarge(limits.bodyBytes)));
      file.on('end', () => {
        if (!done) add(name, Buffer.concat(chunks).toString('utf8'));
      });
    });
    const tooMany = () => fail(new HttpLimitError(`the request body has more than ${limits.parts} parts`, 413));
    bb.on('partsLimit', tooMany);
    bb.on('filesLimit', tooMany);
    bb.on('fieldsLimit', tooMany);
    bb.on('error', (e: Error) => fail(new HttpLimitError(e.message, 400)));
    bb.on('finish', () => {
      if (done) return;
      done = true;
      resolve(fields);
    });
    body.on('error', (e) => fail(new HttpLimitError(e.message, 400)));
    body.pipe(bb);
  });
}
