/**
 * Making thumbnails with sharp (libvips) when their URL is first requested, as MediaWiki's thumb.php does
 * behind a 404 handler, and keeping them on disk: each is written once to the thumbnail folder under the
 * file's SHA-1 and the thumbnail's size, so a re-import that changes a file's bytes never serves the old
 * picture, and a cached one is streamed without decoding anything.
 *
 * Bounded: the sizes are File::transform's (src/wiki/thumbnails.ts: $wgMaxImageArea refused before the
 * bytes are read); the decoder is also told the most pixels it may decode, so bytes whose header lies
 * about the size are refused too (decompression bombs); sources larger than $wgMaxUploadSize are not
 * read; a few renders run at once (the rest wait in a short queue, and beyond it are refused with 503),
 * each one with libvips' single thread and a time limit.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SharpOptions } from 'sharp';
import { MAX_IMAGE_AREA } from '../wiki/thumbnails.js';

/** $wgMaxUploadSize: sources larger than this are never read into memory */
const MAX_SOURCE_BYTES = 100 * 1024 * 1024;

export interface ThumbnailLimits {
  /** renders running at once in this process */
  concurrency: number;
  /** renders waiting for a turn; more are refused (503) */
  queue: number;
  /** seconds one render may take */
  timeoutSeconds: number;
}

export const DEFAULT_THUMBNAIL_LIMITS: ThumbnailLimits = { concurrency: 2, queue: 32, timeoutSeconds: 20 };

/** What to make: the size of the bytes and the format. */
export interface ThumbJob {
  /** the source file's SHA-1 (hex): the cache key, with the size */
  sha1: string;
  sourceMime: string;
  thumbMime: string;
  width: number;
  height: number;
  /** SvgHandler's language, part of the cache key */
  lang?: string;
  /** the source's bytes, read only when the thumbnail is not cached yet */
  readSource(): Promise<Buffer | null>;
}

export type ThumbOutcome =
  | { kind: 'file'; path: string; size: number; mtime: Date }
  | { kind: 'busy' }
  | { kind: 'failed'; reason: string };

/** The thumbnail folder and the renders under way. */
export class ThumbnailMaker {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  /** renders under way by cache path: a second request for the same thumbnail waits for the first */
  private readonly making = new Map<string, Promise<ThumbOutcome>>();

  constructor(
    private readonly dir: string,
    private readonly limits: ThumbnailLimits = DEFAULT_THUMBNAIL_LIMITS,
  ) {}

  /** The cached thumbnail, made first when it is not there yet. */
  async get(job: ThumbJob): Promise<ThumbOutcome> {
    const file = this.cachePath(job);
    const cached = await statFile(file);
    if (cached) return cached;
    let pending = this.making.get(file);
    if (!pending) {
      pending = this.make(job, file).finally(() => this.making.delete(file));
      this.making.set(file, pending);
    }
    return pending;
  }

  /** `<dir>/ab/<sha1>/<width>x<height>[-<lang>].<ext>`: every part computed, none taken from the URL */
  private cachePath(job: ThumbJob): string {
    const ext = job.thumbMime === 'image/jpeg' ? 'jpg' : job.thumbMime === 'image/gif' ? 'gif' : 'png';
    const lang = job.lang !== undefined && job.lang !== 'en' ? `-${job.lang}` : '';
    return path.join(this.dir, job.sha1.slice(0, 2), job.sha1, `${job.width}x${job.height}${lang}.${ext}`);
  }

  private async make(job: ThumbJob, file: string): Promise<ThumbOutcome> {
    if (!(await this.turn())) return { kind: 'busy' };
    try {
      const source = await job.readSource().catch(() => null);
      if (source === null) return { kind: 'failed', reason: 'filemissing' };
      if (source.length > MAX_SOURCE_BYTES) return { kind: 'failed', reason: 'toobig' };
      let bytes: Buffer;
      try {
        bytes = await this.render(job, source);
      } catch (e) {
        return { kind: 'failed', reason: e instanceof Error ? e.message : String(e) };
      }
      // written beside and renamed: a reader (another worker process too) sees the whole file or none
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.writeFile(tmp, bytes);
        await fs.promises.rename(tmp, file);
      } catch {
        // a folder that cannot be written (the message MediaWiki gives)
        await fs.promises.rm(tmp, { force: true }).catch(() => {});
        return { kind: 'failed', reason: 'Could not save the thumbnail to its destination' };
      }
      return (await statFile(file)) ?? { kind: 'failed', reason: 'Could not save the thumbnail to its destination' };
    } finally {
      this.release();
    }
  }

  private async render(job: ThumbJob, source: Buffer): Promise<Buffer> {
    const sharp = await loadSharp();
    const svg = job.sourceMime === 'image/svg+xml' || job.sourceMime === 'image/svg';
    const options: SharpOptions = { limitInputPixels: MAX_IMAGE_AREA, failOn: 'error', sequentialRead: true };
    if (svg) {
      // rasterised at the size asked for (librsvg), not scaled from its default size
      const meta = await sharp(source, { limitInputPixels: MAX_IMAGE_AREA }).metadata();
      if (meta.width && meta.width > 0) options.density = Math.min(100_000, Math.max(1, (72 * job.width) / meta.width));
    } else if (job.sourceMime === 'image/gif') {
      // an animation stays one while all its frames fit in $wgMaxAnimatedGifArea (BitmapHandler), else its first frame
      const meta = await sharp(source, { limitInputPixels: MAX_IMAGE_AREA }).metadata();
      const frames = meta.pages ?? 1;
      if (frames > 1 && (meta.width ?? 0) * (meta.pageHeight ?? meta.height ?? 0) * frames <= MAX_IMAGE_AREA) options.animated = true;
    }
    let image = sharp(source, options).timeout({ seconds: this.limits.timeoutSeconds }).resize(job.width, job.height, { fit: 'fill' });
    if (job.thumbMime === 'image/jpeg') image = image.jpeg({ quality: 80 });
    else if (job.thumbMime === 'image/gif') image = image.gif();
    else image = image.png({ compressionLevel: 9 });
    return image.toBuffer();
  }

  /** wait for a free render slot; false when the queue is full */
  private turn(): Promise<boolean> {
    if (this.active < this.limits.concurrency) {
      this.active++;
      return Promise.resolve(true);
    }
    if (this.waiting.length >= this.limits.queue) return Promise.resolve(false);
    return new Promise((resolve) => this.waiting.push(() => resolve(true)));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

async function statFile(file: string): Promise<ThumbOutcome | null> {
  try {
    const st = await fs.promises.stat(file);
    return st.isFile() ? { kind: 'file', path: file, size: st.size, mtime: st.mtime } : null;
  } catch {
    return null;
  }
}

type Sharp = typeof import('sharp')['default'];

let loadingSharp: Promise<Sharp> | null = null;

/**
 * sharp and libvips, loaded at the first render: most processes that serve (and every test process) never
 * make a thumbnail, and loading them costs a quarter of a CPU second. Configured once: no libvips
 * operation cache (thumbnails are cached on disk), one libvips thread per render.
 */
function loadSharp(): Promise<Sharp> {
  if (loadingSharp === null) {
    loadingSharp = import('sharp').then(({ default: sharp }) => {
      sharp.cache(false);
      sharp.concurrency(1);
      return sharp;
    });
  }
  return loadingSharp;
}
