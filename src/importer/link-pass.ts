/**
 * Pass 2: every page's text, in page_id order and in chunks (memory bounded by the chunk, not by the
 * wiki), is expanded and its links written to pagelinks, imagelinks, templatelinks, categorylinks,
 * langlinks, externallinks, iwlinks and page_props -- what MediaWiki's LinksUpdate writes after parsing a page. The analysis
 * hooks see each page here too.
 *
 * Links to missing pages and files are kept (they are what the Wanted* reports list); each table gets
 * one row per (page, target), as MediaWiki's primary keys make it.
 */
import type Database from 'better-sqlite3';
import type { TitleCodec } from '../wiki/titles.js';
import { NS_CATEGORY, NS_FILE, NS_MEDIA, NS_SPECIAL } from '../wiki/namespaces.js';
import { fallbackChain } from '../wiki/language.js';
import type { Expander } from './expand.js';
import type { PageAnalysisHook } from './hooks.js';
import { extractLinks, type PageLinks } from '../wikitext/links.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import { LinksWriter } from '../store/sqlite/links-writer.js';
import { displayTitleProp } from '../wikitext/display-title.js';
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

interface PageRow {
  id: number;
  ns: number;
  dbkey: string;
  redirect: number;
  ts: string;
  model: string;
  text: string;
}

/**
 * Tracking categories (Parser::addTrackingCategory): the category named by a message in the content
 * language, as the wiki overrides it or the message files give it; '-' or no message disables it.
 */
function trackingCategories(db: Database.Database, codec: TitleCodec, lang: string): Map<string, string | null> {
  const override = db.prepare('SELECT mo_text FROM message_override WHERE mo_lang = ? AND mo_key = ?').pluck();
  const message = db.prepare('SELECT msg_text FROM message WHERE msg_lang = ? AND msg_key = ?').pluck();
  const out = new Map<string, string | null>();
  const catPrefix = codec.nsName(NS_CATEGORY) ?? 'Category';
  for (const key of ['hidden-category-category', 'broken-file-category', 'index-category', 'noindex-category', ...Object.values(LIMIT_CATEGORIES)]) {
    let text = override.get(lang, key) as string | undefined;
    for (const l of fallbackChain(lang)) {
      if (text !== undefined) break;
      text = message.get(l, key) as string | undefined;
    }
    const t = text === undefined || text.trim() === '-' ? null : codec.parse(`${catPrefix}:${text.trim()}`, 0);
    out.set(key, t && t.ns === NS_CATEGORY ? t.dbkey : null);
  }
  return out;
}

export async function runLinkPass(db: Database.Database, opts: LinkPassOptions): Promise<LinkCounts> {
  const counts: LinkCounts = { pagelinks: 0, imagelinks: 0, templatelinks: 0, categorylinks: 0, langlinks: 0, externallinks: 0, iwlinks: 0, pageProps: 0 };
  const writer = new LinksWriter(db);
  writer.writeInterwikiMap(opts.interwiki);
  // pagelinks and imagelinks are keyed by target: rows arriving in page order would land all over
  // their B-trees. They are staged in append-only tables and moved over sorted at the end.
  db.exec(`CREATE TABLE tmp_pagelinks (pl_from INTEGER, pl_namespace INTEGER, pl_title TEXT, pl_from_namespace INTEGER);
           CREATE TABLE tmp_imagelinks (il_from INTEGER, il_to TEXT, il_from_namespace INTEGER)`);
  const { codec, expander, hooks } = opts;
  const tracking = trackingCategories(db, codec, opts.lang);
  const select = db.prepare(
    `SELECT p.page_id AS id, p.page_namespace AS ns, p.page_title AS dbkey, p.page_is_redirect AS redirect,
       p.latest_timestamp AS ts, p.page_content_model AS model, t.old_text AS text
     FROM page p JOIN page_text t ON t.page_id = p.page_id WHERE p.page_id > ? ORDER BY p.page_id LIMIT ${CHUNK}`,
  );
  const fileExists = db.prepare('SELECT 1 FROM image WHERE img_name = ?').pluck();
  const ins = {
    pl: db.prepare('INSERT INTO tmp_pagelinks VALUES (?, ?, ?, ?)'),
    il: db.prepare('INSERT INTO tmp_imagelinks VALUES (?, ?, ?)'),
    tl: db.prepare('INSERT OR IGNORE INTO templatelinks (tl_from, tl_namespace, tl_title, tl_from_namespace) VALUES (?, ?, ?, ?)'),
    cl: db.prepare(
      `INSERT OR IGNORE INTO categorylinks (cl_from, cl_to, cl_sortkey, cl_sortkey_prefix, cl_timestamp, cl_type)
       VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    ll: db.prepare('INSERT OR IGNORE INTO langlinks (ll_from, ll_lang, ll_title) VALUES (?, ?, ?)'),
    pp: db.prepare('INSERT OR REPLACE INTO page_props (pp_page, pp_propname, pp_value) VALUES (?, ?, ?)'),
  };

  const addTracking = (links: PageLinks, key: string, defaultSort: string) => {
    const cat = tracking.get(key);
    if (cat && !links.categories.has(cat)) links.categories.set(cat, defaultSort);
  };

  const analyze = async (page: PageRow) => {
    if (page.model !== 'wikitext') {
      // CSS, JavaScript, JSON pages have no links; the hooks still see them
      for (const h of hooks) await h.page({ pageId: page.id, ns: page.ns, dbkey: page.dbkey, isRedirect: page.redirect === 1, latestTimestamp: page.ts, categories: [] }, page.text);
      return;
    }
    // a redirect renders the text after its redirect link; the target is a page link of its own
    let text = page.text;
    let redirectLink: { ns: number; dbkey: string } | null = null;
    const redirect = page.redirect === 1 ? redirectTargetAndText(page.text, codec, opts.interwiki) : null;
    if (redirect) {
      text = redirect.rest;
      const t = redirect.target;
      // ParserOutput::addLink: no interwiki titles, no special pages; Media: links the file page
      if (!t.interwiki && t.ns !== NS_SPECIAL && t.dbkey !== '') redirectLink = { ns: t.ns === NS_MEDIA ? NS_FILE : t.ns, dbkey: t.dbkey };
    }
    const exp = expander.expand({ ns: page.ns, dbkey: page.dbkey, text });
    const defaultSort = exp.defaultSort;
    const links = extractLinks(exp.text, { codec, ns: page.ns, dbkey: page.dbkey, defaultSort, interwiki: opts.interwiki });
    if (redirectLink) links.pages.set(`${redirectLink.ns}|${redirectLink.dbkey}`, redirectLink);
    if (links.props.has('hiddencat') && page.ns === NS_CATEGORY) addTracking(links, 'hidden-category-category', defaultSort ?? '');
    // $wgExemptFromUserRobotsControl defaults to the content namespaces: __INDEX__/__NOINDEX__ do nothing there
    if (page.ns !== 0 && links.props.has('noindex')) addTracking(links, 'noindex-category', defaultSort ?? '');
    else if (page.ns !== 0 && links.props.has('index')) addTracking(links, 'index-category', defaultSort ?? '');
    for (const f of links.embeddedFiles) {
      if (fileExists.get(f) === undefined) {
        addTracking(links, 'broken-file-category', defaultSort ?? '');
        break;
      }
    }
    const limitCategory = exp.limitHit && LIMIT_CATEGORIES[exp.limitHit];
    if (limitCategory) addTracking(links, limitCategory, defaultSort ?? '');
    // {{#ifexist:}} targets are links of the page (MediaWiki records them so that the page is
    // re-parsed when they are created)
    for (const t of exp.links) if (!links.pages.has(`${t.ns}|${t.dbkey}`)) links.pages.set(`${t.ns}|${t.dbkey}`, t);

    const from = page.id;
    for (const t of links.pages.values()) ins.pl.run(from, t.ns, t.dbkey, page.ns);
    for (const f of links.files) ins.il.run(from, f, page.ns);
    for (const t of exp.templates) counts.templatelinks += ins.tl.run(from, t.ns, t.dbkey, page.ns).changes;
    const type = page.ns === NS_CATEGORY ? 'subcat' : page.ns === NS_FILE ? 'file' : 'page';
    const titleText = page.dbkey.replace(/_/g, ' ');
    for (const [cat, prefix] of links.categories) {
      counts.categorylinks += ins.cl.run(from, cat, categorySortKey(prefix, titleText), prefix, page.ts, type).changes;
    }
    for (const [lang, title] of links.langs) counts.langlinks += ins.ll.run(from, lang, title).changes;
    counts.externallinks += writer.externalLinks(from, links.external);
    counts.iwlinks += writer.interwikiLinks(from, links.interwikis.values());
    if (defaultSort !== undefined) links.props.set('defaultsort', defaultSort);
    if (exp.displayTitle !== undefined) {
      const shown = displayTitleProp(exp.displayTitle, page, codec);
      if (shown !== null) links.props.set('displaytitle', shown);
    }
    for (const [name, value] of links.props) counts.pageProps += ins.pp.run(from, name, value).changes;

    const analysis = { pageId: from, ns: page.ns, dbkey: page.dbkey, isRedirect: page.redirect === 1, latestTimestamp: page.ts, defaultSort, categories: [...links.categories.keys()] };
    for (const h of hooks) await h.page(analysis, exp.text);
  };

  let last = 0;
  let done = 0;
  for (;;) {
    const rows = select.all(last) as PageRow[];
    if (rows.length === 0) break;
    db.exec('BEGIN');
    try {
      for (const row of rows) await analyze(row);
      db.exec('COMMIT');
    } catch (e) {
      if (db.inTransaction) db.exec('ROLLBACK');
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
  counts.pagelinks = db
    .prepare('INSERT INTO pagelinks SELECT * FROM tmp_pagelinks ORDER BY pl_namespace, pl_title, pl_from')
    .run().changes;
  counts.imagelinks = db.prepare('INSERT INTO imagelinks SELECT * FROM tmp_imagelinks ORDER BY il_to, il_from').run().changes;
  db.exec('DROP TABLE tmp_pagelinks; DROP TABLE tmp_imagelinks');
  return counts;
}
