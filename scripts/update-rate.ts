/**
 * The catch-up rate of the incremental path next to the importer's, in one run: the synthetic wiki
 * (generate-big.ts) of PAGES pages is imported, then CHANGED of its articles get a new revision each (text
 * added, a category and a property value changed) in one changed-page dump, which `import --update`
 * applies. Prints both rates in pages per second.
 *
 *   node dist/scripts/update-rate.js DIR [PAGES=20000] [CHANGED=2000]
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { importWiki } from '../src/importer/import.js';
import { importHooks, importInlineQueries } from '../src/cli/import-command.js';
import { updateFromDump } from '../src/importer/update/from-dump.js';

const [dir, pagesArg = '20000', changedArg = '2000'] = process.argv.slice(2);
if (!dir) {
  process.stderr.write('usage: node dist/scripts/update-rate.js DIR [PAGES] [CHANGED]\n');
  process.exit(2);
}
const pages = Number(pagesArg);
const changed = Number(changedArg);
fs.mkdirSync(dir, { recursive: true });
const generator = fileURLToPath(new URL('./generate-big.js', import.meta.url));
execFileSync(process.execPath, [generator, dir, String(pages)], { stdio: 'ignore' });
const dump = path.join(dir, 'dump.xml');
const db = path.join(dir, 'wiki.sqlite');

const imported = await importWiki({
  dump,
  db,
  filesDir: path.join(dir, 'files'),
  hooks: importHooks(),
  inlineQueries: importInlineQueries(),
  progress: false,
  log: () => {},
});

// every k-th article gets a revision: its latest text with a paragraph, a category and a population changed
const xml = fs.readFileSync(dump, 'utf8');
const blocks = xml.match(/ {2}<page>\n[\s\S]*? {2}<\/page>\n/g) ?? [];
const articles = blocks.filter((b) => /<ns>0<\/ns>/.test(b) && !/<redirect /.test(b));
const step = Math.max(1, Math.floor(articles.length / changed));
let nextRev = 10_000_000;
const out: string[] = [];
for (let i = 0; i < articles.length && out.length < changed; i += step) {
  const b = articles[i];
  const text = /<text[^>]*>([\s\S]*?)<\/text>/.exec(b)?.[1] ?? '';
  const parent = Number(/<revision>\n\s*<id>(\d+)<\/id>/.exec(b)?.[1] ?? 0);
  const added = text.replace(/населення=(\d+)/, (_m, n: string) => `населення=${Number(n) + 1}`) + '\n\nОновлено. [[Категорія:Оновлені]]';
  const revision =
    `    <revision>\n      <id>${nextRev++}</id>\n      <parentid>${parent}</parentid>\n      <timestamp>2027-01-01T00:00:00Z</timestamp>\n` +
    `      <contributor>\n        <username>Бот</username>\n        <id>99</id>\n      </contributor>\n      <comment>оновлення</comment>\n` +
    `      <model>wikitext</model>\n      <format>text/x-wiki</format>\n      <text xml:space="preserve">${added}</text>\n    </revision>\n`;
  out.push(b.replace(/ {2}<\/page>\n$/, `${revision}  </page>\n`));
}
const changes = path.join(dir, 'changes.xml');
fs.writeFileSync(changes, xml.slice(0, xml.indexOf('  <page>\n')) + out.join('') + '</mediawiki>\n');

const updated = await updateFromDump({ dump: changes, db, log: () => {}, inlineQueries: importInlineQueries() });
const rate = (n: number, s: number) => Math.round(n / s);
process.stdout.write(
  `import: ${imported.pages} pages in ${imported.seconds.toFixed(1)} s, ${rate(imported.pages, imported.seconds)} pages/s\n` +
    `import --update: ${updated.pages} changed pages in ${updated.seconds.toFixed(1)} s (${updated.batches} batches, ` +
    `${updated.refreshed} pages refreshed, reports included), ${rate(updated.pages, updated.seconds)} pages/s ` +
    `(${Math.round((100 * updated.pagesPerSecond) / imported.pagesPerSecond)}% of the import's); ` +
    `batches ${updated.applySeconds.toFixed(1)} s (${rate(updated.pages, updated.applySeconds)} pages/s), ` +
    `refresh ${updated.refreshSeconds.toFixed(1)} s, reports and autocompletion answers ${updated.reportSeconds.toFixed(1)} s\n`,
);
