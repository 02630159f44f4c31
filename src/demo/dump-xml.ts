/**
 * A writer of MediaWiki 1.25 XML export dumps (schema 0.10) in Special:Export's exact layout: the demo
 * wiki, the synthetic big wiki (scripts/generate-big.ts) and the tests' small wikis are all written with
 * it, so the importer always reads the shape a real dump has.
 */
import { createHash } from 'node:crypto';
import { htmlspecialchars as xmlEscape } from '../wiki/html.js';
import { hashPath, sha1HexToBase36 } from '../wiki/files.js';
import { readDemoJson } from './folder.js';

export interface SiteInfo {
  sitename: string;
  dbname: string;
  /** the main page's URL */
  base: string;
  /** local namespace names with spaces ('' for the main namespace), in the order the dump lists them */
  namespaces: ReadonlyArray<{ key: number; name: string }>;
}

/** The demo wiki's siteinfo (demo-wiki/site.json): the default of dumps that name no other site. */
export function demoSiteInfo(): SiteInfo {
  return readDemoJson<SiteInfo>('site.json');
}

export interface Contributor {
  name?: string;
  id?: number;
  ip?: string;
}
export interface DumpRevision {
  id: number;
  parentId?: number;
  timestamp: string;
  contributor: Contributor;
  minor?: boolean;
  comment?: string;
  text: string;
}
export interface DumpUpload {
  timestamp: string;
  contributor: Contributor;
  comment: string;
  filename: string; // DB key
  src: string;
  size: number;
  sha1base36: string;
  rel: string;
}
export interface DumpPage {
  title: string; // prefixed, spaces
  ns: number;
  id: number;
  redirect?: string; // prefixed target, spaces, no fragment
  revisions: DumpRevision[];
  uploads?: DumpUpload[];
}
/** One <logitem> (dumps made with --logs). */
export interface DumpLogItem {
  id: number;
  timestamp: string;
  contributor: Contributor;
  comment: string;
  type: string;
  action: string;
  logtitle: string;
  params: string;
}

/** MediaWiki's base-36 SHA-1 (Wikimedia\base_convert(sha1, 16, 36, 31)) of text or bytes. */
export function sha1Base36(data: string | Buffer): string {
  return sha1HexToBase36(createHash('sha1').update(data).digest('hex'));
}

/** The <src> (absolute URL under the server's /images/) and <rel> (hashed path) of an uploaded file. */
export function uploadLocation(server: string, dbKey: string): { src: string; rel: string } {
  return { src: `${server}/images/${hashPath(dbKey)}${encodeURIComponent(dbKey)}`, rel: hashPath(dbKey) + dbKey };
}

/** PHP serialize() of strings, integers and (nested) arrays: new-style log parameters. */
export function phpSerialize(value: unknown): string {
  if (typeof value === 'number') return `i:${value};`;
  if (typeof value === 'string') return `s:${Buffer.byteLength(value, 'utf8')}:"${value}";`;
  if (value === null || typeof value !== 'object') throw new Error(`cannot serialize ${String(value)}`);
  const entries: Array<[string | number, unknown]> = Array.isArray(value) ? value.map((item, i) => [i, item]) : Object.entries(value);
  return `a:${entries.length}:{` + entries.map(([key, item]) => phpSerialize(key) + phpSerialize(item)).join('') + '}';
}

export function xmlHeader(site: SiteInfo = demoSiteInfo()): string {
  const namespaces = site.namespaces
    .map(({ key, name }) =>
      name === ''
        ? `      <namespace key="${key}" case="first-letter" />`
        : `      <namespace key="${key}" case="first-letter">${xmlEscape(name)}</namespace>`,
    )
    .join('\n');
  return (
    `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
    `xsi:schemaLocation="http://www.mediawiki.org/xml/export-0.10/ http://www.mediawiki.org/xml/export-0.10.xsd" ` +
    `version="0.10" xml:lang="uk">\n` +
    `  <siteinfo>\n` +
    `    <sitename>${xmlEscape(site.sitename)}</sitename>\n` +
    `    <dbname>${xmlEscape(site.dbname)}</dbname>\n` +
    `    <base>${xmlEscape(site.base)}</base>\n` +
    `    <generator>MediaWiki 1.25.4</generator>\n` +
    `    <case>first-letter</case>\n` +
    `    <namespaces>\n${namespaces}\n    </namespaces>\n` +
    `  </siteinfo>\n`
  );
}
export const XML_FOOTER = '</mediawiki>\n';

function xmlContributor(contributor: Contributor, indent: string): string {
  if (contributor.ip !== undefined)
    return `${indent}<contributor>\n${indent}  <ip>${xmlEscape(contributor.ip)}</ip>\n${indent}</contributor>\n`;
  return (
    `${indent}<contributor>\n${indent}  <username>${xmlEscape(contributor.name ?? '')}</username>\n` +
    `${indent}  <id>${contributor.id ?? 0}</id>\n${indent}</contributor>\n`
  );
}

/** One <page> element in Special:Export's layout. */
export function xmlPage(page: DumpPage): string {
  let xml = `  <page>\n    <title>${xmlEscape(page.title)}</title>\n    <ns>${page.ns}</ns>\n    <id>${page.id}</id>\n`;
  if (page.redirect !== undefined) xml += `    <redirect title="${xmlEscape(page.redirect)}" />\n`;
  for (const revision of page.revisions) {
    xml += `    <revision>\n      <id>${revision.id}</id>\n`;
    if (revision.parentId !== undefined) xml += `      <parentid>${revision.parentId}</parentid>\n`;
    xml += `      <timestamp>${revision.timestamp}</timestamp>\n`;
    xml += xmlContributor(revision.contributor, '      ');
    if (revision.minor) xml += `      <minor />\n`;
    if (revision.comment) xml += `      <comment>${xmlEscape(revision.comment)}</comment>\n`;
    xml += `      <model>wikitext</model>\n      <format>text/x-wiki</format>\n`;
    const bytes = Buffer.byteLength(revision.text, 'utf8');
    xml += `      <text xml:space="preserve" bytes="${bytes}">${xmlEscape(revision.text)}</text>\n`;
    xml += `      <sha1>${sha1Base36(revision.text)}</sha1>\n    </revision>\n`;
  }
  for (const upload of page.uploads ?? []) {
    xml +=
      `    <upload>\n      <timestamp>${upload.timestamp}</timestamp>\n` +
      xmlContributor(upload.contributor, '      ') +
      `      <comment>${xmlEscape(upload.comment)}</comment>\n` +
      `      <filename>${xmlEscape(upload.filename)}</filename>\n` +
      `      <src>${xmlEscape(upload.src)}</src>\n` +
      `      <size>${upload.size}</size>\n` +
      `      <sha1base36>${upload.sha1base36}</sha1base36>\n` +
      `      <rel>${xmlEscape(upload.rel)}</rel>\n` +
      `    </upload>\n`;
  }
  return xml + `  </page>\n`;
}

export function xmlLogItem(item: DumpLogItem): string {
  return (
    `  <logitem>\n    <id>${item.id}</id>\n    <timestamp>${item.timestamp}</timestamp>\n` +
    xmlContributor(item.contributor, '    ') +
    (item.comment ? `    <comment>${xmlEscape(item.comment)}</comment>\n` : '') +
    `    <type>${item.type}</type>\n    <action>${item.action}</action>\n` +
    `    <logtitle>${xmlEscape(item.logtitle)}</logtitle>\n` +
    `    <params xml:space="preserve">${xmlEscape(item.params)}</params>\n  </logitem>\n`
  );
}
