/**
 * `{{#concept: [[…query…]] | documentation }}` on a page (SMW 2.2's ConceptParserFunction): the concept's
 * description box, or its errors. How `[[Concept:X]]` is answered is the query engine's
 * (src/semantic/engine/concept-expansion.ts).
 */
import type { Store } from '../../store/store.js';
import type { TitleCodec } from '../../wiki/titles.js';
import { smwMessage } from '../../semantic/query/messages.js';
import { SMW_NS_CONCEPT } from '../../semantic/query/limits.js';
import { propertyNames } from '../../semantic/query/parser.js';
import { conceptBox, defineConcept } from '../../semantic/concept.js';
import { encodeMessages } from '../../semantic/printers/result-printer.js';
import { propertyTypeOf } from '../../semantic/engine/property-types.js';
import type { InlineQueryCall, InlineQueryOutput, TitleRef } from '../../wikitext/expansion-rounds.js';

/**
 * The output of `{{#concept:…}}` on `page` (ConceptParserFunction::parse): an error outside the Concept
 * namespace and for a page's second #concept, the query's errors if it has any, else the description box.
 */
export async function conceptCallOutput(
  store: Store,
  codec: TitleCodec,
  call: InlineQueryCall,
  page: TitleRef,
): Promise<InlineQueryOutput> {
  const warn = (messages: string[]) => ({ text: encodeMessages(messages, 'double'), expand: false });
  if (page.ns !== SMW_NS_CONCEPT) return warn([smwMessage('smw_no_concept_namespace')]);
  if (call.fn === 'concept-again') return warn([smwMessage('smw_multiple_concepts')]);
  const [query = '', docu] = call.args;
  const def = defineConcept(query, docu, { codec, typeOf: await propertyTypeOf(store.semantic, propertyNames(query, codec)) });
  if (def.errors.length > 0) return warn(def.errors);
  const special = codec.nsName(-1) ?? 'Special';
  return { text: conceptBox(page.dbkey.replace(/_/g, ' '), codec.prefixedText(page.ns, page.dbkey), special, def.value), expand: false };
}
