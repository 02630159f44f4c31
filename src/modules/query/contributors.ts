/**
 * prop=contributors (ApiQueryContributors of 1.25): per page, the number of distinct anonymous
 * contributors and the registered ones in user id order. The dump's users are in no explicit group, so
 * group and rights filters leave no registered contributor and their exclusions leave them all.
 */
import { continueParam, limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { intval } from '../../api/params.js';
import { ALL_RIGHTS, EXPLICIT_GROUPS } from '../../wiki/user-groups.js';
import { dieBadContinue } from './shared.js';

export const contributorsModule = queryModule({
  kind: 'prop',
  name: 'contributors',
  prefix: 'pc',
  description: 'Get the list of logged-in contributors and the count of anonymous contributors to a page.',
  params: {
    group: { type: EXPLICIT_GROUPS, multi: true, help: 'Only include users in the given groups.' },
    excludegroup: { type: EXPLICIT_GROUPS, multi: true, help: 'Exclude users in the given groups.' },
    rights: { type: ALL_RIGHTS, multi: true, help: 'Only include users having the given rights.' },
    excluderights: { type: ALL_RIGHTS, multi: true, help: 'Exclude users having the given rights.' },
    limit: limitParam(10, 'How many contributors to return.'),
    continue: continueParam(),
  },
  examples: ['action=query&prop=contributors&titles=Київ'],
  async run(ctx) {
    const p = ctx.params;
    const given = ['group', 'excludegroup', 'rights', 'excluderights'].filter((n) => p[n] !== undefined);
    if (given.length > 1) {
      ctx.die('invalidparammix', `The parameters ${given.map((n) => ctx.encodeParamName(n)).join(', ')} can not be used together`);
    }
    let pages = ctx.pageSet.good.map((r) => r.pageid);
    if (pages.length === 0) return;
    let from: { pageid: number; userid: number } | undefined;
    if (p.continue !== undefined) {
      const cont = (p.continue as string).split('|');
      if (cont.length !== 2) dieBadContinue(ctx);
      from = { pageid: intval(cont[0]), userid: intval(cont[1]) };
      pages = pages.filter((id) => id >= from!.pageid);
    }
    const anons = await ctx.store.history.anonContributors(pages);
    for (const id of [...anons.keys()].sort((a, b) => a - b)) ctx.pageSet.entry(id)!.anoncontributors = anons.get(id);
    if (p.group !== undefined || p.rights !== undefined) return;
    const limit = p.limit as number;
    const rows = await ctx.store.history.contributors(pages, from, limit + 1);
    rows.forEach((r, i) => {
      if (i === limit) {
        ctx.setContinue('continue', `${r.pageid}|${r.userid}`);
        return;
      }
      const entry = ctx.pageSet.entry(r.pageid)!;
      ((entry.contributors ??= []) as unknown[]).push({ userid: r.userid, name: r.name });
    });
  },
});
