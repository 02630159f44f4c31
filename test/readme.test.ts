/**
 * The README stays true: its "Modules" section names every module the server registers, and nothing the
 * server does not offer; its first lines are the newcomer's two commands.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRegistry } from '../src/modules/registry.js';

const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

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
    assert.deepEqual(names.filter((n) => !section.includes('`' + n + '`')), []);
  });
});
