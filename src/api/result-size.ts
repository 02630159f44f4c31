/**
 * $wgAPIMaxResultSize, as ApiResult::addValue of MediaWiki 1.25 applies it: the result keeps a running
 * "size" (the byte length of every scalar added, keys and metadata not counted); a value that would take
 * it past the limit is refused — addValue returns false, the module sets its continuation at the item that
 * did not fit and stops — and the answer carries, under warnings.result, 1.25's text (its double space
 * and the English-formatted number included):
 * "This result was truncated because it would otherwise  be larger than the limit of 8,388,608 bytes".
 * One request therefore builds at most about that much, however large the pages it asks for.
 */

import { RowList } from './result.js';

/** MediaWiki's default $wgAPIMaxResultSize (8 MiB). */
export const DEFAULT_MAX_RESULT_SIZE = 8_388_608;

/** ApiResult::valueSize: strlen of scalars (UTF-8 bytes; true is "1", false ""), summed over arrays and objects. */
export function valueSize(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return Buffer.byteLength(value, 'utf8');
    case 'number':
    case 'bigint':
      return String(value).length;
    case 'boolean':
      return value ? 1 : 0;
    case 'object': {
      if (value === null) return 0;
      let s = 0;
      if (value instanceof RowList) {
        for (const v of value.values) s += valueSize(v);
        return s;
      }
      if (Array.isArray(value)) for (const v of value) s += valueSize(v);
      else if (value instanceof Map) for (const v of value.values()) s += valueSize(v);
      else for (const k of Object.keys(value)) s += valueSize((value as Record<string, unknown>)[k]);
      return s;
    }
    default:
      return 0;
  }
}

/** Language::formatNum of English: thousands separated by commas. */
function formatNumEn(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function truncatedWarning(maxSize: number): string {
  // 1.25 builds the text from two literals, 'otherwise ' . ' be larger': two spaces
  return `This result was truncated because it would otherwise  be larger than the limit of ${formatNumEn(maxSize)} bytes`;
}

/** The running size of one answer. */
export class ResultSizeBudget {
  private size: number | null = null;

  /**
   * @param initial the size of what the answer held before the first checked value (the page set's
   *   entries, normalized titles…: 1.25 counts those with the same addValue), computed when first needed
   * @param warn adds a warning under the module name `result`
   */
  constructor(
    readonly maxSize: number,
    private readonly initial: () => number,
    private readonly warn: (text: string) => void,
  ) {}

  /** ApiResult::addValue's check: true and counted if `value` fits, else false with the warning. */
  fits(value: unknown): boolean {
    return this.fitsSize(valueSize(value));
  }

  /** fits for the values of one row of a RowList, `values[start]` to the end */
  fitsValues(values: readonly unknown[], start: number): boolean {
    let size = 0;
    for (let i = start; i < values.length; i++) size += valueSize(values[i]);
    return this.fitsSize(size);
  }

  private fitsSize(size: number): boolean {
    if (this.size === null) this.size = this.initial();
    const next = this.size + size;
    if (next > this.maxSize) {
      this.warn(truncatedWarning(this.maxSize));
      return false;
    }
    this.size = next;
    return true;
  }
}
