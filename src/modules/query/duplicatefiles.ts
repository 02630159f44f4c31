/**
 * prop=duplicatefiles (ApiQueryDuplicateFiles of 1.25): for every file title of the page set (existing
 * description pages and missing ones alike; titles without an uploaded file are skipped), the other files
 * with the same SHA-1, in name order. The limit counts duplicate rows across the whole page set;
 * continuation is `<file>|<next duplicate>`. As a generator it yields the duplicates' file pages.
 *
 * Order of the files: MediaWiki walks the page set's file titles as the page set lists them, which for a
 * generator batch is title order (existing pages first, then missing ones). We walk them in byte order of
 * their names -- the same order whenever every file has a description page -- so that continuation
 * (which drops the files before `<file>`) never repeats or skips a file. `dfdir=descending` reverses the
 * files and each duplicate list; its continuation is mirrored (MediaWiki's compares as if ascending and
 * would answer the same batch forever).
 */
import { limitParam, continueParam, dirParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { sortUnlessSorted } from '../../api/pageset.js';
import { compareBytes } from '../../wiki/collation.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { continueParts } from './shared.js';

export const duplicatefilesModule = queryModule({
  kind: 'prop',
  name: 'duplicatefiles',
  prefix: 'df',
  generator: true,
  description: 'List all files that are duplicates of the given files based on hash values.',
  params: {
    limit: limitParam(10, 'How many duplicate files to return.'),
    continue: continueParam(),
    dir: dirParam('The direction in which to list.'),
    localonly: { type: 'boolean', default: false, help: 'Look only for files in the local repository.' },
  },
  examples: [
    'action=query&titles=File:Albert_Einstein_Head.jpg&prop=duplicatefiles',
    'action=query&generator=allimages&prop=duplicatefiles',
  ],
  needsFileDuplicates: true,
  async run(ctx) {
    const p = ctx.params;
    const titles = ctx.pageSet.titlesInNamespace(NS_FILE);
    if (titles.length === 0) return;
    const descending = p.dir === 'descending';
    // "a before b" in the direction of the listing
    const before = (a: string, b: string) => (descending ? compareBytes(a, b) > 0 : compareBytes(a, b) < 0);
    // titlesInNamespace made a new array
    let images = sortUnlessSorted(titles, (a, b) => compareBytes(a.dbkey, b.dbkey));
    if (descending) images.reverse();
    let skipUntil: string | null = null;
    const cont = continueParts(ctx, 2);
    if (cont) {
      const [fromImage, dup] = cont;
      skipUntil = dup;
      images = images.filter((img) => !before(img.dbkey, fromImage));
    }
    const limit = p.limit as number;
    let count = 0;
    // generator=allimages read them with the files
    const sameContent = ctx.fileDuplicates ?? (await ctx.store.files.sameContent(images.map((i) => i.dbkey)));
    outer: for (const image of images) {
      // none when there is no such file or it has no duplicates
      let dups = sameContent.get(image.dbkey);
      if (dups === undefined) continue;
      if (descending) dups = dups.slice().reverse();
      // the page's entry and its list, looked up at its first duplicate shown
      let list: unknown[] | null | undefined;
      for (const dup of dups) {
        if (skipUntil !== null && before(dup.name, skipUntil)) continue;
        skipUntil = null;
        if (++count > limit) {
          ctx.setContinue('continue', `${image.dbkey}|${dup.name}`);
          break outer;
        }
        if (ctx.generator) {
          ctx.generator.add({ ns: NS_FILE, dbkey: dup.name });
          continue;
        }
        if (list === undefined) {
          const entry = ctx.pageSet.entry(image.id);
          list = entry ? ((entry.duplicatefiles as unknown[] | undefined) ?? (entry.duplicatefiles = [])) : null;
        }
        if (list !== null) list.push({ name: dup.name, user: dup.userText, timestamp: mwToIso(dup.timestamp), shared: false });
      }
    }
  },
});
