/**
 * prop=images (ApiQueryImages of 1.25): the files each page uses (imagelinks, red links included), in
 * (page id, file name) order; continuation `<page id>|<file>`. As a generator it yields the file pages.
 * `imimages` keeps only the listed files; values that are not file titles are warned about and, when
 * none is left, do not filter at all (ApiQueryBase::addWhereFld skips an empty list).
 */
import { limitParam, continueParam, dirParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { continueParts } from './shared.js';

export const imagesModule = queryModule({
  kind: 'prop',
  name: 'images',
  prefix: 'im',
  generator: true,
  description: 'Returns all files contained on the given pages.',
  params: {
    limit: limitParam(10, 'How many files to return.'),
    continue: continueParam(),
    images: { type: 'string', multi: true, help: 'Only list these files. Useful for checking whether a certain page has a certain file.' },
    dir: dirParam('The direction in which to list.'),
  },
  examples: ['action=query&titles=Київ&prop=images', 'action=query&generator=images&titles=Київ&prop=info'],
  async run(ctx) {
    const p = ctx.params;
    if (ctx.pageSet.good.length === 0) return;
    const descending = p.dir === 'descending';
    const pages = ctx.pageSet.good.map((g) => g.pageid);
    let start: { pageid: number; name: string } | undefined;
    const cont = continueParts(ctx, 2);
    if (cont) start = { pageid: Number.parseInt(cont[0], 10) || 0, name: cont[1] };
    let only: string[] | undefined;
    if (p.images !== undefined) {
      only = [];
      for (const img of p.images as string[]) {
        const t = ctx.wiki.codec.parse(img, 0);
        if (!t || t.ns !== NS_FILE) ctx.warn(`"${img}" is not a file`);
        else only.push(t.dbkey);
      }
      if (only.length === 0) only = undefined;
    }
    const limit = p.limit as number;
    // one store call for the whole page set (ApiQueryImages: il_from IN (…) ORDER BY il_from, il_to)
    const rows = await ctx.store.links.imagesOf({ pageids: pages, start, only, descending, limit: limit + 1 });
    let count = 0;
    for (const { pageid, name } of rows) {
      if (++count > limit) {
        ctx.setContinue('continue', `${pageid}|${name}`);
        return;
      }
      if (ctx.generator) {
        ctx.generator.add({ ns: NS_FILE, dbkey: name });
        continue;
      }
      const entry = ctx.pageSet.entry(pageid);
      if (!entry) continue;
      ((entry.images ??= []) as unknown[]).push({ ns: NS_FILE, title: ctx.wiki.titleText(NS_FILE, name) });
    }
  },
});
