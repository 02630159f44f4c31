/**
 * format=xml (ApiFormatXml::recXmlPrint of MediaWiki 1.25) over the result tree: the BC transform
 * without its boolean, '*' and subelement steps ('BC' => nobool, no*, nosub), BCassoc as assoc (its
 * items get `_idx`), scalar members as attributes, a node's content as its text (`xml:space="preserve"`),
 * list items under their indexed tag name (or `_v`), int keys of an assoc as `_idx`.
 *
 * The tree carries no tag names: 1.25's modules set them with setIndexedTagName, and here they are data
 * of the core, by path (xml-names.json), with the members that print as elements of their own.
 */
import { ARRAY_TYPE, BC_BOOLS, CONTENT } from '../result.js';
import { phpArrayKey, plainNode } from './php-values.js';
import { phpScalarString } from '../../php/values.js';
import xmlNames from './xml-names.json' with { type: 'json' };

/** A node of the path table: what holds at this path, and the paths below it. */
interface NameNode {
  children: Map<string, NameNode>;
  any?: NameNode;
  tag?: string;
  subelements?: string[];
  /** ApiResult::setArrayType( 'assoc' ): int keys are printed as _idx even when they are 0…n-1 */
  assoc?: boolean;
}

function newNameNode(): NameNode {
  return { children: new Map() };
}

function insert(root: NameNode, path: string): NameNode {
  let node = root;
  for (const segment of path === '' ? [] : path.split('.')) {
    if (segment === '*') {
      node.any ??= newNameNode();
      node = node.any;
    } else {
      let next = node.children.get(segment);
      if (!next) {
        next = newNameNode();
        node.children.set(segment, next);
      }
      node = next;
    }
  }
  return node;
}

/** The path table, built once per process from the data file. */
const NAMES: NameNode = (() => {
  const root = newNameNode();
  for (const [path, tag] of Object.entries(xmlNames.indexedTagNames)) insert(root, path).tag = tag;
  for (const [path, keys] of Object.entries(xmlNames.subelements)) insert(root, path).subelements = keys;
  for (const path of xmlNames.assoc) insert(root, path).assoc = true;
  return root;
})();

const NO_MATCHES: readonly NameNode[] = [];

function step(matches: readonly NameNode[], key: string): readonly NameNode[] {
  if (matches.length === 0) return NO_MATCHES;
  const next: NameNode[] = [];
  for (const m of matches) {
    const exact = m.children.get(key);
    if (exact) next.push(exact);
    if (m.any) next.push(m.any);
  }
  return next.length ? next : NO_MATCHES;
}

export interface XmlOptions {
  /** the root element: api, or ApiOpenSearch's SearchSuggestion */
  rootName: string;
  /** xmlfm: line breaks and indentation (recXmlPrint's $indent = -2) */
  pretty: boolean;
  /** `<?xml-stylesheet …?>` after the declaration (ApiFormatXml::addXslt), already escaped */
  stylesheetHref?: string;
  /** includexmlnamespace: the root's xmlns (unless the tree has one) */
  namespace?: string;
}

export const API_XML_NAMESPACE = 'http://www.mediawiki.org/xml/api/';

/** The whole answer: the declaration, the stylesheet instruction, the root element. */
export function toXml(tree: unknown, opts: XmlOptions): string {
  const out: string[] = ['<?xml version="1.0"?>'];
  if (opts.stylesheetHref !== undefined) out.push(`<?xml-stylesheet href="${opts.stylesheetHref}" type="text/xsl" ?>`);
  let root = tree;
  if (opts.namespace !== undefined && root instanceof Map && !root.has('xmlns')) {
    root = new Map(root as Map<string, unknown>);
    (root as Map<string, unknown>).set('xmlns', opts.namespace);
  }
  recXmlPrint(out, opts.rootName, root, opts.pretty ? -2 : null, [], [NAMES]);
  return out.join('');
}

type Attributes = Array<[string, string]>;

/** A node's members as recXmlPrint sees them: PHP keys, the content key, and whether int keys get `_idx`. */
interface Members {
  entries: Array<[string | number, unknown]>;
  contentKey: string;
  bcBools: readonly string[] | undefined;
  indexSubelements: boolean;
}

function membersOf(value: object, assoc: boolean): Members {
  const node = plainNode(value);
  const arrayType = (node as { [ARRAY_TYPE]?: string })[ARRAY_TYPE];
  const entries: Array<[string | number, unknown]> = [];
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) if (node[i] !== undefined) entries.push([i, node[i]]);
    // ApiFormatXml's Custom transform: BCassoc becomes assoc, so that its items carry _idx (as an assoc's do)
    return { entries, contentKey: '*', bcBools: undefined, indexSubelements: assoc || arrayType === 'BCassoc' };
  }
  const members: Iterable<[string, unknown]> = node instanceof Map ? (node as Map<string, unknown>) : Object.entries(node);
  let maxKey = -1;
  let allInt = true;
  for (const [key, item] of members) {
    if (item === undefined) continue;
    const k = phpArrayKey(key);
    if (typeof k === 'string') allInt = false;
    else if (k > maxKey) maxKey = k;
    entries.push([k, item]);
  }
  let indexSubelements = true;
  if (!assoc && arrayType !== 'BCassoc' && allInt && maxKey === entries.length - 1) {
    // the default type of a list with keys 0…n-1 is 'array': ksorted, no _idx
    entries.sort((a, b) => (a[0] as number) - (b[0] as number));
    indexSubelements = false;
  }
  return {
    entries,
    contentKey: (node as { [CONTENT]?: string })[CONTENT] ?? '*',
    bcBools: (node as { [BC_BOOLS]?: readonly string[] })[BC_BOOLS],
    indexSubelements,
  };
}

function isNode(v: unknown): v is object {
  return typeof v === 'object' && v !== null;
}

/** ApiFormatXml::recXmlPrint */
function recXmlPrint(
  out: string[],
  name: string | null,
  value: unknown,
  indent: number | null,
  attributes: Attributes,
  matches: readonly NameNode[],
): void {
  let indstr = '';
  if (indent !== null) {
    if (name !== null) indent += 2;
    indstr = '\n' + ' '.repeat(indent);
  }
  if (!isNode(value)) {
    if (value === null || value === undefined) out.push(indstr, element(name!, attributes, ''));
    else out.push(indstr, element(name!, attributes, scalarText(value)));
    return;
  }
  let tag: string | undefined;
  let subelementKeys: string[] | undefined;
  let assoc = false;
  for (const m of matches) {
    tag ??= m.tag;
    if (m.assoc) assoc = true;
    if (m.subelements) subelementKeys = subelementKeys ? subelementKeys.concat(m.subelements) : m.subelements;
  }
  const { entries, contentKey, bcBools, indexSubelements } = membersOf(value, assoc);
  const indexedTagName = tag !== undefined ? mangleName(tag) : '_v';

  let content: unknown = null;
  let hasContent = false;
  const subelements: Array<[string, unknown, string]> = [];
  const indexed: Array<[number, unknown]> = [];
  for (const [k, oldv] of entries) {
    let v = oldv;
    if (typeof v === 'boolean' && !(typeof k === 'string' && bcBools?.includes(k))) v = v ? 'true' : 'false';
    if (name !== null && k === contentKey) {
      content = v;
      hasContent = v !== null;
    } else if (typeof k === 'number') indexed.push([k, v]);
    else if (isNode(v)) subelements.push([mangleName(k), v, k]);
    else if (name === null || subelementKeys?.includes(k)) subelements.push([mangleName(k), contentNode(v), k]);
    else if (typeof oldv === 'boolean') {
      if (oldv) attributes.push([mangleName(k), '']);
    } else if (v !== null) attributes.push([mangleName(k), scalarText(v)]);
  }

  if (hasContent) {
    if (subelements.length || indexed.length) {
      subelements.push([mangleName(contentKey), contentNode(content), contentKey]);
      hasContent = false;
    } else if (!isNode(content)) {
      if (!attributes.some((a) => a[0] === 'xml:space')) attributes.push(['xml:space', 'preserve']);
    }
  }

  if (hasContent) {
    if (!isNode(content)) out.push(indstr, element(name!, attributes, scalarText(content)));
    else {
      if (name !== null) out.push(indstr, openElement(name, attributes));
      recXmlPrint(out, null, content, indent, [], step(matches, contentKey));
      if (name !== null) out.push(indstr, `</${name}>`);
    }
  } else if (!indexed.length && !subelements.length) {
    if (name !== null) out.push(indstr, element(name, attributes, ''));
  } else {
    if (name !== null) out.push(indstr, openElement(name, attributes));
    for (const [k, v, key] of subelements) recXmlPrint(out, k, v, indent, [], step(matches, key));
    for (const [k, v] of indexed) {
      recXmlPrint(out, indexedTagName, v, indent, indexSubelements ? [['_idx', String(k)]] : [], step(matches, String(k)));
    }
    if (name !== null) out.push(indstr, `</${name}>`);
  }
}

/** array( 'content' => $v, META_CONTENT => 'content', META_TYPE => 'assoc' ) */
function contentNode(v: unknown): object {
  const node: Record<string, unknown> & { [CONTENT]?: string } = { content: v };
  node[CONTENT] = 'content';
  return node;
}

function scalarText(v: unknown): string {
  return typeof v === 'string' ? v : phpScalarString(v as number | boolean | null);
}

/** Xml::element( $name, $attribs, $contents ): '' makes the short tag */
function element(name: string, attributes: Attributes, contents: string): string {
  if (contents === '') return `<${name}${expandAttributes(attributes)} />`;
  return `<${name}${expandAttributes(attributes)}>${htmlspecialchars(contents)}</${name}>`;
}

function openElement(name: string, attributes: Attributes): string {
  return `<${name}${expandAttributes(attributes)}>`;
}

function expandAttributes(attributes: Attributes): string {
  let s = '';
  for (const [k, v] of attributes) s += ` ${k}="${encodeAttribute(v)}"`;
  return s;
}

const CONTENT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#039;',
  '\n': '&#10;',
  '\r': '&#13;',
  '\t': '&#9;',
};

/** htmlspecialchars( $s ) with PHP's default ENT_COMPAT */
function htmlspecialchars(s: string): string {
  return /[&<>"]/.test(s) ? s.replace(/[&<>"]/g, (c) => CONTENT_ESCAPES[c]!) : s;
}

/** Sanitizer::encodeAttribute: htmlspecialchars( ENT_QUOTES ), then the whitespace a parser would normalise */
function encodeAttribute(s: string): string {
  return /[&<>"'\n\r\t]/.test(s) ? s.replace(/[&<>"'\n\r\t]/g, (c) => ATTRIBUTE_ESCAPES[c]!) : s;
}

// ApiFormatXml::mangleName's character classes: ':' left out (XML namespaces), '_' reserved as a first character
const NAME_START =
  'A-Za-z\\u{C0}-\\u{D6}\\u{D8}-\\u{F6}\\u{F8}-\\u{2FF}\\u{370}-\\u{37D}\\u{37F}-\\u{1FFF}\\u{200C}-\\u{200D}\\u{2070}-\\u{218F}' +
  '\\u{2C00}-\\u{2FEF}\\u{3001}-\\u{D7FF}\\u{F900}-\\u{FDCF}\\u{FDF0}-\\u{FFFD}\\u{10000}-\\u{EFFFF}';
const NAME_CHAR = NAME_START + '_\\-.0-9\\u{B7}\\u{300}-\\u{36F}\\u{203F}-\\u{2040}';
const VALID_NAME = new RegExp(`^[${NAME_START}][${NAME_CHAR}]*$`, 'u');
const INVALID_NAME_CHAR = new RegExp(`[^${NAME_CHAR}]`, 'gu');

/** ApiFormatXml::mangleName: an invalid XML name becomes '_' + its invalid characters as .HEX. */
export function mangleName(name: string): string {
  if (name === '') return '_';
  if (VALID_NAME.test(name)) return name;
  return '_' + name.replace(/\./g, '.2E.').replace(INVALID_NAME_CHAR, (c) => `.${c.codePointAt(0)!.toString(16).toUpperCase()}.`);
}

/** The indexed tag name the table gives the node at this path (rawfm shows it as `_element`). */
export function indexedTagNameAt(path: readonly string[]): string | undefined {
  let matches: readonly NameNode[] = [NAMES];
  for (const key of path) matches = step(matches, key);
  for (const m of matches) if (m.tag !== undefined) return m.tag;
  return undefined;
}
