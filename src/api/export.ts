/**
 * The XML export of a set of pages (ApiQuery::doExport and Special:Export of 1.25: WikiExporter with
 * CURRENT history and XmlDumpWriter): each page with its current revision and text, in the export format
 * `wikiquery import` reads back. Bounded by the page set (titles=, pageids= or a generator's limit) and by
 * MAX_EXPORT_PAGES; texts are read in batches of TEXT_BATCH pages.
 */
import type { ModuleContext } from './types.js';
import type { PageRef } from '../store/page-store.js';
import type { Store } from '../store/store.js';
import type { Wiki } from '../wiki/wiki.js';
import { pageUrl, serverOf } from '../wiki/files.js';
import { type DumpPage, closeStream, openStream, writePage } from '../wiki/xml-dump.js';
import { MessageLoader } from '../modules/message-loader.js';

/** pages one export writes at most (a generator with limit=max gives 500) */
export const MAX_EXPORT_PAGES = 5000;
/** pages whose texts are read with one store call */
const TEXT_BATCH = 50;

/** The canonical URL of the main page (Title::newMainPage()->getCanonicalURL()) for a request to `apiUrl` */
export async function mainPageUrl(store: Store, wiki: Wiki, apiUrl: string): Promise<string> {
  const main = await new MessageLoader(store, wiki).get('mainpage', wiki.lang);
  // Title::newMainPage: the `mainpage` message as a title, "Main Page" when it is none
  const title = (main !== false && wiki.codec.parse(main)) || wiki.codec.parse('Main Page')!;
  return pageUrl(serverOf(apiUrl), wiki.codec.prefixedDbKey(title.ns, title.dbkey));
}

/** WikiExporter::openStream, pageByTitle for each page, closeStream */
export async function exportPages(store: Store, wiki: Wiki, apiUrl: string, pages: readonly PageRef[]): Promise<string> {
  const out: string[] = [
    openStream({
      sitename: wiki.info.sitename,
      dbname: wiki.info.dbname,
      base: await mainPageUrl(store, wiki, apiUrl),
      lang: wiki.lang,
      namespaces: [...wiki.codec.namespaces.values()],
      capitalLinks: wiki.codec.isCapitalized(0),
    }),
  ];
  const list = pages.slice(0, MAX_EXPORT_PAGES);
  for (let i = 0; i < list.length; i += TEXT_BATCH) {
    const batch = list.slice(i, i + TEXT_BATCH);
    const ids = batch.map((p) => p.pageid);
    const [revisions, targets] = await Promise.all([
      store.history.latestRevisions(ids),
      store.pages.redirectTargets(batch.filter((p) => p.isRedirect).map((p) => p.pageid)),
    ]);
    const texts = await store.history.texts(revisions.filter((r) => !r.textHidden).map((r) => r.revid));
    const revOf = new Map(revisions.map((r) => [r.pageid, r]));
    for (const page of batch) {
      const rev = revOf.get(page.pageid);
      const target = targets.get(page.pageid);
      const dump: DumpPage = {
        title: wiki.titleText(page.ns, page.title),
        ns: page.ns,
        pageid: page.pageid,
        // XmlDumpWriter::canonicalTitle: an interwiki target keeps its prefix
        redirect: !target
          ? null
          : target.interwiki
            ? `${target.interwiki}:${target.dbkey.replace(/_/g, ' ')}`
            : wiki.titleText(target.ns, target.dbkey),
        revision: rev
          ? {
              revid: rev.revid,
              parentid: rev.parentid,
              timestamp: rev.timestamp,
              user: rev.user,
              userid: rev.userid,
              userHidden: rev.userHidden,
              minor: rev.minor,
              comment: rev.comment,
              commentHidden: rev.commentHidden,
              contentModel: rev.contentModel,
              contentFormat: rev.contentFormat,
              text: rev.textHidden ? null : (texts.get(rev.revid) ?? ''),
              size: rev.size ?? 0,
              sha1: rev.sha1,
            }
          : null,
      };
      out.push(writePage(dump));
    }
  }
  out.push(closeStream());
  return out.join('');
}

/** ApiQuery::doExport: the export under query.export, or alone for exportnowrap (ApiFormatRaw, text/xml) */
export async function addExport(ctx: ModuleContext, pages: readonly PageRef[], nowrap: boolean): Promise<void> {
  const xml = await exportPages(ctx.store, ctx.wiki, ctx.request.apiUrl, pages);
  if (nowrap) {
    ctx.result.set('text', xml);
    ctx.result.set('mime', 'text/xml');
    return;
  }
  const fv = ctx.request.raw.formatversion;
  // ApiResult::META_BC_SUBELEMENTS: formatversion 1 wraps the text as {"*": …}
  (ctx.result.object('query') as Record<string, unknown>).export = fv === '2' || fv === 'latest' ? xml : { '*': xml };
}
