/**
 * A query is parsed with its properties' types (how a value is read): the declared types of the user
 * properties it names, read in one store call before parsing.
 */
import type { SemanticStore } from '../../store/semantic-store.js';
import type { LanguageContext } from '../query/properties.js';

/**
 * LanguageContext.typeOf over the declared types of the user properties among `names` (predefined ones,
 * "_…", have theirs built in): one store call for those not in `types` yet (none when there are none),
 * kept in `types`; a property nobody declared is a Page.
 */
export async function propertyTypeOf(
  store: SemanticStore,
  names: Iterable<string>,
  types = new Map<string, string>(),
): Promise<LanguageContext['typeOf']> {
  const wanted = [...names].filter((n) => !n.startsWith('_') && !types.has(n));
  if (wanted.length > 0) for (const [k, t] of await store.propertyTypes(wanted)) types.set(k, t);
  return (key) => types.get(key) ?? '_wpg';
}
