/**
 * action=query (ApiQuery + ApiPageSet of 1.25): builds the page set from titles=/pageids= or a
 * generator, runs the requested prop, list and meta modules in that order, and hands their
 * continuation to the one ContinuationManager.
 */
import { ApiError } from './errors.js';
import { ContinuationManager } from './continuation.js';
import { PageSet, type TitleKey } from './pageset.js';
import type { CacheMode, CoreActionModule, CoreContext, GeneratedPage, ParamDecls, QueryModule, QueryModuleContext } from './types.js';
import type { PageRef } from '../store/page-store.js';
import type { SameContentRow } from '../store/file-store.js';
import { addExport } from './export.js';

export const PAGESET_PARAMS: ParamDecls = {
  titles: { type: 'string', multi: true, help: 'A list of titles to work on.' },
  pageids: { type: 'integer', multi: true, help: 'A list of page IDs to work on.' },
  revids: { type: 'integer', multi: true, help: 'A list of revision IDs to work on.' },
  generator: { type: 'string', help: 'Get the list of pages to work on by executing the specified query module.' },
  redirects: { type: 'boolean', default: false, help: 'Automatically resolve redirects in titles, pageids and generated pages.' },
  converttitles: {
    type: 'boolean',
    default: false,
    help: 'Convert titles to other variants if necessary (no variants in uk: has no effect).',
  },
};

function mergeCacheMode(a: CacheMode, b: CacheMode): CacheMode {
  if (a === 'private' || b === 'private') return 'private';
  if (a === 'anon-public-user-private' || b === 'anon-public-user-private') return 'anon-public-user-private';
  return 'public';
}

export function createQueryAction(modules: QueryModule[]): CoreActionModule {
  const byKind = (k: QueryModule['kind']) =>
    modules
      .filter((m) => m.kind === k)
      .map((m) => m.name)
      .sort();
  const byName = new Map(modules.map((m) => [m.name, m]));
  const generators = modules
    .filter((m) => m.generator)
    .map((m) => m.name)
    .sort();
  const paths = (names: string[]) => Object.fromEntries(names.map((n) => [n, 'query+' + n]));
  const params: ParamDecls = {
    prop: { type: byKind('prop'), multi: true, help: 'Which properties to get for the queried pages.', submodules: paths(byKind('prop')) },
    list: { type: byKind('list'), multi: true, help: 'Which lists to get.', submodules: paths(byKind('list')) },
    meta: { type: byKind('meta'), multi: true, help: 'Which metadata to get.', submodules: paths(byKind('meta')) },
    indexpageids: { type: 'boolean', default: false, help: 'Include an additional pageids section listing all returned page IDs.' },
    export: { type: 'boolean', default: false, help: 'Export the current revisions of all given or generated pages.' },
    exportnowrap: {
      type: 'boolean',
      default: false,
      help: 'Return the export XML without wrapping it in an XML result (same format as Special:Export). Can only be used with export.',
    },
    iwurl: { type: 'boolean', default: false, help: 'Whether to get the full URL if the title is an interwiki link.' },
    continue: {
      type: 'string',
      help: 'When present, formats query-continue as key-value pairs that should simply be merged into the original request.',
    },
    rawcontinue: {
      type: 'boolean',
      default: false,
      help: 'Currently ignored. In the future, continue will become the default and this will be needed to receive the raw query-continue data.',
    },
    ...PAGESET_PARAMS,
  };
  // validated as a string (unknown names get badgenerator), described as ApiPageSet's 'submodule' type
  // once per process: a spread copy given more members is fine here
  params.generator = {
    ...params.generator,
    help: `${params.generator.help} One of: ${generators.join(', ')}.`,
    submodules: paths(generators),
    submoduleParamPrefix: 'g',
  };

  return {
    kind: 'action',
    core: true,
    name: 'query',
    prefix: '',
    description:
      'Fetch data from and about MediaWiki. All data modifications will first have to use query to acquire a token to prevent abuse from malicious sites.',
    params,
    examples: [
      'action=query&prop=info|revisions&titles=Головна_сторінка',
      'action=query&generator=allimages&prop=duplicatefiles&continue=',
    ],
    // ApiQuery::getCustomPrinter: export with exportnowrap is the XML alone (ApiFormatRaw)
    customPrinter(ctx) {
      const raw = ctx.request.raw;
      if (raw.export === undefined || raw.exportnowrap === undefined) return null;
      return {
        contentType: 'text/xml; charset=utf-8',
        headers: { 'Cache-Control': 'private, must-revalidate, max-age=0' },
        // ApiFormatRaw( $main, createPrinterByName( 'xml' ) ): an error is XML
        errorFormat: 'xml',
        render: (result) => result.get('text') as string,
      };
    },
    async run(ctx: CoreContext) {
      const p = ctx.params;
      const requested = [
        ...((p.prop as string[] | undefined) ?? []),
        ...((p.list as string[] | undefined) ?? []),
        ...((p.meta as string[] | undefined) ?? []),
      ].map((n) => byName.get(n)!);
      const props = (p.prop as string[] | undefined) ?? [];
      if (p.titles !== undefined && p.pageids !== undefined)
        throw new ApiError('multisource', "Cannot use 'pageids' at the same time as 'titles'");
      if (p.revids !== undefined && (p.titles !== undefined || p.pageids !== undefined)) {
        throw new ApiError('multisource', `Cannot use 'revids' at the same time as '${p.pageids !== undefined ? 'pageids' : 'titles'}'`);
      }
      let generator: QueryModule | undefined;
      if (p.generator !== undefined) {
        generator = byName.get(p.generator);
        if (!generator) throw new ApiError('badgenerator', `Unknown generator=${p.generator}`);
        if (!generator.generator) throw new ApiError('badgenerator', `Module ${p.generator} cannot be used as a generator`);
      }
      const cm = new ContinuationManager(
        p.continue ?? (ctx.newContinuationByDefault && !p.rawcontinue ? '' : undefined),
        requested.map((m) => m.name),
        // the prop modules are the generated ones, with or without a generator (ApiQuery::execute)
        props,
        ctx.request.raw,
      );
      let cacheMode: CacheMode = 'public';
      const query = () => ctx.result.object('query');

      let pageSet = new PageSet(ctx.store, ctx.wiki, p.redirects);
      const generatorData: GeneratedPage[] = [];
      // the generated files' duplicates, when every page came with them (GeneratedPage.duplicates)
      let fileDuplicates: Map<string, SameContentRow[]> | null = null;
      if (!cm.isGeneratorDone()) {
        if (p.titles !== undefined) await pageSet.addUserTitles(p.titles);
        if (p.pageids !== undefined) await pageSet.addPageIds(p.pageids);
        if (p.revids !== undefined) await pageSet.addRevIds(p.revids);
        if (generator) {
          const gen = generator;
          const titles: TitleKey[] = [];
          const ids: number[] = [];
          const rows: PageRef[] = [];
          const revids: number[] = [];
          // parallel to titles: the page a generator read with its title (null: none), else undefined
          const known: Array<PageRef | null | undefined> = [];
          const wantsDuplicates = requested.some((m) => m.needsFileDuplicates === true);
          const duplicates = new Map<string, SameContentRow[]>();
          // whether every page so far came with its duplicates
          let allWithDuplicates = wantsDuplicates;
          const gctx = subContext(
            ctx,
            gen,
            'g' + gen.prefix,
            pageSet,
            {
              fullRows: requested.some((m) => m.needsPageRows === true),
              fileDuplicates: wantsDuplicates,
              resolvesRedirects: p.redirects as boolean,
              add: (page: GeneratedPage) => {
                if (page.data) generatorData.push(page);
                if ('row' in page) rows.push(page.row);
                else if ('revid' in page) revids.push(page.revid);
                else if ('pageid' in page) ids.push(page.pageid);
                else {
                  titles.push({ ns: page.ns, dbkey: page.dbkey });
                  known.push('page' in page ? page.page : undefined);
                }
                const dups = 'duplicates' in page ? page.duplicates : undefined;
                if (dups === undefined) allWithDuplicates = false;
                else if (dups !== null) duplicates.set((page as TitleKey).dbkey, dups);
              },
            },
            (name, value) => cm.addGeneratorContinue(gen.name, 'g' + gen.prefix + name, value),
            null,
          );
          const ran = gen.run(gctx);
          if (ran) await ran;
          cacheMode = mergeCacheMode(cacheMode, gen.cacheMode(gctx.params));
          // (a resolved redirect would bring files the generator did not list)
          if (allWithDuplicates && !p.redirects) fileDuplicates = duplicates;
          pageSet = new PageSet(ctx.store, ctx.wiki, p.redirects);
          if (rows.length) await pageSet.addRows(rows);
          if (titles.length) await pageSet.addTitles(titles, known);
          if (ids.length) await pageSet.addPageIds(ids);
          if (revids.length) await pageSet.addRevIds(revids);
        }
      } else if (generator) {
        // dry run: still read the generator's parameters so they are not reported as unrecognized
        subContext(ctx, generator, 'g' + generator.prefix, pageSet, null, () => {}, null);
      }
      if (!pageSet.isEmpty) {
        pageSet.iwUrl = p.iwurl === true;
        const q = query();
        // no prop module adds to the entries, nothing joins them and no one reads their keys
        pageSet.output(q, props.length === 0 && generatorData.length === 0 && !p.indexpageids);
        if (generatorData.length && q.pages instanceof Map) addGeneratorData(ctx, q.pages, generatorData);
        if (p.indexpageids && q.pages instanceof Map) q.pageids = [...q.pages.keys()];
      }
      // ApiQuery::outputGeneralPageInfo ends with the export, before the modules run
      if (p.export) await addExport(ctx, pageSet.good, p.exportnowrap);
      for (const m of requested) {
        if (cm.isSkipped(m.name)) {
          subContext(ctx, m, m.prefix, pageSet, null, () => {}, null);
          continue;
        }
        const mctx = subContext(
          ctx,
          m,
          m.prefix,
          pageSet,
          null,
          (name, value) => cm.addContinue(m.name, m.prefix + name, value),
          fileDuplicates,
        );
        // a synchronous module (meta=tokens, siteinfo…) costs no extra turn of the microtask queue
        const ran = m.run(mctx);
        if (ran) await ran;
        cacheMode = mergeCacheMode(cacheMode, m.cacheMode(mctx.params));
      }
      // uselang=user (the default) makes a public answer public only for clients without a session
      if (cacheMode === 'public' && (ctx.request.raw.uselang ?? 'user') === 'user') cacheMode = 'anon-public-user-private';
      ctx.setCacheMode(cacheMode);
      cm.writeInto(ctx.result, !!p.rawcontinue, (t) => ctx.warnAs('query', t));
    },
  };
}

/** ApiPageSet::populateGeneratorData: each generated page's data joins its entry, after ns and title. */
function addGeneratorData(ctx: CoreContext, pages: Map<string, unknown>, generated: GeneratedPage[]): void {
  const byId = new Map<number, Record<string, unknown>>();
  const byTitle = new Map<string, Record<string, unknown>>();
  for (const g of generated) {
    if ('row' in g) byId.set(g.row.pageid, g.data!);
    else if ('pageid' in g) byId.set(g.pageid, g.data!);
    else if ('revid' in g) continue;
    else byTitle.set(ctx.wiki.titleText(g.ns, g.dbkey), g.data!);
  }
  for (const entry of pages.values()) {
    const e = entry as Record<string, unknown>;
    const data = (typeof e.pageid === 'number' ? byId.get(e.pageid) : undefined) ?? byTitle.get(e.title as string);
    if (data) Object.assign(e, data);
  }
}

function subContext(
  core: CoreContext,
  module: QueryModule,
  encPrefix: string,
  pageSet: PageSet,
  generator: QueryModuleContext['generator'],
  setContinue: (name: string, value: string | number) => void,
  fileDuplicates: ReadonlyMap<string, SameContentRow[]> | null,
): QueryModuleContext {
  const ctx = core.submoduleContext(module, encPrefix) as QueryModuleContext;
  ctx.pageSet = pageSet;
  ctx.generator = generator;
  ctx.setContinue = setContinue;
  ctx.fileDuplicates = fileDuplicates;
  return ctx;
}
