/**
 * Where the demo wiki's data lives: demo-wiki/ at the package root (pages as wikitext files, the site's
 * facts as JSON; demo-wiki/README.md describes the layout). Resolved from this module's own location so
 * that `npm start` finds it from any working directory, in a clean clone as in an installed package.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/src/demo/folder.js → the package root → demo-wiki/ */
export const DEMO_WIKI_DIR = join(resolve(fileURLToPath(import.meta.url), '../../../..'), 'demo-wiki');

/** A JSON file of the demo wiki's data folder, parsed (the caller states its shape). */
export function readDemoJson<T>(relativePath: string): T {
  return JSON.parse(readFileSync(join(DEMO_WIKI_DIR, relativePath), 'utf8')) as T;
}
