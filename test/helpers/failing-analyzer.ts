/** A hook analyzer (see src/importer/hooks.ts) that fails on the page Київ: for the importer's failure tests. */
import type { HookAnalyzer } from '../../src/importer/hooks.js';

export const analyzer: HookAnalyzer = (p) => {
  if (p.dbkey === 'Київ') throw new Error('the test analyzer refuses Київ');
  return p.dbkey.length;
};
