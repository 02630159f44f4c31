/**
 * Large synthetic wiki generator: streams a MediaWiki 1.25 XML export dump (schema 0.10, same layout as
 * the demo wiki's) of N pages, for import and benchmark runs at scale (N up to 1,000,000 and beyond).
 * Nothing is held in memory: every page is a pure function of its index, and the output is written in
 * chunks with fs.writeSync.
 *
 *   OUTDIR/dump.xml               the dump
 *   OUTDIR/files/files-manifest.jsonl   one JSON object per uploaded file (no bytes are written):
 *                                 {name, size, sha1 (hex), width, height, mime, user, timestamp, comment}
 *   OUTDIR/files/uploads.json     the upload log: [{name, user, timestamp, comment}] (same files)
 * The dump ends with the upload log's <logitem>s (one upload/upload entry per file), so the log and the
 * recent changes have entries to list.
 *
 * Shape of the wiki (page slots after a few fixed header pages):
 *   - slot k with k % 50 == 49  → a category page "Категорія:Громада <word>" (tree, 10 children each)
 *   - slot k with k % 100 == 98 → a file description page "Файл:Фото <word>.<ext>"
 *   - otherwise                 → a main-namespace article with a unique Ukrainian-ish title; ~1% redirects
 * Every article calls {{Поселення}}, which sets the Page-type property "Розташоване в" and the Text property
 * "Примітка" (~one distinct multi-word, mixed-case value per article each), "Населення" (Number), embeds
 * the file of the community and adds [[Категорія:Поселення]]. Articles link to other articles, to pages
 * that do not exist, to files and to one or two categories.
 * For the benchmarks' big sets (added after the first figures; the shape above is unchanged):
 *   - the template also sets the Page-type property "Країна" with #set (no link): "Україна" on all but
 *     every 20th/20th+14 article ("Польща", "Молдова");
 *   - "Населення" is over 100,000 on every 500th article only (else under 100,000), so
 *     [[Країна::Україна]][[Населення::>100000]] selects ~0.2% of the articles;
 *   - every 9th article links to the hub article "Україна" (≥100,000 backlinks at 1,000,000 pages);
 *   - the header page "Список поселень" links to the first 5,000 articles.
 *
 * CLI: node dist/scripts/generate-big.js OUTDIR PAGES [SEED] [--revisions R]
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoSiteInfo, xmlHeader, xmlLogItem, xmlPage, XML_FOOTER, type DumpPage, type Contributor } from '../src/demo/dump-xml.js';
import { lcfirst, ucfirst } from '../src/wiki/language.js';

/** Seconds since the epoch → ISO 8601 UTC without milliseconds, e.g. 2014-03-05T10:20:30Z. */
function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');
}
function parseIso(iso: string): number {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) throw new Error(`bad timestamp ${iso}`);
  return Math.floor(ms / 1000);
}

// ---------------------------------------------------------------------------------------------------------
// Deterministic hashing
// ---------------------------------------------------------------------------------------------------------

/** A 32-bit integer mix (murmur3 finaliser) of an index, a salt and the seed. */
function mix(x: number, salt: number, seed: number): number {
  let h = (x ^ Math.imul(salt, 0x9e3779b1) ^ Math.imul(seed, 0x85ebca6b)) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  // a second round so that neighbouring indices decorrelate well
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 12;
  return h >>> 0;
}

// ---------------------------------------------------------------------------------------------------------
// Word tables. Every generated name is an injective function of its index (fixed-width syllables and
// distinct endings), so titles and property values are unique without any bookkeeping.
// ---------------------------------------------------------------------------------------------------------

const ONSETS = ['б', 'в', 'г', 'ґ', 'д', 'з', 'к', 'л', 'м', 'н', 'п', 'р', 'с', 'т', 'ч', 'ш'];
const VOWELS = ['а', 'о', 'у', 'і'];
/** 64 syllables, each exactly two letters. */
const SYL2: string[] = (() => {
  const s: string[] = [];
  for (const c of ONSETS) for (const v of VOWELS) s.push(c + v);
  // a few vowel-initial ones so that titles also start with Є, Ї, І, О
  s[0] = 'єв';
  s[17] = 'їж';
  s[34] = 'ір';
  s[51] = 'ол';
  return s;
})();
/** 64 endings: one letter + a distinct tail. */
const TAIL1 = ['л', 'р', 'н', 'в', 'с', 'т', 'ш', 'м'];
const TAIL2 = ['ин', 'ець', 'ів', 'ичі', 'ʼянка', 'ка', '', 'ове'];
const SYLEND: string[] = TAIL2.flatMap((t) => TAIL1.map((c) => c + t));
/** 64 endings for second words of titles. */
const END1 = ['р', 'л', 'н', 'х', 'в', 'д', 'ж', 'с'];
const END2 = ['івка', 'ове', 'инці', 'ище', "'я", 'ка', 'ки', 'ськ'];
const WORD2END: string[] = END2.flatMap((t) => END1.map((c) => c + t));
/** 64 adjectives (distinct first two letters per stem), mixed case. */
const ADJ_STEM = ['Верхн', 'Нижн', 'Стар', 'Нов', 'Мал', 'Блищ', 'Дальн', 'Глибок'];
const ADJ_END = ['є', 'я', 'ій', 'і', 'ього', 'ім', 'ю', 'ими'];
const ADJ: string[] = ADJ_END.flatMap((e, j) => ADJ_STEM.map((s) => (j % 2 ? s.toLowerCase() : s) + e));
/** 64 nouns (distinct first letters per stem). */
const NOUN_STEM = ['Гай', 'Яр', 'Луг', 'Брід', 'Кут', 'Ріг', 'Став', 'Поле'];
const NOUN_END = ['', 'ок', 'ище', 'ець', 'ин', 'ки', 'ові', 'ах'];
const NOUN: string[] = NOUN_END.flatMap((e) => NOUN_STEM.map((s) => s + e));

const M24 = 1 << 24; // 64^4
function digits4(p: number): [number, number, number, number] {
  return [p & 63, (p >>> 6) & 63, (p >>> 12) & 63, (p >>> 18) & 63];
}
/** Bijective scramble of [0, 2^24). */
function perm(i: number, mult: number, add: number): number {
  return (i * mult + add) % M24; // mult odd ⇒ bijection; i*mult < 2^48 stays exact
}

// ---------------------------------------------------------------------------------------------------------
// Generator
// ---------------------------------------------------------------------------------------------------------

class ChunkWriter {
  private parts: string[] = [];
  private pending = 0;
  bytes = 0;
  private readonly fd: number;
  constructor(file: string) {
    this.fd = fs.openSync(file, 'w');
  }
  write(s: string): void {
    this.parts.push(s);
    this.pending += s.length;
    if (this.pending >= 1 << 22) this.flush();
  }
  flush(): void {
    if (this.parts.length === 0) return;
    const buf = Buffer.from(this.parts.join(''), 'utf8');
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off);
    this.bytes += buf.length;
    this.parts = [];
    this.pending = 0;
  }
  /** bytes as they are, after what was written before */
  writeBytes(buf: Buffer): void {
    this.flush();
    let off = 0;
    while (off < buf.length) off += fs.writeSync(this.fd, buf, off, buf.length - off);
    this.bytes += buf.length;
  }
  close(): void {
    this.flush();
    fs.closeSync(this.fd);
  }
}

const USERS: Array<{ name: string; id: number }> = [
  { name: 'Адміністратор', id: 1 },
  { name: 'ДемоБот', id: 2 },
  { name: 'Олена Коваль', id: 3 },
  { name: 'Тарас', id: 4 },
  { name: 'Марʼяна', id: 5 },
  { name: 'Ivan Petrenko', id: 6 },
  { name: 'Остап Ґудзь', id: 7 },
  { name: 'Ярина', id: 8 },
  { name: 'Богдан К.', id: 9 },
  { name: 'Zoryana', id: 10 },
];
const IPS = ['192.0.2.15', '198.51.100.7', '203.0.113.200', '2001:DB8::42'];
const T0 = parseIso('2009-01-01T00:00:00Z');
const TSPAN = parseIso('2016-12-31T00:00:00Z') - T0;
const EXTS = ['png', 'png', 'png', 'png', 'png', 'png', 'jpg', 'jpg', 'gif', 'svg'];
const MIMES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', svg: 'image/svg+xml' };

export interface BigOptions {
  seed?: number;
  /**
   * Revisions per page (default 1, or as the page comes): the earlier ones are growing prefixes of the
   * final text, by contributors and at times that are functions of the page, so a full-history dump of
   * N pages × R revisions can be generated for import runs.
   */
  revisions?: number;
}

export async function generateBig(outDir: string, pages: number, opts: BigOptions = {}): Promise<void> {
  const started = process.hrtime.bigint();
  const seed = (opts.seed ?? 1) >>> 0;
  const N = Math.max(0, Math.floor(pages));
  fs.mkdirSync(path.join(outDir, 'files'), { recursive: true });

  // ---- names (pure functions of indices)
  const addT = mix(1, 11, seed) % M24;
  const addV = mix(2, 11, seed) % M24;
  const addN = mix(3, 11, seed) % M24;
  const addC = mix(4, 11, seed) % M24;
  const addF = mix(5, 11, seed) % M24;
  const articleTitle = (a: number): string => {
    const [d0, d1, d2, d3] = digits4(perm(a, 0x9e3779, addT));
    const w1 = ucfirst(SYL2[d0]! + SYLEND[d1]!);
    const w2raw = SYL2[d2]! + WORD2END[d3]!;
    return `${w1} ${d3 % 3 === 0 ? w2raw : ucfirst(w2raw)}`;
  };
  const locationValue = (a: number): string => {
    const [d0, d1, d2, d3] = digits4(perm(a, 0x5bd1e9, addV));
    return `${ADJ[d0]} ${ucfirst(SYL2[d1]! + SYLEND[d2]!)} ${NOUN[d3]}`;
  };
  const noteValue = (a: number): string => {
    const [d0, d1, d2, d3] = digits4(perm(a, 0x27d4eb, addN));
    const base = `${d3 % 2 ? 'примітка' : 'Примітка'}: ${ADJ[d0]} ${SYL2[d1]! + SYLEND[d2]!} біля ${NOUN[d3]}`;
    // every 40th value is longer than 72 bytes (SMW keeps only a hash prefix of such blobs)
    return a % 40 === 7 ? `${base} — докладна примітка, що довша за сімдесят два байти` : base;
  };
  const catName = (c: number): string => {
    const [d0, d1, d2, d3] = digits4(perm(c, 0x6f4f2d, addC));
    return `Громада ${ucfirst(SYL2[d3]! + SYL2[d2]! + SYL2[d1]! + SYLEND[d0]!)}`;
  };
  const fileName = (f: number): string => {
    const [d0, d1, d2, d3] = digits4(perm(f, 0x1b873b, addF));
    return `Фото_${ucfirst(SYL2[d3]! + SYL2[d2]! + SYL2[d1]! + SYLEND[d0]!)}.${EXTS[f % 10]}`;
  };
  const timeOf = (slot: number, salt: number): number => T0 + (mix(slot, salt, seed) % TSPAN);
  const contributorOf = (slot: number, salt: number): Contributor => {
    const h = mix(slot, salt, seed);
    if (h % 13 === 0) return { ip: IPS[(h >>> 8) % IPS.length]! };
    const u = USERS[(h >>> 8) % USERS.length]!;
    return { name: u.name, id: u.id };
  };

  // ---- header pages, then slots
  const headerTemplate = 'Поселення';
  const communityFile = (f: number) => fileName(f).replace(/_/g, ' ');
  const header: Array<{ title: string; ns: number; text: string }> = [
    {
      title: 'Головна сторінка',
      ns: 0,
      text: "'''Синтетична вікі''' для навантажувальних тестів. Див. [[:Категорія:Поселення]] і [[Шаблон:Поселення]].",
    },
    {
      title: `Шаблон:${headerTemplate}`,
      ns: 10,
      text:
        '<noinclude>Картка поселення синтетичної вікі.\n</noinclude><includeonly>' +
        '{| class="infobox"\n! {{{назва|{{PAGENAME}}}}} [[Файл:' +
        communityFile(0) +
        '|20px]]\n|-\n' +
        '| Розташування || [[Розташоване в::{{{розташування|}}}]]\n|-\n' +
        '| Примітка || [[Примітка::{{{примітка|}}}]]\n|-\n' +
        '| Населення || [[Населення::{{{населення|0}}}]]\n|}\n' +
        '{{#set:Країна={{{країна|Україна}}}}}' +
        '[[Категорія:Поселення]]</includeonly>',
    },
    { title: 'Property:Розташоване в', ns: 102, text: 'Де розташоване поселення.\n\n[[Has type::Page]]' },
    { title: 'Property:Примітка', ns: 102, text: 'Примітка до поселення.\n\n[[Має тип::Текст]]' },
    { title: 'Property:Населення', ns: 102, text: 'Кількість жителів.\n\n[[Has type::Number]]' },
    { title: 'Property:Країна', ns: 102, text: 'Країна поселення.\n\n[[Has type::Page]]' },
    { title: 'Категорія:Поселення', ns: 14, text: 'Усі поселення (додаються шаблоном).\n{{#default_form:Поселення}}' },
    { title: 'Категорія:Службова', ns: 14, text: '__HIDDENCAT__\nСлужбова прихована категорія.' },
    {
      title: 'Форма:Поселення',
      ns: 106,
      text:
        '<noinclude>Форма поселення.</noinclude><includeonly>{{{for template|Поселення}}}\n' +
        '{{{field|розташування|input type=combobox|values from property=Розташоване в}}}\n' +
        '{{{field|примітка}}}\n{{{end template}}}\n{{{standard input|save}}}</includeonly>',
    },
    { title: 'Україна', ns: 0, text: "'''Україна''' — країна більшості поселень синтетичної вікі." },
    // filled in below, once the article count is known
    { title: 'Список поселень', ns: 0, text: '' },
  ];

  const H = Math.min(N, header.length);
  const S = N - H;
  // counts of each slot kind (needed for links to existing pages)
  let A = 0;
  let C = 0;
  let F = 0;
  const kindOf = (k: number): 0 | 1 | 2 => (k % 50 === 49 ? 1 : k % 100 === 98 ? 2 : 0); // 0 article, 1 category, 2 file
  for (let k = 0; k < S; k++) {
    const t = kindOf(k);
    if (t === 0) A++;
    else if (t === 1) C++;
    else F++;
  }
  const Aref = Math.max(A, 1);
  const Cref = Math.max(C, 1);
  const Fref = Math.max(F, 1);
  const list = header.find((p) => p.title === 'Список поселень')!;
  list.text =
    'Перші поселення синтетичної вікі:\n' + Array.from({ length: Math.min(5000, A) }, (_, i) => `* [[${articleTitle(i)}]]`).join('\n');

  const dump = new ChunkWriter(path.join(outDir, 'dump.xml'));
  const manifest = new ChunkWriter(path.join(outDir, 'files', 'files-manifest.jsonl'));
  const uploads = new ChunkWriter(path.join(outDir, 'files', 'uploads.json'));
  uploads.write('[');
  // the log items, written to the dump after the pages (a file of their own until then: nothing held in memory)
  const logItemsFile = path.join(outDir, 'logitems.xml.tmp');
  const logItems = new ChunkWriter(logItemsFile);
  let logId = 0;
  let firstUpload = true;
  const uploaderOf = (f: number) => USERS[mix(f, 41, seed) % USERS.length]!;
  const logUpload = (f: number, name: string, pageSlot: number) => {
    const dupOf = f % 10 === 3 ? f - 1 : f % 20 === 4 ? f - 2 : f; // pairs and triples with equal bytes
    const sha1 = crypto.createHash('sha1').update(`synthetic-file-${seed}-${dupOf}`).digest('hex');
    const hs = mix(dupOf, 43, seed);
    const ext = EXTS[f % 10]!;
    const width = ext === 'svg' ? 512 : 16 + (hs % 1905);
    const height = ext === 'svg' ? 512 : 16 + ((hs >>> 11) % 1065);
    const size = 200 + (hs % 4_000_000);
    const u = uploaderOf(f);
    const ts = isoTime(pageSlot >= 0 ? timeOf(pageSlot, 1) : timeOf(S + f, 1));
    const comment = `Завантажено ${name.replace(/_/g, ' ')}`;
    manifest.write(JSON.stringify({ name, size, sha1, width, height, mime: MIMES[ext], user: u.name, timestamp: ts, comment }) + '\n');
    uploads.write(`${firstUpload ? '\n' : ',\n'}  ${JSON.stringify({ name, user: u.name, timestamp: ts, comment })}`);
    firstUpload = false;
    logItems.write(
      xmlLogItem({
        id: ++logId,
        timestamp: ts,
        contributor: { name: u.name, id: u.id },
        comment,
        type: 'upload',
        action: 'upload',
        logtitle: `Файл:${name.replace(/_/g, ' ')}`,
        params: '',
      }),
    );
  };

  dump.write(
    xmlHeader({
      ...demoSiteInfo(),
      sitename: 'Синтетична вікі',
      dbname: 'bigwiki',
      base: 'http://127.0.0.1:8080/index.php/Головна_сторінка',
    }),
  );
  let pageId = 0;
  let revId = 0;
  const R = Math.max(1, Math.floor(opts.revisions ?? 1));
  const emit = (title: string, ns: number, finalTexts: string[], slot: number, redirect?: string, creator?: Contributor) => {
    pageId++;
    let texts = finalTexts;
    if (R > 1 && texts.length < R && redirect === undefined) {
      const last = texts[texts.length - 1]!;
      const early = Array.from({ length: R - texts.length }, (_, k) =>
        last.slice(0, Math.max(1, Math.floor((last.length * (k + 1)) / (R - texts.length + 1)))),
      );
      texts = [...early, ...texts];
    }
    const p: DumpPage = { title, ns, id: pageId, redirect, revisions: [] };
    let t = timeOf(slot, 1);
    texts.forEach((text, k) => {
      if (k > 0) t = Math.min(T0 + TSPAN + 86000, t + 3600 + (mix(slot, 7 + k, seed) % (400 * 86400)));
      revId++;
      p.revisions.push({
        id: revId,
        parentId: k > 0 ? revId - 1 : undefined,
        timestamp: isoTime(t),
        contributor: k === 0 && creator ? creator : contributorOf(slot, 5 + k),
        minor: k > 0 && mix(slot, 9, seed) % 4 === 0,
        comment: k === 0 ? 'Створено сторінку' : 'оновлення',
        text,
      });
    });
    dump.write(xmlPage(p));
  };

  for (let i = 0; i < H; i++) {
    const h = header[i]!;
    emit(h.title, h.ns, [h.text], -1 - i);
  }

  let a = 0;
  let c = 0;
  let f = 0;
  for (let k = 0; k < S; k++) {
    const kind = kindOf(k);
    if (kind === 1) {
      const parent = c === 0 ? 'Поселення' : catName(Math.floor((c - 1) / 10));
      emit(`Категорія:${catName(c)}`, 14, [`Громада синтетичної вікі.\n[[Категорія:${parent}]]`], k);
      c++;
      continue;
    }
    if (kind === 2) {
      const name = fileName(f);
      const cat = catName(mix(f, 31, seed) % Cref);
      emit(
        `Файл:${name.replace(/_/g, ' ')}`,
        6,
        [`== Опис ==\nФото громади.\n[[Категорія:${cat}]]\n[[Категорія:Фотографії]]`],
        k,
        undefined,
        {
          name: uploaderOf(f).name,
          id: uploaderOf(f).id,
        },
      );
      if (f % 50 !== 25) logUpload(f, name, k); // every 50th description page has no file
      f++;
      continue;
    }
    // article
    const title = articleTitle(a);
    const h = mix(a, 21, seed);
    if (a % 97 === 13 && a > 0) {
      emit(title, 0, [`#REDIRECT [[${articleTitle(a - 1)}]]`], k, articleTitle(a - 1));
      a++;
      continue;
    }
    if (a % 997 === 500) {
      const target = articleTitle(Aref + a);
      emit(title, 0, [`#ПЕРЕНАПРАВЛЕННЯ [[${target}]]`], k, target);
      a++;
      continue;
    }
    const cat = catName(h % Cref);
    const n1 = articleTitle(mix(a, 22, seed) % Aref);
    const n2 = articleTitle(mix(a, 23, seed) % Aref);
    const red = articleTitle(Aref + (mix(a, 24, seed) % Aref));
    const loc = a % 50 === 7 && a > 0 ? locationValue(a - 1) : locationValue(a);
    const pop = a % 500 === 6 ? 100001 + (mix(a, 25, seed) % 900000) : mix(a, 25, seed) % 100000;
    const country = a % 20 === 3 ? '|країна=Польща' : a % 20 === 17 ? '|країна=Молдова' : '';
    let text =
      `{{${headerTemplate}|розташування=${h % 9 === 0 ? lcfirst(loc) : h % 9 === 1 ? loc.replace(/ /g, '_') : loc}|примітка=${noteValue(a)}|населення=${pop}${country}}}\n` +
      `'''${title}''' — поселення громади [[:Категорія:${cat}|${cat}]]. ` +
      `Сусідні поселення: [[${(h >>> 4) % 5 === 0 ? lcfirst(n1) : n1}]], [[${n2}]] та [[${red}]].`;
    if (a % 9 === 4) text += ' Країна: [[Україна]].';
    if (a % 3 === 0) text += `\n[[Файл:${communityFile(mix(a, 26, seed) % Fref)}|thumb|Вигляд]]`;
    if (a % 50 === 11) text += `\n[[Файл:Неіснуюче фото ${a}.jpg]]`;
    if (a % 100 === 0) text += `\n[http://example.org/p/${a} Зовнішнє посилання]`;
    text += `\n[[Категорія:${cat}]]`;
    if (a % 5 === 0) text += `\n[[Категорія:${catName(mix(a, 27, seed) % Cref)}|${title.slice(0, 3)}]]`;
    if (a % 211 === 5) text += `\n[[Категорія:Громада без сторінки ${a % 7}]]`;
    if (a % 1000 === 1) text += '\n[[Категорія:Службова]]';
    if (a % 100 === 0) text += `\n\n[[en:Settlement ${a}]]\n[[pl:Osada ${a}]]`;
    const texts = a % 20 === 0 ? [text.slice(0, text.indexOf('\n')) + `\n'''${title}''' — поселення.`, text] : [text];
    emit(title, 0, texts, k);
    a++;
  }
  // files uploaded without a description page
  for (let e = 0; e < Math.floor(F / 20); e++) logUpload(F + e, fileName(F + e), -1);

  logItems.close();
  const items = fs.openSync(logItemsFile, 'r');
  const chunk = Buffer.allocUnsafe(1 << 22);
  for (let n = fs.readSync(items, chunk); n > 0; n = fs.readSync(items, chunk)) dump.writeBytes(chunk.subarray(0, n));
  fs.closeSync(items);
  fs.rmSync(logItemsFile);
  dump.write(XML_FOOTER);
  uploads.write(firstUpload ? ']\n' : '\n]\n');
  dump.close();
  manifest.close();
  uploads.close();
  const secs = Number(process.hrtime.bigint() - started) / 1e9;
  process.stdout.write(`${path.join(outDir, 'dump.xml')}: ${dump.bytes} bytes, ${N} pages in ${secs.toFixed(1)} s\n`);
}

// ---------------------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------------------

function isMain(): boolean {
  const arg = process.argv[1];
  if (!arg) return false;
  try {
    return fs.realpathSync(arg) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  const args = process.argv.slice(2);
  let revisions: number | undefined;
  const r = args.indexOf('--revisions');
  if (r >= 0) {
    revisions = Number(args[r + 1]);
    args.splice(r, 2);
  }
  const out = args[0];
  const n = Number(args[1]);
  const seed = args[2] === undefined ? undefined : Number(args[2]);
  const bad = (v: number | undefined) => v !== undefined && (!Number.isFinite(v) || v < 1);
  if (!out || !Number.isFinite(n) || n < 0 || (seed !== undefined && !Number.isFinite(seed)) || bad(revisions)) {
    process.stderr.write('usage: node dist/scripts/generate-big.js OUTDIR PAGES [SEED] [--revisions R]\n');
    process.exit(2);
  }
  generateBig(out, n, { seed, revisions }).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
