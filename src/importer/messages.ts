/**
 * Interface messages: the i18n JSON files of every --messages DIR (`en.json`, `uk.json`, …, one per
 * language; `@metadata` skipped) into `message`, later directories overriding earlier ones key by key;
 * and the dump's MediaWiki: pages into `message_override` (what MessageCache reads from the wiki):
 * `MediaWiki:August` → (content language, 'august'), `MediaWiki:August/ru` → ('ru', 'august').
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ImportWriter } from '../store/import-writer.js';
import { isValidLanguageCode, lcfirst } from '../wiki/language.js';
import { NS_MEDIAWIKI } from '../wiki/namespaces.js';
import { inBatch } from './batch.js';

/** The message files of a folder: `<language code>.json`, as MediaWiki's languages/i18n holds them. */
export function messageFileNames(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.json') && isValidLanguageCode(n.slice(0, -5)) && n === n.toLowerCase())
    .sort();
}

/**
 * Why a --messages folder cannot be loaded (null: it can): missing, or without message files -- a folder
 * given one level too high (MediaWiki's languages/ instead of languages/i18n) would import no message.
 */
export function messageDirProblem(dir: string): string | null {
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return 'not a directory';
  if (messageFileNames(dir).length > 0) return null;
  const inner = path.join(dir, 'i18n');
  const hint = fs.statSync(inner, { throwIfNoEntry: false })?.isDirectory() ? ` (did you mean ${inner}?)` : '';
  return `no message files in it (LANGUAGE.json, such as en.json and uk.json, as MediaWiki's languages/i18n holds)${hint}`;
}

export function loadMessageDirs(w: ImportWriter, dirs: string[], log: (line: string) => void): number {
  for (const dir of dirs) {
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`--messages ${dir}: not a directory`);
    for (const name of messageFileNames(dir)) {
      const lang = name.slice(0, -5);
      const file = path.join(dir, name);
      let data: unknown;
      try {
        data = JSON.parse(fs.readFileSync(file, 'utf8'));
      } catch (e) {
        throw new Error(`${file}: invalid JSON (${(e as Error).message})`);
      }
      if (data === null || typeof data !== 'object' || Array.isArray(data)) {
        log(`warning: ${file}: not a JSON object of messages; skipped`);
        continue;
      }
      inBatch(w, () => {
        for (const [key, text] of Object.entries(data as Record<string, unknown>)) {
          if (key === '@metadata' || typeof text !== 'string') continue;
          w.messages.write(lang, key, text);
        }
      });
    }
  }
  return w.messages.count();
}

/**
 * MediaWiki: pages → overrides. The key is the title's DB key with its first letter lowercased
 * (message keys are compared with underscores); a last "/code" segment names the language when it is
 * a language code, otherwise it is part of the key. Style sheets and scripts are no messages.
 */
export function writeMessageOverrides(w: ImportWriter, contentLang: string, knownLangs: Set<string>): number {
  // MediaWiki: pages are few, even on big wikis
  const rows = w.pages.inNamespaceWithText(NS_MEDIAWIKI).map((r) => ({ title: r.dbkey, text: r.text, model: r.model }));
  const overrides: Array<[string, string, string]> = [];
  for (const r of rows) {
    const o = messageOverrideKey(r.title, r.model, contentLang, knownLangs);
    if (o !== null) overrides.push([o.lang, o.key, r.text]);
  }
  inBatch(w, () => {
    for (const o of overrides) w.messages.writeOverride(...o);
  });
  return overrides.length;
}

/**
 * The message a MediaWiki: page overrides (its DB key without the namespace), or null when it is no
 * message: a style sheet or script, or the content language's own code as a suffix.
 */
export function messageOverrideKey(
  title: string,
  model: string,
  contentLang: string,
  knownLangs: ReadonlySet<string>,
): { lang: string; key: string } | null {
  if (model !== 'wikitext' || /\.(css|js|json)$/.test(title)) return null;
  let key = title;
  let lang = contentLang;
  const slash = key.lastIndexOf('/');
  if (slash > 0) {
    const code = key.slice(slash + 1);
    if (knownLangs.has(code)) {
      // MediaWiki:X/uk on a uk wiki is never read (content-language messages have no suffix)
      if (code === contentLang) return null;
      key = key.slice(0, slash);
      lang = code;
    }
  }
  return { lang, key: lcfirst(key) };
}

/**
 * Language codes a "/code" suffix may name, for telling "August/ru" (a language) from "Foo/bar" (a
 * key): those with a message file, plus the common codes (a wiki without --messages still has them).
 */
export function messageLanguages(w: ImportWriter, extra: Iterable<string>): Set<string> {
  const langs = new Set(w.messages.languages());
  for (const l of extra) langs.add(l);
  return langs;
}
