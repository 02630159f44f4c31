/** Uploaded files (the image table). */

export interface FileStore {
  /** does an uploaded file of this name (DB key, no prefix) exist */
  exists(name: string): boolean;
}
