/**
 * Serving the uploaded files at MediaWiki's hashed upload path (/images/a/ab/Name.png), the URL
 * imageinfo and allimages report. The name in the URL is only ever a key into the file store: the bytes
 * are read from the path the importer recorded for that file, below the files directory given to
 * `wikiquery serve --files DIR`, so no part of a request becomes part of a file path.
 *
 * 200 with the MIME type the import found, Content-Length, an ETag of the file's SHA-1 (If-None-Match
 * answers 304) and Last-Modified; 404 for names that are no uploaded file, a hash directory that does
 * not belong to the name, files described by a manifest without their bytes, bytes that are gone or
 * changed size since the import, and whenever the server was started without a files directory.
 *
 * Symlinks are resolved before anything is read: a path whose real location is outside the files
 * directory (a manifest entry naming a symlink, a file swapped for a symlink after the import) is a 404;
 * the file is then opened without following a final symlink, and its bytes are streamed from that
 * descriptor, so what was checked is what is sent.
 *
 * Thumbnails at File::getThumbUrl's path (/images/thumb/a/ab/Name.png/200px-Name.png) are made from
 * those bytes when first asked for and kept in the thumbnail folder (./thumbnails.ts); the answers and
 * error pages are thumb.php's: 404 for a file that does not exist, 400 for a thumbnail name the file's
 * handler does not make or one no smaller than the file, 500 for a file too large to scale or a render
 * that fails, and 503 with Retry-After while too many renders wait.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FileRow } from '../store/file-store.js';
import type { Store } from '../store/store.js';
import { UPLOAD_PATH, hashPath, sha1Base36ToHex } from '../wiki/files.js';
import { escapeHtml } from '../wikitext/sanitizer.js';
import {
  MAX_IMAGE_AREA,
  THUMB_PATH,
  computingNumber,
  thumbFromUrl,
  thumbParamsFromName,
  transform,
  type ThumbSource,
} from '../wiki/thumbnails.js';
import type { ThumbnailMaker } from './thumbnails.js';

export function registerFileRoutes(
  app: FastifyInstance,
  withStore: <T>(use: (store: Store) => Promise<T>) => Promise<T>,
  filesDir?: string,
  thumbnails?: ThumbnailMaker,
): void {
  const root = filesDir === undefined ? null : path.resolve(filesDir);
  // the directory's own real path (it may itself be reached through a symlink, which is fine)
  let realRoot: Promise<string | null> | null = null;
  const rootReal = () => (realRoot ??= fs.promises.realpath(root!).catch(() => null));

  const notFound = (reply: FastifyReply) =>
    reply.code(404).header('Content-Type', 'text/plain; charset=utf-8').header('X-Content-Type-Options', 'nosniff').send('404 Not Found\n');

  /** the file's bytes, opened where the import found them (inside the files directory), or null */
  const openUpload = async (file: FileRow, rel: string): Promise<{ handle: fs.promises.FileHandle; st: fs.Stats } | null> => {
    const full = path.resolve(root!, rel);
    if (!full.startsWith(root + path.sep)) return null;
    const realDir = await rootReal();
    let handle: fs.promises.FileHandle;
    try {
      const real = await fs.promises.realpath(full);
      if (realDir === null || !real.startsWith(realDir + path.sep)) return null;
      handle = await fs.promises.open(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch {
      return null;
    }
    let st: fs.Stats;
    try {
      st = await handle.stat();
    } catch {
      await handle.close();
      return null;
    }
    // a manifest entry whose name happens to exist on disk, or bytes changed since the import
    if (!st.isFile() || st.size !== file.size) {
      await handle.close();
      return null;
    }
    return { handle, st };
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.raw.url ?? '';
    if (url.startsWith(THUMB_PATH + '/')) return thumbHandler(request, reply, url);
    const name = nameFromUrl(url);
    if (name === null || root === null) return notFound(reply);
    // the lookups run on one database generation: a re-import switching meanwhile closes it only after them
    const [files, rel] = await withStore((store) => Promise.all([store.files.byNames([name]), store.files.storedPath(name)]));
    const file = files.get(name);
    if (!file || !rel) return notFound(reply);
    const opened = await openUpload(file, rel);
    if (!opened) return notFound(reply);
    const { handle, st } = opened;

    const etag = `"${sha1Base36ToHex(file.sha1)}"`;
    const mime = file.majorMime === 'unknown' ? 'application/octet-stream' : `${file.majorMime}/${file.minorMime}`;
    reply.header('ETag', etag).header('Last-Modified', st.mtime.toUTCString()).header('X-Content-Type-Options', 'nosniff');
    if (matchesEtag(request.headers['if-none-match'], etag)) {
      await handle.close();
      return reply.code(304).send();
    }
    reply.code(200).header('Content-Type', mime).header('Content-Length', String(st.size));
    if (request.method === 'HEAD') {
      await handle.close();
      return reply.send();
    }
    return reply.send(handle.createReadStream());
  };

  /** thumb.php's wfThumbError page */
  const thumbError = (reply: FastifyReply, status: 400 | 404 | 500 | 503, html: string) =>
    reply
      .code(status)
      .header('Cache-Control', 'no-cache')
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('X-Content-Type-Options', 'nosniff')
      .send(
        `<!DOCTYPE html>\n<html><head>\n<meta charset="UTF-8" />\n<title>Error generating thumbnail</title>\n</head>\n<body>\n` +
          `<h1>Error generating thumbnail</h1>\n<p>\n${html}\n</p>\n\n</body>\n</html>\n`,
      );

  const thumbHandler = async (request: FastifyRequest, reply: FastifyReply, url: string) => {
    const queryStart = url.indexOf('?');
    const wanted = thumbFromUrl(queryStart < 0 ? url : url.slice(0, queryStart));
    if (wanted === null || root === null || thumbnails === undefined) return notFound(reply);
    const [files, rel] = await withStore((store) => Promise.all([store.files.byNames([wanted.name]), store.files.storedPath(wanted.name)]));
    const file = files.get(wanted.name);
    if (!file || !rel) return thumbError(reply, 404, escapeHtml(`The source file '${wanted.name}' does not exist.`));
    const source: ThumbSource = { name: file.name, width: file.width, height: file.height, mime: `${file.majorMime}/${file.minorMime}` };
    const params = thumbParamsFromName(source, wanted.thumb);
    if (params === null) return thumbError(reply, 400, 'The specified thumbnail parameters are not recognized.');
    const mto = transform(source, params);
    if (mto === null || (mto.kind === 'error' && mto.message === 'invalidparams'))
      return thumbError(reply, 400, 'The specified thumbnail parameters are not valid.');
    if (mto.kind === 'error') {
      // thumb.php's page is in English; the numbers as Language::formatComputingNumbers writes them
      const area = computingNumber(MAX_IMAGE_AREA, 1000);
      // en.json's size-pixel, size-kilopixel, size-megapixel, …
      const unit = ['P', 'KP', 'MP', 'GP', 'TP', 'PP', 'EP', 'ZP', 'YP'][area.power];
      return thumbError(reply, 500, `Error creating thumbnail: File with dimensions greater than ${area.value} ${unit}`);
    }
    if (mto.kind === 'source')
      return thumbError(reply, 400, 'Error creating thumbnail: Image was not scaled, is the requested width bigger than the source?');
    // a name the handler reads but would not write (200px for a file whose thumbnails are 200px wide is fine; 0200px is not)
    if (mto.thumbName !== wanted.thumb)
      return thumbError(
        reply,
        404,
        escapeHtml(`The given path of the specified thumbnail is incorrect; expected '${mto.thumbName}' but got '${wanted.thumb}'.`),
      );
    const sha1 = sha1Base36ToHex(file.sha1);
    const made = await thumbnails.get({
      sha1,
      sourceMime: source.mime,
      thumbMime: mto.mime,
      width: mto.physicalWidth,
      height: mto.physicalHeight,
      lang: params.lang,
      readSource: async () => {
        const opened = await openUpload(file, rel);
        if (!opened) return null;
        try {
          return await opened.handle.readFile();
        } finally {
          await opened.handle.close();
        }
      },
    });
    if (made.kind === 'busy') {
      reply.header('Retry-After', '5');
      return thumbError(reply, 503, 'Too many thumbnails are being made; try again shortly.');
    }
    if (made.kind === 'failed') {
      if (made.reason === 'filemissing') return thumbError(reply, 404, escapeHtml(`The source file '${wanted.name}' does not exist.`));
      return thumbError(reply, 500, escapeHtml(`Error creating thumbnail: ${made.reason}`));
    }
    const etag = `"${sha1}-${mto.physicalWidth}"`;
    reply.header('ETag', etag).header('Last-Modified', made.mtime.toUTCString()).header('X-Content-Type-Options', 'nosniff');
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();
    reply.code(200).header('Content-Type', mto.mime).header('Content-Length', String(made.size));
    if (request.method === 'HEAD') return reply.send();
    return reply.send(fs.createReadStream(made.path));
  };

  // files keep their Content-Length and ETag: images are compressed already, and a proxy may compress the rest
  app.route({ method: ['GET', 'HEAD'], url: `${UPLOAD_PATH}/*`, handler, exposeHeadRoute: false, compress: false });
}

/**
 * The file name (DB key) of an upload URL path `/images/<h>/<hh>/<name>`, or null when the path has
 * another shape or its hash directories are not the name's.
 */
export function nameFromUrl(url: string): string | null {
  const queryStart = url.indexOf('?');
  const path = queryStart < 0 ? url : url.slice(0, queryStart);
  if (!path.startsWith(UPLOAD_PATH + '/')) return null;
  const parts = path.slice(UPLOAD_PATH.length + 1).split('/');
  if (parts.length !== 3) return null;
  let name: string;
  try {
    name = decodeURIComponent(parts[2]);
  } catch {
    return null;
  }
  if (name === '' || name.includes('/')) return null;
  return hashPath(name) === `${parts[0]}/${parts[1]}/` ? name : null;
}

/** If-None-Match: `*` or a list of (weak or strong) entity tags, any of which may match. */
function matchesEtag(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const values = (Array.isArray(header) ? header.join(',') : header).split(',').map((value) => value.trim());
  return values.some((tag) => tag === '*' || tag === etag || tag === 'W/' + etag);
}
