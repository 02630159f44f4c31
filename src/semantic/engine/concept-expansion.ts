/**
 * `[[Concept:X]]` in a query, as SMW 2.2's SQLStore answers it without a concept cache
 * (ConceptDescriptionInterpreter with $smwgQConceptCaching = CONCEPT_CACHE_HARD): X's stored query
 * replaces the condition when it is no larger than an inline query may be ($smwgQMaxSize,
 * $smwgQMaxDepth), else the condition holds no page and the query gets `smw_concept_cache_miss`. A concept
 * met again while its own query is being expanded is circular (`smw-query-condition-circular`): SMW's
 * CircularReferenceGuard allows one level, and leaves the count raised after it reports.
 * A missing concept page, or one without #concept, holds no page (no error, as in SMW).
 *
 * Concept pages are read level by level (one subjectData call per level, one propertyTypes call for the
 * properties their queries name), so a query costs a few round trips whatever its concepts nest.
 */
import type { SemanticStore } from '../../store/semantic-store.js';
import type { TitleCodec } from '../../wiki/titles.js';
import { DI } from '../types.js';
import { conceptQueryText, decodeConcept, type ConceptValue } from '../concept.js';
import { conjoin, disjoin, queryString, type Description } from '../query/descriptions.js';
import { SMW_NS_CONCEPT, SMW_QMAX_DEPTH, SMW_QMAX_SIZE } from '../query/limits.js';
import { smwMessage } from '../query/messages.js';
import { parseConditions, propertyNames } from '../query/parser.js';
import { propertyTypeOf } from './property-types.js';

/** Concept expansions one query may make (a query of concepts naming each other several times grows fast). */
const MAX_EXPANSIONS = 100;

/** the concepts a description names, added to `out` (none: the query has no concept to expand) */
function conceptNames(d: Description, out: Set<string>): void {
  if (d.k === 'concept') out.add(d.dbkey);
  else if (d.k === 'some') conceptNames(d.desc, out);
  else if (d.k === 'and' || d.k === 'or') for (const x of d.items) conceptNames(x, out);
}

/** The description with its concepts expanded; SMW's errors are appended to `errors`. */
export async function expandConcepts(d: Description, codec: TitleCodec, store: SemanticStore, errors: string[]): Promise<Description> {
  let wanted = new Set<string>();
  conceptNames(d, wanted);
  if (wanted.size === 0) return d;
  // the concepts' parsed queries, read breadth-first before the (depth-first, ordered) expansion
  const parsed = new Map<string, { value: ConceptValue; description: Description } | null>();
  const types = new Map<string, string>();
  for (let level = 0; wanted.size > 0 && level <= MAX_EXPANSIONS; level++) {
    const keys = [...wanted].filter((k) => !parsed.has(k));
    wanted = new Set();
    if (keys.length === 0) break;
    const data = await store.subjectData(keys.map((dbkey) => ({ ns: SMW_NS_CONCEPT, dbkey, subobject: '' })));
    const values = keys.map((_, i) => {
      const conc = data[i]?.properties.find((p) => p.property === '_CONC')?.values.find((v) => v.type === DI.CONCEPT);
      return conc ? decodeConcept(conc.item) : null;
    });
    const typeOf = await propertyTypeOf(
      store,
      values.flatMap((v) => (v ? propertyNames(conceptQueryText(v), codec) : [])),
      types,
    );
    keys.forEach((k, i) => {
      const v = values[i];
      if (!v) return parsed.set(k, null);
      const description = parseConditions(conceptQueryText(v), { codec, typeOf }).description;
      parsed.set(k, { value: v, description });
      conceptNames(description, wanted);
    });
  }

  const guard = new Map<string, number>();
  let expansions = 0;
  const expand = (x: Description): Description => {
    switch (x.k) {
      case 'some':
        return { k: 'some', prop: x.prop, desc: expand(x.desc) };
      case 'and':
        return conjoin(x.items.map(expand));
      case 'or':
        return disjoin(x.items.map(expand));
      case 'concept': {
        const count = (guard.get(x.dbkey) ?? 0) + 1;
        guard.set(x.dbkey, count);
        if (count > 1) {
          errors.push(smwMessage('smw-query-condition-circular', queryString(x, false, codec)));
          return x;
        }
        const unmark = () => guard.set(x.dbkey, guard.get(x.dbkey)! - 1);
        const c = parsed.get(x.dbkey);
        if (!c) {
          unmark();
          return x;
        }
        if (c.value.size > SMW_QMAX_SIZE || c.value.depth > SMW_QMAX_DEPTH) {
          errors.push(smwMessage('smw_concept_cache_miss', x.dbkey.replace(/_/g, ' ')));
          unmark();
          return x;
        }
        if (c.description.k === 'thing') {
          errors.push(smwMessage('smw_emptysubquery'));
          unmark();
          return x;
        }
        if (++expansions > MAX_EXPANSIONS) {
          errors.push(smwMessage('smw_querytoolarge', queryString(x, false, codec).replace(/\[/g, '&#x005B;')));
          unmark();
          return x;
        }
        const out = expand(c.description);
        unmark();
        return out;
      }
      default:
        return x;
    }
  };
  return expand(d);
}
