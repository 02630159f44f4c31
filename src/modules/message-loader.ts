/**
 * Interface messages over the asynchronous store: the message code of src/wiki/messages.ts renders
 * synchronously from a MessageSnapshot; this fills the snapshot in batches (one store call for all the
 * messages of a request, more only for what rendering turns out to need: {{int:}} of other messages,
 * transcluded templates) and renders again until nothing new is asked for.
 */
import { fetchTransclusions, transclusionKey } from './transclusion.js';
import type { Store } from '../store/store.js';
import type { KeyRange } from '../store/message-store.js';
import type { Wiki } from '../wiki/wiki.js';
import { MessageSnapshot, Messages, catalogLanguages, languageFallbacks, lookupKeys, type ParserEnv } from '../wiki/messages.js';

/** Rounds of fetching what a render asked for; each round follows one more level of nesting. */
const MAX_ROUNDS = 8;

export class MessageLoader {
  readonly snapshot = new MessageSnapshot();
  readonly env: ParserEnv;

  constructor(
    private readonly store: Store,
    private readonly wiki: Wiki,
  ) {
    const snapshot = this.snapshot;
    this.env = {
      codec: wiki.codec,
      siteName: wiki.info.sitename,
      contentLang: wiki.lang,
      fetchTemplate: (ns, dbkey) => snapshot.template(ns, dbkey),
    };
  }

  /**
   * Fetch what looking up these message keys in language `code` reads, before rendering: first that
   * language's (and the content language's) overrides and catalog, one store call; then, in one more call
   * and only for the keys those catalogs lack, the rest of both fallback chains. Rendering then reads
   * nothing new in the common case, and runs once. What was fetched before is not fetched again.
   */
  async prefetch(keys: readonly string[], code: string): Promise<void> {
    return this.prefetchAll([{ keys, code }]);
  }

  /** prefetch() of several (keys, language) lookups with its two store calls for all of them */
  async prefetchAll(lookups: ReadonlyArray<{ keys: readonly string[]; code: string }>): Promise<void> {
    // nothing to look up (e.g. an empty key range): no plans, no store call
    if (lookups.every((l) => l.keys.length === 0)) return;
    const plans = lookups.map(({ keys, code }) =>
      Object.assign({}, this.lookupLanguages(code), { stored: [...new Set(keys.flatMap(lookupKeys))] }),
    );
    await this.fetchUnfetched(plans.map((p) => ({ langs: p.first, keys: p.stored })));
    await this.fetchUnfetched(
      plans.map((p) => ({ langs: p.rest, keys: p.stored.filter((k) => !p.first.some((l) => this.snapshot.catalogHas(l, k))) })),
    );
  }

  /** one store call: each part's keys not yet fetched in all of its languages, in every language of the parts */
  private async fetchUnfetched(parts: Array<{ langs: string[]; keys: string[] }>): Promise<void> {
    const langs = new Set<string>();
    const keys = new Set<string>();
    for (const p of parts) {
      if (p.langs.length === 0) continue;
      const unfetched = p.keys.filter((k) => !p.langs.every((l) => this.snapshot.isFetched(l, k)));
      if (unfetched.length === 0) continue;
      for (const l of p.langs) langs.add(l);
      for (const k of unfetched) keys.add(k);
    }
    await this.fetchTexts([...langs], [...keys]);
  }

  /**
   * The message keys of a key range (those of the catalogs of `catalogLangs`, plus the overrides of
   * `overrideLang` when given; each once, in no particular order), with what prefetch(keys, code) would
   * fetch for them, in one store call.
   */
  async listRange(catalogLangs: readonly string[], overrideLang: string | null, range: KeyRange, code: string): Promise<string[]> {
    const { first, rest } = this.lookupLanguages(code);
    const { keys, texts } = await this.store.messages.rangeTexts(catalogLangs, overrideLang, range, first, rest);
    this.snapshot.addTexts(first, keys, texts);
    if (rest.length) {
      this.snapshot.addTexts(
        rest,
        keys.filter((k) => !first.some((l) => this.snapshot.catalogHas(l, k))),
        [],
      );
    }
    return keys;
  }

  /**
   * The languages a lookup in `code` reads: `first` its own and the content language's (overrides and
   * catalogs), `rest` the remainder of both fallback chains, needed only for keys `first` lacks.
   */
  private lookupLanguages(code: string): { first: string[]; rest: string[] } {
    // they depend on the two codes only: kept across requests (bounded: amlang is the client's)
    const key = this.wiki.lang + '|' + code;
    let langs = LOOKUP_LANGUAGES.get(key);
    if (!langs) {
      langs = computeLookupLanguages(code, this.wiki.lang);
      if (LOOKUP_LANGUAGES.size >= MAX_LOOKUP_LANGUAGES) LOOKUP_LANGUAGES.delete(LOOKUP_LANGUAGES.keys().next().value!);
      LOOKUP_LANGUAGES.set(key, langs);
    }
    return langs;
  }

  /** Run `render` until it reads nothing that was not fetched (at most MAX_ROUNDS fetches). */
  async render<T>(render: (messages: Messages) => T): Promise<T> {
    for (let round = 0; ; round++) {
      const out = render(new Messages(this.snapshot, this.env));
      if (this.snapshot.complete || round >= MAX_ROUNDS) return out;
      await this.fetchWanted();
    }
  }

  /** The text of one message in language `code` as MessageCache::get gives it, or false. */
  async get(key: string, code: string): Promise<string | false> {
    await this.prefetch([key], code);
    return this.render((m) => m.get(key, true, code));
  }

  private async fetchTexts(langs: string[], keys: string[]): Promise<void> {
    if (langs.length === 0 || keys.length === 0) return;
    this.snapshot.addTexts(langs, keys, await this.store.messages.texts(langs, keys));
  }

  private async fetchWanted(): Promise<void> {
    const langs = [...this.snapshot.wantedTexts.keys()];
    const keys = [...new Set([...this.snapshot.wantedTexts.values()].flatMap((s) => [...s]))];
    const templates = [...this.snapshot.wantedTemplates.values()];
    await Promise.all([this.fetchTexts(langs, keys), this.fetchTemplates(templates)]);
  }

  private async fetchTemplates(titles: Array<{ ns: number; dbkey: string }>): Promise<void> {
    if (titles.length === 0) return;
    const { texts } = await fetchTransclusions(this.store.pages, titles);
    for (const t of titles) this.snapshot.addTemplate(t.ns, t.dbkey, texts.get(transclusionKey(t))?.text ?? null);
  }
}

/** "content|code" → the languages a lookup reads (MessageLoader.lookupLanguages) */
const LOOKUP_LANGUAGES = new Map<string, { first: string[]; rest: string[] }>();
const MAX_LOOKUP_LANGUAGES = 256;

function computeLookupLanguages(code: string, content: string): { first: string[]; rest: string[] } {
  const first = code === content ? [code] : [code, content];
  const rest = [
    ...new Set([...catalogLanguages(code), ...languageFallbacks(code), ...catalogLanguages(content), ...languageFallbacks(content)]),
  ].filter((l) => !first.includes(l));
  return { first, rest };
}
