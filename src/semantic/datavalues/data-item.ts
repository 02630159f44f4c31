/**
 * A data item (SMWDataItem) as a user value makes it: its type code and SMW serialization, or the
 * error that keeps the value from being one.
 */

export interface DataItem {
  di: number;
  /** SMW serialization */
  item: string;
  /** wikipage items: namespace and DB key */
  ns?: number;
  /** wikipage items: DB key; blob items: the text (what autocompletion and baseprop match) */
  key?: string;
}

export type ParseResult = DataItem | { error: string };

export function isError(r: ParseResult): r is { error: string } {
  return (r as { error?: string }).error !== undefined;
}
