/**
 * The `debuginfo` member (MWDebug::appendDebugInfoToApiResult of 1.25, in our terms): versions, time,
 * log, debug log, the SQL queries of this request with their durations, the request, memory, and the
 * code modules the server has loaded.
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { QueryLogEntry } from '../store/query-log.js';
import type { RequestInfo } from './types.js';
import type { RequestState } from './request-state.js';
import { formatSize } from '../wiki/language.js';
import { WIKIQUERY_VERSION } from '../wiki/wiki.js';

let includes: Array<{ name: string; size: string }> | null = null;

/** Our compiled modules: all are imported statically at start-up, so this list is the loaded code. */
function loadedModules(): Array<{ name: string; size: string }> {
  if (includes) return includes;
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const out: Array<{ name: string; size: string }> = [];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js')) out.push({ name: 'src/' + relative(root, p), size: formatSize(statSync(p).size) });
    }
  };
  walk(root);
  includes = out.sort((a, b) => (a.name < b.name ? -1 : 1));
  return includes;
}

export function debugInfo(state: RequestState, req: RequestInfo, queries: QueryLogEntry[], started: bigint): Record<string, unknown> {
  const mem = process.memoryUsage();
  return {
    wikiqueryVersion: WIKIQUERY_VERSION,
    nodeEngine: 'V8 ' + process.versions.v8,
    nodeVersion: process.version,
    time: Number(process.hrtime.bigint() - started) / 1e9,
    log: state.log,
    debugLog: state.debugLog,
    queries: queries.map((q) => ({ sql: q.sql, function: q.function, time: q.time })),
    request: {
      method: req.method,
      url: req.url,
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toUpperCase(), v])),
      params: { ...req.raw },
    },
    memory: formatSize(mem.heapUsed),
    memoryPeak: formatSize(process.resourceUsage().maxRSS * 1024),
    includes: loadedModules(),
  };
}
