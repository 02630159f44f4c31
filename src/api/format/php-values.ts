/**
 * The result tree as the PHP array ApiResult::getResultData hands a printer (1.25's applyTransformations):
 * each node an ordered list of [key, value] entries whose keys are PHP array keys (a decimal integer
 * string becomes an int), with the BC transform for formatversion 1 (content under '*', false members
 * dropped and true ones "", BCarray/BCassoc back to the default type) or without it for formatversion 2,
 * and the "Types" transform (a list whose keys are 0…n-1 is an array, ksorted; anything else assoc).
 * The php, txt, dbg, dump and wddx printers print this; XML walks the tree itself (it reads metadata).
 */
import { ARRAY_TYPE, BC_BOOLS, CONTENT, KeyedRowList, PrintedJson, RowList } from '../result.js';
import type { PhpArrayValue, PhpKey, PhpValue } from '../../php/values.js';

/** Integers PHP keeps as int array keys: canonical decimal, within 64 bits (here: safe integers). */
const INT_KEY = /^(?:0|-?[1-9][0-9]{0,15})$/;

/** PHP's array key for a string key: "12" is the int 12, "012" and "1.5" stay strings. */
export function phpArrayKey(key: string): PhpKey {
  if (INT_KEY.test(key)) {
    const n = Number(key);
    if (Number.isSafeInteger(n)) return n;
  }
  return key;
}

/** The tree's nodes the writer prints in its own way, as the plain node they stand for. */
export function plainNode(value: object): object {
  if (value instanceof PrintedJson) return value.value() as object;
  if (value instanceof KeyedRowList) return value.node();
  if (value instanceof RowList) return value.objects();
  return value;
}

/** ApiResult::getResultData( null, transforms ) for the PHP-array printers. */
export function toPhpValue(node: unknown, bc: boolean): PhpValue {
  switch (typeof node) {
    case 'string':
    case 'number':
    case 'boolean':
      return node;
    case 'bigint':
      return Number(node);
    case 'object':
      if (node === null) return null;
      return toPhpArray(plainNode(node), bc);
    default:
      return null;
  }
}

function toPhpArray(node: object, bc: boolean): PhpArrayValue {
  const entries: Array<[PhpKey, PhpValue]> = [];
  const arrayType = (node as { [ARRAY_TYPE]?: string })[ARRAY_TYPE];
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const item = node[i];
      if (item === undefined) continue;
      if (bc && typeof item === 'boolean') {
        if (!item) continue;
        entries.push([i, '']);
      } else entries.push([i, toPhpValue(item, bc)]);
    }
    // fv2 keeps BCassoc an object keyed 0, 1, …; BC makes it the default type (a list)
    return finish(entries, !bc && arrayType === 'BCassoc', false);
  }
  const contentKey = (node as { [CONTENT]?: string })[CONTENT];
  const bcBools = bc ? (node as { [BC_BOOLS]?: readonly string[] })[BC_BOOLS] : undefined;
  let content: [PhpKey, PhpValue] | undefined;
  const members: Iterable<[string, unknown]> = node instanceof Map ? (node as Map<string, unknown>) : Object.entries(node);
  for (const [key, item] of members) {
    if (item === undefined) continue;
    let value: PhpValue;
    if (bc && typeof item === 'boolean' && !bcBools?.includes(key)) {
      if (!item) continue;
      value = '';
    } else value = toPhpValue(item, bc);
    // BC: the content member is renamed '*' (ApiResult::applyTransformations keeps it where it was
    // unless it moves: PHP's `$data['*'] = $data[$k]; unset($data[$k])` appends it)
    if (bc && key === contentKey) content = ['*', value];
    else entries.push([phpArrayKey(key), value]);
  }
  if (content) entries.push(content);
  if (!bc && arrayType === 'BCarray') return finish(entries, false, true);
  return finish(entries, !bc && arrayType === 'BCassoc', false);
}

/** The Types transform: the default type is an array when every key is an int and the largest is n-1. */
function finish(entries: Array<[PhpKey, PhpValue]>, assoc: boolean, forceArray: boolean): PhpArrayValue {
  if (assoc) return { entries, assoc: true };
  let maxKey = -1;
  let allInt = true;
  for (const [k] of entries) {
    if (typeof k === 'string') {
      allInt = false;
      break;
    }
    if (k > maxKey) maxKey = k;
  }
  if (forceArray || (allInt && maxKey === entries.length - 1)) {
    // ksort + array_values
    const sorted = entries.slice().sort((a, b) => compareKeys(a[0], b[0]));
    return { entries: sorted.map((e, i) => [i, e[1]]), assoc: false };
  }
  return { entries, assoc: true };
}

function compareKeys(a: PhpKey, b: PhpKey): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}
