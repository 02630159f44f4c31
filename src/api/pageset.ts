/**
 * The set of pages an action=query works on (ApiPageSet): built from titles=, pageids= or a generator's
 * output, with title normalization, redirect resolution, and missing/invalid/special entries under
 * negative keys. It also writes the general page information (query.normalized, query.redirects,
 * query.pages) that prop modules then add to.
 */
import type { Store } from '../store/store.js';
import type { RevisionRecord } from '../store/history-store.js';
import type { PageRef, PageRow, TitleKey } from '../store/page-store.js';
import type { Wiki } from '../wiki/wiki.js';
import { compareBytes } from '../wiki/collation.js';
import { NS_MEDIA, NS_SPECIAL } from '../wiki/namespaces.js';
import { bcArray, KeyedRowList, RowShape, type Obj } from './result.js';
import { fixSpecialName, specialPageExists } from '../wiki/special-pages.js';
import { redirectTargetFromTitle } from '../wikitext/redirect.js';

export type { TitleKey };

export interface MissingTitle extends TitleKey {
  fakeId: number;
}

const NO_FILES: ReadonlySet<string> = new Set();

/** an existing page's query.pages entry, its title given as its prefixed DB key (printed as text) */
const PAGE_KEYS = new RowShape(['pageid', 'ns', 'title'], undefined, ['title']);
/** the same, the title as text (a namespace whose prefix has no DB key form) */
const PAGE_TEXT = new RowShape(PAGE_KEYS.keys);

const isFull = (p: PageRef): p is PageRow => (p as PageRow).contentModel !== undefined;

const byNamespaceAndTitle = (a: PageRef, b: PageRef): number => a.ns - b.ns || compareBytes(a.title, b.title);

/**
 * Array.prototype.sort unless the array is in order already, as a generator's pages mostly are: one
 * comparison per element where the sort of a short array makes a binary search of comparisons for each
 * (titles sharing a long head, as files often do, make each comparison a walk).
 */
export function sortUnlessSorted<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1]!, items[i]!) > 0) return items.sort(compare);
  return items;
}

/**
 * Titles by namespace: no "ns:dbkey" string is built and hashed per title (that was most of the cost of
 * adding a generator's pages).
 */
class TitleSet {
  /** made with the first title: every action=query makes a page set, most never add to it */
  private byNs: Map<number, Set<string>> | null = null;

  has(ns: number, dbkey: string): boolean {
    return this.byNs?.get(ns)?.has(dbkey) ?? false;
  }

  /** false when the title was there already */
  add(ns: number, dbkey: string): boolean {
    const byNs = (this.byNs ??= new Map());
    let set = byNs.get(ns);
    if (set === undefined) byNs.set(ns, (set = new Set()));
    else if (set.has(dbkey)) return false;
    set.add(dbkey);
    return true;
  }
}

export class PageSet {
  readonly normalized: Array<{ from: string; to: string }> = [];
  readonly redirects: Array<{ from: string; to: string; tofragment?: string; tointerwiki?: string }> = [];
  /**
   * titles on other wikis (ApiPageSet::$mInterwikiTitles): asked for in titles=, or the targets of
   * redirects; each once, as Title::getPrefixedText writes it, with its prefix
   */
  readonly interwiki: Array<{ title: string; iw: string; dbkey: string }> = [];
  /** iwurl: output() adds each interwiki title's URL */
  iwUrl = false;
  /**
   * existing pages, in output order: a generator's pages may come with their identity alone (PageRef);
   * rows() has them whole
   */
  readonly good: PageRef[] = [];
  readonly missing: MissingTitle[] = [];
  readonly invalid: Array<{ fakeId: number; title: string }> = [];
  /** Special: and Media: titles; `exists` tells whether a Media: title's file was uploaded */
  readonly special: Array<MissingTitle & { exists: boolean }> = [];
  readonly missingIds: number[] = [];
  /** revids=: the existing revisions asked for (by revision id), and the ids of no revision */
  readonly revisionIds = new Map<number, RevisionRecord>();
  readonly badRevIds: number[] = [];
  private fakeId = -1;
  /** the titles and page ids already in the set: a page reached twice is listed once */
  private readonly seen = new TitleSet();
  private seenIdSet: Set<number> | null = null;

  private get seenIds(): Set<number> {
    return (this.seenIdSet ??= new Set());
  }
  /** the query.pages map once written, so prop modules can add to each entry */
  private pagesOut: Map<string, unknown> | null = null;

  constructor(
    private readonly store: Store,
    private readonly wiki: Wiki,
    private readonly resolveRedirects = false,
  ) {}

  get isEmpty(): boolean {
    return this.pageCount + this.badRevIds.length + this.interwiki.length === 0;
  }

  /** add a title of another wiki once (its prefix lower case, its title as written) */
  private addInterwiki(prefix: string, dbkey: string): string {
    const title = `${prefix}:${dbkey.replace(/_/g, ' ')}`;
    if (!this.interwiki.some((i) => i.title === title)) this.interwiki.push({ title, iw: prefix, dbkey });
    return title;
  }

  private get pageCount(): number {
    return this.good.length + this.missing.length + this.invalid.length + this.special.length + this.missingIds.length;
  }

  /** titles= as typed by the user: normalization entries for every changed title. */
  async addUserTitles(texts: string[]): Promise<void> {
    const keys: TitleKey[] = [];
    for (const text of texts) {
      // Title::isExternal: a prefix of the interwiki map that is no namespace; the title there as written
      const external = redirectTargetFromTitle(text, this.wiki.codec, this.wiki.interwiki);
      if (external?.interwiki) {
        const title = this.addInterwiki(external.interwiki, external.dbkey);
        if (title !== text && !this.normalized.some((n) => n.from === text)) this.normalized.push({ from: text, to: title });
        continue;
      }
      const t = this.wiki.codec.parse(text);
      if (t === null) {
        this.invalid.push({ fakeId: this.fakeId--, title: text });
        continue;
      }
      // ApiPageSet::processTitlesArray: special pages get their local canonical name before normalization is reported
      if (t.ns === NS_SPECIAL) t.dbkey = fixSpecialName(t.dbkey);
      const pretty = this.wiki.titleText(t.ns, t.dbkey);
      if (pretty !== text && !this.normalized.some((n) => n.from === text)) this.normalized.push({ from: text, to: pretty });
      keys.push({ ns: t.ns, dbkey: t.dbkey });
    }
    await this.addTitles(keys);
  }

  /**
   * Titles from a generator or from user input after parsing: one store call for all of them but those
   * `known` already answers (parallel to `titles`: the page, null for none, undefined to look up).
   */
  async addTitles(titles: readonly TitleKey[], known?: ReadonlyArray<PageRef | null | undefined>): Promise<void> {
    const fresh: TitleKey[] = [];
    // parallel to fresh: what `known` says of the title (undefined: to look up)
    const freshPages: Array<PageRef | null | undefined> = [];
    let special: TitleKey[] | null = null;
    const rows: PageRef[] = [];
    let unknown: TitleKey[] | null = null;
    // whether some title is known to have no page (the generator said so): then it is reported missing
    let absent = false;
    for (let i = 0; i < titles.length; i++) {
      const t = titles[i]!;
      if (!this.seen.add(t.ns, t.dbkey)) continue;
      if (t.ns < 0) {
        (special ??= []).push(t);
        continue;
      }
      fresh.push(t);
      const page = known?.[i];
      freshPages.push(page);
      if (page === undefined) (unknown ??= []).push(t);
      else if (page !== null) rows.push(page);
      else absent = true;
    }
    const media = special === null ? [] : special.filter((t) => t.ns === NS_MEDIA).map((t) => t.dbkey);
    // most requests name no Media: title: one read, without Promise.all's bookkeeping
    const [looked, uploaded] = media.length
      ? await Promise.all([unknown ? this.store.pages.byTitles(unknown) : [], this.store.files.existing(media)])
      : [unknown ? await this.store.pages.byTitles(unknown) : [], NO_FILES];
    for (const r of looked) rows.push(r);
    // some title looked up has no page
    const notFound = unknown !== null && looked.length < unknown.length;
    if (special !== null) {
      for (const t of special) {
        // Title::fixSpecialName; an existing special page is not missing (SpecialPageFactory::exists)
        const dbkey = t.ns === NS_SPECIAL ? fixSpecialName(t.dbkey) : t.dbkey;
        const exists = t.ns === NS_MEDIA ? uploaded.has(t.dbkey) : specialPageExists(dbkey);
        this.special.push({ ns: t.ns, dbkey, fakeId: this.fakeId--, exists });
      }
    }
    if (absent || notFound) {
      // the titles looked up that were found (those `known` answers need no set)
      let found: TitleSet | null = null;
      if (notFound) {
        found = new TitleSet();
        for (const r of looked) found.add(r.ns, r.title);
      }
      const missingByNs = new Map<number, TitleKey[]>();
      for (let i = 0; i < fresh.length; i++) {
        const t = fresh[i]!;
        const page = freshPages[i];
        if (page === undefined ? found === null || found.has(t.ns, t.dbkey) : page !== null) continue;
        let list = missingByNs.get(t.ns);
        if (!list) missingByNs.set(t.ns, (list = []));
        list.push(t);
      }
      // MediaWiki's LinkBatch reads the pages in (namespace, title) index order and then lists what is left
      // over, namespace by namespace.
      for (const list of missingByNs.values()) for (const t of list) this.missing.push({ ns: t.ns, dbkey: t.dbkey, fakeId: this.fakeId-- });
    }
    sortUnlessSorted(rows, byNamespaceAndTitle);
    await this.addGood(rows);
  }

  async addPageIds(ids: number[]): Promise<void> {
    const unique = [...new Set(ids)].filter((id) => !this.seenIds.has(id));
    for (const id of unique) this.seenIds.add(id);
    const rows = await this.store.pages.byIds(unique);
    const foundIds = new Set(rows.map((r) => r.pageid));
    for (const id of unique) if (!foundIds.has(id)) this.missingIds.push(id);
    rows.sort((a, b) => a.pageid - b.pageid);
    for (const r of rows) this.seen.add(r.ns, r.title);
    await this.addGood(rows);
  }

  /**
   * revids= (ApiPageSet::initFromRevIDs): the pages of the revisions that exist, as if given by page id;
   * the others are reported under badrevids.
   */
  async addRevIds(ids: number[]): Promise<void> {
    const unique = [...new Set(ids)];
    const revs = await this.store.history.revisionsByIds(unique);
    const found = new Map(revs.map((r) => [r.revid, r]));
    const pages: number[] = [];
    for (const id of unique) {
      const rev = found.get(id);
      if (rev === undefined) {
        this.badRevIds.push(id);
        continue;
      }
      this.revisionIds.set(id, rev);
      pages.push(rev.pageid);
    }
    if (pages.length) await this.addPageIds(pages);
  }

  /** Existing pages in the order given (ApiPageSet::processDbRow). */
  async addRows(rows: PageRef[]): Promise<void> {
    const fresh: PageRef[] = [];
    for (const r of rows) {
      if (!this.seen.add(r.ns, r.title)) continue;
      this.seenIds.add(r.pageid);
      fresh.push(r);
    }
    await this.addGood(fresh);
  }

  private async addGood(rows: PageRef[]): Promise<void> {
    if (!this.resolveRedirects) {
      this.good.push(...rows);
      return;
    }
    const redirects = rows.filter((r) => r.isRedirect).map((r) => r.pageid);
    const resolved = redirects.length ? await this.store.pages.redirectTargets(redirects) : new Map();
    const targets: TitleKey[] = [];
    for (const r of rows) if (!r.isRedirect) this.good.push(r);
    // ApiPageSet::resolvePendingRedirects reads the redirect table by rd_from: its entries come in page id order
    for (const r of rows.filter((x) => x.isRedirect).sort((a, b) => a.pageid - b.pageid)) {
      const to = resolved.get(r.pageid);
      if (!to) {
        this.good.push(r);
        continue;
      }
      const entry: { from: string; to: string; tofragment?: string; tointerwiki?: string } = {
        from: this.wiki.titleText(r.ns, r.title),
        // a target on another wiki is its prefix and title as written (Title::getPrefixedText)
        to: to.interwiki ? `${to.interwiki}:${to.dbkey.replace(/_/g, ' ')}` : this.wiki.titleText(to.ns, to.dbkey),
      };
      if (to.fragment) entry.tofragment = to.fragment;
      if (to.interwiki) entry.tointerwiki = to.interwiki;
      this.redirects.push(entry);
      // an interwiki target is not a page of this wiki: it joins the interwiki titles, nothing to resolve further
      if (to.interwiki) this.addInterwiki(to.interwiki, to.dbkey);
      else targets.push({ ns: to.ns, dbkey: to.dbkey });
    }
    // Targets may be redirects themselves; `seen` stops loops.
    if (targets.length) await this.addTitles(targets);
  }

  /**
   * The existing pages in output order with all of PageRow (prop=info's fields): those that came as a
   * PageRef are read by id, in one store call, the first time this is asked.
   */
  async rows(): Promise<PageRow[]> {
    if (this.fullRows !== null && this.fullRows.length === this.good.length) return this.fullRows;
    const lacking: number[] = [];
    for (const p of this.good) if (!isFull(p)) lacking.push(p.pageid);
    const read = lacking.length ? new Map((await this.store.pages.byIds(lacking)).map((r) => [r.pageid, r])) : null;
    // a page gone from the store since (a re-import under way) keeps what the generator read
    this.fullRows = this.good.map((p) => (isFull(p) ? p : (read!.get(p.pageid) ?? (p as PageRow))));
    return this.fullRows;
  }

  private fullRows: PageRow[] | null = null;

  /** All titles of one namespace, existing or not (ApiPageSet::getAllTitlesByNamespace). */
  titlesInNamespace(ns: number): Array<TitleKey & { id: number }> {
    const out: Array<TitleKey & { id: number }> = [];
    for (const p of this.good) if (p.ns === ns) out.push({ ns, dbkey: p.title, id: p.pageid });
    for (const m of this.missing) if (m.ns === ns) out.push({ ns, dbkey: m.dbkey, id: m.fakeId });
    return out;
  }

  /**
   * Write normalized, redirects and pages into the query object (ApiQuery::outputGeneralPageInfo).
   * `final`: nothing will be added to the entries (no prop module runs): existing pages alone are then
   * written as a KeyedRowList, no object or title text per page.
   */
  output(query: Obj, final = false): void {
    if (this.normalized.length) query.normalized = this.normalized.map((n) => ({ from: n.from, to: n.to }));
    if (this.interwiki.length) {
      // ApiPageSet::getInterwikiTitlesAsResult; the URL is Title::getFullURL's
      query.interwiki = this.interwiki.map((i) => {
        const item: Obj = { title: i.title, iw: i.iw };
        if (this.iwUrl) {
          const url = this.wiki.interwiki.url(i.iw, i.dbkey);
          if (url !== undefined) item.url = url;
        }
        return item;
      });
    }
    if (this.redirects.length) query.redirects = this.redirects;
    if (this.badRevIds.length) {
      // integer keys in an associative array: an object in both format versions
      const bad = new Map<string, unknown>();
      for (const id of this.badRevIds) bad.set(String(id), { revid: id });
      query.badrevids = bad;
    }
    if (this.pageCount === 0) return;
    if (final && this.good.length === this.pageCount) {
      query.pages = this.goodRows();
      return;
    }
    const pages = bcArray();
    for (const m of this.missing) pages.set(String(m.fakeId), { ns: m.ns, title: this.wiki.titleText(m.ns, m.dbkey), missing: true });
    for (const i of this.invalid) pages.set(String(i.fakeId), { title: i.title, invalid: true });
    for (const id of this.missingIds) pages.set(String(id), { pageid: id, missing: true });
    for (const s of this.special) {
      const v: Obj = { ns: s.ns, title: this.wiki.titleText(s.ns, s.dbkey), special: true };
      if (!s.exists) v.missing = true;
      pages.set(String(s.fakeId), v);
    }
    for (const p of this.good) pages.set(String(p.pageid), { pageid: p.pageid, ns: p.ns, title: this.wiki.titleText(p.ns, p.title) });
    query.pages = pages;
    this.pagesOut = pages;
  }

  /** the existing pages' entries as a KeyedRowList (titles as prefixed DB keys where every namespace has that form) */
  private goodRows(): KeyedRowList {
    const wiki = this.wiki;
    const good = this.good;
    let keys = true;
    for (let i = 0; i < good.length; i++) if (wiki.keyPrefix(good[i]!.ns) === undefined) keys = false;
    const list = new KeyedRowList(keys ? PAGE_KEYS : PAGE_TEXT);
    const values = list.values;
    for (let i = 0; i < good.length; i++) {
      const p = good[i]!;
      list.keys.push(p.pageid);
      const prefix = keys ? wiki.keyPrefix(p.ns)! : '';
      values.push(p.pageid, p.ns, !keys ? wiki.titleText(p.ns, p.title) : prefix === '' ? p.title : prefix + p.title);
    }
    return list;
  }

  /** The query.pages entry of a page (by page id, or the negative key of a missing title). */
  entry(id: number): Obj | undefined {
    return this.pagesOut?.get(String(id)) as Obj | undefined;
  }
}
