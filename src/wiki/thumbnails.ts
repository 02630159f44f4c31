/**
 * Thumbnails as MediaWiki 1.25 names and sizes them: the media handler of each MIME type
 * ($wgMediaHandlers), ImageHandler / TransformationalImageHandler / SvgHandler::normaliseParams (the
 * fit-to-box width, the height rounded from the width, no upscaling of bitmaps, SVGs capped at
 * $wgSVGMaxSize), the thumbnail's name (`200px-Name.png`, `200px-Name.svg.png`) and URL
 * (`/images/thumb/a/ab/Name.png/200px-Name.png`, File::getThumbUrl), and File::transform's outcome for
 * a wiki whose thumbnails are made when their URL is first requested (a 404 handler: TRANSFORM_LATER).
 *
 * The wiki is configured as DefaultSettings.php leaves it, with a working scaler: the bitmap scaler is
 * GD's ($wgUseImageMagick = false), so every bitmap larger than $wgMaxImageArea pixels is refused
 * (TransformTooBigImageAreaError), JPEGs included; SVGs are rasterised as with $wgSVGConverter = 'rsvg'.
 * A 1.25 wiki left at the default 'ImageMagick' converter without ImageMagick installed would instead
 * answer every SVG thumbnail with a thumberror carrying the shell's "convert: not found".
 *
 * Pure: the HTTP layer renders and serves the thumbnails, imageinfo and the page renderer report them.
 */
import { rawUrlEncode } from '../php/url.js';
import { UPLOAD_PATH, hashPath } from './files.js';

/** $wgMaxImageArea: bitmaps with more pixels get no thumbnail (decompression bombs, memory) */
export const MAX_IMAGE_AREA = 1.25e7;
/** $wgSVGMaxSize: an SVG is never rasterised larger than this on its smaller side */
export const SVG_MAX_SIZE = 2048;
/** max($wgThumbLimits): the width asked for a file without one when only a height is given */
export const MAX_THUMB_LIMIT = 300;
/** File::getThumbUrl's zone below $wgUploadPath */
export const THUMB_PATH = `${UPLOAD_PATH}/thumb`;

export type HandlerKind = 'bitmap' | 'svg';

/** What a thumbnail needs to know of a file. */
export interface ThumbSource {
  /** DB key */
  name: string;
  width: number;
  height: number;
  /** e.g. `image/png` */
  mime: string;
}

/** Handler parameters (iiurlwidth/iiurlheight/iiurlparam, or an image link's size) before normalisation. */
export interface ThumbParams {
  width?: number;
  height?: number;
  /** SvgHandler's rendering language */
  lang?: string;
}

/** The parameters after MediaHandler::normaliseParams: the size on the page and the size of the bytes. */
export interface NormalisedParams {
  width: number;
  height: number;
  physicalWidth: number;
  physicalHeight: number;
  lang?: string;
}

/** File::transform's answer: a thumbnail to make, the file itself (no scaling), or an error. */
export type Transform =
  | {
      kind: 'thumb';
      url: string;
      thumbName: string;
      width: number;
      height: number;
      physicalWidth: number;
      physicalHeight: number;
      mime: string;
    }
  | { kind: 'source'; width: number; height: number }
  | { kind: 'error'; message: 'toobigimagearea' | 'invalidparams'; width: number; height: number };

/** $wgMediaHandlers of 1.25, for the handlers that can render (TiffHandler cannot without $wgTiffThumbnailType). */
const HANDLERS = new Map<string, HandlerKind>([
  ['image/jpeg', 'bitmap'],
  ['image/png', 'bitmap'],
  ['image/gif', 'bitmap'],
  ['image/x-ms-bmp', 'bitmap'],
  ['image/x-bmp', 'bitmap'],
  ['image/svg+xml', 'svg'],
  ['image/svg', 'svg'],
]);

/** MimeMagic's mime.types lines for those types: the extensions that match, the first one preferred */
const EXTENSIONS = new Map<string, string[]>([
  ['image/jpeg', ['jpeg', 'jpg', 'jpe']],
  ['image/png', ['png']],
  ['image/gif', ['gif']],
  ['image/x-ms-bmp', ['bmp']],
  ['image/x-bmp', ['bmp']],
  ['image/svg+xml', ['svg']],
  ['image/svg', ['svg']],
]);

/** File::normalizeExtension's squished extensions */
const SQUISH: Record<string, string> = { htm: 'html', jpeg: 'jpg', mpeg: 'mpg', tiff: 'tif', ogv: 'ogg' };

/** The handler that renders thumbnails of a MIME type, or null (no handler, or one that cannot render). */
export function handlerKind(mime: string): HandlerKind | null {
  return HANDLERS.get(mime) ?? null;
}

/** File::isVectorized: SVG */
export function isVectorized(file: ThumbSource): boolean {
  return handlerKind(file.mime) === 'svg';
}

/** File::canRender: a rendering handler and a size */
export function canRender(file: ThumbSource): boolean {
  return handlerKind(file.mime) !== null && file.width > 0 && file.height > 0;
}

/** File::mustRender: formats browsers do not show are always converted (SVG, BMP) */
export function mustRender(file: ThumbSource): boolean {
  return handlerKind(file.mime) === 'svg' || file.mime === 'image/x-ms-bmp' || file.mime === 'image/x-bmp';
}

/** File::scaleHeight */
export function scaleHeight(srcWidth: number, srcHeight: number, dstWidth: number): number {
  return srcWidth === 0 ? 0 : phpRound((srcHeight * dstWidth) / srcWidth);
}

/** MediaHandler::fitBoxWidth: the width whose scaled height fits maxHeight */
export function fitBoxWidth(boxWidth: number, boxHeight: number, maxHeight: number): number {
  const ideal = (boxWidth * maxHeight) / boxHeight;
  const roundedUp = Math.ceil(ideal);
  return phpRound((roundedUp * boxHeight) / boxWidth) > maxHeight ? Math.floor(ideal) : roundedUp;
}

/** PHP's round(): halves away from zero */
function phpRound(x: number): number {
  return x < 0 ? -Math.round(-x) : Math.round(x);
}

/**
 * The handler's normaliseParams (ImageHandler, then TransformationalImageHandler or SvgHandler), or
 * null where MediaWiki's returns false (no width, a width below 1, a file without a size).
 */
export function normaliseParams(file: ThumbSource, params: ThumbParams): NormalisedParams | null {
  const kind = handlerKind(file.mime);
  if (kind === null || params.width === undefined) return null;
  const srcWidth = file.width;
  const srcHeight = file.height;
  let width = params.width;
  let height: number | undefined;
  let physicalWidth: number | undefined;
  if (params.height !== undefined && params.height !== -1) {
    if (width * srcHeight > params.height * srcWidth) {
      // the height is the smaller side of the box: the width follows from it, and the height asked stays
      width = fitBoxWidth(srcWidth, srcHeight, params.height);
      if (width === 0) width = 1;
      physicalWidth = width;
      height = params.height;
    }
  }
  physicalWidth ??= width;
  let physicalHeight = scaleHeight(srcWidth, srcHeight, physicalWidth);
  height ??= physicalHeight;
  // ImageHandler::validateThumbParams
  physicalWidth = Math.trunc(physicalWidth);
  if (physicalWidth <= 0 || srcWidth <= 0) return null;
  physicalHeight = scaleHeight(srcWidth, srcHeight, physicalWidth) || 1;
  const out: NormalisedParams = { width, height, physicalWidth, physicalHeight };
  if (kind === 'bitmap') {
    // TransformationalImageHandler: never larger than the source
    if (out.physicalWidth >= srcWidth) {
      out.physicalWidth = srcWidth;
      out.physicalHeight = srcHeight;
    }
  } else {
    if (params.lang !== undefined) out.lang = params.lang;
    if (out.physicalWidth <= out.physicalHeight) {
      if (out.physicalWidth > SVG_MAX_SIZE) {
        out.physicalWidth = SVG_MAX_SIZE;
        out.physicalHeight = scaleHeight(srcWidth, srcHeight, SVG_MAX_SIZE);
      }
    } else if (out.physicalHeight > SVG_MAX_SIZE) {
      out.physicalWidth = scaleHeight(srcHeight, srcWidth, SVG_MAX_SIZE);
      out.physicalHeight = SVG_MAX_SIZE;
    }
  }
  return out;
}

/** File::getExtension: the name's last extension, lower case and normalised */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
  return SQUISH[ext] ?? ext;
}

/** MediaHandler::getThumbType: the thumbnail's extension and MIME type */
export function thumbType(file: ThumbSource): { ext: string; mime: string } {
  const kind = handlerKind(file.mime);
  if (kind === 'svg' || file.mime === 'image/x-ms-bmp' || file.mime === 'image/x-bmp') return { ext: 'png', mime: 'image/png' };
  const ext = extensionOf(file.name);
  const known = EXTENSIONS.get(file.mime);
  if (known && (ext === '' || !known.includes(ext))) return { ext: known[0], mime: file.mime };
  return { ext, mime: file.mime };
}

/** The handler's makeParamString: `200px` (bitmaps: the physical width; SVG: the width, after its language) */
function paramString(kind: HandlerKind, p: NormalisedParams): string {
  if (kind === 'svg') return `${p.lang !== undefined && p.lang !== 'en' ? `lang${p.lang.toLowerCase()}-` : ''}${p.width}px`;
  return `${p.physicalWidth}px`;
}

/** File::generateThumbName: `200px-Name.png`, with the thumbnail's extension added when it differs */
export function thumbName(file: ThumbSource, p: NormalisedParams): string {
  const kind = handlerKind(file.mime) ?? 'bitmap';
  const type = thumbType(file);
  const name = `${paramString(kind, p)}-${file.name}`;
  return type.ext !== extensionOf(file.name) ? `${name}.${type.ext}` : name;
}

/** File::getThumbUrl(thumbName): `/images/thumb/a/ab/Name.png/200px-Name.png` */
export function thumbUrlPath(name: string, thumb: string): string {
  return `${THUMB_PATH}/${hashPath(name)}${rawUrlEncode(name)}/${rawUrlEncode(thumb)}`;
}

/**
 * File::transform with rendering deferred to the thumbnail's URL (TransformationalImageHandler /
 * SvgHandler::doTransform with TRANSFORM_LATER), or null where it returns no thumbnail at all (a file no
 * handler renders: MediaWiki shows a file-type icon, which wikiquery does not serve).
 */
export function transform(file: ThumbSource, params: ThumbParams): Transform | null {
  if (!canRender(file)) return null;
  const kind = handlerKind(file.mime)!;
  const p = normaliseParams(file, params);
  if (p === null) return { kind: 'error', message: 'invalidparams', width: params.width ?? 0, height: params.height ?? 0 };
  if (kind === 'bitmap') {
    // the unscaled image is the file itself, shown at the size asked for (a BMP must be rendered: mustRender)
    if (!mustRender(file) && p.physicalWidth === file.width && p.physicalHeight === file.height)
      return { kind: 'source', width: p.width, height: p.height };
    if (file.width * file.height > MAX_IMAGE_AREA) return { kind: 'error', message: 'toobigimagearea', width: p.width, height: p.height };
  }
  const name = thumbName(file, p);
  return {
    kind: 'thumb',
    url: thumbUrlPath(file.name, name),
    thumbName: name,
    width: p.width,
    height: p.height,
    physicalWidth: p.physicalWidth,
    physicalHeight: p.physicalHeight,
    mime: thumbType(file).mime,
  };
}

/** The handler's parseParamString: `200px` (SVG also `langfr-200px`), or null. */
export function parseParamString(kind: HandlerKind, str: string): ThumbParams | null {
  if (kind === 'svg') {
    const m = /^lang([a-z]+(?:-[a-z]+)*)-(\d+)px$/.exec(str);
    if (m) return { width: Number(m[2]), lang: m[1] };
  }
  const m = /^(\d+)px$/.exec(str);
  if (!m) return null;
  return kind === 'svg' ? { width: Number(m[1]), lang: 'en' } : { width: Number(m[1]) };
}

/** The handler's validateParam: sizes above 0, an SVG language that is a valid code */
export function validateParam(kind: HandlerKind, name: string, value: string | number): boolean {
  if (name === 'width' || name === 'height') return Number(value) > 0;
  // Language::isValidBuiltinCode
  if (kind === 'svg' && name === 'lang') return /^[a-z0-9-]+$/i.test(String(value));
  return false;
}

/**
 * The thumbnail a URL below THUMB_PATH asks for: the file's DB key and the thumbnail's name, or null when
 * the path has another shape or its hash directories are not the name's.
 */
export function thumbFromUrl(urlPath: string): { name: string; thumb: string } | null {
  if (!urlPath.startsWith(THUMB_PATH + '/')) return null;
  const parts = urlPath.slice(THUMB_PATH.length + 1).split('/');
  if (parts.length !== 4) return null;
  let name: string;
  let thumb: string;
  try {
    name = decodeURIComponent(parts[2]);
    thumb = decodeURIComponent(parts[3]);
  } catch {
    return null;
  }
  if (name === '' || thumb === '' || name.includes('/') || thumb.includes('/')) return null;
  return hashPath(name) === `${parts[0]}/${parts[1]}/` ? { name, thumb } : null;
}

/**
 * thumb.php's wfExtractThumbParams: the handler parameters of a thumbnail name (`200px-Name.png`), or null
 * when it is not a name this file's handler makes.
 */
export function thumbParamsFromName(file: ThumbSource, thumb: string): ThumbParams | null {
  const kind = handlerKind(file.mime);
  if (kind === null) return null;
  const type = thumbType(file);
  const suffix = type.ext !== extensionOf(file.name) ? `-${file.name}.${type.ext}` : `-${file.name}`;
  if (!thumb.endsWith(suffix)) return null;
  return parseParamString(kind, thumb.slice(0, -suffix.length));
}

/** Language::formatComputingNumbers(size, boundary, "size-$1pixel"): the message key and the rounded number */
export function computingNumber(size: number, boundary: number): { key: string; value: number; power: number } {
  const prefixes = ['', 'kilo', 'mega', 'giga', 'tera', 'peta', 'exa', 'zeta', 'yotta'];
  let index = 0;
  let value = size;
  while (value >= boundary && index < prefixes.length - 1) {
    index++;
    value /= boundary;
  }
  // no decimals below mega, two from mega up
  const digits = index > 1 ? 2 : 0;
  return { key: `size-${prefixes[index]}pixel`, value: Math.round(value * 10 ** digits) / 10 ** digits, power: index };
}
