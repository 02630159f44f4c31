/**
 * The bytes of a dump as they come: a file or `-` (standard input), plain XML, gzip or bzip2 (Wikimedia
 * publishes `.xml.bz2`, multistream included), recognised by their first bytes, never by the name (a
 * download renamed, a pipe). Other archives are refused with the command that unpacks them.
 */
import fs from 'node:fs';
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
    throw new DumpSourceError(`${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (e as Error).message}`);
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

export async function openDump(file: string): Promise<DumpSource> {
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
  if (compression !== 'none') {
    const decoder = compression === 'gzip' ? createGunzip() : (unbzip2() as unknown as NodeJS.ReadWriteStream);
    stream = decompressed(plain, decoder, name, compression);
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
async function* decompressed(input: Readable, decoder: NodeJS.ReadWriteStream, name: string, what: DumpCompression): AsyncGenerator<Buffer> {
  // unbzip2-stream is a classic stream: a PassThrough gives both decoders backpressure and async iteration
  const out = new PassThrough();
  decoder.on('error', (e: Error) => out.destroy(new DumpSourceError(`${name}: corrupt ${what} data (${e.message})`)));
  input.on('error', (e) => out.destroy(new DumpSourceError(`${name}: ${e.message}`)));
  input.pipe(decoder as unknown as NodeJS.WritableStream);
  decoder.pipe(out);
  for await (const chunk of out) yield chunk as Buffer;
}
