/**
 * Builds the demo wiki from its data folder (demo-wiki/) into what `wikiquery import` reads:
 *
 *   OUTDIR/dump.xml             the export dump (pages, revisions, <upload> elements of file pages, log items)
 *   OUTDIR/files/<db key>       the uploaded files (PNG, GIF, SVG, PDF, TXT)
 *   OUTDIR/files/uploads.json   the upload log: [{name, user, timestamp, comment}] for every file in files/
 *                               (inside files/ because the importer reads it from its --files DIR)
 *   OUTDIR/messages/{en,uk,ru}.json   interface messages in MediaWiki's i18n JSON format
 *
 * Ids are not data: pages are numbered in the order of demo-wiki/pages.json, revisions by their timestamps
 * (ties by page, then by position in the page's history) and log items likewise, as a wiki's database
 * numbers them, so an added page or edit never needs an id chosen by hand. The output is byte-identical
 * from run to run.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEMO_WIKI_DIR, readDemoJson } from './folder.js';
import {
  phpSerialize,
  sha1Base36,
  uploadLocation,
  xmlHeader,
  xmlLogItem,
  xmlPage,
  XML_FOOTER,
  type Contributor,
  type DumpUpload,
  type SiteInfo,
} from './dump-xml.js';
import { pictureBytes, type Picture } from './pictures.js';

interface DemoSite extends SiteInfo {
  /** the server part of the wiki's URLs, for the uploads' <src> */
  server: string;
}
interface DemoUser {
  name: string;
  id: number;
}
/** A revision of demo-wiki/pages.json: its text is a file (see revisionTextPath). */
interface DemoRevision {
  timestamp: string;
  user?: string;
  ip?: string;
  minor?: boolean;
  comment?: string;
}
interface DemoPage {
  /** prefixed, with spaces */
  title: string;
  /** prefixed target, spaces, no fragment */
  redirect?: string;
  /** oldest first */
  revisions: DemoRevision[];
}
interface DemoUpload {
  /** DB key (underscores) */
  name: string;
  /** a key of demo-wiki/pictures.json */
  picture: string;
  user: string;
  timestamp: string;
  comment: string;
}
interface DemoLogEvent {
  timestamp: string;
  user: string;
  comment?: string;
  type: string;
  action: string;
  title: string;
  /** new-style parameters as an object (PHP-serialised in the dump), legacy ones as the text itself */
  params: string | Record<string, unknown>;
}

/** Characters a title may hold that a file name may not (on some system), and % itself: percent-encoded. */
function fileNameOfTitle(title: string): string {
  return title.replace(/[%/\\:*?"<>|]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

/** Namespace number and unprefixed title of a prefixed title, by the site's local namespace names. */
function splitTitle(site: SiteInfo, title: string): { ns: number; name: string } {
  const colon = title.indexOf(':');
  const namespace = colon > 0 ? site.namespaces.find((n) => n.name === title.slice(0, colon)) : undefined;
  return namespace ? { ns: namespace.key, name: title.slice(colon + 1) } : { ns: 0, name: title };
}

/**
 * demo-wiki/pages/<namespace>/<title>.wiki holds a page's current text, demo-wiki/history/<namespace>/<title>/<n>.wiki
 * its n-th earlier one (1 = the first); the main namespace's folder is "main".
 */
function revisionTextPath(site: SiteInfo, title: string, position: number, count: number): string {
  const { ns, name } = splitTitle(site, title);
  const folder = ns === 0 ? 'main' : site.namespaces.find((n) => n.key === ns)!.name;
  return position === count - 1
    ? path.join('pages', folder, `${fileNameOfTitle(name)}.wiki`)
    : path.join('history', folder, fileNameOfTitle(name), `${position + 1}.wiki`);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Build the whole demo wiki in memory (it is small) and write it to outDir. */
export function generateDemo(outDir: string): void {
  const site = readDemoJson<DemoSite>('site.json');
  const userIds = new Map(readDemoJson<DemoUser[]>('users.json').map((user) => [user.name, user.id]));
  const pages = readDemoJson<DemoPage[]>('pages.json');
  const uploads = readDemoJson<DemoUpload[]>('uploads.json');
  const pictures = readDemoJson<Record<string, Picture>>('pictures.json');
  const logEvents = readDemoJson<DemoLogEvent[]>('log.json');

  const userContributor = (name: string): Contributor => {
    const id = userIds.get(name);
    if (id === undefined) throw new Error(`demo-wiki/users.json has no user ${name}`);
    return { name, id };
  };

  // ---- revision ids: chronological, ties by page id (the position in pages.json), then by history position
  const chronological = pages.flatMap((page, pageIndex) =>
    page.revisions.map((revision, position) => ({ timestamp: revision.timestamp, pageIndex, position })),
  );
  chronological.sort((a, b) => compareText(a.timestamp, b.timestamp) || a.pageIndex - b.pageIndex || a.position - b.position);
  const revisionIds = pages.map((page) => new Array<number>(page.revisions.length));
  chronological.forEach(({ pageIndex, position }, k) => (revisionIds[pageIndex]![position] = k + 1));

  // ---- files
  fs.mkdirSync(outDir, { recursive: true });
  const filesDir = path.join(outDir, 'files');
  fs.rmSync(filesDir, { recursive: true, force: true });
  fs.mkdirSync(filesDir, { recursive: true });
  const filePrefix = site.namespaces.find((n) => n.key === 6)!.name + ':';
  const pageTitles = new Set(pages.map((page) => page.title));
  const bytesOfPicture = new Map<string, Buffer>();
  const uploadOfPage = new Map<string, DumpUpload>();
  for (const upload of uploads) {
    let bytes = bytesOfPicture.get(upload.picture);
    if (!bytes) {
      const picture = pictures[upload.picture];
      if (!picture) throw new Error(`demo-wiki/pictures.json has no picture ${upload.picture}`);
      bytes = pictureBytes(picture);
      bytesOfPicture.set(upload.picture, bytes);
    }
    fs.writeFileSync(path.join(filesDir, upload.name), bytes);
    const descriptionPage = filePrefix + upload.name.replace(/_/g, ' ');
    if (pageTitles.has(descriptionPage)) {
      uploadOfPage.set(descriptionPage, {
        timestamp: upload.timestamp,
        contributor: userContributor(upload.user),
        comment: upload.comment,
        filename: upload.name,
        ...uploadLocation(site.server, upload.name),
        size: bytes.length,
        sha1base36: sha1Base36(bytes),
      });
    }
  }
  const uploadsLog = uploads
    .map(({ name, user, timestamp, comment }) => ({ name, user, timestamp, comment }))
    .sort((a, b) => compareText(a.name, b.name));
  fs.writeFileSync(path.join(filesDir, 'uploads.json'), JSON.stringify(uploadsLog, null, 2) + '\n');

  // ---- dump
  const chunks: string[] = [xmlHeader(site)];
  pages.forEach((page, pageIndex) => {
    const ids = revisionIds[pageIndex]!;
    const revisions = page.revisions.map((revision, position) => {
      const text = fs.readFileSync(path.join(DEMO_WIKI_DIR, revisionTextPath(site, page.title, position, page.revisions.length)), 'utf8');
      return {
        id: ids[position]!,
        parentId: position > 0 ? ids[position - 1] : undefined,
        timestamp: revision.timestamp,
        contributor: revision.ip !== undefined ? { ip: revision.ip } : userContributor(revision.user ?? ''),
        minor: revision.minor,
        comment: revision.comment,
        // the files end with a newline, as editors save them; a revision's text never does
        text: text.trimEnd(),
      };
    });
    const upload = uploadOfPage.get(page.title);
    chunks.push(
      xmlPage({
        title: page.title,
        ns: splitTitle(site, page.title).ns,
        id: pageIndex + 1,
        redirect: page.redirect,
        revisions,
        uploads: upload ? [upload] : undefined,
      }),
    );
  });
  const log = logEvents
    .map((event, position) => ({ event, position }))
    .sort((a, b) => compareText(a.event.timestamp, b.event.timestamp) || a.position - b.position);
  log.forEach(({ event }, k) => {
    const params = typeof event.params === 'string' ? event.params : phpSerialize(event.params);
    chunks.push(
      xmlLogItem({
        id: k + 1,
        timestamp: event.timestamp,
        contributor: userContributor(event.user),
        comment: event.comment ?? '',
        type: event.type,
        action: event.action,
        logtitle: event.title,
        params,
      }),
    );
  });
  chunks.push(XML_FOOTER);
  fs.writeFileSync(path.join(outDir, 'dump.xml'), chunks.join(''));

  // ---- messages: already in MediaWiki's i18n format
  const messagesDir = path.join(outDir, 'messages');
  fs.mkdirSync(messagesDir, { recursive: true });
  for (const file of fs.readdirSync(path.join(DEMO_WIKI_DIR, 'messages')))
    fs.copyFileSync(path.join(DEMO_WIKI_DIR, 'messages', file), path.join(messagesDir, file));
}
