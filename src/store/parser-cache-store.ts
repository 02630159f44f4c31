/**
 * The parser cache on disk: rendered pages an import made with `--render` (the JSON of the renderer's
 * output), read on a miss of the serving process's memory cache before rendering. An entry is for one
 * revision of one page under one options key, and is only valid for the renderer version that made it:
 * the caller passes the version it would render with and an entry of another version is not returned.
 */
export interface ParserCacheStore {
  /** one index seek by (page, revision, options key); null when there is no valid entry */
  get(pageId: number, revId: number, optionsKey: string, version: number): Promise<string | null>;
}
