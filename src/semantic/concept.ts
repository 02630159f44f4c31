/**
 * SMW 2.2's concepts: `{{#concept: [[…query…]] | documentation }}` on a Concept: page gives the page a
 * `_CONC` value (DIConcept: the query's normalised string, the documentation, the query's features, size
 * and depth); `[[Concept:X]]` in a query stands for X's query (ConceptDescription).
 *
 * The value is stored as a JSON array (no U+0000, which PostgreSQL's text cannot hold) and written out as
 * SMW writes a DIConcept's serialization, PHP's serialize() of the object, when it is shown.
 */
import { parseConditions } from './query/parser.js';
import { queryFeatures, queryString } from './query/descriptions.js';
import { smwMessage } from './query/messages.js';
import type { LanguageContext } from './query/properties.js';
import { decodeCharReferences } from '../wiki/titles.js';
import { escapeElementText, escapeXmlText } from '../wiki/html.js';
import { phpSerializeString } from '../php/serialize.js';

export interface ConceptValue {
  /** Description::getQueryString of the pruned concept query */
  query: string;
  /** the documentation as written ('' when none) */
  docu: string;
  features: number;
  size: number;
  depth: number;
}

export interface ConceptDefinition {
  value: ConceptValue;
  /** the query's errors (parse errors, smw_querytoolarge with the concept limits) */
  errors: string[];
}

/** ConceptParserFunction::parse: the concept of `{{#concept: query | docu }}` (the query read as #ask's conditions). */
export function defineConcept(queryArg: string, docu: string | undefined, ctx: LanguageContext): ConceptDefinition {
  const parsed = parseConditions(conceptConditions(queryArg), ctx, true);
  const description = parsed.description;
  return {
    value: {
      query: queryString(description, false, ctx.codec),
      docu: docu ?? '',
      features: queryFeatures(description),
      size: parsed.size,
      depth: parsed.depth,
    },
    errors: parsed.errors,
  };
}

/**
 * SMWQueryProcessor::getComponentsFromFunctionParams on the one parameter: a text with '=' outside
 * `[[…::…]]` is a parameter (and the concept's conditions are then empty), `?…` a printout.
 */
function conceptConditions(raw: string): string {
  const p = raw.trim().replace(/\[\[(?:([^:][^\]]*):[=:])+([^[\]]*)\]\]/gu, (m) => m.replace(/=/g, '-3D'));
  if (p === '' || p[0] === '?' || p[0] === '+' || p.includes('=')) return '';
  return p.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/-3D/g, '=');
}

export function encodeConcept(v: ConceptValue): string {
  return JSON.stringify([v.query, v.docu, v.features, v.size, v.depth]);
}

export function decodeConcept(item: string): ConceptValue | null {
  try {
    const a = JSON.parse(item) as unknown;
    if (!Array.isArray(a) || a.length !== 5) return null;
    const [query, docu, features, size, depth] = a as [string, string, number, number, number];
    return { query, docu, features, size, depth };
  } catch {
    return null;
  }
}

/**
 * ConceptParserFunction's description box (buildConceptInfoBox): the heading, the RDF export link as
 * wikitext (SMWInfolink in SMW_OUTPUT_WIKI), the documentation (Html::element escapes & and <) and the
 * query with its '[' as references, so that the parse that follows makes no links of it.
 */
export function conceptBox(title: string, prefixedTitle: string, specialNs: string, v: ConceptValue): string {
  return (
    '<div class="smwfact">' +
    `<span class="smwfactboxhead">${smwMessage('smw_concept_description', title)}</span>` +
    `<span class="smwrdflink"><span class="rdflink">[[${specialNs}:ExportRDF/${prefixedTitle}|${smwMessage('smw_viewasrdf')}]]</span></span>` +
    '<br />' +
    `<p class="concept-documenation">${escapeElementText(v.docu)}</p>` +
    `<pre>${v.query.replace(/\[/g, '&#x005B;')}</pre>` +
    '<br />' +
    '</div>'
  );
}

/** The query a stored concept text means (ConceptDescriptionInterpreter: undoes SMWConceptValue's escaping). */
export function conceptQueryText(v: ConceptValue): string {
  return v.query.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** smwfXMLContentEncode: & < > of the text with its character references decoded */
function xmlContentEncode(s: string): string {
  return escapeXmlText(decodeCharReferences(s));
}

/**
 * DIConcept::getSerialization of a value read back from the store (SMWDIHandlerConcept::dataItemFromDBKeys):
 * serialize() of the object, its protected members named "\0*\0name"; the database hands the numbers
 * back as strings and the cache members are unset (null).
 */
export function conceptSerialization(v: ConceptValue): string {
  const prot = (name: string) => phpSerializeString('\0*\0' + name);
  return (
    'O:14:"SMW\\DIConcept":8:{' +
    prot('m_concept') +
    phpSerializeString(v.query) +
    prot('m_docu') +
    phpSerializeString(xmlContentEncode(v.docu)) +
    prot('m_features') +
    phpSerializeString(String(v.features)) +
    prot('m_size') +
    phpSerializeString(String(v.size)) +
    prot('m_depth') +
    phpSerializeString(String(v.depth)) +
    prot('cacheStatus') +
    'N;' +
    prot('cacheDate') +
    'N;' +
    prot('cacheCount') +
    'N;' +
    '}'
  );
}
