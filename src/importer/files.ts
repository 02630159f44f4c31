/**
 * The `image` table from a files directory (--files DIR): one row per file found (recursively; the
 * file name is the DB key, MediaWiki's hashed "a/ab/" folders are fine), hashed with streaming reads,
 * with MIME type and media type as MediaWiki's MimeMagic names them, and the pixel size read from the
 * file's header. `DIR/files-manifest.jsonl` describes files whose bytes are not on disk (synthetic
 * wikis of any size; read line by line).
 *
 * Who uploaded a file and when, first match wins: the dump's <upload> elements (newest upload), then
 * DIR/uploads.json, then the first revision of the file's description page, then the file's mtime by
 * 'Maintenance script' (what importImages.php would record).
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import readline from 'node:readline';
import mime from 'mime-types';
import { imageSize } from 'image-size';
import type { TitleCodec } from '../wiki/titles.js';
import { NS_FILE } from '../wiki/namespaces.js';
import { sha1HexToBase36 } from '../wiki/files.js';
import { dateToMw, isoToMw } from '../wiki/timestamps.js';
import type { ImportWriter, Uploader } from '../store/import-writer.js';
import { inBatch } from './batch.js';

export const MANIFEST_NAME = 'files-manifest.jsonl';
export const UPLOAD_LOG_NAME = 'uploads.json';
const HEADER_BYTES = 512 * 1024; // enough for image-size with any header layout it knows
const CONCURRENCY = 8;

/** MimeMagic::getMediaType (mime.info of 1.25) for the MIME types a wiki stores. */
export function mediaType(mimeType: string): string {
  const [major, minor = ''] = mimeType.split('/');
  if (mimeType === 'image/svg+xml' || mimeType === 'application/svg+xml') return 'DRAWING';
  if (major === 'image') return 'BITMAP';
  if (major === 'audio') return 'AUDIO';
  if (major === 'video') return 'VIDEO';
  if (mimeType === 'application/ogg') return 'MULTIMEDIA';
  if (
    /^(pdf|acrobat|msword|rtf|vnd\.ms-|vnd\.openxmlformats|vnd\.oasis\.opendocument|vnd\.sun\.xml|x-latex|postscript)/.test(minor) &&
    major === 'application'
  ) {
    return 'OFFICE';
  }
  if (major === 'text') return 'TEXT';
  if (major === 'application' && /^(zip|x-zip|x-tar|gzip|x-gzip|x-bzip2?|x-7z-compressed|x-rar|vnd\.rar)/.test(minor)) return 'ARCHIVE';
  if (major === 'application' && /^(x-executable|x-msdownload|x-dosexec|x-sharedlib)/.test(minor)) return 'EXECUTABLE';
  return 'UNKNOWN';
}

/** Bits per sample as getimagesize reports them (img_bits): PNG bit depth, GIF colour depth, JPEG 8. */
function imageBits(mimeType: string, head: Buffer): number {
  if (mimeType === 'image/png' && head.length > 24) return head[24];
  if (mimeType === 'image/gif' && head.length > 10) return (head[10] & 7) + 1;
  if (mimeType === 'image/jpeg') return 8;
  if (mimeType === 'image/bmp' && head.length > 29) return head.readUInt16LE(28);
  return 0;
}

function mimeOf(name: string): string {
  return mime.lookup(name) || 'unknown/unknown';
}

interface ImageRow {
  name: string;
  size: number;
  width: number;
  height: number;
  bits: number;
  mime: string;
  sha1hex: string;
  uploader: Uploader;
  path: string;
}

export class FileImporter {
  count = 0;

  constructor(
    private readonly w: ImportWriter,
    private readonly codec: TitleCodec,
    private readonly log: (line: string) => void,
  ) {}

  async importDir(dir: string, checkAbort: () => void): Promise<number> {
    this.loadUploadLog(path.join(dir, UPLOAD_LOG_NAME));
    await inBatch(this.w, async () => {
      const manifest = path.join(dir, MANIFEST_NAME);
      if (fs.existsSync(manifest)) await this.importManifest(manifest, checkAbort);
      await this.importFiles(dir, checkAbort);
    });
    return this.count;
  }

  /** File name → DB key in the file namespace (null for names no title can have). */
  private dbKey(name: string): string | null {
    const t = this.codec.parse(`${this.codec.nsName(NS_FILE) ?? 'File'}:${name}`, 0);
    return t && t.ns === NS_FILE && t.fragment === '' ? t.dbkey : null;
  }

  private loadUploadLog(file: string): void {
    if (!fs.existsSync(file)) return;
    const list = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ name?: string; user?: string; timestamp?: string; comment?: string }>;
    if (!Array.isArray(list)) throw new Error(`${file}: expected a JSON array of {name, user, timestamp, comment}`);
    // uploads.json only fills in what the dump did not say
    inBatch(this.w, () => {
      for (const u of list) {
        const name = u.name ? this.dbKey(u.name) : null;
        if (name && u.timestamp)
          this.w.uploads.fillIn(name, { user: u.user ?? '', userId: 0, timestamp: isoToMw(u.timestamp), comment: u.comment ?? '' });
      }
    });
  }

  private uploader(name: string, fallback: () => Uploader): Uploader {
    return this.w.uploads.get(name) ?? this.w.pages.firstRevisionUploader({ ns: NS_FILE, dbkey: name }) ?? fallback();
  }

  private write(r: ImageRow): void {
    const [major, minor = ''] = r.mime.split('/');
    this.w.files.write({
      name: r.name,
      size: r.size,
      width: r.width,
      height: r.height,
      bits: r.bits,
      mediaType: mediaType(r.mime),
      majorMime: major,
      minorMime: minor,
      sha1Base36: sha1HexToBase36(r.sha1hex),
      sha1Hex: r.sha1hex,
      uploader: r.uploader,
      path: r.path,
    });
    this.count++;
    if (this.count % 1000 === 0) {
      this.w.commit();
      this.w.begin();
    }
  }

  private async importManifest(file: string, checkAbort: () => void): Promise<void> {
    const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
    let lineNo = 0;
    for await (const line of lines) {
      lineNo++;
      if (line.trim() === '') continue;
      let m: {
        name?: string;
        size?: number;
        sha1?: string;
        width?: number;
        height?: number;
        mime?: string;
        user?: string;
        timestamp?: string;
        comment?: string;
      };
      try {
        m = JSON.parse(line);
      } catch {
        throw new Error(`${file}:${lineNo}: not a JSON object`);
      }
      const name = m.name ? this.dbKey(m.name) : null;
      if (!name || !m.sha1 || !/^[0-9a-f]{40}$/i.test(m.sha1)) {
        this.log(`warning: ${file}:${lineNo}: no usable name or sha1; skipped`);
        continue;
      }
      const mimeType = m.mime ?? mimeOf(name);
      const given = m.user !== undefined && m.timestamp !== undefined;
      const uploader = given
        ? { user: m.user!, userId: 0, timestamp: isoToMw(m.timestamp!), comment: m.comment ?? '' }
        : this.uploader(name, () => ({ user: 'Maintenance script', userId: 0, timestamp: dateToMw(new Date()), comment: '' }));
      if (given) {
        // the dump's upload record still wins for the comment and user id it knows
        const dumped = this.w.uploads.get(name);
        if (dumped) {
          uploader.comment = dumped.comment;
          if (dumped.user === uploader.user) uploader.userId = dumped.userId;
        }
      }
      this.write({
        name,
        size: m.size ?? 0,
        width: m.width ?? 0,
        height: m.height ?? 0,
        bits: 0,
        mime: mimeType,
        sha1hex: m.sha1.toLowerCase(),
        uploader,
        path: m.name!,
      });
      if (lineNo % 10000 === 0) {
        checkAbort();
        await new Promise((r) => setImmediate(r));
      }
    }
  }

  private async importFiles(dir: string, checkAbort: () => void): Promise<void> {
    const running = new Set<Promise<void>>();
    try {
      for (const rel of walk(dir, '')) {
        checkAbort();
        const name = this.dbKey(path.basename(rel));
        if (name === null) {
          this.log(`warning: ${rel}: not a valid file name; skipped`);
          continue;
        }
        const task: Promise<void> = this.importFile(dir, rel, name).finally(() => running.delete(task));
        running.add(task);
        if (running.size >= CONCURRENCY) await Promise.race(running);
      }
      await Promise.all(running);
    } catch (e) {
      await Promise.allSettled(running); // no write may outlive the import that failed
      throw e;
    }
  }

  private async importFile(dir: string, rel: string, name: string): Promise<void> {
    const facts = await readFileFacts(path.join(dir, rel), name);
    const uploader = this.uploader(name, () => ({ user: 'Maintenance script', userId: 0, timestamp: dateToMw(facts.mtime), comment: '' }));
    this.write({
      name,
      size: facts.size,
      width: facts.width,
      height: facts.height,
      bits: facts.bits,
      mime: facts.mime,
      sha1hex: facts.sha1hex,
      uploader,
      path: rel.split(path.sep).join('/'),
    });
  }
}

/** What a file's bytes say of it: size, SHA-1, MIME type (from its name), pixel size and bit depth. */
export interface FileFacts {
  size: number;
  sha1hex: string;
  mime: string;
  width: number;
  height: number;
  bits: number;
  mtime: Date;
}

/** A file's facts read from its bytes, as the import reads every file of --files. */
export async function readFileFacts(full: string, name: string): Promise<FileFacts> {
  const st = fs.statSync(full);
  const { sha1hex, head } = await hashFile(full);
  const mimeType = mimeOf(name);
  let width = 0;
  let height = 0;
  if (mimeType.startsWith('image/')) {
    try {
      const size = imageSize(head);
      width = size.width ?? 0;
      height = size.height ?? 0;
    } catch {
      // not an image after all, or a header image-size does not know: MediaWiki stores 0×0 too
    }
  }
  return { size: st.size, sha1hex, mime: mimeType, width, height, bits: imageBits(mimeType, head), mtime: st.mtime };
}

/**
 * Directories of MediaWiki's images/ that hold no current upload: old versions (archive), generated
 * thumbnails and transcodes, deleted files, stash and temporary uploads, lock files. Skipped at the top
 * level, so that `--files` can be given MediaWiki's images/ directory as it is.
 */
const NOT_UPLOADS = new Set(['archive', 'thumb', 'transcoded', 'deleted', 'temp', 'lockdir', 'math', 'timeline', 'tmp']);

/** Files below dir (relative paths), skipping our own metadata files, dot files and description sidecars. */
function* walk(dir: string, rel: string): Generator<string> {
  const entries = fs
    .readdirSync(path.join(dir, rel), { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = new Set(entries.map((e) => e.name));
  for (const e of entries) {
    if (e.name.startsWith('.')) continue;
    const r = rel === '' ? e.name : path.join(rel, e.name);
    if (e.isDirectory()) {
      if (rel === '' && NOT_UPLOADS.has(e.name)) continue;
      yield* walk(dir, r);
      continue;
    }
    if (!e.isFile()) continue;
    if (rel === '' && (e.name === MANIFEST_NAME || e.name === UPLOAD_LOG_NAME)) continue;
    // importImages.php --comment-ext=txt convention: "X.png.txt" is the description of "X.png"
    if (e.name.endsWith('.txt') && names.has(e.name.slice(0, -4))) continue;
    yield r;
  }
}

/** SHA-1 of a file by streaming, plus its first bytes (for the image header). */
async function hashFile(file: string): Promise<{ sha1hex: string; head: Buffer }> {
  const hash = crypto.createHash('sha1');
  const headParts: Buffer[] = [];
  let headLen = 0;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 256 * 1024 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    if (headLen < HEADER_BYTES) {
      headParts.push(chunk.subarray(0, HEADER_BYTES - headLen));
      headLen += Math.min(chunk.length, HEADER_BYTES - headLen);
    }
  }
  return { sha1hex: hash.digest('hex'), head: Buffer.concat(headParts) };
}
