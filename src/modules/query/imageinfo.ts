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
 * With iiurlwidth/iiurlheight/iiurlparam (and iiprop=url) each version gets the thumbnail File::transform
 * gives (src/wiki/thumbnails.ts): thumburl (made when first requested from it, src/http/thumbnails.ts),
 * thumbwidth/thumbheight, thumbmime; the file's own URL and size when no scaling is needed; thumberror
 * when the file is too large to scale. Files no handler renders (PDF, text) get no thumb fields, where
 * MediaWiki points at a file-type icon. The parameters are merged and checked per file as
 * ApiQueryImageInfo::mergeThumbParams does (urlparam, urlparamnormal), and at most TRANSFORM_LIMIT
 * thumbnails are computed per request, the rest continues. uploadwarning is accepted and ignored (no
 * `html` is produced).
 */
import { limitParam, continueParam } from '../../api/param-presets.js';
import { queryModule, type QueryModuleContext } from '../../api/types.js';
import { compareBytes } from '../../wiki/collation.js';
import type { FileRow } from '../../store/file-store.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { fileInfo, IMAGEINFO_PROPS } from './allimages.js';
import { commentLinks, type CommentLinks } from './comments.js';
import { continueParts } from './shared.js';
import { MessageLoader } from '../message-loader.js';
import { serverOf } from '../../wiki/files.js';
import { formatNumText } from '../../wiki/language.js';
import { userLanguage } from '../../wiki/messages.js';
import { mwToIso } from '../../wiki/timestamps.js';
import {
  MAX_IMAGE_AREA,
  MAX_THUMB_LIMIT,
  computingNumber,
  handlerKind,
  normaliseParams,
  parseParamString,
  transform,
  validateParam,
  type ThumbParams,
  type ThumbSource,
} from '../../wiki/thumbnails.js';

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
      help: 'If iiprop=url is set, a URL to an image scaled to this width will be returned.\nFor performance reasons if this option is used, no more than 50 scaled images will be returned.',
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
      help: 'A handler specific parameter string. For example, PDFs might use page15-100px. iiurlwidth must be used and be consistent with iiurlparam.',
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
    const scale = getScale(p.urlwidth as number, p.urlheight as number, p.urlparam as string);
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
    const thumbs: ThumbInfo = { made: 0, errors: null };
    const single = titles.length === 1;
    for (const t of list) {
      const entry = ctx.pageSet.entry(t.id);
      if (!entry) continue;
      const file = files.get(t.dbkey);
      if (!file) {
        entry.imagerepository = '';
        continue;
      }
      // timestamps are TS_MW strings: they compare as text
      const start = t.dbkey === fromTitle ? toTsMw(fromTimestamp) : (p.start as string | undefined);
      if (thumbs.made >= TRANSFORM_LIMIT) {
        // ApiQueryImageInfo::TRANSFORM_LIMIT: the rest of the files continue
        const from = start === undefined ? mwToIso(file.timestamp) : mwToIso(start);
        if (single) ctx.setContinue('start', from);
        else ctx.setContinue('continue', `${t.dbkey}|${from}`);
        break;
      }
      entry.imagerepository = 'local';
      const thumbParams = mergeThumbParams(ctx, file, scale, p.urlparam as string);
      if ((start === undefined || file.timestamp <= start) && (end === undefined || file.timestamp >= end)) {
        entry.imageinfo = [info(ctx, file, prop, thumbParams, thumbs, filter, links)];
      }
    }
    if (thumbs.errors) await thumbErrorTexts(ctx, entriesWithErrors(ctx, list));
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

/** ApiQueryImageInfo::TRANSFORM_LIMIT: thumbnails computed per request */
const TRANSFORM_LIMIT = 50;

interface ThumbInfo {
  /** the transforms made (ApiQueryImageInfo::$transformCount) */
  made: number;
  /** the thumberror messages to fill in once the loop is done, or null */
  errors: Set<string> | null;
}

/** ApiQueryImageInfo::getScale: the requested box, {} for a urlparam alone, or null when no scaling was asked for. */
function getScale(width: number, height: number, urlparam: string): ThumbParams | null {
  if (width !== -1) return { width, height };
  if (height !== -1) return { height };
  return urlparam !== '' ? {} : null;
}

function thumbSource(file: FileRow): ThumbSource {
  return { name: file.name, width: file.width, height: file.height, mime: `${file.majorMime}/${file.minorMime}` };
}

/**
 * ApiQueryImageInfo::mergeThumbParams and checkParameterNormalise: iiurlparam parsed by the file's handler
 * and merged under the width and height; parameters the handler cannot normalise end the request.
 */
function mergeThumbParams(ctx: QueryModuleContext, file: FileRow, scale: ThumbParams | null, urlparam: string): ThumbParams | null {
  if (scale === null) return null;
  const source = thumbSource(file);
  const params: ThumbParams = Object.assign({}, scale);
  // limited by height only: the file's width is the limiting width (a file without one gets max($wgThumbLimits))
  if (params.width === undefined && params.height !== undefined) params.width = file.width <= 0 ? MAX_THUMB_LIMIT : file.width;
  const kind = handlerKind(source.mime);
  if (urlparam === '') {
    checkParameterNormalise(ctx, source, params);
    return params;
  }
  if (kind === null) {
    ctx.warn(`Could not create thumbnail because ${file.name} does not have an associated image handler`);
    return params;
  }
  const parsed = parseParamString(kind, urlparam);
  if (parsed === null) {
    ctx.warn(`Could not parse ${ctx.encodeParamName('urlparam')} for ${file.name}. Using only width and height`);
    checkParameterNormalise(ctx, source, params);
    return params;
  }
  if (parsed.width !== undefined && params.width !== undefined && parsed.width !== Math.trunc(params.width)) {
    ctx.warn(
      `Ignoring width value set in ${ctx.encodeParamName('urlparam')} (${parsed.width}) in favor of width value derived from ` +
        `${ctx.encodeParamName('urlwidth')}/${ctx.encodeParamName('urlheight')} (${params.width})`,
    );
  }
  for (const [name, value] of Object.entries(parsed) as Array<[string, string | number]>) {
    if (!validateParam(kind, name, value)) ctx.die('urlparam', `Invalid value for ${ctx.encodeParamName('urlparam')} (${name}=${value})`);
  }
  // PHP's array union: the width and height asked for win over urlparam's
  const merged: ThumbParams = Object.assign({}, parsed, params);
  checkParameterNormalise(ctx, source, merged);
  return merged;
}

function checkParameterNormalise(ctx: QueryModuleContext, file: ThumbSource, params: ThumbParams): void {
  if (handlerKind(file.mime) === null) return;
  if (normaliseParams(file, params) === null) ctx.die('urlparamnormal', `Could not normalise image parameters for ${file.name}`);
}

function info(
  ctx: QueryModuleContext,
  file: FileRow,
  prop: Set<string>,
  thumbParams: ThumbParams | null,
  thumbs: ThumbInfo,
  filter: string[],
  links: CommentLinks | null,
): Record<string, unknown> {
  const vals = fileInfo(ctx, file, prop, links);
  if (prop.has('extmetadata') && filter.length && vals.extmetadata) {
    const keep = new Set(filter);
    vals.extmetadata = Object.fromEntries(Object.entries(vals.extmetadata as Record<string, unknown>).filter(([k]) => keep.has(k)));
  }
  if (!prop.has('url') || thumbParams === null) return vals;
  thumbs.made++;
  const mto = transform(thumbSource(file), thumbParams);
  if (mto === null) return vals;
  // thumburl, thumbwidth, thumbheight, thumbmime (or thumberror) come before url in 1.25's key order
  const head: Record<string, unknown> = {};
  if (mto.kind === 'error') {
    // the text is the interface message's, filled in once every file is done
    head.thumberror = mto.message;
    (thumbs.errors ??= new Set()).add(mto.message);
  } else if (mto.kind === 'source') {
    // bug 23834: the file itself, at its own size
    head.thumburl = vals.url;
    head.thumbwidth = file.width;
    head.thumbheight = file.height;
    if (prop.has('thumbmime')) head.thumbmime = `${file.majorMime}/${file.minorMime}`;
  } else {
    head.thumburl = serverOf(ctx.request.apiUrl) + mto.url;
    head.thumbwidth = mto.width;
    head.thumbheight = mto.height;
    if (prop.has('thumbmime')) head.thumbmime = mto.mime;
  }
  return insertBefore(vals, 'url', head);
}

/** the imageinfo items of these titles that carry a thumberror */
function entriesWithErrors(ctx: QueryModuleContext, list: Array<{ id: number }>): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const t of list) {
    const items = ctx.pageSet.entry(t.id)?.imageinfo as Array<Record<string, unknown>> | undefined;
    for (const item of items ?? []) if (typeof item.thumberror === 'string') out.push(item);
  }
  return out;
}

/**
 * MediaTransformError::toText in the user's language: "thumbnail_error" around the reason
 * (TransformTooBigImageAreaError: $wgMaxImageArea as Language::formatComputingNumbers writes it).
 */
async function thumbErrorTexts(ctx: QueryModuleContext, items: Array<Record<string, unknown>>): Promise<void> {
  const lang = userLanguage(ctx.request.raw.uselang, ctx.wiki.lang);
  const loader = new MessageLoader(ctx.store, ctx.wiki);
  const area = computingNumber(MAX_IMAGE_AREA, 1000);
  await loader.prefetch(['thumbnail_error', 'thumbnail_toobigimagearea', 'thumbnail_invalid_params', area.key], lang);
  const text = async (key: string) => {
    const t = await loader.get(key, lang);
    return t === false ? `<${key}>` : t;
  };
  const reasons: Record<string, string> = {
    toobigimagearea: (await text('thumbnail_toobigimagearea')).replace(
      '$1',
      (await text(area.key)).replace('$1', formatNumText(String(area.value), lang)),
    ),
    invalidparams: await text('thumbnail_invalid_params'),
  };
  const frame = await text('thumbnail_error');
  for (const item of items) item.thumberror = frame.replace('$1', reasons[item.thumberror as string] ?? '');
}

function insertBefore(obj: Record<string, unknown>, key: string, add: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (k === key) Object.assign(out, add);
    out[k] = v;
  }
  return out;
}
