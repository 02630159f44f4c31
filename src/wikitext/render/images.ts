/**
 * Parser::makeImage + Linker::makeImageLink / makeThumbLink2 of MediaWiki 1.25: image options
 * (thumb, frame, frameless, border, sizes, alignment, link=, alt=, captions) and the HTML around the
 * <img>. wikiquery keeps no thumbnails: every <img> points at the original file with the scaled size.
 */
import { fileUrlPath, wfUrlencode } from '../../wiki/files.js';
import { escapeHtml } from '../sanitizer.js';
import type { RenderEnv, RenderOutput } from './env.js';
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
  const imgTag = (w: number, h: number, cls: string) =>
    `<img alt="${escapeHtml(fp.alt ?? '')}" src="${fileUrlPath(dbkey)}" width="${w}" height="${h}"${fp.valign ? ` style="vertical-align: ${fp.valign}"` : ''}${cls ? ` class="${cls}"` : ''} />`;

  if (framed) {
    if (fp.align === '') fp.align = 'right';
    let s: string;
    let outer: number;
    let zoom = '';
    if (!file) {
      // makeThumbLink2: a missing file's frame is 180px unless a width was given
      outer = (fp.width ?? 180) + 2;
      s = brokenLink('');
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
  else {
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
export function addTrackingCategory(
  env: RenderEnv,
  out: RenderOutput,
  msg: 'broken-file-category' | 'hidden-category-category' | 'restricted-displaytitle-ignored',
): void {
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
    const label = bar < 0 ? '' : line.slice(bar + 1);
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
      // the box is W×H whatever the file's size (no thumbnails here: the browser scales the original)
      const box = fit(file, { align: '', caption: '', width: W, height: H });
      vpad = Math.floor((30 + H - box.height) / 2);
      const alt = escapeHtml(hooks.stripAlt(label));
      const img = `<a href="${articleUrl(env.codec.prefixedDbKey(6, t.dbkey))}" class="image"${alt ? ` title="${alt}"` : ''}><img alt="${alt}" src="${fileUrlPath(t.dbkey)}" width="${box.width}" height="${box.height}" /></a>`;
      thumb = `<div class="thumb" style="width: ${W + 30}px;"><div style="margin:${vpad}px auto;">${img}</div></div>`;
    }
    const caption = label === '' ? '' : hooks.renderCaption(label);
    html += `\t\t<li class="gallerybox" style="width: ${W + 35}px"><div style="width: ${W + 35}px">\n\t\t\t${thumb}\n\t\t\t<div class="gallerytext">\n${caption}\n\t\t\t</div>\n\t\t</div></li>\n`;
  }
  return html + '</ul>';
}
