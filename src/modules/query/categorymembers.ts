/**
 * list=categorymembers (ApiQueryCategoryMembers of 1.25), also a generator. Sort-key order lists pages,
 * then subcategories, then files (MediaWiki's cl_type enum order), each by binary sort key and page id;
 * continuation `<type>|<hex sort key>|<page id>`, or `<timestamp>|<page id>` for timestamp order.
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { queryModule, type QueryModuleContext } from '../../api/types.js';
import type { CategoryMemberRow, MemberType } from '../../store/category-link-store.js';
import { NS_CATEGORY, NS_FILE } from '../../wiki/namespaces.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { ucfirst } from '../../wiki/language.js';
import { dieBadContinue, generatePageRows, sortkeyHex, titleOrPageId } from './shared.js';

const TYPES: MemberType[] = ['page', 'subcat', 'file'];

const unhex = (h: string) => Buffer.from(h, 'hex').toString('utf8');
/** ApiQueryCategoryMembers::validateHexSortkey of 1.25 */
const HEX_SORTKEY = /^(?:[a-fA-F0-9]{2})*$/;

export const categorymembersModule = queryModule({
  kind: 'list',
  name: 'categorymembers',
  prefix: 'cm',
  generator: true,
  description: 'List all pages in a given category.',
  params: {
    title: {
      type: 'string',
      help: 'Which category to enumerate (required). Must include the Категорія: (or Category:) prefix. Cannot be used together with pageid.',
    },
    pageid: { type: 'integer', help: 'Page ID of the category to enumerate. Cannot be used together with title.' },
    prop: {
      type: ['ids', 'title', 'sortkey', 'sortkeyprefix', 'type', 'timestamp'],
      multi: true,
      default: 'ids|title',
      help: 'Which pieces of information to include.',
    },
    namespace: namespaceParam('Only include pages in these namespaces.', { multi: true }),
    type: {
      type: TYPES,
      multi: true,
      default: 'page|subcat|file',
      help: 'Which type of category members to include. Ignored when sort=timestamp is set.',
    },
    continue: continueParam(),
    limit: limitParam(10, 'The maximum number of pages to return.'),
    sort: { type: ['sortkey', 'timestamp'], default: 'sortkey', help: 'Property to sort by.' },
    dir: dirParam('In which direction to sort.', ['asc', 'desc', 'ascending', 'descending', 'newer', 'older'], 'ascending'),
    start: { type: 'timestamp', help: 'Timestamp to start listing from. Can only be used with cmsort=timestamp.' },
    end: { type: 'timestamp', help: 'Timestamp to end listing at. Can only be used with cmsort=timestamp.' },
    starthexsortkey: {
      type: 'string',
      help: 'Sortkey to start listing from, as returned by cmprop=sortkey. Can only be used with cmsort=sortkey.',
    },
    endhexsortkey: {
      type: 'string',
      help: 'Sortkey to end listing at, as returned by cmprop=sortkey. Can only be used with cmsort=sortkey.',
    },
    startsortkeyprefix: {
      type: 'string',
      help: 'Sortkey prefix to start listing from. Can only be used with cmsort=sortkey. Overrides cmstarthexsortkey.',
    },
    endsortkeyprefix: {
      type: 'string',
      help: 'Sortkey prefix to end listing BEFORE (not at). Can only be used with cmsort=sortkey. Overrides cmendhexsortkey.',
    },
    // the stored sort key itself, as 1.25 still took it (deprecated, warned about by the core)
    startsortkey: { type: 'string', deprecated: true, help: 'Use cmstarthexsortkey instead.' },
    endsortkey: { type: 'string', deprecated: true, help: 'Use cmendhexsortkey instead.' },
  },
  examples: [
    'action=query&list=categorymembers&cmtitle=Категорія:Міста_України',
    'action=query&generator=categorymembers&gcmtitle=Category:Rivers&prop=info',
  ],
  async run(ctx) {
    const p = ctx.params;
    const category = await categoryKey(ctx);
    const descending = p.dir === 'desc' || p.dir === 'descending' || p.dir === 'older';
    const limit = p.limit as number;
    const namespaces = p.namespace as number[] | undefined;
    const props = new Set(p.prop as string[]);
    const rows: CategoryMemberRow[] = [];
    let next: string | undefined;

    if (p.sort === 'timestamp') {
      // ApiQueryCategoryMembers.php:104-127 of 1.25: the sortkey bounds are not read with cmsort=timestamp
      let start = p.start !== undefined ? { timestamp: p.start as string, pageid: descending ? Number.MAX_SAFE_INTEGER : 0 } : undefined;
      if (p.continue !== undefined) {
        const m = /^(\d{14})\|(\d+)$/.exec(p.continue);
        if (!m) dieBadContinue(ctx);
        start = { timestamp: m![1], pageid: Number(m![2]) };
      }
      const found = await scan(
        namespaces,
        limit,
        start,
        (from, n) => ctx.store.categoryLinks.membersByTimestamp(category, from, p.end, descending, n),
        (r) => ({ timestamp: r.timestamp, pageid: r.pageid }),
      );
      rows.push(...found.rows);
      if (found.next) next = `${found.next.timestamp}|${found.next.pageid}`;
    } else {
      // ApiQueryCategoryMembers.php:155-170 of 1.25: a hex sortkey is pairs of hex digits (cmstart/cmend are not read here)
      if (p.starthexsortkey !== undefined && !HEX_SORTKEY.test(p.starthexsortkey))
        ctx.die('bad_starthexsortkey', 'The starthexsortkey provided is not valid');
      if (p.endhexsortkey !== undefined && !HEX_SORTKEY.test(p.endhexsortkey))
        ctx.die('bad_endhexsortkey', 'The endhexsortkey provided is not valid');
      let types = TYPES.filter((t) => (p.type as string[]).includes(t));
      // a namespace filter on 6 or 14 only decides which member types can match at all
      if (namespaces)
        types = types.filter((t) =>
          t === 'file'
            ? namespaces.includes(NS_FILE)
            : t === 'subcat'
              ? namespaces.includes(NS_CATEGORY)
              : namespaces.some((n) => n !== NS_FILE && n !== NS_CATEGORY),
        );
      if (descending) types.reverse();
      let startType = 0;
      // ApiQueryCategoryMembers 1.25: the start and end sort keys bound every type's query; a
      // continuation replaces both and bounds the first type's query alone
      let start: { sortkey: string; pageid: number } | undefined;
      let userStart: { sortkey: string; pageid: number } | undefined;
      if (p.continue !== undefined) {
        const m = /^(page|subcat|file)\|([0-9a-f]*)\|(\d+)$/.exec(p.continue);
        if (!m) dieBadContinue(ctx);
        startType = types.indexOf(m![1] as MemberType);
        if (startType < 0) dieBadContinue(ctx);
        start = { sortkey: unhex(m![2]), pageid: Number(m![3]) };
      } else if (p.startsortkeyprefix !== undefined) {
        userStart = { sortkey: ucfirstAll(p.startsortkeyprefix), pageid: descending ? Number.MAX_SAFE_INTEGER : 0 };
      } else if (p.starthexsortkey !== undefined) {
        userStart = { sortkey: unhex(p.starthexsortkey), pageid: descending ? Number.MAX_SAFE_INTEGER : 0 };
      } else if (p.startsortkey !== undefined) {
        userStart = { sortkey: p.startsortkey as string, pageid: descending ? Number.MAX_SAFE_INTEGER : 0 };
      }
      const end =
        p.continue !== undefined
          ? undefined
          : p.endsortkeyprefix !== undefined
            ? ucfirstAll(p.endsortkeyprefix)
            : p.endhexsortkey !== undefined
              ? unhex(p.endhexsortkey)
              : (p.endsortkey as string | undefined);
      for (let i = startType; i < types.length && next === undefined; i++) {
        const type = types[i];
        const found = await scan(
          namespaces,
          limit - rows.length,
          i === startType && start !== undefined ? start : userStart,
          (from, n) => ctx.store.categoryLinks.membersBySortkey(category, type, from, descending, n),
          (r) => ({ sortkey: r.sortkey, pageid: r.pageid }),
          end === undefined ? undefined : (r) => (descending ? r.sortkey < end : r.sortkey > end),
        );
        rows.push(...found.rows);
        if (found.next) next = `${type}|${sortkeyHex(found.next.sortkey)}|${found.next.pageid}`;
      }
    }

    // the page set lists the members in this (sort key) order
    if (ctx.generator)
      await generatePageRows(
        ctx,
        rows.map((r) => r.pageid),
      );
    else {
      const out = ctx.result.queryList('categorymembers');
      for (const r of rows) {
        const item: Record<string, unknown> = {};
        if (props.has('ids')) item.pageid = r.pageid;
        if (props.has('title')) {
          item.ns = r.ns;
          item.title = ctx.wiki.titleText(r.ns, r.title);
        }
        if (props.has('sortkey')) item.sortkey = sortkeyHex(r.sortkey);
        if (props.has('sortkeyprefix')) item.sortkeyprefix = r.sortkeyPrefix;
        if (props.has('type')) item.type = r.type;
        if (props.has('timestamp')) item.timestamp = mwToIso(r.timestamp);
        out.push(item);
      }
    }
    if (next !== undefined) ctx.setContinue('continue', next);
  },
});

/** The category's DB key from cmtitle (must be in the category namespace) or cmpageid. */
async function categoryKey(ctx: QueryModuleContext): Promise<string> {
  const given = await titleOrPageId(ctx);
  const t = 'title' in given ? ctx.wiki.codec.parse(given.title) : { ns: given.page.ns, dbkey: given.page.title };
  if (!t || t.ns !== NS_CATEGORY) ctx.die('invalidcategory', 'The category name you entered is not valid');
  return t!.dbkey;
}

/** Rows read per store call when a namespace filter may skip some; and the most read for one answer. */
const FILTERED_BATCH = 200;
const MAX_SCANNED = 10000;

/**
 * Read members along one index from `start` (inclusive) until `limit` of them pass the namespace filter,
 * the index ends, or `pastEnd` says the range is over. The filter is applied while reading (MediaWiki
 * puts page_namespace in the WHERE clause): batches follow one another from the row after the last one
 * read, so no member is skipped. `next` is where to continue: the first member not returned. Bounded: after
 * MAX_SCANNED rows the answer stops with fewer members and a continuation at the next unread row.
 */
async function scan<K>(
  namespaces: number[] | undefined,
  limit: number,
  start: K | undefined,
  read: (from: K | undefined, n: number) => Promise<CategoryMemberRow[]>,
  keyOf: (r: CategoryMemberRow) => K,
  pastEnd?: (r: CategoryMemberRow) => boolean,
): Promise<{ rows: CategoryMemberRow[]; next?: K }> {
  const rows: CategoryMemberRow[] = [];
  const batch = namespaces ? Math.max(limit + 1, FILTERED_BATCH) : limit + 1;
  let cursor = start;
  for (let scanned = 0; ; scanned += batch) {
    // one row more than the batch: the start of the next one
    const got = await read(cursor, batch + 1);
    for (let i = 0; i < got.length; i++) {
      const r = got[i];
      if (pastEnd?.(r)) return { rows };
      if (i === batch) {
        cursor = keyOf(r);
        break;
      }
      if (namespaces && !namespaces.includes(r.ns)) continue;
      if (rows.length === limit) return { rows, next: keyOf(r) };
      rows.push(r);
    }
    if (got.length <= batch) return { rows };
    if (scanned + batch >= MAX_SCANNED) return { rows, next: cursor };
  }
}

/** MediaWiki's 'uppercase' collation of a sort key prefix. */
function ucfirstAll(s: string): string {
  return ucfirst(s).toUpperCase();
}
