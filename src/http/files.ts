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
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../store/store.js';
import { UPLOAD_PATH, hashPath, sha1Base36ToHex } from '../wiki/files.js';

export function registerFileRoutes(
  app: FastifyInstance,
  withStore: <T>(use: (store: Store) => Promise<T>) => Promise<T>,
  filesDir?: string,
): void {
  const root = filesDir === undefined ? null : path.resolve(filesDir);
  // the directory's own real path (it may itself be reached through a symlink, which is fine)
  let realRoot: Promise<string | null> | null = null;
  const rootReal = () => (realRoot ??= fs.promises.realpath(root!).catch(() => null));

  const notFound = (reply: FastifyReply) =>
    reply.code(404).header('Content-Type', 'text/plain; charset=utf-8').header('X-Content-Type-Options', 'nosniff').send('404 Not Found\n');

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const name = nameFromUrl(request.raw.url ?? '');
    if (name === null || root === null) return notFound(reply);
    // the lookups run on one database generation: a re-import switching meanwhile closes it only after them
    const [files, rel] = await withStore((store) => Promise.all([store.files.byNames([name]), store.files.storedPath(name)]));
    const file = files.get(name);
    if (!file || !rel) return notFound(reply);
    const full = path.resolve(root, rel);
    if (!full.startsWith(root + path.sep)) return notFound(reply);
    const realDir = await rootReal();
    let handle: fs.promises.FileHandle;
    let st: fs.Stats;
    try {
      const real = await fs.promises.realpath(full);
      if (realDir === null || !real.startsWith(realDir + path.sep)) return notFound(reply);
      handle = await fs.promises.open(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch {
      return notFound(reply);
    }
    try {
      st = await handle.stat();
    } catch {
      await handle.close();
      return notFound(reply);
    }
    // a manifest entry whose name happens to exist on disk, or bytes changed since the import
    if (!st.isFile() || st.size !== file.size) {
      await handle.close();
      return notFound(reply);
    }

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
