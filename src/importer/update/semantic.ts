/** Semantic MediaWiki's data of the pages a batch writes, and the autocompletion answers made again. */
import type { TitleCodec } from '../../wiki/titles.js';
import type { TitleRef } from '../../store/import-writer.js';
import type { SemanticUpdateWriter } from '../../store/update-writer.js';
import { applySemanticOps, stagedValue, TopKTrie } from '../semantic-hook.js';
import { COMPLETION_LIST_VALUES } from '../../semantic/completion-answer.js';
import type { SemanticOps } from '../semantic-analysis.js';
import { PREDEFINED_BY_KEY } from '../../semantic/types.js';

/**
 * A page's semantic data written as the import's semantic hook writes it (applySemanticOps), but on the
 * live tables: subjects found or made, properties made with their predefined type, the _ERRP property at
 * once, query strings normalised at once (every property's type is known: it is in the database).
 */
export class SemanticPages {
  private conceptProperty: number | undefined;

  constructor(
    private readonly w: SemanticUpdateWriter,
    private readonly codec: TitleCodec,
    private readonly retyped: (pages: TitleRef[]) => void,
  ) {
    this.conceptProperty = w.propertyId('_CONC');
  }

  private property(key: string): number {
    const id = this.w.propertyId(key);
    if (id !== undefined) return id;
    const made = this.w.addProperty(key, PREDEFINED_BY_KEY.get(key)?.type ?? '_wpg');
    if (key === '_CONC') this.conceptProperty = made;
    return made;
  }

  private typeOf = (key: string): string => {
    const id = this.w.propertyId(key);
    return (id !== undefined && this.w.propertyType(id)) || '_wpg';
  };

  page(page: TitleRef, ops: SemanticOps): void {
    const w = this.w;
    applySemanticOps(ops, {
      addSubject: (ns, dbkey, subobject, sortkey) => w.subject(ns, dbkey, subobject, sortkey),
      property: (key) => this.property(key),
      propertyId: (key) => this.property(key),
      errpProperty: () => this.property('_ERRP'),
      addValue: (...value) => w.addValue(...value),
      addCompletionValue: (source, value) => w.addCompletionValue(source, value),
      stage: (subject, property, seq, text) => {
        const v = stagedValue(text, property === this.conceptProperty, { codec: this.codec, typeOf: this.typeOf });
        w.addValue(subject, property, seq, v.di, v.item, null, null, v.sortNum);
      },
      declareType: (property, type) => {
        if (w.setType(property, type)) this.retyped(w.pagesUsing(property));
      },
    });
    w.valueSubjects(page);
  }
}

/** word rows read per statement while a source's precomputed answers are made */
const WORD_CHUNK = 10000;

/** the precomputed answers of every source whose values changed, made as the import makes them (TopKTrie) */
export function rebuildCompletionAnswers(w: SemanticUpdateWriter): void {
  for (const source of w.changedCompletionSources()) {
    w.clearHeavyPrefixes(source);
    const trie = new TopKTrie(w.heavyRows, COMPLETION_LIST_VALUES, (key, ids) => w.addHeavyPrefix(source, key, ids));
    for (let after: [string, number] | null = null; ; ) {
      const rows = w.wordKeys(source, after, WORD_CHUNK);
      if (rows.length === 0) break;
      for (const [key, value] of rows) trie.add(key, value);
      const last = rows[rows.length - 1];
      after = [last[0], last[1]];
    }
    trie.end();
    w.completionSourceDone(source);
  }
}
