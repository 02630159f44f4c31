/**
 * How a query is run against the SemanticStore interface, for action=ask/askargs and the inline
 * queries alike (SMWQueryProcessor with the SQLStore's QueryEngine): the types of the properties a query
 * names are loaded before it is parsed, its conditions are answered with its sort keys' types, and its
 * printouts are asked for as the store reads them. The SQL itself is the store's
 * (src/store/semantic-query.ts); `[[Concept:X]]` is expanded by ./concept-expansion.ts.
 */
import type { TitleCodec } from '../../wiki/titles.js';
import type { AskAnswer, AskPrintoutSpec, AskRequest, SemanticStore } from '../../store/semantic-store.js';
import { propertyNames } from '../query/parser.js';
import { PRINT_CATS, PRINT_CCAT, PRINT_PROP, type PrintRequest } from '../query/print-requests.js';
import { typeOfKey, userProperty, type LanguageContext } from '../query/properties.js';
import { propertyTypeOf } from './property-types.js';

/** What a query names properties in: its conditions, its printouts and its sort parameter. */
export interface QueryText {
  queryString: string;
  /** `?…` printout strings, or property names when `plainPrintouts` */
  printouts: string[];
  plainPrintouts?: boolean;
  /** the sort parameter as given */
  sort: string | undefined;
}

/**
 * The language context of a query: the properties' types decide how values are read and printed, so
 * the types of every property it names are read first, in one store call.
 */
export async function queryLanguage(store: SemanticStore, codec: TitleCodec, query: QueryText): Promise<LanguageContext> {
  const names = new Set(propertyNames(query.queryString, codec));
  for (const printout of query.printouts) {
    const head = query.plainPrintouts ? printout : printout.split('=')[0].split('#')[0];
    const property = userProperty(head.trim());
    if (!('error' in property)) names.add(property.key);
  }
  for (const sortKey of (query.sort ?? '').split(',')) {
    const property = userProperty(sortKey.trim());
    if (sortKey.trim() !== '' && !('error' in property)) names.add(property.key);
  }
  return { codec, typeOf: await propertyTypeOf(store, names) };
}

/** The subjects of a (concept-expanded) description, sorted by keys whose types the language context gives. */
export function answerConditions(store: SemanticStore, lang: LanguageContext, request: Omit<AskRequest, 'sortTypes'>): Promise<AskAnswer> {
  const sortTypes: Record<string, string> = {};
  for (const [key] of request.sort) if (key !== '') sortTypes[key] = typeOfKey(lang, key);
  return store.askQuery({ description: request.description, sort: request.sort, sortTypes, limit: request.limit, offset: request.offset });
}

/**
 * The printouts the store reads for these print requests (a property's values, or the categories), and
 * for each print request the index of its printout (-1 for the subject itself).
 */
export function printoutSpecs(printRequests: readonly PrintRequest[]): { specs: AskPrintoutSpec[]; specIndex: number[] } {
  const specs: AskPrintoutSpec[] = [];
  const specIndex: number[] = [];
  for (const pr of printRequests) {
    if (pr.mode === PRINT_PROP) {
      specIndex.push(specs.length);
      specs.push({ kind: 'prop', key: pr.prop!.key, inverse: pr.prop!.inverse });
    } else if (pr.mode === PRINT_CATS || pr.mode === PRINT_CCAT) {
      specIndex.push(specs.length);
      specs.push({ kind: 'cats' });
    } else specIndex.push(-1);
  }
  return { specs, specIndex };
}
