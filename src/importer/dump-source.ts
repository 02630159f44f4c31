/**
 * The bytes of a dump as they come: a file or `-` (standard input), plain XML, gzip or bzip2 (Wikimedia
 * publishes `.xml.bz2`, multistream included), recognised by their first bytes, never by the name (a
 * download renamed, a pipe). Other archives are refused with the command that unpacks them.
 *
 * bzip2 is decoded by the system's `lbzip2` or `bzip2` when there is one (an order of magnitude faster
 * than any JavaScript decoder, and lbzip2 uses every core), else by unbzip2-stream, in process.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { PassThrough, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import unbzip2 from 'unbzip2-stream';

export type DumpCompression = 'none' | 'gzip' | 'bzip2';

export interface DumpSource {
  /** the decompressed XML bytes */
  stream: AsyncIterable<Buffer>;
  compression: DumpCompression;
  /** bytes of the file itself (compressed), when known in advance (not for stdin) */
  size: number | undefined;
  /** compressed bytes read so far */
  bytesRead(): number;
  close(): void;
}

/** The dump is missing, unreadable or not a dump at all: one line, naming the dump. */
export class DumpSourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DumpSourceError';
  }
}

export const STDIN = '-';

export function dumpDisplayName(file: string): string {
  return file === STDIN ? '<stdin>' : file;
}

/** Fails early, before anything is written, when the dump cannot be read. */
export function checkDumpPath(file: string): void {
  if (file === STDIN) return;
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new DumpSourceError(
      `${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`,
    );
  }
  if (st.isDirectory()) throw new DumpSourceError(`${file}: is a directory, not a dump`);
  try {
    fs.accessSync(file, fs.constants.R_OK);
  } catch {
    throw new DumpSourceError(`${file}: permission denied`);
  }
}

const ARCHIVES: Array<{ magic: number[]; what: string; how: string }> = [
  { magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], what: 'a 7-Zip archive', how: '7z e -so DUMP.7z | wikiquery import - --db FILE' },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz-compressed', how: 'xz -dc DUMP.xz | wikiquery import - --db FILE' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd-compressed', how: 'zstd -dc DUMP.zst | wikiquery import - --db FILE' },
  { magic: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive', how: 'unzip -p DUMP.zip | wikiquery import - --db FILE' },
];

export function detectCompression(head: Buffer, name: string): DumpCompression {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'gzip';
  if (head.length >= 4 && head.toString('latin1', 0, 3) === 'BZh' && head[3] >= 0x31 && head[3] <= 0x39) return 'bzip2';
  for (const a of ARCHIVES) {
    if (head.length >= a.magic.length && a.magic.every((b, i) => head[i] === b)) {
      throw new DumpSourceError(`${name}: ${a.what}, which wikiquery does not read; decompress it on the fly: ${a.how}`);
    }
  }
  // XML: an optional UTF-8 byte order mark, white space, then '<'
  let i = head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (i === head.length) throw new DumpSourceError(`${name}: empty, not a dump`);
  if (head[i] === 0x3c) return 'none';
  throw new DumpSourceError(`${name}: not a MediaWiki XML dump (neither XML nor gzip nor bzip2 data)`);
}

export interface OpenDumpOptions {
  /** bzip2 decoder: a system program when there is one (auto), or always the in-process one (js) */
  bzip2?: 'auto' | 'js';
}

export async function openDump(file: string, opts: OpenDumpOptions = {}): Promise<DumpSource> {
  const name = dumpDisplayName(file);
  checkDumpPath(file);
  const raw: Readable = file === STDIN ? process.stdin : fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  const size = file === STDIN ? undefined : fs.statSync(file).size;
  let bytesRead = 0;
  const it = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  // enough bytes to recognise the format (a pipe may deliver them in several chunks)
  const head: Buffer[] = [];
  let headLen = 0;
  let ended = false;
  try {
    while (headLen < 64) {
      const r = await it.next();
      if (r.done) {
        ended = true;
        break;
      }
      head.push(r.value);
      headLen += r.value.length;
      bytesRead += r.value.length;
    }
  } catch (e) {
    raw.destroy();
    throw new DumpSourceError(`${name}: ${(e as Error).message}`);
  }
  const first = Buffer.concat(head);
  let compression: DumpCompression;
  try {
    compression = detectCompression(first, name);
  } catch (e) {
    raw.destroy();
    throw e;
  }
  async function* bytes(): AsyncGenerator<Buffer> {
    if (first.length > 0) yield first;
    if (ended) return;
    for (;;) {
      const r = await it.next();
      if (r.done) return;
      bytesRead += r.value.length;
      yield r.value;
    }
  }
  const plain = Readable.from(bytes(), { objectMode: false });
  let stream: AsyncIterable<Buffer> = plain;
  if (compression === 'gzip') stream = decompressed(plain, createGunzip(), name, compression);
  if (compression === 'bzip2') {
    const program = opts.bzip2 === 'js' ? null : bzip2Program();
    stream = program
      ? viaProgram(plain, program, name)
      : decompressed(plain, unbzip2() as unknown as NodeJS.ReadWriteStream, name, compression);
  }
  return {
    stream,
    compression,
    size,
    bytesRead: () => bytesRead,
    close: () => {
      plain.destroy();
      if (raw !== process.stdin) raw.destroy();
    },
  };
}

/** Decoder errors (a truncated or corrupt file) are the dump's fault: say so, naming the dump. */
async function* decompressed(
  input: Readable,
  decoder: NodeJS.ReadWriteStream,
  name: string,
  what: DumpCompression,
): AsyncGenerator<Buffer> {
  // unbzip2-stream is a classic stream: a PassThrough gives both decoders backpressure and async iteration
  const out = new PassThrough();
  decoder.on('error', (e: Error) => out.destroy(new DumpSourceError(`${name}: corrupt ${what} data (${e.message})`)));
  input.on('error', (e) => out.destroy(new DumpSourceError(`${name}: ${e.message}`)));
  input.pipe(decoder as unknown as NodeJS.WritableStream);
  decoder.pipe(out);
  for await (const chunk of out) yield chunk as Buffer;
}

let bzip2Found: string | null | undefined;
/** lbzip2 (parallel) or bzip2 on the PATH, or null. */
export function bzip2Program(): string | null {
  if (bzip2Found === undefined) {
    bzip2Found = null;
    outer: for (const prog of ['lbzip2', 'bzip2']) {
      for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
        if (!dir) continue;
        const f = path.join(dir, prog);
        try {
          fs.accessSync(f, fs.constants.X_OK);
          bzip2Found = f;
          break outer;
        } catch {
          // not here
        }
      }
    }
  }
  return bzip2Found;
}

/** `PROGRAM -dc` between the compressed bytes and the parser; its complaint on a bad file becomes the error. */
async function* viaProgram(input: Readable, program: string, name: string): AsyncGenerator<Buffer> {
  const child = spawn(program, ['-dc'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d.slice(0, 2000)));
  // the program may stop reading early (a corrupt file): that is reported by its exit status
  child.stdin.on('error', () => {});
  input.on('error', (e) => child.stdout.destroy(new DumpSourceError(`${name}: ${e.message}`)));
  input.pipe(child.stdin);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  try {
    for await (const chunk of child.stdout) yield chunk as Buffer;
    const code = await exited;
    if (code !== 0) {
      const why = stderr
        .split('\n')
        .map((l) => l.replace(/^\S*bzip2: /, '').trim())
        .find((l) => l && !l.startsWith('Input file') && !/^You can use|^It is possible/.test(l));
      throw new DumpSourceError(`${name}: corrupt bzip2 data (${why ?? `${path.basename(program)} exited with ${code}`})`);
    }
  } finally {
    if (child.exitCode === null) child.kill();
    input.unpipe(child.stdin);
  }
}
