/**
 * Filling an empty database from the upstream's API, for wikis whose owner cannot run dumpBackup.php:
 * every page of every namespace with all its revisions, the files (bytes into --files, SHA-1 checked, and
 * their upload history), the log (with the account creations) -- written as an XML export dump in a
 * temporary folder, one page at a time, and handed to the importer, which reads it as it reads any dump.
 * The position is taken before the first page is read, so what changes during the fill is applied again
 * afterwards (revisions already stored are skipped).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { uploadLocation, xmlHeader, xmlLogItem, xmlPage, XML_FOOTER, type DumpPage as XmlPage } from '../demo/dump-xml.js';
import type { UpdateItem, UpstreamPosition } from '../importer/update-items.js';
import { isoToMw, mwToIso } from '../wiki/timestamps.js';
import { newestPosition, readLogEvent } from './changes.js';
import { filePath, fileVersions, PageFetcher } from './fetch.js';
import { logParamsToRaw } from './log-params.js';
import { UpstreamError, type UpstreamClient } from './upstream-client.js';

export interface SiteFacts {
  sitename: string;
  dbname: string;
  base: string;
  lang: string;
  server: string;
  namespaces: Array<{ key: number; name: string }>;
}

export async function readSite(client: UpstreamClient): Promise<SiteFacts> {
  const answer = await client.call({ action: 'query', meta: 'siteinfo', siprop: 'general|namespaces' });
  const general = answer.query?.general;
  const namespaces = answer.query?.namespaces;
  if (general === undefined || namespaces === undefined)
    throw new UpstreamError(`${client.api}: siteinfo answered without general and namespaces`);
  return {
    sitename: String(general.sitename ?? ''),
    dbname: String(general.wikiid ?? general.dbname ?? 'wiki'),
    base: String(general.base ?? ''),
    lang: String(general.lang ?? 'uk'),
    server: String(general.server ?? ''),
    namespaces: Object.values(namespaces as Record<string, { id: number; '*'?: string; name?: string }>)
      .map((n) => ({ key: Number(n.id), name: String(n['*'] ?? n.name ?? '') }))
      .sort((a, b) => a.key - b.key),
  };
}

/** Whether this account may ask for 500 titles at a time (apihighlimits): the upstream's batch size. */
export async function batchLimit(client: UpstreamClient): Promise<number> {
  const answer = await client.call({ action: 'query', meta: 'userinfo', uiprop: 'rights' });
  const rights = answer.query?.userinfo?.rights;
  return Array.isArray(rights) && rights.includes('apihighlimits') ? 500 : 50;
}

export interface FillResult {
  dump: string;
  /** remove the temporary folder */
  cleanup(): void;
  position: UpstreamPosition;
  /** every account (a dump carries only those with edits): applied with the position after the import */
  users: UpdateItem[];
  pages: number;
  files: number;
  site: SiteFacts;
}

/** Writes the upstream as a dump (the caller imports it and then calls cleanup()). */
export async function dumpUpstream(client: UpstreamClient, opts: { filesDir?: string; log: (line: string) => void }): Promise<FillResult> {
  const position = await newestPosition(client);
  const site = await readSite(client);
  const limit = await batchLimit(client);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-follow-fill-'));
  const dump = path.join(dir, 'upstream.xml');
  const out = fs.createWriteStream(dump, { encoding: 'utf8' });
  const write = async (s: string) => {
    if (!out.write(s)) await once(out, 'drain');
  };
  let pages = 0;
  let files = 0;
  const users: UpdateItem[] = [];
  try {
    await write(xmlHeader({ sitename: site.sitename, dbname: site.dbname, base: site.base, namespaces: site.namespaces }));
    for (const ns of site.namespaces) {
      if (ns.key < 0) continue;
      for await (const answer of client.continued({ action: 'query', list: 'allpages', apnamespace: ns.key, aplimit: 'max' })) {
        const list = answer.query?.allpages;
        if (!Array.isArray(list)) throw new UpstreamError(`${client.api}: list=allpages answered without its list`);
        for (const entry of list) {
          const fetcher = new PageFetcher(client, limit);
          await fetcher.history({ pageid: Number(entry.pageid) });
          const page = fetcher.pages.get(Number(entry.pageid));
          if (page === undefined || page.revisions.size === 0) continue;
          const revisions = [...page.revisions.values()].sort((a, b) => a.id - b.id);
          const xml: XmlPage = {
            title: page.title,
            ns: page.ns,
            id: page.id,
            revisions: revisions.map((r) => ({
              id: r.id,
              parentId: r.parentId || undefined,
              timestamp: mwToIso(r.timestamp),
              contributor: r.userId > 0 || !/^[\d.:a-fA-F]+$/.test(r.user) ? { name: r.user, id: r.userId } : { ip: r.user },
              minor: r.minor,
              comment: r.comment,
              text: r.text ?? '',
            })),
          };
          if (page.ns === 6) {
            const f = await fileVersions(client, page.title);
            if (f !== null) {
              if (opts.filesDir !== undefined) await client.download(f.url, path.join(opts.filesDir, filePath(f.name)), f.sha1hex, f.size);
              const where = uploadLocation(site.server, f.name);
              xml.uploads = f.versions.map((v) => ({
                timestamp: mwToIso(v.timestamp),
                contributor: { name: v.user, id: v.userId },
                comment: v.comment,
                filename: f.name,
                src: where.src,
                size: v.size,
                sha1base36: v.sha1base36,
                rel: where.rel,
              }));
              files++;
            }
          }
          await write(xmlPage(xml));
          pages++;
          if (pages % 500 === 0) opts.log(`fill: ${pages} pages read`);
        }
      }
    }
    for await (const answer of client.continued({
      action: 'query',
      list: 'logevents',
      leprop: 'ids|title|type|user|userid|timestamp|comment|details',
      ledir: 'newer',
      lelimit: 'max',
    })) {
      const list = answer.query?.logevents;
      if (!Array.isArray(list)) throw new UpstreamError(`${client.api}: list=logevents answered without its list`);
      for (const row of list) {
        const e = readLogEvent(row);
        if (e.logId > position.logid) continue;
        await write(
          xmlLogItem({
            id: e.logId,
            timestamp: mwToIso(e.timestamp),
            contributor: { name: e.user, id: e.userId },
            comment: e.comment,
            type: e.type,
            action: e.action,
            logtitle: e.title,
            params: logParamsToRaw(e.type, e.action, e.params),
          }),
        );
      }
    }
    for await (const answer of client.continued({ action: 'query', list: 'allusers', auprop: 'editcount|registration', aulimit: 'max' })) {
      const list = answer.query?.allusers;
      if (!Array.isArray(list)) throw new UpstreamError(`${client.api}: list=allusers answered without its list`);
      for (const u of list) {
        if (typeof u?.name !== 'string' || !(Number(u.userid) > 0)) continue;
        users.push({
          type: 'user',
          user: {
            id: Number(u.userid),
            name: u.name,
            registration: typeof u.registration === 'string' ? isoToMw(u.registration) : '',
            editCount: Number(u.editcount) || 0,
          },
        });
      }
    }
    await write(XML_FOOTER);
    out.end();
    await once(out, 'finish');
  } catch (e) {
    out.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return { dump, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }), position, users, pages, files, site };
}
