/**
 * The fields a revision has wherever it is read or written: a dump's <revision> (importer/dump-reader.ts)
 * and the revision rows the import writes (store/import-writer.ts).
 */

/** A revision's identity, time, author, summary and deletion bits */
export interface RevisionHeader {
  id: number;
  parentId: number;
  /** TS_MW */
  timestamp: string;
  /** user name or IP ('' when deleted) */
  user: string;
  userId: number;
  comment: string;
  minor: boolean;
  /** Revision::DELETED_* bits (from deleted="deleted" attributes in a dump): 1 text, 2 comment, 4 user */
  deleted: number;
}
