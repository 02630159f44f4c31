/**
 * XmlDumpWriter of MediaWiki 1.25 (includes/Export.php): the XML export format, schema 0.10, as
 * WikiExporter writes it for the current revision of each page (ApiQuery's export, Special:Export with
 * curonly). Pure text making: the caller reads the pages and revisions.
 */
import { htmlspecialchars } from './html.js';
import type { NamespaceInfo } from './namespaces.js';
import { isIp } from './user-groups.js';
import { MEDIAWIKI_VERSION } from './wiki.js';

export const EXPORT_SCHEMA_VERSION = '0.10';

export interface DumpSite {
  sitename: string;
  dbname: string;
  /** the main page's canonical URL */
  base: string;
  lang: string;
  /** every namespace, local names with spaces */
  namespaces: readonly NamespaceInfo[];
  /** $wgCapitalLinks: the main namespace's case */
  capitalLinks: boolean;
}

export interface DumpRevision {
  revid: number;
  parentid: number;
  /** TS_MW */
  timestamp: string;
  user: string;
  userid: number;
  userHidden: boolean;
  minor: boolean;
  comment: string;
  commentHidden: boolean;
  contentModel: string;
  contentFormat: string;
  /** null: hidden (Revision::DELETED_TEXT) */
  text: string | null;
  /** rev_len */
  size: number;
  /** base 36, '' when unknown */
  sha1: string;
}

export interface DumpPage {
  /** canonical title: local namespace name and the title text, with spaces */
  title: string;
  ns: number;
  pageid: number;
  /** the redirect target's canonical title, when the page is a redirect with a valid target */
  redirect: string | null;
  revision: DumpRevision | null;
}

/** Xml::element: the text escaped by htmlspecialchars, attributes by Sanitizer::encodeAttribute */
function element(name: string, attrs: Record<string, string> | null, content: string | null = ''): string {
  let out = '<' + name;
  if (attrs) for (const [k, v] of Object.entries(attrs)) out += ` ${k}="${encodeAttribute(v)}"`;
  if (content === null) return out + '>';
  if (content === '') return out + ' />';
  return `${out}>${htmlspecialchars(content)}</${name}>`;
}

/** Xml::elementClean: the content in Unicode normal form C first (Language::normalize → UtfNormal::cleanUp) */
function elementClean(name: string, attrs: Record<string, string> | null, content: string): string {
  return element(name, attrs, content && content !== '0' ? cleanUp(content) : content);
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** UtfNormal\Validator::cleanUp: NFC, with what is not a Unicode character replaced by U+FFFD */
function cleanUp(s: string): string {
  return s.replace(LONE_SURROGATE, '\ufffd').normalize('NFC');
}

/** Sanitizer::encodeAttribute: htmlspecialchars with ENT_QUOTES, then tab and line ends as references */
function encodeAttribute(s: string): string {
  return htmlspecialchars(s, 'both').replace(/[\n\r\t]/g, (c) => (c === '\n' ? '&#10;' : c === '\r' ? '&#13;' : '&#9;'));
}

/** TS_MW → ISO 8601 */
function isoTimestamp(ts: string): string {
  return `${ts.slice(0, 4)}-${ts.slice(4, 6)}-${ts.slice(6, 8)}T${ts.slice(8, 10)}:${ts.slice(10, 12)}:${ts.slice(12, 14)}Z`;
}

/** XmlDumpWriter::openStream: the root element and the site information */
export function openStream(site: DumpSite): string {
  const v = EXPORT_SCHEMA_VERSION;
  const root = element(
    'mediawiki',
    {
      xmlns: `http://www.mediawiki.org/xml/export-${v}/`,
      'xmlns:xsi': 'http://www.w3.org/2001/XMLSchema-instance',
      'xsi:schemaLocation': `http://www.mediawiki.org/xml/export-${v}/ http://www.mediawiki.org/xml/export-${v}.xsd`,
      version: v,
      'xml:lang': site.lang,
    },
    null,
  );
  let spaces = '<namespaces>\n';
  for (const ns of [...site.namespaces].sort((a, b) => a.id - b.id)) {
    spaces += `      ${element('namespace', { key: String(ns.id), case: ns.case }, ns.name)}\n`;
  }
  spaces += '    </namespaces>';
  const info = [
    element('sitename', {}, site.sitename),
    element('dbname', {}, site.dbname),
    element('base', {}, site.base),
    element('generator', {}, `MediaWiki ${MEDIAWIKI_VERSION}`),
    element('case', {}, site.capitalLinks ? 'first-letter' : 'case-sensitive'),
    spaces,
  ];
  return `${root}\n  <siteinfo>\n    ${info.join('\n    ')}\n  </siteinfo>\n`;
}

export function closeStream(): string {
  return '</mediawiki>\n';
}

/** XmlDumpWriter::openPage, writeRevision and closePage of one page */
export function writePage(page: DumpPage): string {
  let out = '  <page>\n';
  out += `    ${elementClean('title', {}, page.title)}\n`;
  out += `    ${element('ns', {}, String(page.ns))}\n`;
  out += `    ${element('id', {}, String(page.pageid))}\n`;
  if (page.redirect !== null) out += `    ${element('redirect', { title: page.redirect })}\n`;
  if (page.revision) out += writeRevision(page.revision);
  return out + '  </page>\n';
}

function writeRevision(rev: DumpRevision): string {
  let out = '    <revision>\n';
  out += `      ${element('id', null, String(rev.revid))}\n`;
  if (rev.parentid) out += `      ${element('parentid', null, String(rev.parentid))}\n`;
  out += `      ${element('timestamp', null, isoTimestamp(rev.timestamp))}\n`;
  if (rev.userHidden) out += `      ${element('contributor', { deleted: 'deleted' })}\n`;
  else {
    out += '      <contributor>\n';
    if (rev.userid || !isIp(rev.user)) {
      out += `        ${elementClean('username', null, rev.user)}\n`;
      out += `        ${element('id', null, String(rev.userid))}\n`;
    } else out += `        ${elementClean('ip', null, rev.user)}\n`;
    out += '      </contributor>\n';
  }
  if (rev.minor) out += '      <minor/>\n';
  if (rev.commentHidden) out += `      ${element('comment', { deleted: 'deleted' })}\n`;
  else if (rev.comment !== '') out += `      ${elementClean('comment', {}, rev.comment)}\n`;
  out += `      ${element('model', null, rev.contentModel)}\n`;
  out += `      ${element('format', null, rev.contentFormat)}\n`;
  if (rev.text === null) out += `      ${element('text', { deleted: 'deleted' })}\n`;
  else out += `      ${elementClean('text', { 'xml:space': 'preserve', bytes: String(rev.size) }, rev.text)}\n`;
  out += rev.sha1 && rev.text !== null ? `      ${element('sha1', null, rev.sha1)}\n` : '      <sha1/>\n';
  return out + '    </revision>\n';
}
