/**
 * What an incremental update hands to the store's incremental writer: the items of a dump of changed
 * pages (`import --update`) or of one batch that `follow` read from the upstream's API, plus what a dump
 * cannot say (a page deleted, the upstream position reached). Both sources are read into these items, and
 * one writer applies them, so a page is analysed the same way however it arrived.
 *
 * A batch is applied in one transaction, in item order; the revisions of a page come before its `page`
 * item, oldest first. Revisions already stored are skipped, so a batch may overlap what the database has.
 */
import type { DumpItem, DumpUpload } from './dump-reader.js';
import type { RecentChangeRow } from '../store/update-writer.js';

/** Where the upstream's change stream stands after a batch; stored with the batch, in its transaction. */
export interface UpstreamPosition {
  /** the upstream's api.php */
  api: string;
  /** TS_MW of the newest recent change applied */
  timestamp: string;
  /** rc_id of the newest recent change applied (changes of one second are ordered by it) */
  rcid: number;
  /** log_id of the newest log entry applied (0: none yet) */
  logid: number;
}

/** A recent change as the upstream's list=recentchanges reported it (kept as the upstream has it). */
export interface RecentChangeItem extends Omit<RecentChangeRow, 'dbkey' | 'logId' | 'logType' | 'logAction'> {
  /** prefixed title as the upstream wrote it */
  title: string;
  /** for log rows: the log entry's id, type and action */
  logId?: number;
  logType?: string;
  logAction?: string;
}

/** A user account the upstream has (list=allusers / newusers log). */
export interface UserItem {
  id: number;
  name: string;
  /** TS_MW; '' when unknown */
  registration: string;
  editCount: number;
}

/** A file's current version with its bytes in the files directory (uploads and re-uploads). */
export interface FileItem {
  upload: DumpUpload;
  /** path of the fetched bytes below --files, '/'-separated; their SHA-1 was checked against the upstream's */
  path: string;
}

export type UpdateItem =
  | DumpItem
  /** the page is gone (deleted upstream): it and everything derived from it are removed */
  | { type: 'deletion'; pageId: number; ns: number; title: string }
  | { type: 'recentchange'; change: RecentChangeItem }
  | { type: 'user'; user: UserItem }
  | { type: 'file'; file: FileItem }
  | { type: 'position'; position: UpstreamPosition };
