/**
 * Parser::doHeadings and Parser::formatHeadings of MediaWiki 1.25: == headings == become <hN> with a
 * headline span and anchor (legacy escapeId, made unique case-insensitively), edit-section links, the
 * section list of prop=sections, and the table of contents (4+ headings, __TOC__, __FORCETOC__,
 * __NOTOC__).
 */
import { escapeHtml, escapeId } from '../sanitizer.js';
import type { RenderEnv, RenderOutput } from './env.js';
import { editUrl } from './urls.js';
import { LEADING_HEADING_MARKER_RE } from '../preprocessor/context.js';
import { replaceParameters } from '../../wiki/messages.js';

export function doHeadings(text: string): string {
  for (let i = 6; i >= 1; i--) {
    const h = '='.repeat(i);
    text = text.replace(new RegExp(`^${h}(.+)${h}\\s*$`, 'gm'), `<h${i}>$1</h${i}>`);
  }
  return text;
}

export const TOC_MARKER = '<!--MWTOC-->';
const MAX_TOC_LEVEL = 999;

export interface HeadingHooks {
  /** headline with link holders replaced by their text and strip markers by their content */
  plainHeadline(html: string): string;
  /** "byteoffset" of a heading at this offset of the page's text */
  offsetOf(at: number): number;
}

export function formatHeadings(text: string, env: RenderEnv, out: RenderOutput, hooks: HeadingHooks, forceTocPosition: boolean): string {
  const re = /<H([1-6])(.*?>)\s*([\s\S]*?)\s*<\/H[1-6] *>/gi;
  const matches = [...text.matchAll(re)];
  let enoughToc = !out.switches.has('notoc') && (matches.length >= 4 || forceTocPosition);
  if (out.switches.has('forcetoc')) enoughToc = true;
  const showEditLink = env.editSections && !out.switches.has('noeditsection');
  let toc = '';
  let prevLevel = 0;
  let tocLevel = 0;
  let prevTocLevel = 0;
  let level = 0;
  const sublevelCount: number[] = [];
  const levelCount: number[] = [];
  const refers = new Map<string, number>();
  const heads: string[] = [];
  let numVisible = 0;
  const pageKey = env.codec.prefixedDbKey(env.title.ns, env.title.dbkey);
  matches.forEach((m) => {
    if (tocLevel) prevLevel = level;
    level = Number(m[1]);
    if (level > prevLevel) {
      tocLevel++;
      sublevelCount[tocLevel] = 0;
      if (tocLevel < MAX_TOC_LEVEL) {
        prevTocLevel = tocLevel;
        toc += '\n<ul>';
        numVisible++;
      }
    } else if (level < prevLevel && tocLevel > 1) {
      let i: number;
      for (i = tocLevel; i > 0; i--) {
        if (levelCount[i] === level) {
          tocLevel = i;
          break;
        } else if (levelCount[i] < level) {
          tocLevel = i + 1;
          break;
        }
      }
      if (i === 0) tocLevel = 1;
      if (tocLevel < MAX_TOC_LEVEL) {
        if (prevTocLevel < MAX_TOC_LEVEL) {
          toc += '</li>\n' + '</ul>\n</li>\n'.repeat(Math.max(0, prevTocLevel - tocLevel));
          prevTocLevel = tocLevel;
        } else toc += '</li>\n';
      }
    } else if (tocLevel < MAX_TOC_LEVEL) toc += '</li>\n';
    levelCount[tocLevel] = level;
    sublevelCount[tocLevel]++;
    let numbering = '';
    for (let i = 1; i <= tocLevel; i++) {
      if (sublevelCount[i]) {
        if (numbering) numbering += '.';
        numbering += String(sublevelCount[i]);
      }
    }
    // the preprocessor's marker says where the heading was written: which text, which heading there
    let headline = m[3];
    const marker = LEADING_HEADING_MARKER_RE.exec(headline);
    const mark = marker ? env.headings?.[Number(marker[1])] : undefined;
    if (marker) headline = headline.slice(marker[0].length);
    const from = mark?.title ?? env.title;
    const isTemplate =
      mark !== undefined && mark.title !== null && !(mark.title.ns === env.title.ns && mark.title.dbkey === env.title.dbkey);
    const sectionIndex: number | false = mark ? mark.index : false;
    const safe0 = hooks.plainHeadline(headline);
    const tocline = safe0
      .replace(/<(?!\/?(span|sup|sub|bdi|i|b)(?: [^>]*)?>).*?>/g, '')
      .replace(/<(\/?(?:span(?: dir="(?:rtl|ltr)")?|sup|sub|bdi|i|b))(?: .*?)?>/g, '<$1>')
      .trim();
    const hint = safe0.replace(/<.*?>/g, '').replace(/[ _]+/g, ' ').trim();
    const safe = escapeId(hint, true);
    const key = safe.toLowerCase();
    refers.set(key, (refers.get(key) ?? 0) + 1);
    let anchor = safe;
    if (refers.get(key)! > 1) anchor += '_' + refers.get(key);
    if (enoughToc) {
      const section = isTemplate || sectionIndex === false ? '' : ` tocsection-${sectionIndex}`;
      toc += `\n<li class="toclevel-${tocLevel}${section}"><a href="#${anchor}"><span class="tocnumber">${numbering}</span> <span class="toctext">${tocline}</span></a>`;
    }
    out.sections.push({
      toclevel: tocLevel,
      level: String(level),
      line: tocline,
      number: numbering,
      index: sectionIndex === false ? '' : (isTemplate ? 'T-' : '') + sectionIndex,
      fromtitle: mark ? env.codec.prefixedDbKey(from.ns, from.dbkey) : false,
      byteoffset: isTemplate || !mark || mark.start === null ? null : hooks.offsetOf(mark.start),
      anchor,
    });
    let editlink = '';
    // a heading no text wrote (a parser function's output) has no section to edit
    if (showEditLink && sectionIndex !== false) {
      // a template's section is edited on the template, "T-n"; Linker::link's title is then the template's name
      const link = isTemplate
        ? `<a href="${editUrl(env.codec.prefixedDbKey(from.ns, from.dbkey), false, `T-${sectionIndex}`)}" title="${escapeHtml(env.codec.prefixedText(from.ns, from.dbkey))}">`
        : `<a href="${editUrl(pageKey, false, String(sectionIndex))}" title="${escapeHtml(replaceParameters(env.messages.editsectionhint, [hint]))}">`;
      editlink = `<span class="mw-editsection"><span class="mw-editsection-bracket">[</span>${link}${escapeHtml(env.messages.editsection)}</a><span class="mw-editsection-bracket">]</span></span>`;
    }
    heads.push(`<h${level}${m[2]}<span class="mw-headline" id="${anchor}">${headline}</span>${editlink}</h${level}>`);
  });
  if (numVisible < 1) enoughToc = false;
  let tocHtml = '';
  if (enoughToc) {
    // Parser::formatHeadings adds the TOC's module whenever it makes one (disabletoc only hides it)
    out.modules.add('mediawiki.toc');
    if (prevTocLevel > 0 && prevTocLevel < MAX_TOC_LEVEL) toc += '</li>\n' + '</ul>\n</li>\n'.repeat(Math.max(0, prevTocLevel - 1));
    // wrapped as Parser::TOC_START/TOC_END: ParserOutput::getText drops the markers (or the whole TOC)
    tocHtml = `<mw:toc><div id="toc" class="toc"><div id="toctitle"><h2>${escapeHtml(env.messages.toc)}</h2></div>\n${toc}</ul>\n</div>\n</mw:toc>`;
  }
  const blocks = text.split(/<H[1-6].*?>[\s\S]*?<\/H[1-6]>/i);
  let full = '';
  blocks.forEach((b, i) => {
    full += (i > 0 && heads[i - 1] !== undefined ? heads[i - 1] : '') + b;
    if (i === 0 && enoughToc && !forceTocPosition) full += tocHtml + '\n';
  });
  if (forceTocPosition) full = full.replace(TOC_MARKER, tocHtml);
  return full;
}
