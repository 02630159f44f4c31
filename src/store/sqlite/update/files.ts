/**
 * Files and messages on the live tables: image rows through the import's own FilesWriter, with img_page and
 * the duplicate lists of the SHA-1 groups a write touches settled; message overrides (MediaWiki: pages).
 */
import type Database from 'better-sqlite3';
import { FilesWriter } from '../import/files-writer.js';
import { NS_FILE } from '../../../wiki/namespaces.js';
import type { ImageRow, Uploader } from '../../import-writer.js';
import type { UpdateWriter } from '../../update-writer.js';

export function sqliteFileUpdates(db: Database.Database): UpdateWriter['files'] {
  const fw = new FilesWriter(db);
  const p = (sql: string) => db.prepare(sql);
  const s = {
    fileExists: p('SELECT 1 FROM image WHERE img_name = ?').pluck(),
    fileSha1: p('SELECT img_sha1 FROM image WHERE img_name = ?').pluck(),
    fileUploader: p(
      'SELECT img_user_text AS user, img_user AS userId, img_timestamp AS timestamp, img_description AS comment FROM image WHERE img_name = ?',
    ),
    fileGroup: p('SELECT img_name FROM image WHERE img_sha1 = ?').pluck(),
    fileDups: p(
      `UPDATE image SET
         img_dups = (SELECT json_group_array(json_array(d.img_name, d.img_user_text, d.img_timestamp) ORDER BY d.img_name)
                     FROM image d WHERE d.img_sha1 = image.img_sha1 AND d.img_name <> image.img_name HAVING count(*) > 0),
         img_dup_count = (SELECT count(*) FROM image d WHERE d.img_sha1 = image.img_sha1 AND d.img_name <> image.img_name)
       WHERE img_name = ?`,
    ),
    filePage: p(
      `UPDATE image SET img_page = (SELECT page_id * 2 + page_is_redirect FROM page WHERE page_namespace = ${NS_FILE} AND page_title = image.img_name)
       WHERE img_name = ?`,
    ),
  };
  return {
    exists: (name) => s.fileExists.get(name) !== undefined,
    write: (r: ImageRow) => {
      const oldSha1 = s.fileSha1.get(r.name) as string | undefined;
      fw.write(r);
      if (oldSha1 !== undefined && oldSha1 !== r.sha1Base36) for (const n of s.fileGroup.all(oldSha1) as string[]) s.fileDups.run(n);
      return oldSha1 === undefined;
    },
    settle: (name) => {
      s.filePage.run(name);
      const sha1 = s.fileSha1.get(name) as string | undefined;
      if (sha1 !== undefined) for (const n of s.fileGroup.all(sha1) as string[]) s.fileDups.run(n);
    },
    uploader: (name) => s.fileUploader.get(name) as Uploader | undefined,
  };
}

export function sqliteMessageUpdates(db: Database.Database): UpdateWriter['messages'] {
  const p = (sql: string) => db.prepare(sql);
  const s = {
    message: p('SELECT msg_text FROM message WHERE msg_lang = ? AND msg_key = ?').pluck(),
    override: p('SELECT mo_text FROM message_override WHERE mo_lang = ? AND mo_key = ?').pluck(),
    setOverride: p('INSERT OR REPLACE INTO message_override (mo_lang, mo_key, mo_text) VALUES (?, ?, ?)'),
    delOverride: p('DELETE FROM message_override WHERE mo_lang = ? AND mo_key = ?'),
    languages: p('SELECT DISTINCT msg_lang FROM message').pluck(),
  };
  return {
    text: (lang, key) => s.message.get(lang, key) as string | undefined,
    override: (lang, key) => s.override.get(lang, key) as string | undefined,
    languages: () => s.languages.all() as string[],
    setOverride: (lang, key, text) => void (text === null ? s.delOverride.run(lang, key) : s.setOverride.run(lang, key, text)),
  };
}
