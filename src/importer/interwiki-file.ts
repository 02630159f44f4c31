/**
 * The interwiki map of an import: the operator's list (`--interwiki FILE`) or the one shipped in
 * data/interwiki.list (MediaWiki's default list plus the interlanguage prefixes of a Wikipedia-family wiki).
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { InterwikiMap } from '../wiki/interwiki.js';

const DEFAULT_FILE = fileURLToPath(new URL('../../../data/interwiki.list', import.meta.url));
let defaultMap: InterwikiMap | undefined;

export function defaultInterwikiMap(): InterwikiMap {
  return (defaultMap ??= InterwikiMap.parseList(fs.readFileSync(DEFAULT_FILE, 'utf8')));
}

export function loadInterwikiMap(file: string | undefined): InterwikiMap {
  if (file === undefined) return defaultInterwikiMap();
  try {
    return InterwikiMap.parseList(fs.readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`--interwiki ${file}: ${(e as Error).message}`);
  }
}
