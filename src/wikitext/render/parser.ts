/**
 * The HTML passes of MediaWiki 1.25's Parser::parse over expanded wikitext, in its order:
 * internalParse (Sanitizer, tables, <hr>, double-underscores, headings, internal links, quotes,
 * external links, free URLs, formatHeadings), then the general strip items, the French-spacing fix,
 * doBlockLevels, the link holders, the nowiki items and the character-reference normalisation.
 *
 * Rendering is split where MediaWiki batches its database work: `renderBody` produces HTML with link
 * holders and lists the targets; the caller looks all of them up in one call and `finish` puts the
 * links in.
 */
import { escapeTagsOnly } from '../../wiki/html.js';
import { decodeTagAttributes, fixTagAttributes, normalizeCharReferences, removeHtmlTags } from '../sanitizer.js';
import { doBlockLevels } from './block-levels.js';
import { linkKey, type RenderEnv, RenderOutput } from './env.js';
import { ExternalLinkPass } from './external-links.js';
import { doHeadings, formatHeadings } from './headings.js';
import { addTrackingCategory, renderGallery } from './images.js';
import { LinkPass } from './links.js';
import { doDoubleUnderscore, renderSemantic } from './magic-words.js';
import { doAllQuotes } from './quotes.js';
import { StripState } from './strip.js';
import { doTableStuff } from './tables.js';
import { HEADING_MARKER_RE } from '../preprocessor/context.js';
import { phpTrim } from '../../php/strings.js';
import { articleUrl } from './urls.js';
import { fixSpecialName } from '../../wiki/special-pages.js';

const EXT_TAG = /<(nowiki|pre|gallery|indicator)(\s[^>]*?)?(?:\/>|>([\s\S]*?)<\/\1\s*>)/gi;
const NOPARSE = '\x7fNOPARSE';

export interface RenderedBody {
  html: string;
  out: RenderOutput;
  links: LinkPass;
  strip: StripState;
}

/**
 * formatHeadings' "byteoffset" of a heading of the page: as in 1.25, the length of the page's text
 * before it in characters (mb_strlen), despite the name. Headings come in text order, so the count
 * goes on from the previous one.
 */
function characterOffsets(source: string): (at: number) => number {
  let pos = 0;
  let n = 0;
  return (at) => {
    if (at < pos) {
      pos = 0;
      n = 0;
    }
    for (; pos < at; pos++) {
      const c = source.charCodeAt(pos);
      if (c < 0xdc00 || c > 0xdfff) n++;
    }
    return n;
  };
}

export function renderBody(expanded: string, source: string, env: RenderEnv, defaultSort: string | undefined): RenderedBody {
  const out = new RenderOutput();
  if (defaultSort !== undefined) out.defaultSort = defaultSort;
  const strip = new StripState();
  const ext = new ExternalLinkPass(out, {
    rfcurl: env.messages.rfcurl,
    pubmedurl: env.messages.pubmedurl,
    bookSources: (isbn) => articleUrl(`${env.codec.nsName(-1) ?? 'Special'}:${fixSpecialName('Booksources')}/${isbn}`),
  });
  const armor = (html: string) => html.replace(/\b(https?:|ftps?:|mailto:|\/\/)/gi, NOPARSE + '$1');
  const links: LinkPass = new LinkPass(
    env,
    out,
    (t) => ext.replaceExternalLinks(t),
    () => defaultSort ?? '',
    armor,
  );
  /**
   * CoreTagHooks::indicator: the content parsed as a fragment (Parser::recursiveTagParseFully: the
   * internal passes and the block levels; its templates were expanded with the page's), its lone
   * paragraph unwrapped (Parser::stripOuterParagraph), kept in ParserOutput by name; the tag leaves
   * nothing in the text. Headings in an indicator are not numbered into the page's sections here.
   */
  const indicator = (attrs: string, content: string): string => {
    const name = phpTrim(decodeTagAttributes(attrs).get('name') ?? '');
    // wfMessage('invalid-indicator-name')->inContentLanguage()->parse(): a stored text is wikitext, never raw HTML
    if (name === '')
      return strip.add(
        'general',
        'indicator',
        `<span class="error">${doAllQuotes(removeHtmlTags(env.messages['invalid-indicator-name']))}</span>`,
      );
    out.indicators.set(name, stripOuterParagraph(parse(content, false)));
    return strip.add('general', 'indicator', '');
  };
  const extensionTags = (source: string): string =>
    source.replace(EXT_TAG, (_m, name: string, attrs: string | undefined, body: string | undefined) => {
      const tag = name.toLowerCase();
      const content = body ?? '';
      if (tag === 'indicator') return indicator(attrs ?? '', content);
      if (tag === 'nowiki') return strip.add('nowiki', 'nowiki', escapeTagsOnly(content));
      if (tag === 'pre') {
        const inner = content.replace(/<nowiki>([\s\S]*?)<\/nowiki>/gi, '$1');
        return strip.add('general', 'pre', `<pre${fixTagAttributes(attrs ?? '', 'pre')}>${escapeTagsOnly(inner)}</pre>`);
      }
      const hooks = {
        renderCaption: (c: string) => doAllQuotes(links.replaceInternalLinks(ext.replaceExternalLinks(removeHtmlTags(c)))),
        stripAlt: (c: string) => c.replace(/<[^>]*>/g, '').replace(/\[\[(?:[^|\]]*\|)?([^\]]*)\]\]/g, '$1'),
      };
      return strip.add('general', 'gallery', renderGallery(env, out, content, fixTagAttributes(attrs ?? '', 'ul'), hooks));
    });
  /**
   * internalParse and the passes after it; the page's text (`page`) also has its double underscores
   * and its sections (formatHeadings), a fragment (an indicator) not
   */
  const parse = (wikitext: string, page: boolean): string => {
    let text = extensionTags(wikitext);
    text = renderSemantic(text);
    text = removeHtmlTags(text);
    text = doTableStuff(text);
    text = text.replace(/(^|\n)-----*/g, '$1<hr />');
    let forceTocPosition = false;
    if (page) {
      const du = doDoubleUnderscore(text, out);
      if (out.switches.has('hiddencat') && env.title.ns === 14) addTrackingCategory(env, out, 'hidden-category-category');
      // $wgExemptFromUserRobotsControl defaults to the content namespaces: __INDEX__/__NOINDEX__ do nothing there
      if (env.title.ns !== 0 && out.switches.has('noindex')) addTrackingCategory(env, out, 'noindex-category');
      else if (env.title.ns !== 0 && out.switches.has('index')) addTrackingCategory(env, out, 'index-category');
      text = du.text;
      forceTocPosition = du.forceTocPosition;
    }
    text = doHeadings(text);
    text = links.replaceInternalLinks(text);
    text = doAllQuotes(text);
    text = ext.replaceExternalLinks(text);
    text = text.split(NOPARSE).join('');
    text = ext.doMagicLinks(text);
    if (page) {
      text = formatHeadings(
        text,
        env,
        out,
        {
          plainHeadline: (h) => strip.unstripBoth(links.holderText(h)),
          offsetOf: characterOffsets(source),
        },
        forceTocPosition,
      );
    }
    return doBlockLevels(frenchSpacing(strip.unstripGeneral(text)), true);
  };
  return { html: parse(expanded, true), out, links, strip };
}

/** French spacing (1.25 fixtags): a no-break space before ? : ; ! % » and after « */
function frenchSpacing(text: string): string {
  return text
    .replace(/(.) (?=\?|:|;|!|%|»)/g, '$1&#160;')
    .replace(/(«) /g, '$1&#160;')
    .replace(/&#160;(!\s*important)/g, ' $1');
}

/** Parser::stripOuterParagraph: the HTML of one paragraph without its <p> */
function stripOuterParagraph(html: string): string {
  const m = /^<p>([\s\S]*?)\n?<\/p>\n?$/.exec(html);
  return m && !m[1].includes('</p>') ? m[1] : html;
}

/** the page links of a render that need an existence lookup */
export function linkTargets(body: RenderedBody): Array<{ ns: number; dbkey: string }> {
  return [...body.out.links.values()].filter((t) => t.ns >= 0);
}

export function finish(body: RenderedBody, toc = true): string {
  const text = body.links.replaceHolders(body.html);
  return finishText(body, toc ? text.replace(/<\/?mw:toc>/g, '') : text.replace(/<mw:toc>[\s\S]*?<\/mw:toc>/g, ''));
}

/** the indicators' HTML, finished as the text is (their links in, strip items back) */
export function finishIndicators(body: RenderedBody): Array<[string, string]> {
  return [...body.out.indicators].map(([name, html]) => [name, finishText(body, body.links.replaceHolders(html))]);
}

function finishText(body: RenderedBody, html: string): string {
  let text = body.strip.unstripNoWiki(html);
  text = body.strip.unstripGeneral(text);
  // heading markers that ended up outside a heading stand for nothing (a general strip item of '')
  text = text.replace(HEADING_MARKER_RE, '');
  return normalizeCharReferences(text);
}

export { linkKey };
