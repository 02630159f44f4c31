/**
 * prop=imageinfo (ApiQueryImageInfo of 1.25): file information for every file title of the page set --
 * pages with a description page and titles without one alike (a file uploaded without a description page
 * is a missing page that still has `imagerepository: "local"` and its imageinfo). Titles without an
 * uploaded file get `imagerepository: ""`. A description page that redirects to another file shows that
 * file's information (FileRepo::findFile follows file redirects).
 *
 * An import keeps the current version of each file only (no oldimage table), so the list of versions
 * is that one entry when it lies inside iistart/iiend; iilimit and iicontinue are parsed as 1.25 does
 * but never cut a list. The page entries follow the titles in byte order, as MediaWiki sorts them.
 *
 * Thumbnails are not rendered. With iiurlwidth/iiurlheight (and iiprop=url) the answer carries the
 * size MediaWiki would give the thumbnail (its fit-to-box and no-upscaling rules) as thumbwidth/
 * thumbheight, but thumburl is the URL of the original file, which a client can scale itself; files
 * without pixel dimensions (PDF, text) get no thumb fields. iiurlparam is accepted and ignored, and so
 * is uploadwarning (no `html` is produced).
 */
import { limitParam, continueParam } from '../../api/param-presets.js';
import { queryModule, type QueryModuleContext } from '../../api/types.js';
import { compareBytes } from '../../wiki/collation.js';
import type { FileRow } from '../../store/file-store.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { fileInfo, IMAGEINFO_PROPS } from './allimages.js';
import { commentLinks, type CommentLinks } from './comments.js';
import { continueParts } from './shared.js';

export const imageinfoModule = queryModule({
  kind: 'prop',
  name: 'imageinfo',
  prefix: 'ii',
  description: 'Returns file information and upload history.',
  params: {
    prop: { type: IMAGEINFO_PROPS, multi: true, default: 'timestamp|user', help: 'Which file information to get.' },
    limit: limitParam(1, 'How many file revisions to return per file.'),
    start: { type: 'timestamp', help: 'Timestamp to start listing from.' },
    end: { type: 'timestamp', help: 'Timestamp to stop listing at.' },
    urlwidth: {
      type: 'integer',
      default: -1,
      help: 'If iiprop=url is set, a URL to an image scaled to this width will be returned (here: the size of that scaled image, with the URL of the original).',
    },
    urlheight: { type: 'integer', default: -1, help: 'Similar to iiurlwidth.' },
    metadataversion: { type: 'string', default: '1', help: "Version of metadata to use. If 'latest' is specified, use latest version." },
    extmetadatalanguage: { type: 'string', help: 'What language to fetch extmetadata in (default: the content language).' },
    extmetadatamultilang: {
      type: 'boolean',
      default: false,
      help: 'If translations for extmetadata property are available, fetch all of them.',
    },
    extmetadatafilter: {
      type: 'string',
      multi: true,
      help: 'If specified and non-empty, only these keys will be returned for iiprop=extmetadata.',
    },
    urlparam: {
      type: 'string',
      default: '',
      help: 'A handler specific parameter string (accepted, not used: no thumbnails are rendered).',
    },
    continue: continueParam('If the query response includes a continue value, use it here to get another page of results.'),
    localonly: { type: 'boolean', default: false, help: 'Look only for files in the local repository.' },
  },
  examples: [
    'action=query&titles=File:Linux_logo.png&prop=imageinfo',
    'action=query&titles=File:Linux_logo.png&prop=imageinfo&iiprop=timestamp|user|url|size|sha1|mime',
  ],
  async run(ctx) {
    const p = ctx.params;
    const titles = ctx.pageSet.titlesInNamespace(NS_FILE).sort((a, b) => compareBytes(a.dbkey, b.dbkey));
    if (titles.length === 0) return;
    let fromTitle: string | null = null;
    let fromTimestamp: string | undefined;
    let list = titles;
    const cont = continueParts(ctx, 2);
    if (cont) {
      fromTitle = cont[0];
      fromTimestamp = cont[1];
      list = titles.filter((t) => compareBytes(t.dbkey, fromTitle!) >= 0);
    }
    const prop = new Set(p.prop as string[]);
    const scale = thumbBox(p.urlwidth as number, p.urlheight as number);
    const filter = (p.extmetadatafilter as string[] | undefined) ?? [];
    const end = p.end as string | undefined;
    const files = await findFiles(
      ctx,
      list.map((t) => t.dbkey),
    );
    const links = prop.has('parsedcomment')
      ? await commentLinks(
          ctx,
          [...files.values()].map((f) => f.description),
        )
      : null;
    for (const t of list) {
      const entry = ctx.pageSet.entry(t.id);
      if (!entry) continue;
      const file = files.get(t.dbkey);
      if (!file) {
        entry.imagerepository = '';
        continue;
      }
      entry.imagerepository = 'local';
      // timestamps are TS_MW strings: they compare as text
      const start = t.dbkey === fromTitle ? toTsMw(fromTimestamp) : (p.start as string | undefined);
      if ((start === undefined || file.timestamp <= start) && (end === undefined || file.timestamp >= end)) {
        entry.imageinfo = [info(ctx, file, prop, scale, filter, links)];
      }
    }
  },
});

/**
 * The uploaded file of each file title, following a description page that redirects to another file:
 * at most three store calls for the whole set (the files, the redirects of pages without one, their targets).
 */
async function findFiles(ctx: QueryModuleContext, names: string[]): Promise<Map<string, FileRow>> {
  const files = await ctx.store.files.byNames(names);
  const wanted = new Set(names.filter((n) => !files.has(n)));
  const redirects = ctx.pageSet.good.filter((pg) => pg.ns === NS_FILE && pg.isRedirect && wanted.has(pg.title));
  if (redirects.length === 0) return files;
  const targets = await ctx.store.pages.redirectTargets(redirects.map((pg) => pg.pageid));
  const targetOf = new Map<string, string>();
  for (const pg of redirects) {
    const to = targets.get(pg.pageid);
    if (to && to.ns === NS_FILE) targetOf.set(pg.title, to.dbkey);
  }
  const found = await ctx.store.files.byNames([...new Set(targetOf.values())]);
  for (const [name, target] of targetOf) {
    const f = found.get(target);
    if (f) files.set(name, f);
  }
  return files;
}

/** A continuation timestamp in any form wfTimestamp reads; unreadable ones count as no bound. */
function toTsMw(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const digits = v.replace(/[^0-9]/g, '');
  return digits.length >= 14 ? digits.slice(0, 14) : undefined;
}

interface Box {
  width: number;
  height: number;
}

/** ApiQueryImageInfo::getScale: the requested box, or null when no scaling was asked for. */
function thumbBox(width: number, height: number): Box | null {
  if (width !== -1) return { width, height };
  if (height !== -1) return { width: -1, height };
  return null;
}

function info(
  ctx: QueryModuleContext,
  file: FileRow,
  prop: Set<string>,
  scale: Box | null,
  filter: string[],
  links: CommentLinks | null,
): Record<string, unknown> {
  const vals = fileInfo(ctx, file, prop, links);
  if (prop.has('extmetadata') && filter.length && vals.extmetadata) {
    const keep = new Set(filter);
    vals.extmetadata = Object.fromEntries(Object.entries(vals.extmetadata as Record<string, unknown>).filter(([k]) => keep.has(k)));
  }
  if (prop.has('url') && scale && file.width > 0 && file.height > 0) {
    const thumb = thumbSize(file, scale);
    if (thumb) {
      // thumburl, thumbwidth, thumbheight (, thumbmime) come before url in 1.25's key order
      const head: Record<string, unknown> = { thumburl: vals.url, thumbwidth: thumb.width, thumbheight: thumb.height };
      if (prop.has('thumbmime')) head.thumbmime = `${file.majorMime}/${file.minorMime}`;
      return insertBefore(vals, 'url', head);
    }
  }
  return vals;
}

/**
 * The size of the thumbnail MediaWiki would make (ImageHandler::normaliseParams, File::scaleHeight,
 * MediaHandler::fitBoxWidth); a request at or above the file's own width gets the original size
 * (bitmaps are not scaled up, and then the thumbnail is the file itself).
 */
function thumbSize(file: FileRow, box: Box): Box | null {
  const srcW = file.width;
  const srcH = file.height;
  let width = box.width === -1 ? srcW : box.width;
  if (box.height !== -1 && width * srcH > box.height * srcW) width = fitBoxWidth(srcW, srcH, box.height);
  if (width <= 0) return null;
  const svg = file.majorMime === 'image' && file.minorMime === 'svg+xml';
  if (!svg && width >= srcW) return { width: srcW, height: srcH };
  return { width, height: Math.round((srcH * width) / srcW) };
}

function fitBoxWidth(boxWidth: number, boxHeight: number, maxHeight: number): number {
  const ideal = (boxWidth * maxHeight) / boxHeight;
  const up = Math.ceil(ideal);
  return Math.round((up * boxHeight) / boxWidth) > maxHeight ? Math.floor(ideal) : up;
}

function insertBefore(obj: Record<string, unknown>, key: string, add: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === key) Object.assign(out, add);
    out[k] = v;
  }
  return out;
}
