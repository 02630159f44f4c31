/**
 * Serving the uploaded files at MediaWiki's hashed upload path (/images/a/ab/Name.png), as imageinfo's
 * url reports them. Filled in with the file store's lookups.
 */
import type { FastifyInstance } from 'fastify';
import type { Store } from '../store/store.js';

export function registerFileRoutes(_app: FastifyInstance, _store: Store, _filesDir?: string): void {
  // registered by the imageinfo work (issue: real clients)
}
