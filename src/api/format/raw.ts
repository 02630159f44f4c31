/**
 * format=rawfm (ApiFormatJson in raw mode): getResultData() without transforms, so the metadata shows
 * as the members ApiResult keeps it under: `_element` (the tag name of list items, from the XML name
 * table), `_content` (which member is the content), `_type` (BCarray, BCassoc) and `_BC_bools`.
 */
import { ARRAY_TYPE, BC_BOOLS, CONTENT } from '../result.js';
import { plainNode } from './php-values.js';
import { indexedTagNameAt } from './xml.js';

export function rawTree(tree: unknown): unknown {
  return rawNode(tree, []);
}

function rawNode(value: unknown, path: string[]): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const node = plainNode(value);
  const out = new Map<string, unknown>();
  const arrayType = (node as { [ARRAY_TYPE]?: string })[ARRAY_TYPE];
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      if (item !== undefined) out.set(String(i), rawNode(item, path.concat(String(i))));
    });
  } else {
    const members: Iterable<[string, unknown]> = node instanceof Map ? (node as Map<string, unknown>) : Object.entries(node);
    for (const [k, item] of members) if (item !== undefined) out.set(k, rawNode(item, path.concat(k)));
  }
  const tag = indexedTagNameAt(path);
  if (tag !== undefined) out.set('_element', tag);
  const content = (node as { [CONTENT]?: string })[CONTENT];
  if (content !== undefined) out.set('_content', content);
  const bcBools = (node as { [BC_BOOLS]?: readonly string[] })[BC_BOOLS];
  if (bcBools !== undefined) out.set('_BC_bools', bcBools);
  if (arrayType !== undefined) out.set('_type', arrayType);
  return out;
}
