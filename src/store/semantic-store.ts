/** Semantic data of the wiki, as the API modules need it (SMW's browsebysubject, ask and askargs, Semantic Forms' autocompletion). */
import type { Description } from '../semantic/query/descriptions.js';
import type { SortOrder } from '../semantic/query/parameters.js';

/** One value: SMW's data item type code and serialization. */
export interface SemanticValue {
  type: number;
  item: string;
}

export interface SemanticPropertyValues {
  /** property key: 'Населення' (DB key) or '_INST' */
  property: string;
  /** in annotation order */
  values: SemanticValue[];
}

export interface SemanticSubjectData {
  /** the subject's sort key (the value of _SKEY) */
  sortkey: string;
  /** properties in storage order (the module sorts them) */
  properties: SemanticPropertyValues[];
  /**
   * With subjectData's `subobjects` option: the other subobjects of the subject's page (same namespace
   * and title, a non-empty name), by name.
   */
  subobjects?: Map<string, SemanticSubjectData>;
}

/** A semantic subject: a page, or one of its subobjects (`subobject` '' for the page itself). */
export interface SubjectKey {
  ns: number;
  dbkey: string;
  subobject: string;
}

/** A compact JSON form: every non-ASCII character escaped, or UTF-8 text */
export type AnswerForm = 'ascii' | 'utf8';

/**
 * An autocompletion answer printed by the import (a heavy prefix's: semantic/completion-answer.ts):
 * Semantic Forms' list `[{"title":…},…]` as compact JSON in `form`, the same values in the same order as
 * the plain answer. autocompleteProperty and autocompleteNamespace give one, when asked with `printed`,
 * wherever they have it; the plain values elsewhere.
 */
export interface PrintedAnswer {
  form: AnswerForm;
  /** 'ascii': the text; 'utf8': its bytes */
  json: string | Uint8Array;
}

/**
 * SMW's usage statistics (UsageStatisticsListLookup::fetchList of SMW 2.2), as counted at the import and
 * again with each update's reports.
 */
export interface SemanticStatistics {
  /** by SMW's names: PROPUSES, ERRORUSES, USEDPROPS, DECLPROPS, OWNPAGE, QUERY, QUERYSIZE, CONCEPTS, SUBOBJECTS */
  counts: Record<string, number>;
  /** the inline queries' result formats with their number of queries, the most used first */
  formats: Array<[format: string, count: number]>;
}

export interface SemanticStore {
  /** SMW's usage statistics (action=smwinfo) */
  statistics(): Promise<SemanticStatistics>;

  /**
   * The stored data of each subject, a page (`subobject` '') or one of its subobjects, in the order
   * given; undefined where SMW does not know the subject. With `subobjects`, each known subject's data
   * also holds its page's other subobjects (read in the same statement: one range of the subject-name
   * index per page, as large as the page's subobjects).
   */
  subjectData(subjects: readonly SubjectKey[], options?: { subobjects?: boolean }): Promise<Array<SemanticSubjectData | undefined>>;

  /**
   * Semantic Forms' property source: the distinct stored values of a property (page values' DB keys,
   * texts) of which the value or a word of it starts with `foldedSubstr` (already folded), in byte order,
   * at most `limit`, as Semantic Forms shows them: underscores as spaces (the order is the stored form's). Only Page and text-like properties have values here; the property key is matched
   * exactly (no normalisation).
   */
  autocompleteProperty(property: string, foldedSubstr: string, limit: number): Promise<string[]>;
  autocompleteProperty(
    property: string,
    foldedSubstr: string,
    limit: number,
    printed: AnswerForm | undefined,
  ): Promise<string[] | PrintedAnswer>;

  /**
   * The `baseprop`/`basevalue` form: the distinct values of `property` on the subjects whose `baseProperty`
   * has the value `baseValue` (a page value's DB key, or a text), in byte order, at most `limit`.
   */
  autocompleteDependent(property: string, baseProperty: string, baseValue: string, limit: number): Promise<string[]>;

  /** Semantic Forms' namespace source: titles (DB keys with spaces) of the pages of `ns` that match, in the DB keys' byte order, at most `limit`. */
  autocompleteNamespace(ns: number, foldedSubstr: string, limit: number): Promise<string[]>;
  autocompleteNamespace(
    ns: number,
    foldedSubstr: string,
    limit: number,
    printed: AnswerForm | undefined,
  ): Promise<string[] | PrintedAnswer>;

  /**
   * Semantic Forms' category source: the pages (not subcategories) in `category` and its subcategories
   * down to `levels` levels whose title (without namespace) matches; each page once.
   */
  autocompleteCategory(category: string, levels: number, foldedSubstr: string): Promise<Array<{ ns: number; dbkey: string }>>;

  /** Type ids of these property keys (DB keys of user properties); properties SMW does not know are absent. */
  propertyTypes(keys: readonly string[]): Promise<Map<string, string>>;

  /**
   * SMW's query engine: the subjects (pages and subobjects) satisfying a query description, in the
   * requested order, `offset` skipped, at most `limit`, and whether more follow.
   */
  askQuery(req: AskRequest): Promise<AskAnswer>;

  /** Printout values of a query's subjects: per printout, per subject (in the order given), the values. */
  askPrintouts(subjects: readonly number[], printouts: readonly AskPrintoutSpec[]): Promise<AskPrintValue[][][]>;
}

export interface AskRequest {
  description: Description;
  /** [property key ('' = the page's sort key), order] */
  sort: Array<[string, SortOrder]>;
  /** type ids of the properties sorted by */
  sortTypes: Record<string, string>;
  limit: number;
  offset: number;
}

export interface AskSubject {
  id: number;
  ns: number;
  dbkey: string;
  subobject: string;
  /** the page exists (Title::isKnown) */
  exists: boolean;
}

export interface AskAnswer {
  subjects: AskSubject[];
  further: boolean;
}

/** a property's values (`inverse`: the pages having the subject as value) or the subject's categories */
export type AskPrintoutSpec = { kind: 'prop'; key: string; inverse: boolean } | { kind: 'cats' };

export interface AskPrintValue {
  /** data item type code and serialization */
  di: number;
  item: string;
  /** page values */
  ns?: number;
  dbkey?: string;
  subobject?: string;
  exists?: boolean;
}
