/**
 * Streaming reader of MediaWiki XML dumps (export schemas 0.10 and 0.11; older ones where they agree).
 *
 * Memory stays bounded whatever the dump size: the file is read in chunks, each chunk is fed to saxes,
 * and the items the chunk completed are yielded before the next chunk is read (so a slow consumer
 * slows the reading -- that is the backpressure). Every revision is handed on as its own item as soon
 * as it is read (so a page with a long history never sits in memory); the page item that follows it
 * carries the first and the latest revision's metadata, and the latest revision's text. <logitem>s
 * (dumps made with --logs) are items of their own.
 *
 * Elements are matched by name and parent, never by position, so 0.11's reordered and optional
 * elements (<origin>, <model>, <format>, <sha1>, <text bytes deleted/>) need nothing special.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { isoToMw } from '../wiki/timestamps.js';
import type { RevisionHeader } from '../wiki/revisions.js';
import { dumpDisplayName, openDump } from './dump-source.js';

export interface DumpNamespace {
  id: number;
  /** local name with spaces ('' for main) */
  name: string;
  case: 'first-letter' | 'case-sensitive';
}

export interface DumpSiteInfo {
  sitename: string;
  dbname: string;
  base: string;
  generator: string;
  case: string;
  namespaces: DumpNamespace[];
  /** xml:lang of the <mediawiki> root, when given */
  lang?: string;
}

export interface DumpRevision extends RevisionHeader {
  model?: string;
  format?: string;
  /** base-36 SHA-1 as the dump gives it ('' when absent) */
  sha1: string;
  /** null for the first revision (text dropped) and for deleted text */
  text: string | null;
  /** the <text bytes="…"> attribute (-1 when absent) */
  bytes: number;
}

export interface DumpUpload {
  /** TS_MW */
  timestamp: string;
  user: string;
  userId: number;
  comment: string;
  /** file name as in <filename> (spaces or underscores) */
  filename: string;
  size: number;
  sha1base36: string;
}

export interface DumpPage {
  id: number;
  /** line of the dump where the page's <page> element opens (for messages about it) */
  line: number;
  ns: number | undefined;
  /** full title with namespace prefix, as in the dump */
  title: string;
  /** <redirect title="…"/>, when present */
  redirectTitle?: string;
  revisionCount: number;
  first: DumpRevision;
  latest: DumpRevision;
  /** <upload> elements of the page (file pages dumped with --uploads); usually zero or one */
  uploads: DumpUpload[];
}

/** One <logitem>: a log entry as Special:Export writes it (log_params raw, as stored). */
export interface DumpLogItem {
  id: number;
  /** TS_MW */
  timestamp: string;
  user: string;
  userId: number;
  comment: string;
  type: string;
  action: string;
  /** prefixed title, as in <logtitle> ('' when absent) */
  logtitle: string;
  params: string;
  /** LogPage::DELETED_* bits from the deleted="deleted" attributes */
  deleted: number;
  /** the page id the upstream's log names (log_page, read by follow from list=logevents; a dump has none) */
  page?: number;
}

/** The page a revision belongs to, as far as the dump said before the revision. */
export interface DumpRevisionPage {
  id: number;
  ns: number | undefined;
  title: string;
}

export type DumpItem =
  | { type: 'siteinfo'; siteinfo: DumpSiteInfo }
  | { type: 'revision'; page: DumpRevisionPage; revision: DumpRevision }
  | { type: 'page'; page: DumpPage }
  | { type: 'upload'; upload: DumpUpload }
  | { type: 'logitem'; logitem: DumpLogItem };

/** A malformed or unusable dump; the message is `file:line:column: what`. */
export class DumpError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${column}: ${reason}`);
    this.name = 'DumpError';
  }
}

export interface ReadDumpOptions {
  /** called after every chunk with the number of bytes of the file read so far */
  onBytes?: (bytesRead: number) => void;
  /** non-fatal oddities of the dump (pages without revisions, …) */
  onWarning?: (message: string) => void;
  /** name used in error messages (default: the path as given) */
  displayName?: string;
}

// Elements whose text content we collect, by parent element.
const LEAVES: Record<string, Set<string>> = {
  siteinfo: new Set(['sitename', 'dbname', 'base', 'generator', 'case']),
  namespaces: new Set(['namespace']),
  page: new Set(['title', 'ns', 'id']),
  revision: new Set(['id', 'parentid', 'timestamp', 'comment', 'model', 'format', 'text', 'sha1']),
  contributor: new Set(['username', 'id', 'ip']),
  upload: new Set(['timestamp', 'comment', 'filename', 'size', 'sha1base36']),
  logitem: new Set(['id', 'timestamp', 'comment', 'type', 'action', 'logtitle', 'params', 'text']),
};

interface PageState {
  id: number;
  line: number;
  ns: number | undefined;
  title: string;
  redirectTitle?: string;
  count: number;
  first?: DumpRevision;
  latest?: DumpRevision;
  uploads: DumpUpload[];
}

/** Newer by timestamp, then by revision id (dumps list revisions oldest first, but do not promise it). */
function isNewer(a: DumpRevision, b: DumpRevision): boolean {
  return a.timestamp > b.timestamp || (a.timestamp === b.timestamp && a.id > b.id);
}

/**
 * The SAX state machine: feed it text, take the completed items from `out`. Kept apart from the
 * file reading so that the generator below is only about chunks and backpressure.
 */
class DumpParser {
  readonly out: DumpItem[] = [];
  skippedWithoutRevisions = 0;
  private readonly sax = new SaxesParser<{ xmlns: false; position: true }>({ xmlns: false, position: true });
  private readonly stack: string[] = [];
  private collecting = false;
  private buf = '';
  private rootSeen = false;
  private rootLang: string | undefined;
  private site: DumpSiteInfo | null = null;
  private nsKey = 0;
  private nsCase: DumpNamespace['case'] = 'first-letter';
  private page: PageState | null = null;
  private rev: DumpRevision | null = null;
  private upload: DumpUpload | null = null;
  private logitem: DumpLogItem | null = null;
  private contributor: { user: string; userId: number } | null = null;
  private textDeleted = false;
  /** names of the close tag being read and of the element it should have closed (for error messages) */
  private closing = '';
  private lastClosed = '';

  constructor(private readonly display: string) {
    // saxes forgets a close tag's name before it reports a mismatch; remember it (saxes 6 internals)
    const sax = this.sax as unknown as { closeTag?: () => void; name: string };
    const closeTag = sax.closeTag;
    if (typeof closeTag === 'function') {
      sax.closeTag = () => {
        this.closing = sax.name;
        closeTag.call(sax);
      };
    }
    this.sax.on('error', (err) => {
      // saxes prefixes its messages with "line:column: "; we add the file and name the tags
      let reason = err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
      if (reason === 'unexpected close tag' && this.closing !== '') reason += ` </${this.closing}>, expected </${this.lastClosed}>`;
      else if (reason.startsWith('unclosed tag: ')) reason = `unexpected end of file: unclosed tag <${reason.slice(14)}>`;
      this.fail(reason);
    });
    this.sax.on('opentag', (tag) => this.open(tag));
    this.sax.on('closetag', (tag) => this.close(tag.name));
    const onText = (t: string) => {
      if (this.collecting) this.buf += t;
    };
    this.sax.on('text', onText);
    this.sax.on('cdata', onText);
  }

  write(text: string): void {
    this.sax.write(text);
  }

  end(): void {
    if (!this.rootSeen) this.fail('empty file: not a MediaWiki XML dump');
    this.sax.close();
  }

  private fail(reason: string): never {
    throw new DumpError(this.display, this.sax.line, this.sax.column, reason);
  }

  private int(s: string, what: string): number {
    const t = s.trim();
    if (!/^-?\d+$/.test(t)) this.fail(`<${what}> is not an integer: ${JSON.stringify(t.slice(0, 40))}`);
    const n = Number(t);
    // past 2^53 two ids would become one number (and past 2^63 SQLite refuses them): refuse them here,
    // where the dump line is known
    if (!Number.isSafeInteger(n)) this.fail(`<${what}> ${t.slice(0, 40)} is out of range (ids go up to ${Number.MAX_SAFE_INTEGER})`);
    return n;
  }

  /** A page or revision id: a positive integer (0 and negative ids name no row MediaWiki could have made). */
  private positiveId(s: string, element: string): number {
    const n = this.int(s, 'id');
    if (n <= 0) this.fail(`<${element}> id ${n} is not a positive integer`);
    return n;
  }

  private open(tag: SaxesTagPlain): void {
    const name = tag.name;
    const parent = this.stack.length > 0 ? this.stack[this.stack.length - 1] : '';
    this.stack.push(name);
    if (!this.rootSeen) {
      this.rootSeen = true;
      if (name !== 'mediawiki') this.fail(`not a MediaWiki XML dump: root element is <${name}>, expected <mediawiki>`);
      const lang = tag.attributes['xml:lang'];
      if (typeof lang === 'string' && lang !== '') this.rootLang = lang;
      return;
    }
    if (LEAVES[parent]?.has(name)) {
      this.collecting = true;
      this.buf = '';
      if (name === 'namespace') {
        this.nsKey = this.int(String(tag.attributes.key ?? ''), 'namespace key');
        this.nsCase = tag.attributes.case === 'case-sensitive' ? 'case-sensitive' : 'first-letter';
      } else if (name === 'comment' && parent === 'logitem' && this.logitem && tag.attributes.deleted !== undefined) {
        this.logitem.deleted |= 2;
      } else if (name === 'comment' && parent === 'revision' && this.rev && tag.attributes.deleted !== undefined) {
        this.rev.deleted |= 2;
      } else if (name === 'text' && parent === 'revision' && this.rev) {
        const bytes = tag.attributes.bytes;
        if (bytes !== undefined) this.rev.bytes = Number(bytes) || 0;
        this.textDeleted = tag.attributes.deleted !== undefined;
      }
      return;
    }
    switch (name) {
      case 'siteinfo':
        this.site = { sitename: '', dbname: '', base: '', generator: '', case: 'first-letter', namespaces: [], lang: this.rootLang };
        break;
      case 'page':
        if (parent !== 'mediawiki') this.fail('<page> outside <mediawiki>');
        this.page = { id: 0, line: this.sax.line, ns: undefined, title: '', count: 0, uploads: [] };
        break;
      case 'redirect':
        if (this.page && parent === 'page') this.page.redirectTitle = String(tag.attributes.title ?? '');
        break;
      case 'revision':
        if (!this.page || parent !== 'page') this.fail('<revision> outside <page>');
        this.rev = {
          id: 0,
          parentId: 0,
          timestamp: '',
          user: '',
          userId: 0,
          comment: '',
          minor: false,
          sha1: '',
          text: null,
          bytes: -1,
          deleted: 0,
        };
        break;
      case 'upload':
        this.upload = { timestamp: '', user: '', userId: 0, comment: '', filename: '', size: 0, sha1base36: '' };
        break;
      case 'logitem':
        this.logitem = {
          id: 0,
          timestamp: '',
          user: '',
          userId: 0,
          comment: '',
          type: '',
          action: '',
          logtitle: '',
          params: '',
          deleted: 0,
        };
        break;
      case 'contributor':
        this.contributor = { user: '', userId: 0 };
        if (parent === 'logitem' && this.logitem && tag.attributes.deleted !== undefined) this.logitem.deleted |= 4;
        if (parent === 'revision' && this.rev && tag.attributes.deleted !== undefined) this.rev.deleted |= 4;
        break;
      case 'minor':
        if (this.rev && parent === 'revision') this.rev.minor = true;
        break;
    }
  }

  private close(name: string): void {
    this.lastClosed = name;
    this.stack.pop();
    const parent = this.stack.length > 0 ? this.stack[this.stack.length - 1] : '';
    if (this.collecting) {
      this.collecting = false;
      const v = this.buf;
      this.buf = '';
      this.leaf(parent, name, v);
      return;
    }
    switch (name) {
      case 'siteinfo':
        if (this.site) this.out.push({ type: 'siteinfo', siteinfo: this.site });
        break;
      case 'contributor': {
        const c = this.contributor;
        const target = parent === 'revision' ? this.rev : parent === 'upload' ? this.upload : parent === 'logitem' ? this.logitem : null;
        if (c && target) {
          target.user = c.user;
          target.userId = c.userId;
        }
        this.contributor = null;
        break;
      }
      case 'revision':
        if (this.page && this.rev) this.addRevision(this.page, this.rev);
        this.rev = null;
        break;
      case 'upload':
        if (this.upload) {
          if (this.page) this.page.uploads.push(this.upload);
          else this.out.push({ type: 'upload', upload: this.upload });
        }
        this.upload = null;
        break;
      case 'page':
        if (this.page) this.endPage(this.page);
        this.page = null;
        break;
      case 'logitem':
        if (this.logitem) {
          if (this.logitem.timestamp === '') this.fail('<logitem> without <timestamp>');
          this.out.push({ type: 'logitem', logitem: this.logitem });
        }
        this.logitem = null;
        break;
    }
  }

  /** Keep the oldest revision's metadata and the newest revision with its text; count the rest. */
  private addRevision(page: PageState, rev: DumpRevision): void {
    if (rev.timestamp === '') this.fail('<revision> without <timestamp>');
    this.out.push({ type: 'revision', page: { id: page.id, ns: page.ns, title: page.title }, revision: rev });
    page.count++;
    if (!page.first || isNewer(page.first, rev)) page.first = Object.assign({}, rev, { text: null });
    if (!page.latest || isNewer(rev, page.latest)) page.latest = rev;
  }

  private endPage(p: PageState): void {
    if (p.title === '') this.fail('<page> without <title>');
    if (p.id <= 0) this.fail(`<page> ${JSON.stringify(p.title)} without <id>`);
    if (!p.latest || !p.first) {
      // a page without revisions cannot be a row of the page table (it has no latest revision)
      this.skippedWithoutRevisions++;
      return;
    }
    this.out.push({
      type: 'page',
      page: {
        id: p.id,
        line: p.line,
        ns: p.ns,
        title: p.title,
        redirectTitle: p.redirectTitle,
        revisionCount: p.count,
        first: p.first,
        latest: p.latest,
        uploads: p.uploads,
      },
    });
  }

  private leaf(parent: string, name: string, v: string): void {
    switch (parent) {
      case 'siteinfo':
        if (this.site) (this.site as unknown as Record<string, string>)[name] = v;
        return;
      case 'namespaces':
        this.site?.namespaces.push({ id: this.nsKey, name: v, case: this.nsCase });
        return;
      case 'page':
        if (!this.page) return;
        if (name === 'title') this.page.title = v;
        else if (name === 'ns') this.page.ns = this.int(v, 'ns');
        else if (name === 'id') this.page.id = this.positiveId(v, 'page');
        return;
      case 'revision': {
        const rev = this.rev;
        if (!rev) return;
        if (name === 'id') rev.id = this.positiveId(v, 'revision');
        else if (name === 'parentid') rev.parentId = this.int(v, 'parentid');
        else if (name === 'timestamp') rev.timestamp = isoToMw(v);
        else if (name === 'comment') rev.comment = v;
        else if (name === 'model') rev.model = v;
        else if (name === 'format') rev.format = v;
        else if (name === 'sha1') rev.sha1 = v.trim();
        else if (name === 'text') {
          rev.text = this.textDeleted ? null : v;
          if (this.textDeleted) rev.deleted |= 1;
          this.textDeleted = false;
        }
        return;
      }
      case 'contributor':
        if (!this.contributor) return;
        if (name === 'username' || name === 'ip') this.contributor.user = v;
        else if (name === 'id') this.contributor.userId = this.int(v, 'id');
        return;
      case 'logitem': {
        const li = this.logitem;
        if (!li) return;
        if (name === 'id') li.id = this.int(v, 'id');
        else if (name === 'timestamp') li.timestamp = isoToMw(v);
        else if (name === 'comment') li.comment = v;
        else if (name === 'type') li.type = v;
        else if (name === 'action') li.action = v;
        else if (name === 'logtitle') li.logtitle = v;
        // <text> is where dumps before schema 0.6 put the log parameters
        else if (name === 'params' || name === 'text') li.params = v;
        return;
      }
      case 'upload': {
        const up = this.upload;
        if (!up) return;
        if (name === 'timestamp') up.timestamp = isoToMw(v);
        else if (name === 'comment') up.comment = v;
        else if (name === 'filename') up.filename = v;
        else if (name === 'size') up.size = this.int(v, 'size');
        else if (name === 'sha1base36') up.sha1base36 = v.trim();
        return;
      }
    }
  }
}

export async function* readDump(file: string, opts: ReadDumpOptions = {}): AsyncGenerator<DumpItem> {
  const parser = new DumpParser(opts.displayName ?? dumpDisplayName(file));
  // plain, gzip or bzip2, from a file or stdin ('-'); progress counts bytes of the file itself
  const source = await openDump(file);
  // TextDecoder: faster than StringDecoder on Cyrillic text (pass 1's reading is its slowest thread);
  // the same characters, a byte order mark included (ignoreBOM keeps it, as StringDecoder does) and
  // invalid or cut sequences replaced alike
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  try {
    // for-await pulls the next chunk only after the consumer took every item of this one
    for await (const chunk of source.stream) {
      parser.write(decoder.decode(chunk, { stream: true }));
      opts.onBytes?.(source.bytesRead());
      if (parser.out.length > 0) yield* parser.out.splice(0, parser.out.length);
    }
    parser.write(decoder.decode());
    parser.end();
    if (parser.out.length > 0) yield* parser.out.splice(0, parser.out.length);
  } finally {
    source.close();
  }
  if (parser.skippedWithoutRevisions > 0) {
    opts.onWarning?.(`${parser.skippedWithoutRevisions} page(s) without any <revision> skipped`);
  }
}
