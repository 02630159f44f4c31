/**
 * Parser::statelessFetchTemplate of 1.25 for a batch: the latest text of each page to transclude,
 * following "up to 1 redirect", and null where there is no page (or the redirect leads nowhere). Used by
 * every expansion over the asynchronous store (action=parse, expandtemplates, interface messages): at most
 * four store calls for the whole batch, whatever its size.
 */
import type { PageStore, TitleKey } from '../store/page-store.js';
import type { MessageStore } from '../store/message-store.js';
import {
  queryKey,
  titleKey,
  type InlineQueryCall,
  type InlineQueryOutput,
  type RoundFetcher,
  type Transcluded,
} from '../wikitext/expansion-rounds.js';

export type { Transcluded };

/** `${ns}|${dbkey}`, the key of the maps below */
export const transclusionKey: (t: TitleKey) => string = titleKey;

/**
 * @param wanted the pages to transclude: every one gets an entry in `texts`
 * @param exists pages whose existence alone is asked (#ifexist), read in the same first call
 */
export async function fetchTransclusions(
  pages: PageStore,
  wanted: readonly TitleKey[],
  exists: readonly TitleKey[] = [],
): Promise<{ texts: Map<string, Transcluded | null>; existing: Set<string> }> {
  const rows = await pages.byTitles([...wanted, ...exists]);
  const byKey = new Map(rows.map((r) => [transclusionKey({ ns: r.ns, dbkey: r.title }), r]));
  const wantedKeys = new Set(wanted.map(transclusionKey));
  const redirects = rows.filter((r) => r.isRedirect && wantedKeys.has(transclusionKey({ ns: r.ns, dbkey: r.title })));
  const targets = redirects.length ? await pages.redirectTargets(redirects.map((r) => r.pageid)) : new Map();
  const targetRows = targets.size ? await pages.byTitles([...targets.values()].map((t) => ({ ns: t.ns, dbkey: t.dbkey }))) : [];
  const targetByKey = new Map(targetRows.map((r) => [transclusionKey({ ns: r.ns, dbkey: r.title }), r]));
  // asked-for key → the page whose text it uses
  const source = new Map<string, { pageid: number; ns: number; dbkey: string } | null>();
  for (const w of wanted) {
    const r = byKey.get(transclusionKey(w));
    const target = r?.isRedirect ? targets.get(r.pageid) : undefined;
    const page = target ? targetByKey.get(transclusionKey(target)) : r;
    source.set(transclusionKey(w), page ? { pageid: page.pageid, ns: page.ns, dbkey: page.title } : null);
  }
  const ids = [...new Set([...source.values()].flatMap((v) => (v ? [v.pageid] : [])))];
  const found = ids.length ? await pages.latestTexts(ids) : new Map<number, string>();
  const texts = new Map<string, Transcluded | null>();
  for (const [key, v] of source) {
    const text = v ? found.get(v.pageid) : undefined;
    texts.set(key, v && text !== undefined ? { text, ns: v.ns, dbkey: v.dbkey } : null);
  }
  return { texts, existing: new Set(exists.map(transclusionKey).filter((k) => byKey.has(k))) };
}

/**
 * The fetcher of the expansion rounds over the store (expandInRounds): the templates and #ifexist targets
 * a round asked for in one fetchTransclusions batch, the message texts its {{int:}} calls read in one
 * messages call and, with `answer`, its inline queries beside them.
 */
export function roundFetcher(
  store: { pages: PageStore; messages: MessageStore },
  answer?: (calls: InlineQueryCall[]) => Promise<InlineQueryOutput[]>,
): RoundFetcher {
  return async (round, snap) => {
    const { wantedTemplates: wanted, wantedExists: exists, wantedQueries: queries, wantedMessages } = round;
    const pagesRead = async () => {
      if (wanted.length === 0 && exists.length === 0) return;
      const { texts, existing } = await fetchTransclusions(store.pages, wanted, exists);
      for (const t of exists) snap.exists.set(titleKey(t), existing.has(titleKey(t)));
      for (const [k, v] of texts) snap.templates.set(k, v);
    };
    const messagesRead = async () => {
      const { langs, keys } = wantedMessages;
      if (langs.length === 0 || keys.length === 0) return;
      snap.messageTexts.addTexts(langs, keys, await store.messages.texts(langs, keys));
    };
    const queriesAnswered = async () => {
      if (!answer || queries.length === 0) return;
      const answers = await answer(queries);
      queries.forEach((q, i) => snap.queries.set(queryKey(q), answers[i]));
    };
    await Promise.all([pagesRead(), messagesRead(), queriesAnswered()]);
  };
}
