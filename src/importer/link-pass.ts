/**
 * Pass 2: every page's text, in page_id order and in chunks (memory bounded by the chunk, not by the
 * wiki), is expanded and its links written to pagelinks, imagelinks, templatelinks, categorylinks,
 * langlinks, externallinks, iwlinks and page_props -- what MediaWiki's LinksUpdate writes after parsing a page. The analysis
 * hooks see each page here too.
 *
 * Links to missing pages and files are kept (they are what the Wanted* reports list); each table gets
 * one row per (page, target), as MediaWiki's primary keys make it.
 */
import type { TitleCodec } from '../wiki/titles.js';
import { NS_CATEGORY, NS_FILE, NS_MEDIA, NS_SPECIAL } from '../wiki/namespaces.js';
import { fallbackChain } from '../wiki/language.js';
import type { Expander, Expansion, InlineQueryHook } from './expand.js';
import type { PageAnalysisHook } from './hooks.js';
import { extractLinks, type PageLinks } from '../wikitext/links.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import type { CategoryLinkRow, ImportWriter, LateLinkCounts, PageWithText } from '../store/import-writer.js';
import { inlineQueryAnswers, MAX_EXPANSION_DEPTH, queryKey, type InlineQueryCall, type InlineQueryOutput } from '../wikitext/preprocess.js';
import { redirectTargetAndText } from '../wikitext/redirect.js';

const CHUNK = 500;
/** cl_sortkey is varbinary(230) in MediaWiki: longer keys are cut there, so they are here. */
const SORTKEY_BYTES = 230;

export interface LinkCounts {
  pagelinks: number;
  imagelinks: number;
  templatelinks: number;
  categorylinks: number;
  langlinks: number;
  externallinks: number;
  iwlinks: number;
  pageProps: number;
}

export interface LinkPassOptions {
  codec: TitleCodec;
  lang: string;
  interwiki: InterwikiMap;
  expander: Expander;
  hooks: PageAnalysisHook[];
  /** throws when the import has been interrupted */
  checkAbort: () => void;
  onProgress?: (pagesDone: number) => void;
}

/**
 * The 'uppercase' category collation of 1.25: the sort key is the uppercased prefix, a newline and the
 * title text (Title::getCategorySortkey), or just the uppercased title text when there is no prefix.
 * Binary (memcmp) order of this key is the member order of a category.
 */
export function categorySortKey(prefix: string, titleText: string): string {
  const key = (prefix === '' ? titleText : prefix.replace(/[\n\t]/g, ' ') + '\n' + titleText).toUpperCase();
  return truncateUtf8(key, SORTKEY_BYTES);
}

function truncateUtf8(s: string, maxBytes: number): string {
  if (s.length * 3 <= maxBytes || Buffer.byteLength(s, 'utf8') <= maxBytes) return s;
  const buf = Buffer.from(s, 'utf8');
  let end = maxBytes;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--; // never cut inside a character
  return buf.subarray(0, end).toString('utf8');
}

/** Tracking category messages of the preprocessor's limits (Parser::limitationWarn). */
const LIMIT_CATEGORIES: Record<string, string> = {
  size: 'post-expand-template-inclusion-category',
  depth: 'expansion-depth-exceeded-category',
  nodes: 'node-count-exceeded-category',
};

/**
 * Tracking categories (Parser::addTrackingCategory): the category named by a message in the content
 * language, as the wiki overrides it or the message files give it; '-' or no message disables it.
 */
function trackingCategories(w: ImportWriter, codec: TitleCodec, lang: string): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const catPrefix = codec.nsName(NS_CATEGORY) ?? 'Category';
  for (const key of ['hidden-category-category', 'broken-file-category', 'index-category', 'noindex-category', 'restricted-displaytitle-ignored', ...Object.values(LIMIT_CATEGORIES)]) {
    const text = contentMessage(w, lang, key);
    const t = text === undefined || text.trim() === '-' ? null : codec.parse(`${catPrefix}:${text.trim()}`, 0);
    out.set(key, t && t.ns === NS_CATEGORY ? t.dbkey : null);
  }
  return out;
}

/** a message in the content language: the wiki's MediaWiki: override, else the first along the fallback chain */
export function contentMessage(w: ImportWriter, lang: string, key: string): string | undefined {
  let text = w.messages.override(lang, key);
  for (const l of fallbackChain(lang)) {
    if (text !== undefined) break;
    text = w.messages.text(l, key);
  }
  return text;
}

export interface LinkPassResult {
  counts: LinkCounts;
  /** ids of the pages whose text calls {{#ask:}} / {{#show:}}, ascending */
  withInlineQueries: number[];
}

export async function runLinkPass(w: ImportWriter, opts: LinkPassOptions): Promise<LinkPassResult> {
  const counts: LinkCounts = { pagelinks: 0, imagelinks: 0, templatelinks: 0, categorylinks: 0, langlinks: 0, externallinks: 0, iwlinks: 0, pageProps: 0 };
  const out = w.links;
  out.interwikiMap(opts.interwiki);
  out.begin();
  const { hooks } = opts;
  const analyzer = new PageAnalyzer(w, opts);
  const withInlineQueries: number[] = [];

  const analyze = async (page: PageWithText) => {
    if (page.model !== 'wikitext') {
      // CSS, JavaScript, JSON pages have no links; the hooks still see them
      for (const h of hooks) await h.page({ pageId: page.id, ns: page.ns, dbkey: page.dbkey, isRedirect: page.isRedirect, latestTimestamp: page.latestTimestamp, categories: [] }, page.text);
      return;
    }
    const { exp, links } = analyzer.analyze(page);
    if (exp.inlineQueries) withInlineQueries.push(page.id);
    const defaultSort = exp.defaultSort;
    const from = page.id;
    for (const t of links.pages.values()) out.pageLink(from, page.ns, t);
    for (const f of links.files) out.imageLink(from, page.ns, f);
    for (const t of exp.templates) counts.templatelinks += out.templateLink(from, page.ns, t);
    for (const row of categoryRows(page, links)) counts.categorylinks += out.categoryLink(row);
    for (const [lang, title] of links.langs) counts.langlinks += out.langLink(from, lang, title);
    counts.externallinks += out.externalLinks(from, links.external);
    counts.iwlinks += out.interwikiLinks(from, links.interwikis.values());
    if (defaultSort !== undefined) links.props.set('defaultsort', defaultSort);
    if (exp.displayTitle !== undefined) links.props.set('displaytitle', exp.displayTitle);
    for (const [name, value] of links.props) counts.pageProps += out.pageProp(from, name, value);

    const analysis = { pageId: from, ns: page.ns, dbkey: page.dbkey, isRedirect: page.isRedirect, latestTimestamp: page.latestTimestamp, defaultSort, categories: [...links.categories.keys()] };
    for (const h of hooks) await h.page(analysis, exp.text);
  };

  let last = 0;
  let done = 0;
  for (;;) {
    const rows = w.pages.chunkWithText(last, CHUNK);
    if (rows.length === 0) break;
    w.begin();
    try {
      for (const row of rows) await analyze(row);
      w.commit();
    } catch (e) {
      w.rollback();
      throw e;
    }
    last = rows[rows.length - 1].id;
    done += rows.length;
    opts.onProgress?.(done);
    // let signal handlers and the progress bar run between chunks
    await new Promise((r) => setImmediate(r));
    opts.checkAbort();
  }
  // one row per (page, target) already: the maps of a page hold each target once
  const moved = out.finish();
  counts.pagelinks = moved.pagelinks;
  counts.imagelinks = moved.imagelinks;
  return { counts, withInlineQueries };
}

/** categorylinks rows of a page's categories */
function categoryRows(page: { id: number; ns: number; dbkey: string; latestTimestamp: string }, links: PageLinks): CategoryLinkRow[] {
  const type = page.ns === NS_CATEGORY ? 'subcat' : page.ns === NS_FILE ? 'file' : 'page';
  const titleText = page.dbkey.replace(/_/g, ' ');
  return [...links.categories].map(([cat, prefix]) => ({ from: page.id, to: cat, sortkey: categorySortKey(prefix, titleText), sortkeyPrefix: prefix, timestamp: page.latestTimestamp, type }));
}

/**
 * What LinksUpdate records of one page: its expansion's links, the redirect target, #ifexist targets and
 * the tracking categories the parse adds.
 */
class PageAnalyzer {
  private readonly tracking: Map<string, string | null>;

  constructor(
    private readonly w: ImportWriter,
    private readonly opts: Pick<LinkPassOptions, 'codec' | 'lang' | 'interwiki' | 'expander'>,
  ) {
    this.tracking = trackingCategories(w, opts.codec, opts.lang);
  }

  analyze(page: PageWithText, inlineQuery?: InlineQueryHook): { exp: Expansion; links: PageLinks } {
    const { codec, expander } = this.opts;
    const addTracking = (links: PageLinks, key: string, defaultSort: string) => {
      const cat = this.tracking.get(key);
      if (cat && !links.categories.has(cat)) links.categories.set(cat, defaultSort);
    };
    // a redirect renders the text after its redirect link; the target is a page link of its own
    let text = page.text;
    let redirectLink: { ns: number; dbkey: string } | null = null;
    const redirect = page.isRedirect ? redirectTargetAndText(page.text, codec, this.opts.interwiki) : null;
    if (redirect) {
      text = redirect.rest;
      const t = redirect.target;
      // ParserOutput::addLink: no interwiki titles, no special pages; Media: links the file page
      if (!t.interwiki && t.ns !== NS_SPECIAL && t.dbkey !== '') redirectLink = { ns: t.ns === NS_MEDIA ? NS_FILE : t.ns, dbkey: t.dbkey };
    }
    const exp = expander.expand({ ns: page.ns, dbkey: page.dbkey, text }, inlineQuery);
    const defaultSort = exp.defaultSort;
    const links = extractLinks(exp.text, { codec, ns: page.ns, dbkey: page.dbkey, defaultSort, interwiki: this.opts.interwiki });
    if (redirectLink) links.pages.set(`${redirectLink.ns}|${redirectLink.dbkey}`, redirectLink);
    if (links.props.has('hiddencat') && page.ns === NS_CATEGORY) addTracking(links, 'hidden-category-category', defaultSort ?? '');
    // $wgExemptFromUserRobotsControl defaults to the content namespaces: __INDEX__/__NOINDEX__ do nothing there
    if (page.ns !== 0 && links.props.has('noindex')) addTracking(links, 'noindex-category', defaultSort ?? '');
    else if (page.ns !== 0 && links.props.has('index')) addTracking(links, 'index-category', defaultSort ?? '');
    for (const f of links.embeddedFiles) {
      if (!this.w.files.exists(f)) {
        addTracking(links, 'broken-file-category', defaultSort ?? '');
        break;
      }
    }
    if (exp.displayTitleIgnored) addTracking(links, 'restricted-displaytitle-ignored', defaultSort ?? '');
    const limitCategory = exp.limitHit && LIMIT_CATEGORIES[exp.limitHit];
    if (limitCategory) addTracking(links, limitCategory, defaultSort ?? '');
    // {{#ifexist:}} targets are links of the page (MediaWiki records them so that the page is
    // re-parsed when they are created)
    for (const t of exp.links) if (!links.pages.has(`${t.ns}|${t.dbkey}`)) links.pages.set(`${t.ns}|${t.dbkey}`, t);

    return { exp, links };
  }
}


/** Answers inline query calls over the wiki being imported (the modules' evaluator, handed in by the CLI). */
export type InlineQueryEvaluator = (calls: InlineQueryCall[], page: { ns: number; dbkey: string }) => Promise<InlineQueryOutput[]>;

/**
 * The links of inline query results. SMW's results are wikitext the parser reads like the rest of the
 * page: the pages, files and property pages they link, the templates a template format calls and the
 * categories its output adds are links of the page that runs the query. They need the complete semantic
 * data, so they are added after pass 2 and the semantic importer's finish: each page that calls
 * {{#ask:}}/{{#show:}} is expanded again with its queries answered (in rounds, as a render does: an
 * answer's templates may hold further queries), and the links this finds that pass 2 had not are
 * written -- what a refresh of every page leaves in MediaWiki+SMW. The queries run with the limits of
 * rendering (the same evaluator, MAX_INLINE_QUERIES calls per page).
 */
export async function runInlineQueryLinkPass(
  w: ImportWriter,
  opts: Pick<LinkPassOptions, 'codec' | 'lang' | 'interwiki' | 'expander' | 'checkAbort'> & { pages: readonly number[]; evaluate: InlineQueryEvaluator },
): Promise<LateLinkCounts> {
  const analyzer = new PageAnalyzer(w, opts);
  const added: LateLinkCounts = { pagelinks: 0, imagelinks: 0, templatelinks: 0, categorylinks: 0 };
  for (let i = 0; i < opts.pages.length; i += CHUNK) {
    w.begin();
    try {
      for (const id of opts.pages.slice(i, i + CHUNK)) {
        const [page] = w.pages.chunkWithText(id - 1, 1);
        if (!page || page.id !== id) continue;
        const known = new Map<string, InlineQueryOutput>();
        let result: { exp: Expansion; links: PageLinks };
        for (let round = 0; ; round++) {
          const wanted = new Map<string, InlineQueryCall>();
          result = analyzer.analyze(page, inlineQueryAnswers(known, wanted));
          // calls still unanswered after the last round stay as written (inert), as in a render
          if (wanted.size === 0 || round === MAX_EXPANSION_DEPTH) break;
          const calls = [...wanted.values()];
          const answers = await opts.evaluate(calls, { ns: page.ns, dbkey: page.dbkey });
          calls.forEach((c, k) => known.set(queryKey(c), answers[k]));
        }
        const { exp, links } = result;
        const n = w.links.supplement(page.id, page.ns, { pages: links.pages.values(), files: links.files, templates: exp.templates, categories: categoryRows(page, links) });
        added.pagelinks += n.pagelinks;
        added.imagelinks += n.imagelinks;
        added.templatelinks += n.templatelinks;
        added.categorylinks += n.categorylinks;
      }
      w.commit();
    } catch (e) {
      w.rollback();
      throw e;
    }
    await new Promise((r) => setImmediate(r));
    opts.checkAbort();
  }
  return added;
}
