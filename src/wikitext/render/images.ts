/**
 * Parser::makeImage + Linker::makeImageLink / makeThumbLink2 of MediaWiki 1.25: image options
 * (thumb, frame, frameless, border, sizes, alignment, link=, alt=, captions) and the HTML around the
 * <img>. Sizes and URLs are File::transform's (src/wiki/thumbnails.ts): a scaled image points at its
 * thumbnail's URL, which the server makes when first asked for, with the 1.5x and 2x ones in srcset
 * ($wgResponsiveImages); files no handler renders (PDF, text) are shown at the size asked for.
 */
import { fileUrlPath, wfUrlencode } from '../../wiki/files.js';
import {
  MAX_IMAGE_AREA,
  SVG_MAX_SIZE,
  computingNumber,
  isVectorized,
  mustRender,
  transform,
  type ThumbParams,
  type ThumbSource,
  type Transform,
} from '../../wiki/thumbnails.js';
import { formatNum } from '../../wiki/language.js';
import { escapeHtml } from '../sanitizer.js';
import type { RenderEnv, RenderFile, RenderOutput, TrackingMessage } from './env.js';
import { articleUrl } from './urls.js';

/** MessagesUk.php special page alias of Upload */
const UPLOAD_PAGE = 'Завантаження';

/** $wgThumbLimits[$wgDefaultUserOptions['thumbsize'] = 5] */
const THUMB_SIZE = 300;
const HORIZ = new Map([
  ['left', 'left'],
  ['ліворуч', 'left'],
  ['зліва', 'left'],
  ['right', 'right'],
  ['праворуч', 'right'],
  ['справа', 'right'],
  ['center', 'center'],
  ['centre', 'center'],
  ['центр', 'center'],
  ['none', 'none'],
  ['без', 'none'],
]);
const VERT = new Set(['baseline', 'sub', 'super', 'top', 'text-top', 'middle', 'bottom', 'text-bottom']);
const FRAMES = new Map([
  ['thumb', 'thumbnail'],
  ['thumbnail', 'thumbnail'],
  ['мініатюра', 'thumbnail'],
  ['міні', 'thumbnail'],
  ['frame', 'framed'],
  ['framed', 'framed'],
  ['enframed', 'framed'],
  ['обрамити', 'framed'],
  ['frameless', 'frameless'],
  ['безрамки', 'frameless'],
  ['border', 'border'],
  ['межа', 'border'],
]);

interface FrameParams {
  align: string;
  valign?: string;
  thumbnail?: boolean;
  framed?: boolean;
  frameless?: boolean;
  border?: boolean;
  upright?: number;
  alt?: string;
  title?: string;
  caption: string;
  link?: string;
  width?: number;
  height?: number;
}

export interface ImageHooks {
  /** the HTML of a link written in a caption or link= (internal link pass of the caption) */
  renderCaption(text: string): string;
  /** a link= target: external URL or a title */
  stripAlt(text: string): string;
}

function parseSize(v: string): { width?: number; height?: number } | null {
  const m = /^\s*(\d*)(?:x(\d+))?\s*(?:px|пкс)\s*$/.exec(v);
  if (!m || (m[1] === '' && m[2] === undefined)) return null;
  return { width: m[1] ? Number(m[1]) : undefined, height: m[2] !== undefined ? Number(m[2]) : undefined };
}

function scaleHeight(w: number, h: number, dw: number): number {
  return w === 0 ? 0 : Math.round((h * dw) / w);
}

/** the box a file is shown in: width and height after the size parameters */
function fit(file: { width: number; height: number }, fp: FrameParams): { width: number; height: number } {
  let w = fp.width ?? file.width;
  if (fp.height !== undefined && file.height > 0) {
    const byHeight = Math.round((file.width * fp.height) / file.height);
    if (fp.width === undefined || byHeight < w) w = byHeight;
  }
  return { width: w, height: scaleHeight(file.width, file.height, w) };
}

function thumbSource(dbkey: string, file: RenderFile): ThumbSource {
  return { name: dbkey, width: file.width, height: file.height, mime: file.mime };
}

/** An <img>'s source and size for a transform: the file itself or its thumbnail, null for an error. */
interface Shown {
  src: string;
  width: number;
  height: number;
  srcset: string;
}

function shownOf(dbkey: string, t: Transform): Shown | null {
  if (t.kind === 'error') return null;
  return { src: t.kind === 'source' ? fileUrlPath(dbkey) : t.url, width: t.width, height: t.height, srcset: '' };
}

/** Linker::processResponsiveImages: the thumbnails at 1.5 and 2 times the size, when they are other images */
function responsive(source: ThumbSource, dbkey: string, shown: Shown, hp: ThumbParams): void {
  const width = hp.width ?? 0;
  const h = hp.height !== undefined && hp.height !== -1 ? hp.height : undefined;
  const at15 = densityUrl(source, dbkey, shown, Math.round(width * 1.5), h === undefined ? undefined : Math.round(h * 1.5));
  const at2 = densityUrl(source, dbkey, shown, width * 2, h === undefined ? undefined : h * 2);
  // Html::srcSet
  shown.srcset =
    at15 !== null && at2 !== null ? `${at15} 1.5x, ${at2} 2x` : at15 !== null ? `${at15} 1.5x` : at2 !== null ? `${at2} 2x` : '';
}

/** the URL of the file shown at another size, or null when it is the same image or an error */
function densityUrl(source: ThumbSource, dbkey: string, shown: Shown, width: number, height: number | undefined): string | null {
  const t = transform(source, height === undefined ? { width } : { width, height });
  const s = t && shownOf(dbkey, t);
  return s && s.src !== shown.src ? s.src : null;
}

/** MediaTransformError::toHtml of TransformTooBigImageAreaError, in the user's language */
function transformErrorHtml(env: RenderEnv, width: number, height: number): string {
  const area = computingNumber(MAX_IMAGE_AREA, 1000);
  const size = env.messages['size-megapixel'].replace('$1', formatNum(area.value));
  const text = env.messages.thumbnail_error.replace('$1', env.messages.thumbnail_toobigimagearea.replace('$1', size));
  return `<div class="MediaTransformError" style="width: ${Math.max(width, 120)}px; height: ${Math.max(height, 120)}px; display:inline-block;">${escapeHtml(text)}</div>`;
}

export function makeImage(env: RenderEnv, out: RenderOutput, dbkey: string, options: string, hooks: ImageHooks): string {
  const file = env.files.get(dbkey);
  out.images.set(dbkey, true);
  if (!file && !env.filesLoaded) out.filesWanted.add(dbkey);
  if (!file && env.filesLoaded) trackBrokenFile(env, out);
  const parts = options === '' ? [] : options.split('|');
  const fp: FrameParams = { align: '', caption: '' };
  let captionSet = false;
  for (const part0 of parts) {
    const part = part0.trim();
    const low = part.toLowerCase();
    const eq = part.indexOf('=');
    const size = parseSize(part);
    if (size) {
      fp.width = size.width;
      fp.height = size.height;
    } else if (HORIZ.has(low)) fp.align = HORIZ.get(low)!;
    else if (VERT.has(low)) fp.valign = low;
    else if (FRAMES.has(low)) (fp as unknown as Record<string, boolean>)[FRAMES.get(low)!] = true;
    else if (low === 'upright' || low === 'зменшено' || /^upright\s*=?\s*[0-9.]+$/.test(low))
      fp.upright = Number(low.replace(/^upright\s*=?\s*/, '')) || 0.75;
    else if (eq > 0 && ['alt', 'альт'].includes(part.slice(0, eq).trim().toLowerCase()))
      fp.alt = hooks.stripAlt(part0.slice(part0.indexOf('=') + 1));
    else if (eq > 0 && ['link', 'посилання'].includes(part.slice(0, eq).trim().toLowerCase()))
      fp.link = part0.slice(part0.indexOf('=') + 1).trim();
    else if (eq > 0 && ['page', 'сторінка', 'class', 'lang'].includes(part.slice(0, eq).trim().toLowerCase())) {
      /* accepted, no effect on a bitmap */
    } else {
      // the last unrecognised part is the caption
      fp.caption = part0;
      captionSet = true;
    }
  }
  const caption = captionSet ? hooks.renderCaption(fp.caption) : '';
  const name = dbkey.replace(/_/g, ' ');
  const framed = fp.framed || fp.thumbnail;
  if (framed) {
    if (caption === '' && fp.alt === undefined) fp.alt = name;
  } else {
    if (fp.alt === undefined) fp.alt = captionSet ? hooks.stripAlt(fp.caption) : name;
    fp.title = captionSet ? hooks.stripAlt(fp.caption) : '';
  }
  const filePage = env.codec.prefixedDbKey(6, dbkey);
  const descHref = articleUrl(filePage);
  let prefix = '';
  let postfix = '';
  if (fp.align === 'center') {
    prefix = '<div class="center">';
    postfix = '</div>';
    fp.align = 'none';
  }
  // Linker::makeBrokenImageLinkObj with uploads enabled: a link to Special:Upload for the name
  const brokenLink = (label: string) => {
    const text = label !== '' ? label : escapeHtml(env.codec.prefixedText(6, dbkey));
    const upload = `/index.php?title=${wfUrlencode(env.codec.prefixedDbKey(-1, UPLOAD_PAGE))}&amp;wpDestFile=${wfUrlencode(dbkey)}`;
    return `<a href="${upload}" class="new" title="${escapeHtml(env.codec.prefixedText(6, dbkey))}">${text}</a>`;
  };
  const linkWrap = (img: string, title?: string) => {
    if (fp.link !== undefined) {
      if (fp.link === '') return img;
      if (/^(?:https?:|ftps?:|mailto:|\/\/)/i.test(fp.link)) {
        out.externalLinks.push(fp.link);
        return `<a href="${escapeHtml(fp.link)}" rel="nofollow">${img}</a>`;
      }
      const t = env.codec.parse(fp.link, 0);
      if (t) {
        out.links.set(`${t.ns}|${t.dbkey}`, { ns: t.ns, dbkey: t.dbkey });
        return `<a href="${articleUrl(env.codec.prefixedDbKey(t.ns, t.dbkey))}" title="${escapeHtml(env.codec.prefixedText(t.ns, t.dbkey))}">${img}</a>`;
      }
      return img;
    }
    return `<a href="${descHref}" class="image"${title ? ` title="${escapeHtml(title)}"` : ''}>${img}</a>`;
  };
  const imgTag = (w: number, h: number, cls: string, src = fileUrlPath(dbkey), srcset = '') =>
    `<img alt="${escapeHtml(fp.alt ?? '')}" src="${src}" width="${w}" height="${h}"${fp.valign ? ` style="vertical-align: ${fp.valign}"` : ''}${cls ? ` class="${cls}"` : ''}${srcset ? ` srcset="${srcset}"` : ''} />`;
  const source = file ? thumbSource(dbkey, file) : null;
  const renderable = source !== null && transform(source, { width: 1 }) !== null;
  // Linker::makeImageLink: the width when none was given
  const hp: ThumbParams = { width: fp.width, height: fp.height };
  if (source && renderable && hp.width === undefined) {
    hp.width = hp.height !== undefined && isVectorized(source) ? SVG_MAX_SIZE : source.width;
    if (fp.thumbnail || fp.framed || fp.frameless || !hp.width) {
      const prefWidth = fp.upright !== undefined ? Math.round((THUMB_SIZE * fp.upright) / 10) * 10 : THUMB_SIZE;
      if (hp.height === undefined && (hp.width <= 0 || prefWidth < hp.width || isVectorized(source))) hp.width = prefWidth;
    }
  }

  if (framed) {
    if (fp.align === '') fp.align = 'right';
    let s: string;
    let outer: number;
    let zoom = '';
    if (!file) {
      // makeThumbLink2: a missing file's frame is 180px (130px upright) unless a width was given
      outer = (fp.width || (fp.upright !== undefined ? 130 : 180)) + 2;
      s = brokenLink('');
    } else if (source && renderable) {
      if (!hp.width) hp.width = fp.upright !== undefined ? 130 : 180;
      let t: Transform | null;
      if (fp.framed) t = transform(source, { width: source.width });
      else {
        // no bitmap larger than its source
        if (source.width && !mustRender(source) && hp.width > source.width) hp.width = source.width;
        t = transform(source, hp);
      }
      const shown = t && shownOf(dbkey, t);
      if (!t) {
        outer = hp.width + 2;
        s = escapeHtml(env.messages.thumbnail_error.replace('$1', ''));
      } else {
        if (shown) {
          if (!fp.framed) responsive(source, dbkey, shown, hp);
          outer = shown.width + 2;
          s = linkWrap(imgTag(shown.width, shown.height, 'thumbimage', shown.src, shown.srcset));
        } else {
          // MediaTransformError: its box is at least 120px
          const size = t.kind === 'error' ? t : { width: 0, height: 0 };
          outer = Math.max(size.width, 120) + 2;
          s = transformErrorHtml(env, size.width, size.height);
        }
        if (!fp.framed)
          zoom = `<div class="magnify"><a href="${descHref}" class="internal" title="${escapeHtml(env.messages['thumbnail-more'])}"></a></div>`;
      }
    } else {
      let box: { width: number; height: number };
      if (fp.framed) box = { width: file.width, height: file.height };
      else {
        const hp = { ...fp };
        if (hp.width === undefined) hp.width = fp.upright ? Math.round((THUMB_SIZE * fp.upright) / 10) * 10 : THUMB_SIZE;
        if (hp.width > file.width && file.width > 0 && !/^DRAWING$/.test(file.mediaType)) hp.width = file.width;
        box = fit(file, hp);
      }
      outer = box.width + 2;
      s = linkWrap(imgTag(box.width, box.height, 'thumbimage'));
      if (!fp.framed)
        zoom = `<div class="magnify"><a href="${descHref}" class="internal" title="${escapeHtml(env.messages['thumbnail-more'])}"></a></div>`;
    }
    const html = `<div class="thumb t${fp.align}"><div class="thumbinner" style="width:${outer}px;">${s}  <div class="thumbcaption">${zoom}${caption}</div></div></div>`;
    return (prefix + html + postfix).replace(/\n/g, ' ');
  }
  let s: string;
  if (!file) s = brokenLink(fp.title ?? '');
  else if (source && renderable) {
    if (fp.frameless && source.width && !mustRender(source) && (hp.width ?? 0) > source.width) hp.width = source.width;
    const t = transform(source, hp);
    const shown = t && shownOf(dbkey, t);
    if (shown) {
      responsive(source, dbkey, shown, hp);
      s = linkWrap(imgTag(shown.width, shown.height, fp.border ? 'thumbborder' : '', shown.src, shown.srcset), fp.title);
    } else s = t && t.kind === 'error' ? transformErrorHtml(env, t.width, t.height) : '';
  } else {
    const hp = { ...fp };
    if (fp.frameless) {
      if (hp.width === undefined) hp.width = fp.upright ? Math.round((THUMB_SIZE * fp.upright) / 10) * 10 : THUMB_SIZE;
      if (hp.width > file.width && file.width > 0) hp.width = file.width;
    }
    const box = fit(file, hp);
    s = linkWrap(imgTag(box.width, box.height, fp.border ? 'thumbborder' : ''), fp.title);
  }
  if (fp.align !== '') s = `<div class="float${fp.align}">${s}</div>`;
  return (prefix + s + postfix).replace(/\n/g, ' ');
}

/** Parser::addTrackingCategory('broken-file-category'), sorted by the page's DEFAULTSORT */
export function trackBrokenFile(env: RenderEnv, out: RenderOutput): void {
  addTrackingCategory(env, out, 'broken-file-category');
}

/** Parser::addTrackingCategory: the category a message names, sorted by the page's DEFAULTSORT */
export function addTrackingCategory(env: RenderEnv, out: RenderOutput, msg: TrackingMessage): void {
  const t = env.codec.parse(env.messages[msg], 14);
  if (t && t.ns === 14 && !out.categories.has(t.dbkey)) out.categories.set(t.dbkey, out.defaultSort ?? '');
}

/** <gallery> (ImageGalleryBase / TraditionalImageGallery of 1.25, default 120×120 boxes). */
export function renderGallery(env: RenderEnv, out: RenderOutput, body: string, attrs: string, hooks: ImageHooks): string {
  const W = 120;
  const H = 120;
  let html = `<ul class="gallery mw-gallery-traditional"${attrs}>\n`;
  for (const line0 of body.split('\n')) {
    const line = line0.trim();
    if (line === '') continue;
    const bar = line.indexOf('|');
    const target = bar < 0 ? line : line.slice(0, bar);
    // Parser::renderImageGallery of 1.25 (Parser.php:5368-5412): the parts after the name that are alt= or
    // link= are the image's; the others, joined with "|", are the caption
    let label = '';
    let givenAlt: string | undefined;
    if (bar >= 0) {
      const captionParts: string[] = [];
      for (const part of line
        .slice(bar + 1)
        .trim()
        .split('|')) {
        const eq = part.indexOf('=');
        const name = eq > 0 ? part.slice(0, eq).trim().toLowerCase() : '';
        if (name === 'alt' || name === 'альт') givenAlt = hooks.stripAlt(part.slice(eq + 1));
        else if (name !== 'link' && name !== 'посилання') captionParts.push(part);
      }
      label = captionParts.join('|');
    }
    const t = env.codec.parse(target, 6);
    if (t?.ns !== 6) continue;
    out.images.set(t.dbkey, true);
    const file = env.files.get(t.dbkey);
    if (!file && !env.filesLoaded) out.filesWanted.add(t.dbkey);
    if (!file && env.filesLoaded) trackBrokenFile(env, out);
    let thumb: string;
    let vpad = 0;
    if (!file) {
      thumb = `<div style="height: ${H + 30}px; width: ${W + 30}px;">${escapeHtml(env.codec.prefixedText(6, t.dbkey))}</div>`;
    } else {
      // the W×H box's thumbnail (TraditionalImageGallery: transform and processResponsiveImages)
      const source = thumbSource(t.dbkey, file);
      const hp = { width: W, height: H };
      const transformed = transform(source, hp);
      const shown =
        (transformed && shownOf(t.dbkey, transformed)) ??
        Object.assign({ src: fileUrlPath(t.dbkey), srcset: '' }, fit(file, { align: '', caption: '', width: W, height: H }));
      if (transformed) responsive(source, t.dbkey, shown, hp);
      vpad = Math.floor((30 + H - shown.height) / 2);
      const title = escapeHtml(hooks.stripAlt(label));
      // TraditionalImageGallery::toHTML: the given alt text; without one, the caption's text, and the file's
      // name when there is no caption either
      const alt = givenAlt !== undefined ? escapeHtml(givenAlt) : label === '' ? escapeHtml(t.dbkey.replace(/_/g, ' ')) : title;
      const img = `<a href="${articleUrl(env.codec.prefixedDbKey(6, t.dbkey))}" class="image"${title ? ` title="${title}"` : ''}><img alt="${alt}" src="${shown.src}" width="${shown.width}" height="${shown.height}"${shown.srcset ? ` srcset="${shown.srcset}"` : ''} /></a>`;
      thumb = `<div class="thumb" style="width: ${W + 30}px;"><div style="margin:${vpad}px auto;">${img}</div></div>`;
    }
    const caption = label === '' ? '' : hooks.renderCaption(label);
    html += `\t\t<li class="gallerybox" style="width: ${W + 35}px"><div style="width: ${W + 35}px">\n\t\t\t${thumb}\n\t\t\t<div class="gallerytext">\n${caption}\n\t\t\t</div>\n\t\t</div></li>\n`;
  }
  return html + '</ul>';
}
