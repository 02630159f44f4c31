/**
 * A series of changed-page dumps made from the demo wiki's dump and a list of changes (test/data/update/):
 * each batch of changes becomes a dump of the pages it changed, as Special:Export of those pages writes it
 * (every revision, or the current one only), with the log entries of its deletions, moves and uploads; the
 * final dump is the demo's with every change made, as dumpBackup.php would write the wiki afterwards.
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { sha1HexToBase36 } from '../../src/wiki/files.js';
import { esc } from './dump-pages.js';

type User = [name: string, id: number];
type RevisionChange = { user: User; append?: string; replace?: [string, string]; minor?: boolean };
type Op =
  | { op: 'create'; title: string; user: User; text: string }
  | { op: 'edit'; title: string; revisions: RevisionChange[] }
  | { op: 'move'; title: string; to: string; redirect: boolean; user: User }
  | { op: 'delete'; title: string; user: User }
  | { op: 'upload'; title: string; copyOf: string; user: User; text: string };

export interface Changes {
  start: string;
  batches: Array<{ history: 'full' | 'current'; ops: Op[] }>;
}

interface Page {
  title: string;
  ns: number;
  id: number;
  /** lines between <id> and the first revision (<redirect …/>) */
  head: string;
  revisions: string[];
  /** after the last revision (<upload> elements) */
  tail: string;
}

export interface ChangedDumps {
  /** one dump of changed pages per batch */
  batches: string[];
  /** the wiki after every change */
  final: string;
  /** the final files directory (the demo's with the uploads of the changes) */
  files: string;
  /** the titles the changes touched (old and new) */
  titles: string[];
}

const NS_BY_PREFIX: Record<string, number> = { Шаблон: 10, MediaWiki: 8, Файл: 6, Категорія: 14 };

/** `dump` (the demo's) changed by `changes`, written into `dir` */
export function makeChangedDumps(dump: string, filesDir: string, changes: Changes, dir: string): ChangedDumps {
  const xml = fs.readFileSync(dump, 'utf8');
  const first = xml.indexOf('  <page>\n');
  const lastEnd = xml.lastIndexOf('  </page>\n') + '  </page>\n'.length;
  const header = xml.slice(0, first);
  const logTail = xml.slice(lastEnd, xml.lastIndexOf('</mediawiki>'));
  const pages = new Map<number, Page>();
  for (const block of xml.slice(first, lastEnd).split(/(?<= {2}<\/page>\n)/)) {
    if (!block.trim()) continue;
    const title = unescape(/<title>(.*?)<\/title>/.exec(block)![1]);
    const ns = Number(/<ns>(-?\d+)<\/ns>/.exec(block)![1]);
    const idMatch = /<ns>-?\d+<\/ns>\n\s*<id>(\d+)<\/id>\n/.exec(block)!;
    const id = Number(idMatch[1]);
    const afterId = idMatch.index + idMatch[0].length;
    const firstRev = block.indexOf('    <revision>');
    const revisions = [...block.matchAll(/ {4}<revision>\n[\s\S]*? {4}<\/revision>\n/g)].map((m) => m[0]);
    const lastRev = block.lastIndexOf('    </revision>\n') + '    </revision>\n'.length;
    pages.set(id, {
      title,
      ns,
      id,
      head: block.slice(afterId, firstRev),
      revisions,
      tail: block.slice(lastRev, block.lastIndexOf('  </page>')),
    });
  }
  let nextPage = Math.max(...pages.keys()) + 1;
  let nextRev = Math.max(...[...xml.matchAll(/<revision>\n\s*<id>(\d+)<\/id>/g)].map((m) => Number(m[1]))) + 1;
  let nextLog = Math.max(0, ...[...xml.matchAll(/<logitem>\n\s*<id>(\d+)<\/id>/g)].map((m) => Number(m[1]))) + 1;
  let clock = Date.parse(changes.start);
  const stamp = () => {
    const t = new Date(clock).toISOString().replace(/\.\d+Z$/, 'Z');
    clock += 60_000;
    return t;
  };
  const byTitle = (title: string) => {
    for (const p of pages.values()) if (p.title === title) return p;
    throw new Error(`changes: no page ${title}`);
  };
  const latestText = (p: Page) => {
    const m = /<text[^>]*>([\s\S]*?)<\/text>/.exec(p.revisions[p.revisions.length - 1]);
    return m ? unescape(m[1]) : '';
  };
  const latestId = (p: Page) => Number(/<id>(\d+)<\/id>/.exec(p.revisions[p.revisions.length - 1])![1]);
  const revision = (p: Page | null, user: User, text: string, comment: string, minor = false) => {
    const id = nextRev++;
    const sha1 = sha1HexToBase36(crypto.createHash('sha1').update(text).digest('hex'));
    const who = user[1] === 0 ? `<ip>${esc(user[0])}</ip>` : `<username>${esc(user[0])}</username>\n        <id>${user[1]}</id>`;
    return (
      `    <revision>\n      <id>${id}</id>\n` +
      (p ? `      <parentid>${latestId(p)}</parentid>\n` : '') +
      `      <timestamp>${stamp()}</timestamp>\n      <contributor>\n        ${who}\n      </contributor>\n` +
      (minor ? '      <minor/>\n' : '') +
      `      <comment>${esc(comment)}</comment>\n      <model>wikitext</model>\n      <format>text/x-wiki</format>\n` +
      `      <text xml:space="preserve" bytes="${Buffer.byteLength(text)}">${esc(text)}</text>\n      <sha1>${sha1}</sha1>\n    </revision>\n`
    );
  };
  const logItem = (user: User, type: string, action: string, title: string, comment: string, params = '') =>
    `  <logitem>\n    <id>${nextLog++}</id>\n    <timestamp>${stamp()}</timestamp>\n    <contributor>\n      <username>${esc(user[0])}</username>\n` +
    `      <id>${user[1]}</id>\n    </contributor>\n    <comment>${esc(comment)}</comment>\n    <type>${type}</type>\n` +
    `    <action>${action}</action>\n    <logtitle>${esc(title)}</logtitle>\n    <params xml:space="preserve">${esc(params)}</params>\n  </logitem>\n`;
  const nsOf = (title: string) => NS_BY_PREFIX[title.split(':')[0]] ?? 0;
  const newPage = (title: string): Page => {
    const p = { title, ns: nsOf(title), id: nextPage++, head: '', revisions: [], tail: '' };
    pages.set(p.id, p);
    return p;
  };

  const finalFiles = path.join(dir, 'files');
  fs.cpSync(filesDir, finalFiles, { recursive: true });
  const titles = new Set<string>();
  const extraLog: string[] = [];
  const batchDumps: string[] = [];
  changes.batches.forEach((batch, b) => {
    const changed = new Set<Page>();
    const batchLog: string[] = [];
    for (const op of batch.ops) {
      titles.add(op.title);
      switch (op.op) {
        case 'create': {
          const p = newPage(op.title);
          p.revisions.push(revision(null, op.user, op.text, 'Створено сторінку'));
          changed.add(p);
          break;
        }
        case 'edit': {
          const p = byTitle(op.title);
          for (const r of op.revisions) {
            let text = latestText(p);
            if (r.replace) {
              if (!text.includes(r.replace[0])) throw new Error(`changes: ${op.title} has no ${r.replace[0]}`);
              text = text.replace(r.replace[0], r.replace[1]);
            }
            if (r.append) text += r.append;
            p.revisions.push(revision(p, r.user, text, 'Редагування', r.minor));
          }
          changed.add(p);
          break;
        }
        case 'move': {
          titles.add(op.to);
          const p = byTitle(op.title);
          const comment = `${op.user[0]} перейменував сторінку [[${op.title}]] на [[${op.to}]]`;
          p.revisions.push(revision(p, op.user, latestText(p), comment, true));
          p.title = op.to;
          changed.add(p);
          if (op.redirect) {
            const r = newPage(op.title);
            r.head = `    <redirect title="${esc(op.to)}" />\n`;
            r.revisions.push(revision(null, op.user, `#REDIRECT [[${op.to}]]`, comment));
            changed.add(r);
          }
          batchLog.push(logItem(op.user, 'move', op.redirect ? 'move' : 'move', op.title, '', op.to));
          break;
        }
        case 'delete': {
          const p = byTitle(op.title);
          pages.delete(p.id);
          changed.delete(p);
          batchLog.push(logItem(op.user, 'delete', 'delete', op.title, 'Вилучено'));
          break;
        }
        case 'upload': {
          const name = op.title.slice(op.title.indexOf(':') + 1).replace(/ /g, '_');
          const bytes = fs.readFileSync(path.join(filesDir, op.copyOf));
          fs.writeFileSync(path.join(finalFiles, name), bytes);
          const p = newPage(op.title);
          p.revisions.push(revision(null, op.user, op.text, 'Завантажено'));
          const sha1 = sha1HexToBase36(crypto.createHash('sha1').update(bytes).digest('hex'));
          const ts = /<timestamp>(.*?)<\/timestamp>/.exec(p.revisions[0])![1];
          p.tail =
            `    <upload>\n      <timestamp>${ts}</timestamp>\n      <contributor>\n        <username>${esc(op.user[0])}</username>\n` +
            `        <id>${op.user[1]}</id>\n      </contributor>\n      <comment>${esc(op.text.split('\n')[0])}</comment>\n` +
            `      <filename>${esc(name)}</filename>\n      <src>http://127.0.0.1:8080/images/${encodeURIComponent(name)}</src>\n` +
            `      <size>${bytes.length}</size>\n      <sha1base36>${sha1}</sha1base36>\n      <rel>${esc(name)}</rel>\n    </upload>\n`;
          changed.add(p);
          batchLog.push(logItem(op.user, 'upload', 'upload', op.title, op.text.split('\n')[0]));
          break;
        }
      }
    }
    const current = batch.history === 'current';
    const body = [...changed]
      .filter((p) => pages.has(p.id))
      .sort((x, y) => x.id - y.id)
      .map((p) => pageXml(p, current))
      .join('');
    const file = path.join(dir, `changes-${b + 1}.xml`);
    fs.writeFileSync(file, header + body + batchLog.join('') + '</mediawiki>\n');
    batchDumps.push(file);
    extraLog.push(...batchLog);
  });
  const final = path.join(dir, 'final.xml');
  const body = [...pages.values()]
    .sort((x, y) => x.id - y.id)
    .map((p) => pageXml(p, false))
    .join('');
  fs.writeFileSync(final, header + body + logTail + extraLog.join('') + '</mediawiki>\n');
  return { batches: batchDumps, final, files: finalFiles, titles: [...titles] };
}

function pageXml(p: Page, currentOnly: boolean): string {
  const revisions = currentOnly ? p.revisions.slice(-1) : p.revisions;
  return `  <page>\n    <title>${esc(p.title)}</title>\n    <ns>${p.ns}</ns>\n    <id>${p.id}</id>\n${p.head}${revisions.join('')}${p.tail}  </page>\n`;
}

function unescape(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#039;|&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
