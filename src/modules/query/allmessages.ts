/**
 * meta=allmessages (ApiQueryAllMessages of MediaWiki 1.25): interface messages of a language with the
 * wiki's local overrides applied, optionally transformed ({{PLURAL}}, {{GENDER}}, {{int:}}, …).
 *
 * The list: "*" = every key of the language's merged catalog (plus, with amincludelocal, the keys of
 * the content language's MediaWiki: pages) in byte order; read from the store as key ranges (amprefix,
 * amfrom and amto narrow the range, so a prefix never reads the whole catalog). An explicit list is
 * used in the given order. Then, as in 1.25: amprefix keeps the first contiguous run of names with the
 * prefix, amfilter keeps names containing the text, output starts at the name exactly equal to amfrom
 * (nothing at all when there is none), stops at the first name greater than amto, and amcustomised
 * filters on the existence of the MediaWiki: page. An empty amprefix or amfilter matches nothing (PHP 5's
 * strpos with an empty needle).
 */
import type { QueryModule, QueryModuleContext } from '../../api/types.js';
import { texts } from '../../api/errors.js';
import { withContent, type Obj } from '../../api/result.js';
import { compareBytes } from '../../wiki/collation.js';
import { isValidCodeMw, ucfirst } from '../../wiki/language.js';
import { catalogLanguages, isStoredKeyForm, userLanguage, type RenderTitle } from '../../wiki/messages.js';
import { phpLooseEquals, phpLooseGreater } from '../../php/compare.js';
import { isNumericString } from '../../php/numbers.js';
import { messageText } from '../../wikitext/message-transform.js';
import type { KeyRange } from '../../store/message-store.js';
import { MessageLoader } from '../message-loader.js';
import { NS_MEDIAWIKI } from '../../wiki/namespaces.js';

/** $wgAPIMaxResultSize: a result that would grow beyond this is cut, with amfrom to continue. */
const MAX_RESULT_SIZE = 8 * 1024 * 1024;

export const allmessagesModule: QueryModule = {
  kind: 'meta',
  name: 'allmessages',
  prefix: 'am',
  description: 'Return messages from this site.',
  params: {
    messages: { type: 'string', multi: true, default: '*', help: 'Which messages to output. "*" (default) means all messages.' },
    prop: { type: ['default'], multi: true, help: 'Which properties to get.' },
    enableparser: {
      type: 'boolean',
      default: false,
      help: 'Set to enable parser, will preprocess the wikitext of message (substitute magic words, handle templates etc.).',
    },
    nocontent: { type: 'boolean', default: false, help: 'If set, do not include the content of the messages in the output.' },
    includelocal: {
      type: 'boolean',
      default: false,
      help: "Also include local messages, i.e. messages that don't exist in the software but do exist as a MediaWiki: page.",
    },
    args: { type: 'string', multi: true, allowDuplicates: true, help: 'Arguments to be substituted into message.' },
    filter: { type: 'string', help: 'Return only messages with names that contain this string.' },
    customised: { type: ['all', 'modified', 'unmodified'], default: 'all', help: 'Return only messages in this customisation state.' },
    lang: { type: 'string', help: 'Return messages in this language.' },
    from: { type: 'string', help: 'Return messages starting at this message.' },
    to: { type: 'string', help: 'Return messages ending at this message.' },
    title: { type: 'string', help: 'Page name to use as context when parsing message (for enableparser option).' },
    prefix: { type: 'string', help: 'Return messages with this prefix.' },
  },
  examples: ['action=query&meta=allmessages&amprefix=ipb-', 'action=query&meta=allmessages&ammessages=august|mainpage&amlang=de'],
  cacheMode(params) {
    if (params.lang === undefined) return 'anon-public-user-private';
    if (params.enableparser) return 'anon-public-user-private';
    return 'public';
  },
  async run(ctx) {
    const p = ctx.params;
    const content = ctx.wiki.lang;
    if (p.lang !== undefined && !isValidCodeMw(p.lang)) return ctx.die('invalidlang', 'Invalid language code for parameter lang');
    const lang: string = p.lang ?? userLanguage(ctx.request.raw.uselang, content);
    let title: RenderTitle = { ns: 0, dbkey: 'API' };
    if (p.enableparser && p.title !== undefined) {
      const t = ctx.wiki.codec.parse(p.title);
      if (t === null) return ctx.die('invalidtitle', texts.invalidTitle(p.title));
      title = { ns: t.ns, dbkey: t.dbkey };
    }
    const props = new Set<string>((p.prop as string[] | undefined) ?? []);
    const args = (p.args as string[] | undefined) ?? [];
    const prefix = p.prefix as string | undefined;
    const filter = p.filter as string | undefined;
    const from = p.from as string | undefined;
    const to = p.to as string | undefined;
    const loader = new MessageLoader(ctx.store, ctx.wiki);

    // Which messages
    const requested = p.messages as string[];
    let names: string[];
    if (requested.includes('*')) {
      names = prefix === '' ? [] : await allKeys(loader, lang, content, !!p.includelocal, keyRange(prefix, from, to));
    } else {
      names = requested;
      if (prefix !== undefined) names = firstRunWithPrefix(names, prefix);
    }
    if (filter !== undefined) names = filter === '' ? [] : names.filter((n) => n.includes(filter));

    const customised = p.customised as 'all' | 'modified' | 'unmodified';
    const foreign = lang !== content;
    // one store call for the texts of every listed message (none when the key range brought them), one
    // for the MediaWiki: pages when asked
    // (the names of a key range are stored keys, read with their texts: only another form needs more)
    const fromRange = requested.includes('*');
    const [, customisedPages] = await Promise.all([
      loader.prefetch(fromRange ? names.filter((n) => !isStoredKeyForm(n)) : names, lang),
      customised === 'all' ? Promise.resolve(new Set<string>()) : existingMessagePages(ctx, names, lang, foreign),
    ]);
    const { list, cont } = await loader.render((messages) => {
      const list: unknown[] = [];
      let cont: string | undefined;
      let skip = from !== undefined;
      let size = 0;
      for (const name of names) {
        if (skip && name === from) skip = false;
        if (to !== undefined && phpLooseGreater(name, to)) break;
        if (skip) continue;
        const entry: Obj = { name };
        if (customised !== 'all') {
          const isCustomised = customisedPages.has(name);
          if (isCustomised !== (customised === 'modified')) continue;
          if (isCustomised) entry.customised = true;
        }
        let entrySize = Buffer.byteLength(name) + (entry.customised ? 1 : 0);
        if (!messages.exists(name, lang)) {
          entry.missing = true;
          entrySize += 1;
        } else {
          const text = p.enableparser ? messageText(messages, name, args, lang, title) : messages.plain(name, args, lang);
          if (!p.nocontent) {
            withContent(entry, 'content', text);
            entrySize += Buffer.byteLength(text);
          }
          if (props.has('default')) {
            if (messages.get(name, false, lang) === false) {
              entry.defaultmissing = true;
              entrySize += 1;
            } else {
              const def = messages.plain(name, [], lang, false);
              if (!phpLooseEquals(def, text)) {
                entry.default = def;
                entrySize += Buffer.byteLength(def);
              }
            }
          }
        }
        if (size + entrySize > MAX_RESULT_SIZE) {
          cont = name;
          break;
        }
        size += entrySize;
        list.push(entry);
      }
      return { list, cont };
    });
    if (cont !== undefined) ctx.setContinue('from', cont);
    ctx.result.object('query').allmessages = list;
  },
};

/**
 * Language::getMessageKeysFor (+ the local keys), within a key range, in byte order; their texts come
 * with them, in the same store call.
 */
async function allKeys(
  loader: MessageLoader,
  lang: string,
  content: string,
  includeLocal: boolean,
  range: KeyRange | null,
): Promise<string[]> {
  if (range === null) return [];
  const keys = await loader.listRange(catalogLanguages(lang), includeLocal ? content : null, range, lang);
  return [...keys].sort(compareBytes);
}

/**
 * The key range a "*" list can be read from: keys with the prefix, from amfrom on (the list must then
 * start exactly at amfrom, which the loop checks), up to amto. null when the range is empty.
 */
function keyRange(prefix: string | undefined, from: string | undefined, to: string | undefined): KeyRange | null {
  const range: KeyRange = {};
  const max = (a: string | undefined, b: string | undefined) =>
    a === undefined ? b : b === undefined ? a : compareBytes(a, b) >= 0 ? a : b;
  range.min = max(prefix, from);
  if (prefix !== undefined) range.below = prefixUpperBound(prefix);
  // a numeric amto compares numerically in PHP: leave it to the loop
  if (to !== undefined && !isNumericString(to)) range.max = to;
  if (range.min !== undefined && range.below !== undefined && compareBytes(range.min, range.below) >= 0) return null;
  for (const k of Object.keys(range) as Array<keyof KeyRange>) if (range[k] === undefined) delete range[k];
  return range;
}

/** The smallest string greater than every string starting with `prefix` (its last code point + 1). */
export function prefixUpperBound(prefix: string): string | undefined {
  // the common case: a last character of the BMP outside the surrogates, whose successor is one too
  const last = prefix.length ? prefix.charCodeAt(prefix.length - 1) : -1;
  if ((last >= 0 && last < 0xd7ff) || (last >= 0xe000 && last < 0xffff)) return prefix.slice(0, -1) + String.fromCharCode(last + 1);
  const cps = [...prefix].map((c) => c.codePointAt(0)!);
  while (cps.length) {
    const last = cps.pop()!;
    if (last < 0x10ffff) {
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return String.fromCodePoint(...cps, next);
    }
  }
  return undefined;
}

/** ApiQueryAllMessages' prefix filter: the first contiguous run of names starting with the prefix. */
function firstRunWithPrefix(names: string[], prefix: string): string[] {
  if (prefix === '') return [];
  const out: string[] = [];
  for (const n of names) {
    if (n.startsWith(prefix)) out.push(n);
    else if (out.length) break;
  }
  return out;
}

/**
 * AllMessagesTablePager::getCustomisedStatuses: the names whose MediaWiki: page exists (MediaWiki:Name for
 * the content language, MediaWiki:Name/lang for another), read in one store call.
 */
async function existingMessagePages(ctx: QueryModuleContext, names: string[], lang: string, foreign: boolean): Promise<Set<string>> {
  const pageOf = new Map<string, string>();
  for (const name of names) {
    const page = ucfirst(name);
    if (page === '') continue;
    if (!foreign) pageOf.set(name, page);
    else if (!page.includes('/')) pageOf.set(name, `${page}/${lang}`);
  }
  const rows = await ctx.store.pages.byTitles([...new Set(pageOf.values())].map((dbkey) => ({ ns: NS_MEDIAWIKI, dbkey })));
  const existing = new Set(rows.map((r) => r.title));
  return new Set([...pageOf].filter(([, page]) => existing.has(page)).map(([name]) => name));
}
