/** The import's writes of the image table and the columns derived from it once every file is in. */
import type Database from 'better-sqlite3';
import { NS_FILE } from '../../../wiki/namespaces.js';
import type { FileImportWriter, ImageRow } from '../../import-writer.js';

export class FilesWriter implements FileImportWriter {
  private readonly ins: Database.Statement;
  private exist: Database.Statement | null = null;

  constructor(private readonly db: Database.Database) {
    this.ins = db.prepare(
      `INSERT OR REPLACE INTO image (img_name, img_size, img_width, img_height, img_bits, img_media_type, img_major_mime,
         img_minor_mime, img_sha1, img_sha1_hex, img_user, img_user_text, img_timestamp, img_description, img_metadata, img_path)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?)`,
    );
  }

  write(r: ImageRow): void {
    this.ins.run(
      r.name,
      r.size,
      r.width,
      r.height,
      r.bits,
      r.mediaType,
      r.majorMime,
      r.minorMime,
      r.sha1Base36,
      r.sha1Hex,
      r.uploader.userId,
      r.uploader.user,
      r.uploader.timestamp,
      r.uploader.comment,
      r.path,
    );
  }

  exists(name: string): boolean {
    this.exist ??= this.db.prepare('SELECT 1 FROM image WHERE img_name = ?').pluck();
    return this.exist.get(name) !== undefined;
  }

  finish(): void {
    deriveFileColumns(this.db);
  }
}

/**
 * image.img_dups, img_dup_count and img_page (schema.ts) from the rows and pass 1's pages: a seek of
 * img_sha1 for the files whose SHA-1 is shared (one GROUP BY walk of that index finds them) and a seek of
 * page_name per file. Milliseconds for the 1M-page wiki's ~10,000 files.
 */
export function deriveFileColumns(db: Database.Database): void {
  db.exec(`
    UPDATE image SET img_page = (SELECT page_id * 2 + page_is_redirect FROM page WHERE page_namespace = ${NS_FILE} AND page_title = image.img_name);
    UPDATE image SET
      img_dups = (SELECT json_group_array(json_array(d.img_name, d.img_user_text, d.img_timestamp) ORDER BY d.img_name)
                  FROM image d WHERE d.img_sha1 = image.img_sha1 AND d.img_name <> image.img_name),
      img_dup_count = (SELECT count(*) FROM image d WHERE d.img_sha1 = image.img_sha1 AND d.img_name <> image.img_name)
      WHERE img_sha1 IN (SELECT img_sha1 FROM image GROUP BY img_sha1 HAVING count(*) > 1);
  `);
}
