/**
 * action=sfautocomplete (Semantic Forms 3.3, SFAutocompleteAPI): values for a form field's
 * autocompletion, `{"sfautocomplete":[{"title":"Value"},…]}` in ascending byte order, at most 1000.
 *
 * Dispatch, first match wins: baseprop (+property, basevalue) → property → category → concept →
 * cargo_table+cargo_field → namespace → external_url → nothing. `substr` must be given (code
 * `param_substr`) unless baseprop or base_cargo_table is, before anything else is looked at. Source
 * errors are thrown without a code, as SF does (`"code":""`, empty MediaWiki-API-Error header).
 *
 * Matching, better than the original (which lowercased ASCII only and missed the other apostrophes):
 * the value, or a word after a space or underscore in it, starts with `substr`, compared case-
 * insensitively for all of Unicode with ' ’ ʼ as one character; backed by the word-prefix index.
 * Unlike SF's 72-byte o_hash, long texts are returned whole.
 */
import { limitParam } from '../../api/param-presets.js';
import type { ActionModule, ModuleContext } from '../../api/types.js';
import { PrintedJson } from '../../api/result.js';
import { compareBytes } from '../../wiki/collation.js';
import { fold, matchesFolded } from '../../semantic/fold.js';
import { queryOptions } from '../../semantic/query/parameters.js';
import { parseConditions } from '../../semantic/query/parser.js';
import { expandConcepts } from '../../semantic/engine/concept-expansion.js';
import { answerConditions, queryLanguage } from '../../semantic/engine/query-engine.js';
import type { PrintedAnswer } from '../../store/semantic-store.js';

/** SMW's Concept namespace */
const NS_CONCEPT_ID = 108;

/** $sfgMaxAutocompleteValues */
export const MAX_VALUES = 1000;

export const sfAutocompleteModule: ActionModule = {
  kind: 'action',
  name: 'sfautocomplete',
  prefix: '',
  description: 'Autocompletion used by the Semantic Forms extension.',
  params: {
    limit: limitParam(10, 'A limit on the number of results returned'),
    substr: { type: 'string', help: 'Search substring' },
    property: { type: 'string', help: 'Semantic property for which to search values' },
    category: { type: 'string', help: 'Category for which to search values' },
    concept: { type: 'string', help: 'Concept for which to search values' },
    cargo_table: { type: 'string', help: 'Cargo table for which to search values' },
    cargo_field: { type: 'string', help: 'Cargo field for which to search values' },
    field_is_array: { type: 'boolean', help: 'Whether the field is a list' },
    namespace: { type: 'string', help: 'Namespace for which to search values' },
    external_url: { type: 'string', help: 'Alias for external URL from which to get values' },
    baseprop: { type: 'string', help: 'A previous property in the form to check against' },
    base_cargo_table: { type: 'string', help: 'The Cargo table for the base field' },
    base_cargo_field: { type: 'string', help: 'The Cargo field for the base field' },
    basevalue: { type: 'string', help: 'The value to check for the previous property' },
  },
  examples: [
    'action=sfautocomplete&substr=te',
    'action=sfautocomplete&substr=te&property=Has_author',
    'action=sfautocomplete&substr=te&category=Authors',
  ],
  async run(ctx) {
    const p = ctx.params as Record<string, string | undefined>;
    const substr = p.substr ?? '';
    if (p.baseprop === undefined && p.base_cargo_table === undefined && substr === '') {
      ctx.die('param_substr', 'The substring must be specified');
    }
    const semantic = ctx.store.semantic;
    const folded = fold(substr);
    let data: string[] | PrintedAnswer;
    if (p.baseprop !== undefined) {
      // without a property SF 3.3 leaves $data unset and dies with it: dieUsage(null), code and text empty
      if (p.property === undefined) return ctx.die('', '');
      data = await semantic.autocompleteDependent(
        p.property.replace(/ /g, '_'),
        p.baseprop.replace(/ /g, '_'),
        p.basevalue ?? '',
        MAX_VALUES,
      );
      data = data.map((v) => v.replace(/_/g, ' '));
    } else if (p.property !== undefined) {
      data = await semantic.autocompleteProperty(p.property.replace(/ /g, '_'), folded, MAX_VALUES, ctx.compactJson ?? undefined);
    } else if (p.category !== undefined) {
      const pages = await semantic.autocompleteCategory(p.category, 3, folded);
      const titles = new Set(pages.map((t) => ctx.wiki.titleText(t.ns, t.dbkey)));
      data = [...titles].sort(compareBytes).slice(0, MAX_VALUES);
    } else if (p.concept !== undefined) {
      const t = ctx.wiki.codec.parse(p.concept, NS_CONCEPT_ID);
      const exists = t !== null && t.ns === NS_CONCEPT_ID && (await ctx.store.pages.byTitles([t])).length > 0;
      if (!exists) return ctx.die('', `Could not find concept: ${p.concept}`);
      data = await conceptPages(ctx, t.ns, t.dbkey, folded);
    } else if (p.cargo_table !== undefined && p.cargo_field !== undefined) {
      data = []; // Cargo is not installed
    } else if (p.namespace !== undefined) {
      const ns = namespaceByName(ctx.wiki.codec.namespaces.values(), p.namespace);
      if (ns === undefined) return ctx.die('', `Could not find namespace: ${p.namespace}`);
      data = await semantic.autocompleteNamespace(ns, folded, MAX_VALUES, ctx.compactJson ?? undefined);
    } else if (p.external_url !== undefined) {
      return ctx.die('', 'No external URLs are specified for autocompletion on this wiki');
    } else {
      data = [];
    }
    // a heavy prefix's answer comes printed in this request's form: copied, not escaped again
    ctx.result.set('sfautocomplete', Array.isArray(data) ? data.map((title) => ({ title })) : new PrintedJson(data.form, data.json));
  },
};

/**
 * SFUtils::getAllPagesForConcept: the concept's members (its query evaluated as `[[Concept:X]]` is, at most
 * $sfgMaxAutocompleteValues of them), each as its page's text, those matching `substr`, in byte order. A
 * concept SMW cannot answer (circular, too large for inline evaluation) has no members: SF reads the
 * result without looking at its errors.
 */
async function conceptPages(ctx: ModuleContext, ns: number, dbkey: string, folded: string): Promise<string[]> {
  const codec = ctx.wiki.codec;
  const queryString = `[[${ctx.wiki.titleText(ns, dbkey)}]]`;
  const lang = await queryLanguage(ctx.store.semantic, codec, { queryString, printouts: [], sort: undefined });
  const parsed = parseConditions(queryString, lang);
  const errors = [...parsed.errors];
  const description = await expandConcepts(parsed.description, codec, ctx.store.semantic, errors);
  if (errors.length > 0) return [];
  const answer = await answerConditions(ctx.store.semantic, lang, {
    description,
    sort: queryOptions(new Map()).sort,
    limit: MAX_VALUES,
    offset: 0,
  });
  const pages: string[] = [];
  for (const subject of answer.subjects) {
    const text = ctx.wiki.titleText(subject.ns, subject.dbkey) + (subject.subobject === '' ? '' : `#${subject.subobject}`);
    if (matchesFolded(text, folded)) pages.push(text);
  }
  return pages.sort(compareBytes);
}

/**
 * SFUtils::getAllPagesForNamespace: the name exactly as the content language writes it (underscores),
 * then the English canonical names; 'Main' and 'main' are the main namespace.
 */
function namespaceByName(namespaces: Iterable<{ id: number; name: string; canonical?: string }>, name: string): number | undefined {
  const target = name === 'Main' || name === 'main' ? '' : name;
  const list = [...namespaces];
  for (const n of list) if (n.name.replace(/ /g, '_') === target) return n.id;
  for (const n of list) if ((n.id === 0 ? '' : (n.canonical ?? '').replace(/ /g, '_')) === target) return n.id;
  return undefined;
}
