/**
 * Notices a re-import: `wikiquery import` builds a new file and renames it onto the database path, so
 * the path's inode (or at least its mtime and size) changes while the server still reads the old,
 * unlinked file. Polling stat() (fs.watchFile) works on every file system, network ones included, and
 * costs one syscall per interval; inotify would miss renames over NFS.
 */
import fs from 'node:fs';

export interface DatabaseWatcher {
  close(): void;
}

export function watchDatabase(file: string, intervalMs: number, onReplaced: () => void): DatabaseWatcher {
  const listener = (curr: fs.Stats, prev: fs.Stats) => {
    // ino 0: the path is missing right now (a manual mv in two steps); wait for the file to come back
    if (curr.ino === 0) return;
    if (curr.ino !== prev.ino || curr.mtimeMs !== prev.mtimeMs || curr.size !== prev.size) onReplaced();
  };
  fs.watchFile(file, { interval: intervalMs, persistent: false }, listener);
  return { close: () => fs.unwatchFile(file, listener) };
}
