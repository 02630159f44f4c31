/**
 * The README stays true: its "Modules" section names every module the server registers, and nothing the
 * server does not offer; its first lines are the newcomer's two commands; it stays short; and the README and
 * docs/ name only paths that exist and link nothing outside the repository.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRegistry } from '../src/modules/registry.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The documents checked for paths and links, relative to the repository (docs/spec/ is a verbatim copy). */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => 'docs/' + f),
];

const PATH_ROOTS = ['src', 'docs', 'bench', 'scripts', 'test', '.ci', 'demo-wiki'];
/** A repository path inside a code span: starts one of PATH_ROOTS, not preceded by another path segment. */
const CODE_PATH = new RegExp(`(?<![\\w./-])(?:${PATH_ROOTS.map((r) => r.replace('.', '\\.')).join('|')})/[\\w./-]*`, 'g');

/** Repository paths a Markdown text names in code spans, trailing punctuation dropped. */
function codePaths(text: string): string[] {
  const found: string[] = [];
  for (const span of text.matchAll(/`([^`\n]+)`/g)) {
    for (const m of span[1].matchAll(CODE_PATH)) found.push(m[0].replace(/[.,:;]+$/, ''));
  }
  return found;
}

/** Link targets of a Markdown text, external URLs and in-page anchors left out, fragments dropped. */
function linkTargets(text: string): string[] {
  const targets: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1];
    if (/^[a-z]+:/i.test(target) || target.startsWith('#')) continue;
    targets.push(target.replace(/#.*$/, ''));
  }
  return targets;
}

describe('README', () => {
  it('starts with the commands that install and run the server, and the tests', () => {
    const head = readme.split('\n').slice(0, 8).join('\n');
    assert.match(head, /npm install && npm start/);
    assert.match(head, /npm install && npm test/);
  });

  it('lists every registered module in its Modules section', () => {
    const section = readme.slice(readme.indexOf('## Modules'), readme.indexOf('\n## ', readme.indexOf('## Modules') + 1));
    assert.ok(section.length > 100, 'a Modules section');
    const registry = createRegistry();
    const names = [...registry.actions.map((a) => a.name), ...registry.query.map((q) => q.name)];
    assert.deepEqual(
      names.filter((n) => !section.includes('`' + n + '`')),
      [],
    );
  });

  it('is under 200 lines', () => {
    const lines = readme.split('\n').length;
    assert.ok(lines < 200, `README.md has ${lines} lines; the details belong in docs/`);
  });

  it('links nothing outside the repository', () => {
    assert.deepEqual(
      linkTargets(readme).filter((t) => t.startsWith('../')),
      [],
    );
    assert.doesNotMatch(readme, /\.\.\/shared\//, 'the spec is in docs/spec/');
  });
});

describe('README.md and docs/*.md', () => {
  it('name only repository paths that exist', () => {
    const missing: string[] = [];
    for (const doc of DOCUMENTS) {
      for (const named of codePaths(readFileSync(path.join(ROOT, doc), 'utf8'))) {
        if (!existsSync(path.join(ROOT, named))) missing.push(`${doc} names ${named}`);
      }
    }
    assert.deepEqual(missing, [], `paths that do not exist:\n  ${missing.join('\n  ')}`);
  });

  it('link only to files of the repository that exist', () => {
    const broken: string[] = [];
    for (const doc of DOCUMENTS) {
      for (const target of linkTargets(readFileSync(path.join(ROOT, doc), 'utf8'))) {
        const resolved = path.resolve(ROOT, path.dirname(doc), target);
        if (path.relative(ROOT, resolved).startsWith('..')) broken.push(`${doc} links ${target}, outside the repository`);
        else if (!existsSync(resolved)) broken.push(`${doc} links ${target}, which does not exist`);
      }
    }
    assert.deepEqual(broken, [], `broken links:\n  ${broken.join('\n  ')}`);
  });
});
