/**
 * list=allimages (ApiQueryAllImages of 1.25): the local image table by name or by upload time, with the
 * file information of ApiQueryImageInfo::getInfo in list mode. Also a generator (the file pages, ns 6;
 * files without a description page come out as missing pages).
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { queryModule, type QueryModuleContext } from '../../api/types.js';
import type { FileListOptions, FileRow } from '../../store/file-store.js';
import { NS_FILE, NS_USER } from '../../wiki/namespaces.js';
import { mwToIso, parseTimestamp } from '../../wiki/timestamps.js';
import { fileUrl, pageUrl, serverOf, sha1Base36ToHex, sha1HexToBase36, splitMime } from '../../wiki/files.js';
import { continueParts, dieBadContinue, titlePartOrDie } from './shared.js';
import { commentLinks, formatComment, type CommentLinks } from './comments.js';

/** ApiQueryImageInfo::getPropertyNames() of 1.25, in its order: prop=imageinfo's iiprop. */
export const IMAGEINFO_PROPS = [
  'timestamp',
  'user',
  'userid',
  'comment',
  'parsedcomment',
  'canonicaltitle',
  'url',
  'size',
  'dimensions',
  'sha1',
  'mime',
  'thumbmime',
  'mediatype',
  'metadata',
  'commonmetadata',
  'extmetadata',
  'archivename',
  'bitdepth',
  'uploadwarning',
];

/** list=allimages's aiprop: the same without archivename, thumbmime and uploadwarning (ApiQueryAllImages of 1.25). */
const NOT_ALLIMAGES_PROPS = new Set(['archivename', 'thumbmime', 'uploadwarning']);
export const ALLIMAGES_PROPS = IMAGEINFO_PROPS.filter((p) => !NOT_ALLIMAGES_PROPS.has(p));

export const allimagesModule = queryModule({
  kind: 'list',
  name: 'allimages',
  prefix: 'ai',
  generator: true,
  description: 'Enumerate all images sequentially.',
  params: {
    sort: { type: ['name', 'timestamp'], default: 'name', help: 'Property to sort by.' },
    dir: dirParam(
      'The direction in which to list (ascending/descending for sort=name, newer/older for sort=timestamp; only descending and older reverse).',
      ['ascending', 'descending', 'newer', 'older'],
    ),
    from: { type: 'string', help: 'The image title to start enumerating from. Can only be used with sort=name.' },
    to: { type: 'string', help: 'The image title to stop enumerating at. Can only be used with sort=name.' },
    continue: continueParam(),
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from. Can only be used with sort=timestamp.' },
    end: { type: 'timestamp', help: 'The timestamp to end enumerating. Can only be used with sort=timestamp.' },
    prop: { type: ALLIMAGES_PROPS, multi: true, default: 'timestamp|url', help: 'Which file information to get.' },
    prefix: { type: 'string', help: 'Search for all image titles that begin with this value. Can only be used with sort=name.' },
    minsize: { type: 'integer', help: 'Limit to images with at least this many bytes.' },
    maxsize: { type: 'integer', help: 'Limit to images with at most this many bytes.' },
    sha1: { type: 'string', help: 'SHA1 hash of image. Overrides sha1base36.' },
    sha1base36: { type: 'string', help: 'SHA1 hash of image in base 36 (used in MediaWiki).' },
    user: { type: 'user', help: 'Only return files uploaded by this user. Can only be used with sort=timestamp.' },
    filterbots: {
      type: ['all', 'bots', 'nobots'],
      default: 'all',
      help: 'How to filter files uploaded by bots. Can only be used with sort=timestamp.',
    },
    mime: { type: 'string', multi: true, help: 'What MIME types to search for, e.g. image/jpeg.' },
    limit: limitParam(10, 'How many images in total to return.'),
  },
  examples: [
    'action=query&list=allimages&aifrom=B',
    'action=query&list=allimages&aiprop=user|timestamp|url&aisort=timestamp&aidir=older',
    'action=query&list=allimages&aimime=image/png|image/gif',
    'action=query&generator=allimages&gailimit=4&gaifrom=T&prop=imageinfo',
  ],
  async run(ctx) {
    const p = ctx.params;
    if (ctx.generator && ctx.request.raw.redirects !== undefined) {
      ctx.die('params', 'Use "gaifilterredir=nonredirects" option instead of "redirects" when using allimages as a generator');
    }
    // The texts name parameters with the module prefix itself (never the generator's g).
    const pfx = allimagesModule.prefix;
    const badParams = (text: string) => ctx.die('badparams', text);
    // parameter validation (ApiBase::validateUser) comes before the module's own checks
    const user = p.user !== undefined ? userName(ctx, p.user as string) : undefined;
    const descending = p.dir === 'descending' || p.dir === 'older';
    const opts: FileListOptions = { sort: p.sort, descending, limit: (p.limit as number) + 1 };
    if (p.sort === 'name') {
      for (const name of ['start', 'end', 'user']) {
        if (p[name] !== undefined) badParams(`Parameter '${pfx}${name}' can only be used with ${pfx}sort=timestamp`);
      }
      if (p.filterbots !== 'all') badParams(`Parameter '${pfx}filterbots' can only be used with ${pfx}sort=timestamp`);
      const cont = continueParts(ctx, 1);
      if (cont) opts.continueName = cont[0];
      opts.from = titlePartOrDie(ctx, p.from, NS_FILE);
      opts.to = titlePartOrDie(ctx, p.to, NS_FILE);
      opts.prefix = titlePartOrDie(ctx, p.prefix, NS_FILE);
    } else {
      for (const name of ['from', 'to', 'prefix']) {
        if (p[name] !== undefined) badParams(`Parameter '${pfx}${name}' can only be used with ${pfx}sort=name`);
      }
      if (p.user !== undefined && p.filterbots !== 'all') {
        badParams(`Parameters '${pfx}user' and '${pfx}filterbots' cannot be used together`);
      }
      opts.start = p.start;
      opts.end = p.end;
      const cont = continueParts(ctx, 2);
      if (cont) {
        // the timestamp in any form wfTimestamp reads (MediaWiki throws on others; we call it a bad continue)
        const ts = parseTimestamp(cont[0]);
        if (ts === null) return dieBadContinue(ctx);
        opts.continueAt = { timestamp: ts, name: cont[1] };
      }
      opts.user = user;
    }
    if (p.minsize !== undefined) opts.minSize = p.minsize;
    if (p.maxsize !== undefined) opts.maxSize = p.maxsize;
    if (p.sha1 !== undefined) {
      const sha1 = (p.sha1 as string).toLowerCase();
      if (!/^[a-f0-9]{40}$/.test(sha1)) ctx.die('invalidsha1hash', 'The SHA1 hash provided is not valid');
      opts.sha1 = sha1HexToBase36(sha1);
    } else if (p.sha1base36 !== undefined) {
      const sha1 = (p.sha1base36 as string).toLowerCase();
      if (!/^[a-z0-9]{31}$/.test(sha1)) ctx.die('invalidsha1base36hash', 'The SHA1Base36 hash provided is not valid');
      opts.sha1 = sha1;
    }
    if (p.mime !== undefined) {
      const mimes = p.mime as string[];
      if (mimes.length === 0) {
        // no MIME types, no files (MediaWiki adds the empty list even in generator mode)
        ctx.result.queryList('allimages');
        return;
      }
      opts.mimes = mimes.map(splitMime);
    }
    const limit = p.limit as number;
    // Nobody has the bot right in an imported wiki (user groups are not part of a dump).
    if (ctx.generator) {
      // as a generator, the description pages come with the files: the page set need not look them up;
      // so do their duplicates when a module of the query reads them (prop=duplicatefiles)
      const dups = ctx.generator.fileDuplicates;
      const rows = p.filterbots === 'bots' ? [] : await ctx.store.files.listPages(opts, ctx.generator.fullRows, dups);
      let count = 0;
      for (const row of rows) {
        if (++count > limit) {
          ctx.setContinue('continue', p.sort === 'name' ? row.name : `${row.timestamp}|${row.name}`);
          break;
        }
        if (dups) ctx.generator.add({ ns: NS_FILE, dbkey: row.name, page: row.page, duplicates: row.duplicates ?? null });
        else ctx.generator.add({ ns: NS_FILE, dbkey: row.name, page: row.page });
      }
      return;
    }
    const rows = p.filterbots === 'bots' ? [] : await ctx.store.files.list(opts);
    const list = ctx.result.queryList('allimages');
    const prop = new Set(p.prop as string[]);
    const links = prop.has('parsedcomment')
      ? await commentLinks(
          ctx,
          rows.slice(0, limit).map((r) => r.description),
        )
      : null;
    let count = 0;
    for (const row of rows) {
      if (++count > limit) {
        ctx.setContinue('continue', p.sort === 'name' ? row.name : `${row.timestamp}|${row.name}`);
        break;
      }
      list.push({ name: row.name, ...fileInfo(ctx, row, prop, links), ns: NS_FILE, title: ctx.wiki.titleText(NS_FILE, row.name) });
    }
  },
});

/** A 'user' parameter as User::getCanonicalName sees it: a valid user page title, first letter uppercased. */
function userName(ctx: QueryModuleContext, value: string): string {
  const enc = ctx.encodeParamName('user');
  const t = ctx.wiki.codec.parse(`${ctx.wiki.codec.nsName(NS_USER) ?? 'User'}:${value}`, 0);
  if (t === null || t.ns !== NS_USER)
    ctx.die(`baduser_${enc}`, `Invalid value '${ctx.request.raw[enc] ?? value}' for user parameter ${enc}`);
  return t.dbkey.replace(/_/g, ' ');
}

/** ApiQueryImageInfo::getInfo of 1.25 for a current file version: the fields in its order. */
export function fileInfo(ctx: QueryModuleContext, f: FileRow, prop: Set<string>, links: CommentLinks | null): Record<string, unknown> {
  const vals: Record<string, unknown> = {};
  if (prop.has('timestamp')) vals.timestamp = mwToIso(f.timestamp);
  if (prop.has('user') || prop.has('userid')) {
    if (prop.has('user')) vals.user = f.userText;
    if (prop.has('userid')) vals.userid = f.userId;
    if (!f.userId) vals.anon = true;
  }
  if (prop.has('size') || prop.has('dimensions')) {
    vals.size = f.size;
    vals.width = f.width;
    vals.height = f.height;
  }
  if (prop.has('parsedcomment') && links) vals.parsedcomment = formatComment(ctx, f.description, links);
  if (prop.has('comment')) vals.comment = f.description;
  if (prop.has('canonicaltitle')) vals.canonicaltitle = ctx.wiki.titleText(NS_FILE, f.name);
  if (prop.has('url')) {
    const server = serverOf(ctx.request.apiUrl);
    vals.url = fileUrl(server, f.name);
    vals.descriptionurl = pageUrl(server, ctx.wiki.codec.prefixedDbKey(NS_FILE, f.name));
  }
  if (prop.has('sha1')) vals.sha1 = sha1Base36ToHex(f.sha1);
  if (prop.has('metadata')) vals.metadata = metadataList(f.metadata);
  if (prop.has('commonmetadata')) vals.commonmetadata = [];
  if (prop.has('extmetadata')) vals.extmetadata = extMetadata(f);
  if (prop.has('mime')) vals.mime = `${f.majorMime}/${f.minorMime}`;
  if (prop.has('mediatype')) vals.mediatype = f.mediaType;
  if (prop.has('bitdepth')) vals.bitdepth = f.bits;
  return vals;
}

/** ApiQueryImageInfo::processMetaData: {name: value} → [{name, value}], nested; null when there is none. */
function metadataList(json: string): unknown {
  if (json === '') return null;
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return null;
  }
  const convert = (obj: unknown): unknown[] =>
    obj !== null && typeof obj === 'object'
      ? Object.entries(obj as Record<string, unknown>).map(([name, value]) => ({
          name,
          value: value !== null && typeof value === 'object' ? convert(value) : value,
        }))
      : [];
  const list = convert(data);
  return list.length ? list : null;
}

/**
 * FormatMetadata::fetchExtendedMetadata of 1.25 for a local file without the GetExtendedMetadata hook's
 * extensions (CommonsMetadata): getExtendedMetadataFromFile's upload time (TS_ISO_8601, not formatted) and
 * name, both `hidden` since neither is among the default `metadata-fields` (FormatMetadata.php:1655-1712).
 * No value is a translatable one, so `iiextmetadatalanguage` and `iiextmetadatamultilang` change nothing.
 */
function extMetadata(f: FileRow): Record<string, unknown> {
  const text = f.name.replace(/_/g, ' ');
  const dot = text.lastIndexOf('.');
  return {
    DateTime: { value: mwToIso(f.timestamp), source: 'mediawiki-metadata', hidden: true },
    ObjectName: { value: dot > 0 ? text.slice(0, dot) : text, source: 'mediawiki-metadata', hidden: true },
  };
}
