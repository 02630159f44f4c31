/**
 * list=random (ApiQueryRandom of 1.25): `rnlimit` pages at a random point of page_random (a value stored
 * per page at import, indexed), from the lowest values again when too few lie above it; `rnredirect`
 * lists redirects instead of articles. No continuation. As a generator it yields those pages.
 */
import { limitParam, namespaceParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';

export const randomModule = queryModule({
  kind: 'list',
  name: 'random',
  prefix: 'rn',
  generator: true,
  description: 'Get a set of random pages.',
  params: {
    namespace: namespaceParam('Return pages in these namespaces only.', { multi: true }),
    limit: limitParam(1, 'Limit how many random pages will be returned.', 10, 20),
    redirect: { type: 'boolean', default: false, help: 'Load a random redirect instead of a random page.' },
  },
  examples: ['action=query&list=random&rnnamespace=0&rnlimit=2', 'action=query&generator=random&grnnamespace=0&grnlimit=2&prop=info'],
  async run(ctx) {
    // a new answer every time: never from the response cache
    ctx.markVolatile('always');
    const p = ctx.params;
    const limit = p.limit as number;
    const asked = p.namespace as number[] | undefined;
    const namespaces = asked?.length ? [...new Set(asked)] : [...ctx.wiki.codec.namespaces.keys()].filter((n) => n >= 0);
    const pick = async (from: number, n: number) =>
      (await ctx.store.relations.randomPages({ namespaces, redirect: p.redirect === true, from, limit: n }))
        .sort((a, b) => a.random - b.random)
        .slice(0, n);
    let rows = await pick(Math.random(), limit);
    // too few above the point: the lowest ones, as SpecialRandompage does
    if (rows.length < limit) rows = [...rows, ...(await pick(0, limit - rows.length))];
    const seen = new Set<number>();
    const list = ctx.generator ? null : ctx.result.queryList('random');
    for (const row of rows) {
      if (ctx.generator) {
        ctx.generator.add({ ns: row.ns, dbkey: row.title });
        continue;
      }
      if (seen.has(row.pageid)) continue;
      seen.add(row.pageid);
      list!.push({ id: row.pageid, ns: row.ns, title: ctx.wiki.titleText(row.ns, row.title) });
    }
  },
});
