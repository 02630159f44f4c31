/** Uploaded files (the image table). */
import type { PageRef } from './page-store.js';

/** A file that has the same bytes as another (prop=duplicatefiles shows only these columns). */
export interface SameContentRow {
  name: string;
  userText: string;
  timestamp: string;
}

export interface FileStore {
  /** which of these uploaded files (DB keys, no prefix) exist */
  existing(names: readonly string[]): Promise<Set<string>>;
  /** the uploaded files of these names (DB keys) that exist */
  byNames(names: readonly string[]): Promise<Map<string, FileRow>>;
  /**
   * For each named file that has duplicates, the other files with the same bytes in name order (never
   * the file itself): only what prop=duplicatefiles shows.
   */
  sameContent(names: readonly string[]): Promise<Map<string, SameContentRow[]>>;
  /**
   * list=allimages: at most `limit` files in the requested order, along an index of the image table
   */
  list(opts: FileListOptions): Promise<FileRow[]>;
  /**
   * generator=allimages: the files list() gives, each only with its name, upload time and description
   * page, so that the generator hands the page set its pages without another round trip.
   * `full`: the pages with all of PageRow's columns (a module of the query needs them), else PageRef's;
   * `duplicates`: each file with what sameContent() would answer for it (prop=duplicatefiles then needs
   * no statement of its own)
   */
  listPages(opts: FileListOptions, full?: boolean, duplicates?: boolean): Promise<FilePageRow[]>;
  /** where the file's bytes were imported from: a path relative to the files directory (DB key lookup) */
  storedPath(name: string): Promise<string | undefined>;
}

/** One row of the image table. */
export interface FileRow {
  /** DB key without the namespace prefix */
  name: string;
  size: number;
  width: number;
  height: number;
  bits: number;
  mediaType: string;
  majorMime: string;
  minorMime: string;
  /** base-36, 31 digits */
  sha1: string;
  userId: number;
  userText: string;
  /** TS_MW */
  timestamp: string;
  description: string;
  /** JSON object of metadata name → value, or '' */
  metadata: string;
}

/** A file of listPages(): `page` is its description page (ns 6, the file's name), or null. */
export interface FilePageRow {
  name: string;
  /** TS_MW; read for sort=timestamp (its continuation) and for whole pages only */
  timestamp?: string;
  page: PageRef | null;
  /** listPages(…, duplicates): the other files with the same bytes, in name order; null for none */
  duplicates?: SameContentRow[] | null;
}

export interface FileListOptions {
  sort: 'name' | 'timestamp';
  descending: boolean;
  /** sort=name: range of names (from/to inclusive, in the direction of the listing), name prefix */
  from?: string;
  to?: string;
  prefix?: string;
  /** sort=name: resume at this name (inclusive) */
  continueName?: string;
  /** sort=timestamp: range of upload times (TS_MW, inclusive, in the direction of the listing) */
  start?: string;
  end?: string;
  /** sort=timestamp: only this uploader (user name with spaces) */
  user?: string;
  /** sort=timestamp: resume at this (timestamp, name), inclusive */
  continueAt?: { timestamp: string; name: string };
  minSize?: number;
  maxSize?: number;
  /** base-36 SHA-1 */
  sha1?: string;
  /** [major, minor] MIME pairs, any of which matches */
  mimes?: Array<[string, string]>;
  limit: number;
}

/** image.img_dups (a JSON array of [name, uploader, time]) as SameContentRows; null for none */
export function sameContentRows(json: string | null): SameContentRow[] | null {
  return json === null ? null : sameContentOf(JSON.parse(json) as [string, string, string][]);
}

/** img_dups parsed already (inside a bigger JSON text) as SameContentRows; null for none */
export function sameContentOf(dups: [string, string, string][] | null): SameContentRow[] | null {
  if (dups === null) return null;
  const out: SameContentRow[] = [];
  for (const d of dups) out.push({ name: d[0], userText: d[1], timestamp: d[2] });
  return out;
}
