/**
 * Demo wiki generator: writes a small, fully deterministic Ukrainian-language wiki as a MediaWiki 1.25
 * XML export dump (schema 0.10) plus the uploaded files, an upload log and a small interface-message
 * catalog. All content is our own. Running it twice gives byte-identical output.
 *
 *   OUTDIR/dump.xml             the export dump (pages, revisions, <upload> elements of file pages)
 *   OUTDIR/files/<db key>       the uploaded files (PNG, GIF, SVG, PDF, TXT)
 *   OUTDIR/files/uploads.json   the upload log: [{name, user, timestamp, comment}] for every file in files/
 *                               (inside files/ because the importer reads it from its --files DIR)
 *   OUTDIR/messages/{en,uk,ru}.json   interface messages in MediaWiki's i18n JSON format
 *
 * CLI: node dist/scripts/generate-demo.js OUTDIR
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lcfirst, ucfirst } from '../src/wiki/language.js';
import { Rng } from './random.js';
import { phpSerialize, sha1Base36, uploadLocation, xmlHeader, xmlLogItem, xmlPage, XML_FOOTER, type Contributor, type DumpLogItem, type DumpRevision, type DumpUpload } from '../src/demo/dump-xml.js';
import { encodeGif, encodePdf, encodePng, type Rgb as RGB } from '../src/demo/image-encoders.js';

/** FNV-1a 32-bit hash of a string (used to seed per-page PRNGs). */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Namespaces of the demo wiki (local names with spaces). */
const NAMESPACES: ReadonlyArray<readonly [number, string]> = [
  [-2, 'Медіа'],
  [-1, 'Спеціальна'],
  [0, ''],
  [1, 'Обговорення'],
  [2, 'Користувач'],
  [3, 'Обговорення користувача'],
  [4, 'Демовікі'],
  [5, 'Обговорення Демовікі'],
  [6, 'Файл'],
  [7, 'Обговорення файлу'],
  [8, 'MediaWiki'],
  [9, 'Обговорення MediaWiki'],
  [10, 'Шаблон'],
  [11, 'Обговорення шаблону'],
  [12, 'Довідка'],
  [13, 'Обговорення довідки'],
  [14, 'Категорія'],
  [15, 'Обговорення категорії'],
  [102, 'Property'],
  [103, 'Property talk'],
  [106, 'Форма'],
  [107, 'Обговорення форми'],
  [108, 'Concept'],
  [109, 'Concept talk'],
];
const NS_NAME = new Map<number, string>(NAMESPACES.map(([k, v]) => [k, v]));

/** Seconds since the epoch → ISO 8601 UTC without milliseconds, e.g. 2014-03-05T10:20:30Z. */
function isoTime(sec: number): string {
  return new Date(sec * 1000).toISOString().replace('.000Z', 'Z');
}
function parseIso(s: string): number {
  const ms = Date.parse(s);
  if (Number.isNaN(ms)) throw new Error(`bad timestamp ${s}`);
  return Math.floor(ms / 1000);
}

// ---------------------------------------------------------------------------------------------------------
// People
// ---------------------------------------------------------------------------------------------------------

interface User {
  name: string;
  id: number;
}
const U = {
  admin: { name: 'Адміністратор', id: 1 },
  olena: { name: 'Олена Коваль', id: 2 },
  taras: { name: 'Тарас', id: 3 },
  bot: { name: 'ДемоБот', id: 4 },
  maryana: { name: 'Марʼяна', id: 5 },
  ivan: { name: 'Ivan Petrenko', id: 6 },
  ostap: { name: 'Остап Ґудзь', id: 7 },
} satisfies Record<string, User>;
const EDITORS: User[] = [U.admin, U.olena, U.olena, U.taras, U.taras, U.maryana, U.ivan, U.ostap, U.bot];
const IPS = ['192.0.2.15', '198.51.100.7', '203.0.113.200', '2001:DB8::42'];

const COMMENTS_FIRST = [
  'Створено нову сторінку',
  'нова стаття',
  'Перша версія',
  'почав статтю',
  'Створено сторінку: основні відомості',
];
const COMMENTS_LATER = [
  'доповнення',
  'виправлено помилки',
  'оформлення',
  'додано категорію',
  'уточнення & посилання',
  'правопис',
  'додано розділ «Історія»',
  'вікіфікація <див. обговорення>',
  'оновлено дані про "населення"',
  '',
  'стиль',
  'джерела',
];

// ---------------------------------------------------------------------------------------------------------
// Page model
// ---------------------------------------------------------------------------------------------------------

interface RevSpec {
  ts?: string; // pinned ISO timestamp
  user?: User;
  ip?: string;
  minor?: boolean;
  comment?: string;
  text: string;
}
interface PageSpec {
  ns: number;
  title: string; // without namespace prefix, spaces, first letter uppercase
  revs: RevSpec[]; // oldest first
  redirect?: string; // prefixed target (spaces), no fragment
  /** number of revisions to synthesise from the final text when revs.length === 1 (0 = decide randomly) */
  history?: number;
  /** earliest / latest allowed time (seconds) for unpinned revisions */
  upload?: FileSpec;
}

interface FileSpec {
  name: string; // DB key (underscores)
  art: string; // key of the image content; equal keys → byte-identical files
  page: boolean; // has a description page
  desc: string;
  cats: string[];
  user: User;
  ts?: string;
  comment?: string;
}

const pages: PageSpec[] = [];
const byKey = new Map<string, PageSpec>();
function key(ns: number, title: string): string {
  return `${ns}:${title}`;
}
function add(ns: number, title: string, text: string | RevSpec[], opts: Partial<PageSpec> = {}): PageSpec {
  if (ucfirst(title) !== title) throw new Error(`title not normalised: ${title}`);
  if (/[_#<>\[\]|{}]/.test(title)) throw new Error(`bad title: ${title}`);
  const k = key(ns, title);
  if (byKey.has(k)) throw new Error(`duplicate page ${k}`);
  const revs = typeof text === 'string' ? [{ text }] : text;
  const p: PageSpec = { ns, title, revs, ...opts };
  pages.push(p);
  byKey.set(k, p);
  return p;
}
function prefixed(ns: number, title: string): string {
  const n = NS_NAME.get(ns) ?? '';
  return n === '' ? title : `${n}:${title}`;
}

// ---------------------------------------------------------------------------------------------------------
// Content data
// ---------------------------------------------------------------------------------------------------------

interface City {
  t: string; // page title
  name?: string; // display name (назва=)
  region: string; // as written in the template call
  pop: number | string;
  year?: number;
  centre?: boolean; // обласний центр
  river?: string;
  resort?: boolean;
}
const CITIES: City[] = [
  { t: 'Київ', region: 'Київська область', pop: 2884000, year: 482, centre: true, river: 'Дніпро (річка)' },
  { t: 'Харків', region: 'Харківська область', pop: 1430000, year: 1654, centre: true },
  { t: 'Одеса', region: 'Одеська область', pop: 1010000, year: 1794, centre: true, resort: true },
  { t: 'Дніпро (місто)', name: 'Дніпро', region: 'Дніпропетровська область', pop: 980000, year: 1776, centre: true, river: 'Дніпро (річка)' },
  { t: 'Донецьк', region: 'Донецька область', pop: 900000, year: 1869, centre: true },
  { t: 'Запоріжжя', region: 'Запорізька область', pop: 720000, year: 1770, centre: true, river: 'Дніпро (річка)' },
  { t: 'Львів', region: 'Львівська область', pop: 720000, year: 1256, centre: true },
  { t: 'Кривий Ріг', region: 'Дніпропетровська область', pop: 620000, year: 1775, river: 'Інгулець' },
  { t: 'Миколаїв', region: 'Миколаївська область', pop: 480000, year: 1789, centre: true, river: 'Південний Буг' },
  { t: 'Маріуполь', region: 'Донецька область', pop: 430000, year: 1778 },
  { t: 'Луганськ', region: 'Луганська область', pop: 400000, year: 1795, centre: true },
  { t: 'Вінниця', region: 'Вінницька область', pop: 370000, year: 1363, centre: true, river: 'Південний Буг' },
  { t: 'Макіївка', region: 'Донецька область', pop: 340000, year: 1690 },
  { t: 'Севастополь', region: 'Автономна Республіка Крим', pop: 390000, year: 1783, resort: true },
  { t: 'Сімферополь', region: 'Автономна Республіка Крим', pop: 340000, year: 1784, centre: true },
  { t: 'Херсон', region: 'Херсонська область', pop: 290000, year: 1778, centre: true, river: 'Дніпро (річка)' },
  { t: 'Полтава', region: 'Полтавська область', pop: 290000, year: 899, centre: true, river: 'Ворскла' },
  { t: 'Чернігів', region: 'Чернігівська область', pop: 290000, year: 907, centre: true, river: 'Десна' },
  { t: 'Черкаси', region: 'Черкаська область', pop: 280000, year: 1394, centre: true, river: 'Дніпро (річка)' },
  { t: 'Житомир', region: 'Житомирська область', pop: 265000, year: 884, centre: true },
  { t: 'Суми', region: 'Сумська область', pop: 265000, year: 1652, centre: true, river: 'Псел' },
  { t: 'Хмельницький', region: 'Хмельницька область', pop: 270000, year: 1431, centre: true, river: 'Південний Буг' },
  { t: 'Чернівці', region: 'Чернівецька область', pop: 265000, year: 1408, centre: true, river: 'Прут' },
  { t: 'Горлівка', region: 'Донецька область', pop: 250000, year: 1779 },
  { t: 'Рівне', region: 'Рівненська область', pop: 245000, year: 1283, centre: true, river: 'Горинь' },
  { t: "Кам'янське", region: 'Дніпропетровська область', pop: 240000, year: 1750, river: 'Дніпро (річка)' },
  { t: 'Кропивницький', region: 'Кіровоградська область', pop: 230000, year: 1754, centre: true, river: 'Інгул' },
  { t: 'Івано-Франківськ', region: 'Івано-Франківська область', pop: 235000, year: 1662, centre: true },
  { t: 'Кременчук', region: 'Полтавська область', pop: 220000, year: 1571, river: 'Дніпро (річка)' },
  { t: 'Тернопіль', region: 'Тернопільська область', pop: 218000, year: 1540, centre: true, river: 'Серет' },
  { t: 'Луцьк', region: 'Волинська область', pop: 217000, year: 1085, centre: true },
  { t: 'Біла Церква', region: 'Київська область', pop: 210000, year: 1032, river: 'Рось' },
  { t: 'Краматорськ', region: 'Донецька область', pop: 160000, year: 1868 },
  { t: 'Мелітополь', region: 'Запорізька область', pop: 155000, year: 1784 },
  { t: 'Керч', region: 'Автономна Республіка Крим', pop: 150000, resort: true },
  { t: 'Ужгород', region: 'Закарпатська область', pop: 115000, year: 872, centre: true },
  { t: "Слов'янськ", region: 'Донецька область', pop: 110000, year: 1676, resort: true },
  { t: 'Бердянськ', region: 'Запорізька область', pop: 110000, year: 1827, resort: true },
  { t: 'Нікополь', region: 'Дніпропетровська область', pop: 110000, year: 1639, river: 'Дніпро (річка)' },
  { t: 'Алчевськ', region: 'Луганська область', pop: 108000, year: 1895 },
  { t: 'Павлоград', region: 'Дніпропетровська область', pop: 105000, year: 1780, river: 'Самара (річка)' },
  { t: 'Євпаторія', region: 'Автономна Республіка Крим', pop: 105000, resort: true },
  { t: 'Лисичанськ', region: 'Луганська область', pop: 100000, year: 1710, river: 'Сіверський Донець' },
  { t: "Кам'янець-Подільський", region: 'Хмельницька область', pop: 100000, year: 1062, river: 'Смотрич' },
  { t: 'Бровари', region: 'київська область', pop: 100000, year: 1630 },
  { t: 'Дрогобич', region: 'Львівська область', pop: 75000, year: 1091 },
  { t: 'Конотоп', region: 'Сумська область', pop: 86000, year: 1634 },
  { t: 'Умань', region: 'Черкаська область', pop: 83000, year: 1616 },
  { t: 'Мукачево', region: 'Закарпатська область', pop: 85000, year: 896 },
  { t: 'Ялта', region: 'Автономна_Республіка_Крим', pop: 78000, year: 1838, resort: true },
  { t: 'Бердичів', region: 'Житомирська область', pop: 76000, year: 1430 },
  { t: 'Шостка', region: 'Сумська область', pop: 74000, year: 1739 },
  { t: 'Ізмаїл', region: 'Одеська область', pop: 71000, year: 1590 },
  { t: 'Ніжин', region: 'Чернігівська область', pop: 68000, year: 1147 },
  { t: 'Фастів', region: 'Київська_область', pop: 45000, year: 1390 },
  { t: 'Коломия', region: 'Івано-Франківська область', pop: 61000, year: 1241, river: 'Прут' },
  { t: 'Ірпінь', region: 'київська_область', pop: 60000, year: 1902 },
  { t: 'Бориспіль', region: 'Київська область', pop: 62000, year: 1154 },
  { t: 'Ковель', region: 'Волинська область', pop: 68000, year: 1310 },
  { t: 'Чорноморськ', region: 'Одеська область', pop: 60000, year: 1973, resort: true },
  { t: 'Охтирка', region: 'Сумська область', pop: 47000, year: 1641, river: 'Ворскла' },
  { t: 'Ізюм', region: 'Харківська область', pop: 45000, year: 1681, river: 'Сіверський Донець' },
  { t: 'Стрий', region: 'Львівська область', pop: 59000, year: 1385, river: 'Стрий (річка)' },
  { t: 'Самбір', region: 'Львівська область', pop: 35000, year: 1241, river: 'Дністер' },
  { t: 'Яготин', region: 'Київська область', pop: 20000, year: 1552 },
  { t: 'Переяслав', region: 'Київська область', pop: 27000, year: 907 },
  { t: 'Їжакове', region: 'Черкаська область', pop: 1200, year: 1788 },
  { t: 'Ґалаґанівка', region: 'Чернігівська область', pop: 'багато' },
];

interface River {
  t: string;
  name?: string;
  len: number;
  into: string; // Page value as written
  basin?: 'Дніпро';
  en?: string;
}
const RIVERS: River[] = [
  { t: 'Дніпро (річка)', name: 'Дніпро', len: 2201, into: 'Чорне море', en: 'Dnieper' },
  { t: 'Дністер', len: 1362, into: 'Чорне море', en: 'Dniester' },
  { t: 'Південний Буг', len: 806, into: 'Чорне море' },
  { t: 'Десна', len: 1130, into: 'Дніпро (річка)', basin: 'Дніпро' },
  { t: 'Сіверський Донець', len: 1053, into: 'Дон' },
  { t: "Прип'ять", len: 761, into: 'дніпро (річка)', basin: 'Дніпро' },
  { t: 'Рось', len: 346, into: 'Дніпро_(річка)', basin: 'Дніпро' },
  { t: 'Тиса', len: 966, into: 'Дунай' },
  { t: 'Прут', len: 953, into: 'Дунай' },
  { t: 'Інгулець', len: 549, into: 'Дніпро (річка)', basin: 'Дніпро' },
  { t: 'Ворскла', len: 464, into: 'Дніпро (річка)', basin: 'Дніпро' },
  { t: 'Сула', len: 363, into: 'Дніпро (річка)', basin: 'Дніпро' },
  { t: 'Псел', len: 717, into: 'Дніпро (річка)', basin: 'Дніпро' },
  { t: 'Горинь', len: 659, into: "Прип'ять" },
  { t: 'Случ', len: 451, into: 'Горинь' },
  { t: 'Стрий (річка)', name: 'Стрий', len: 232, into: 'Дністер' },
  { t: 'Збруч', len: 247, into: 'Дністер' },
  { t: 'Серет', len: 248, into: 'дністер' },
  { t: 'Смотрич', len: 169, into: 'Дністер' },
  { t: 'Оскіл', len: 472, into: 'Сіверський Донець' },
  { t: 'Самара (річка)', name: 'Самара', len: 320, into: 'Дніпро (річка)', basin: 'Дніпро' },
  { t: 'Інгул', len: 354, into: 'Південний Буг' },
  { t: 'Черемош', len: 80, into: 'Прут' },
];

interface Food {
  t: string;
  kind: 'суп' | 'напій' | 'тісто' | 'мʼясо' | 'інше';
  veg: boolean;
  ingr: string[];
  en?: string;
}
const FOODS: Food[] = [
  { t: 'Борщ', kind: 'суп', veg: false, ingr: ['Буряк', 'капуста', 'Картопля', 'Морква'], en: 'Borscht' },
  { t: 'Вареники', kind: 'тісто', veg: true, ingr: ['Борошно', 'Картопля', 'сир кисломолочний'] },
  { t: 'Голубці', kind: 'мʼясо', veg: false, ingr: ['капуста', 'Рис', 'Мʼясо'] },
  { t: 'Деруни', kind: 'інше', veg: true, ingr: ['Картопля', 'Цибуля', 'Яйце'] },
  { t: 'Галушки', kind: 'тісто', veg: true, ingr: ['Борошно', 'Яйце'] },
  { t: 'Сало', kind: 'мʼясо', veg: false, ingr: ['свиняче сало', 'Часник'] },
  { t: 'Пампушки', kind: 'тісто', veg: true, ingr: ['Борошно', 'Часник', 'Олія'] },
  { t: 'Куліш', kind: 'суп', veg: false, ingr: ['Пшоно', 'Сало', 'Цибуля'] },
  { t: 'Юшка', kind: 'суп', veg: false, ingr: ['Риба', 'Картопля'] },
  { t: 'Капусняк', kind: 'суп', veg: true, ingr: ['квашена капуста', 'Пшоно'] },
  { t: 'Кутя', kind: 'інше', veg: true, ingr: ['Пшениця', 'Мак', 'Мед'] },
  { t: 'Узвар', kind: 'напій', veg: true, ingr: ['сушені груші', 'сушені яблука', 'Мед'] },
  { t: 'Сирники', kind: 'інше', veg: true, ingr: ['сир кисломолочний', 'Яйце', 'Борошно'] },
  { t: 'Налисники', kind: 'тісто', veg: true, ingr: ['Борошно', 'Молоко', 'сир кисломолочний'] },
  { t: 'Паляниця', kind: 'тісто', veg: true, ingr: ['Борошно', 'Дріжджі'] },
  { t: 'Книш', kind: 'тісто', veg: true, ingr: ['Борошно', 'Цибуля'] },
  { t: 'Мʼясо', kind: 'мʼясо', veg: false, ingr: ['Яловичина', 'Свинина'] },
  { t: 'Банош', kind: 'інше', veg: false, ingr: ['Кукурудзяна крупа', 'Сметана', 'Бринза'] },
  { t: 'Холодець', kind: 'мʼясо', veg: false, ingr: ['Свинина', 'Часник'] },
  { t: 'Ковбаса домашня', kind: 'мʼясо', veg: false, ingr: ['Свинина', 'Часник', 'перець чорний'] },
  { t: "Кров'янка", kind: 'мʼясо', veg: false, ingr: ['Гречка', 'Сало'] },
  { t: 'Грибна юшка', kind: 'суп', veg: true, ingr: ['білі гриби', 'Картопля'] },
  { t: 'Соломаха', kind: 'інше', veg: true, ingr: ['Борошно', 'Сало'] },
  { t: 'Мандрики', kind: 'тісто', veg: true, ingr: ['сир кисломолочний', 'Борошно'] },
  { t: 'Пиріжки', kind: 'тісто', veg: true, ingr: ['Борошно', 'капуста', 'Картопля'] },
  { t: 'Рогалики', kind: 'тісто', veg: true, ingr: ['Борошно', 'Мак'] },
  { t: 'Медівник', kind: 'тісто', veg: true, ingr: ['Мед', 'Борошно'] },
  { t: 'Компот', kind: 'напій', veg: true, ingr: ['Вишня', 'сушені яблука'] },
  { t: 'Квас', kind: 'напій', veg: true, ingr: ['житній хліб', 'Дріжджі'] },
  { t: 'Варенуха', kind: 'напій', veg: true, ingr: ['Мед', 'сушені груші', 'Вишня'] },
  { t: 'Гречаники', kind: 'мʼясо', veg: false, ingr: ['Гречка', 'Мʼясо'] },
  { t: 'Зрази', kind: 'мʼясо', veg: false, ingr: ['Яловичина', 'Яйце'] },
  { t: 'Крученики', kind: 'мʼясо', veg: false, ingr: ['Свинина', 'Гриби'] },
  { t: 'Печеня', kind: 'мʼясо', veg: false, ingr: ['Свинина', 'Картопля'] },
  { t: 'Завиванець', kind: 'тісто', veg: true, ingr: ['Мак', 'Борошно'] },
  { t: 'Пляцок', kind: 'тісто', veg: true, ingr: ['Борошно', 'Вишня'] },
];

interface Character {
  t: string;
  sex: 'чоловіча' | 'жіноча';
  kind: 'казковий' | 'науковець' | 'інший';
  born: string;
  nick: string;
  friend?: string;
  sort?: string;
}
const CHARACTERS: Character[] = [
  { t: 'Олекса Вітрогон', sex: 'чоловіча', kind: 'інший', born: '1887-04-12', nick: 'Вітер', friend: 'Ївга Зорепад', sort: 'Вітрогон, Олекса' },
  { t: 'Ївга Зорепад', sex: 'жіноча', kind: 'науковець', born: '1902-11-03', nick: 'Зірочка', friend: 'олекса Вітрогон', sort: 'Зорепад, Ївга' },
  { t: 'Ґедзь Ґудзикович', sex: 'чоловіча', kind: 'казковий', born: '1750-06-01', nick: 'Ґедзик' },
  { t: 'Єва Березенко', sex: 'жіноча', kind: 'науковець', born: '1965-02-28', nick: 'Береза', sort: 'Березенко, Єва' },
  { t: 'Ёж Ёжикович', sex: 'чоловіча', kind: 'казковий', born: '1811-12-24', nick: 'Колючка', friend: 'Їжак' },
  { t: 'Марʼяна Світанок', sex: 'жіноча', kind: 'інший', born: '1990-07-07', nick: 'Ранок', sort: 'Світанок, Марʼяна' },
  { t: 'Тарас Пічкур', sex: 'чоловіча', kind: 'інший', born: '1978-03-09', nick: 'Пічкурик', friend: 'Марʼяна Світанок' },
  { t: 'Орися Лісовичка', sex: 'жіноча', kind: 'казковий', born: '1600-05-05', nick: 'Лісова' },
  { t: 'Petro Smith', sex: 'чоловіча', kind: 'науковець', born: '1955-09-15', nick: 'Піт' },
  { t: 'Zoryana Moon', sex: 'жіноча', kind: 'інший', born: '1999-01-31', nick: 'Місяць' },
  { t: 'Котигорошко', sex: 'чоловіча', kind: 'казковий', born: '1700-01-01', nick: 'Горошок', friend: 'Кирило Кожумʼяка' },
  { t: 'Кирило Кожумʼяка', sex: 'чоловіча', kind: 'казковий', born: '1650-08-20', nick: 'Кожумʼяка' },
  { t: 'Мавка', sex: 'жіноча', kind: 'казковий', born: '1500-04-30', nick: 'Лісова пісня' },
  { t: 'Лис Микита', sex: 'чоловіча', kind: 'казковий', born: '1890-10-10', nick: 'Хитрун' },
  { t: 'Пан Коцький', sex: 'чоловіча', kind: 'казковий', born: '1850-02-14', nick: 'Котик' },
  { t: 'Соломія Вербицька', sex: 'жіноча', kind: 'науковець', born: '1933-06-17', nick: 'Верба', sort: 'Вербицька, Соломія' },
  { t: 'Богдан Ґрунтовий', sex: 'чоловіча', kind: 'науковець', born: '1948-12-01', nick: 'Ґрунт', sort: 'Ґрунтовий, Богдан' },
  { t: 'Іванна Криниця', sex: 'жіноча', kind: 'інший', born: '1985-05-20', nick: 'Джерельце' },
  { t: 'Устим Перепелиця', sex: 'чоловіча', kind: 'інший', born: '1921-09-09', nick: 'Перепел' },
  { t: 'Параска Гречана', sex: 'жіноча', kind: 'казковий', born: '1777-07-17', nick: 'Гречка' },
  { t: 'Остап Ковзанка', sex: 'чоловіча', kind: 'інший', born: '2001-01-15', nick: 'Ковзан', friend: 'Zoryana Moon' },
  { t: 'Ярина Хмаринка', sex: 'жіноча', kind: 'казковий', born: '1820-03-03', nick: 'Хмарка' },
  { t: 'Левко Громовиця', sex: 'чоловіча', kind: 'науковець', born: '1912-04-04', nick: 'Грім' },
  { t: 'Одарка Калинова', sex: 'жіноча', kind: 'інший', born: '1960-10-30', nick: 'Калина' },
  { t: 'Харитон Сніжко', sex: 'чоловіча', kind: 'казковий', born: '1799-12-31', nick: 'Сніжок' },
  { t: 'Докія Весняна', sex: 'жіноча', kind: 'науковець', born: '1970-03-21', nick: 'Весна' },
  { t: 'Amelia Kovalenko', sex: 'жіноча', kind: 'науковець', born: '1988-08-08', nick: 'Емі' },
  { t: 'Юхим Дзвоник', sex: 'чоловіча', kind: 'інший', born: '1944-11-11', nick: 'Дзвін' },
];

const RED_LINKS = [
  'Неіснуюча стаття',
  'Історія кави в Україні',
  'Село Вигадане',
  'Вулиця Квіткова',
  'Степовий орел',
  'Карпатський ведмідь',
  'Перелік озер України',
  'озеро Синевир',
  'Музей вареників',
  'Фестиваль сиру',
  'Стара пошта',
  'Міський сад',
  'Zoo Kyiv',
  'ярмарок у Сорочинцях',
  'Червона стаття',
];

const REGION_PAGES = [
  'Київська область',
  'Львівська область',
  'Одеська область',
  'Харківська область',
  'Автономна Республіка Крим',
  'Закарпатська область',
];

// ---------------------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------------------

const FILES: FileSpec[] = [
  // duplicate group 1 (3 files, one of them without a description page)
  { name: 'Прапор_України.png', art: 'flag-ua', page: true, desc: 'Прапор України: дві горизонтальні смуги, синя та жовта.', cats: ['Прапори'], user: U.olena },
  { name: 'Flag_of_Ukraine.png', art: 'flag-ua', page: true, desc: 'The flag of Ukraine (копія з англійською назвою).', cats: ['Прапори'], user: U.ivan },
  { name: 'Ukraine_flag_copy.png', art: 'flag-ua', page: false, desc: 'ще одна копія прапора', cats: [], user: U.bot, ts: '2015-06-01T00:00:00Z' },
  // group 2
  { name: 'Герб_Києва.png', art: 'arms-kyiv', page: true, desc: 'Умовне зображення герба Києва для демонстрації.', cats: ['Герби'], user: U.olena },
  { name: 'Kyiv_coat_of_arms.png', art: 'arms-kyiv', page: true, desc: 'Coat of arms of Kyiv (дублікат).', cats: ['Герби'], user: U.ivan },
  // group 3
  { name: 'Linux_logo.png', art: 'tux', page: true, desc: 'Умовний логотип Linux: чорно-біла шахівниця.', cats: ['Логотипи'], user: U.ivan },
  { name: 'Tux.png', art: 'tux', page: true, desc: 'Пінгвін Tux, спрощено.', cats: ['Логотипи'], user: U.taras },
  { name: 'Пінгвін.png', art: 'tux', page: true, desc: 'Те саме зображення пінгвіна під українською назвою.', cats: ['Логотипи'], user: U.maryana },
  // group 4
  { name: 'Борщ.png', art: 'borshch', page: true, desc: 'Тарілка борщу (стилізовано).', cats: ['Фотографії', 'Українська кухня'], user: U.maryana },
  { name: 'Borscht.png', art: 'borshch', page: true, desc: 'Borscht, a duplicate upload.', cats: ['Фотографії'], user: U.ivan },
  // group 5 (GIF)
  { name: 'Мапа_України.gif', art: 'map', page: true, desc: 'Схематична мапа України.', cats: ['Схеми'], user: U.admin },
  { name: 'Ukraine_map.gif', art: 'map', page: true, desc: 'Schematic map (duplicate).', cats: ['Схеми'], user: U.ivan },
  // group 6 (SVG)
  { name: 'Зірка.svg', art: 'star', page: true, desc: 'Пʼятикутна зірка у форматі SVG.', cats: ['Схеми'], user: U.taras },
  { name: 'Star.svg', art: 'star', page: true, desc: 'Star (duplicate of Зірка.svg).', cats: ['Схеми'], user: U.ivan },
  // group 7
  { name: 'Порожнє_зображення.png', art: 'blank', page: true, desc: 'Білий квадрат 16×16.', cats: ['Службові категорії'], user: U.admin },
  { name: 'Blank.png', art: 'blank', page: true, desc: 'White square, unused.', cats: [], user: U.bot },
  // group 8
  { name: 'Дніпро_з_висоти.png', art: 'dnipro', page: true, desc: 'Дніпро з висоти пташиного польоту (градієнт).', cats: ['Фотографії'], user: U.olena },
  { name: 'Dnipro_aerial.png', art: 'dnipro', page: true, desc: 'Aerial view of the Dnipro (duplicate).', cats: ['Фотографії'], user: U.ivan },
  // singles
  { name: 'Прапор_Києва.png', art: 'flag-kyiv', page: true, desc: 'Прапор Києва (умовний).', cats: ['Прапори'], user: U.olena },
  { name: 'Прапор_Львова.png', art: 'flag-lviv', page: true, desc: 'Прапор Львова (умовний).', cats: ['Прапори'], user: U.ostap },
  { name: 'Герб_Львова.png', art: 'arms-lviv', page: true, desc: 'Герб Львова (умовний).', cats: ['Герби'], user: U.ostap },
  { name: 'Карпати.png', art: 'carpathians', page: true, desc: 'Карпатські гори на світанку.', cats: ['Фотографії'], user: U.taras },
  { name: 'Говерла.png', art: 'hoverla', page: true, desc: 'Вершина Говерли.', cats: ['Фотографії'], user: U.taras },
  { name: 'Світязь.png', art: 'svitiaz', page: true, desc: 'Озеро Світязь влітку.', cats: ['Фотографії'], user: U.maryana },
  { name: 'Вареники.png', art: 'varenyky', page: true, desc: 'Вареники з картоплею.', cats: ['Фотографії', 'Українська кухня'], user: U.maryana },
  { name: 'Галушки.png', art: 'halushky', page: true, desc: 'Полтавські галушки.', cats: ['Фотографії'], user: U.olena },
  { name: 'Сало.png', art: 'salo', page: true, desc: 'Сало з часником.', cats: ['Фотографії'], user: U.taras },
  { name: 'Паляниця.png', art: 'palianytsia', page: true, desc: 'Свіжа паляниця.', cats: ['Фотографії'], user: U.olena },
  { name: 'Софійський_собор.png', art: 'sofia', page: true, desc: 'Собор (стилізоване зображення).', cats: ['Фотографії'], user: U.admin },
  { name: 'Ґанок.png', art: 'hanok', page: true, desc: 'Дерев’яний ґанок сільської хати.', cats: ['Фотографії'], user: U.ostap },
  { name: 'Їжак.png', art: 'yizhak', page: true, desc: 'Їжак у траві.', cats: ['Фотографії'], user: U.maryana },
  { name: 'Єнот.png', art: 'yenot', page: true, desc: 'Єнот біля річки.', cats: ['Фотографії'], user: U.maryana },
  { name: 'Ёлка.png', art: 'yolka', page: true, desc: 'Ялинка (назва файлу з літерою Ё).', cats: [], user: U.ivan },
  { name: 'Мʼясо.png', art: 'miaso', page: true, desc: 'Шматок мʼяса на дошці.', cats: ['Фотографії'], user: U.taras },
  { name: "П'ятниця.png", art: 'friday', page: true, desc: "Календарний аркуш з п'ятницею.", cats: [], user: U.olena },
  { name: 'Об’єкт.png', art: 'object', page: true, desc: 'Абстрактний об’єкт.', cats: [], user: U.ostap },
  { name: 'IPhone.png', art: 'iphone', page: true, desc: 'Схематичний смартфон.', cats: ['Логотипи'], user: U.ivan },
  { name: 'Zoo.png', art: 'zoo', page: true, desc: 'Zoo: смугасте зображення.', cats: [], user: U.ivan },
  { name: '2014_рік.png', art: 'y2014', page: true, desc: 'Ілюстрація до 2014 року.', cats: [], user: U.taras },
  { name: 'Котигорошко.png', art: 'kotyhoroshko', page: true, desc: 'Котигорошко (малюнок).', cats: [], user: U.maryana },
  { name: 'Мавка.png', art: 'mavka', page: true, desc: 'Мавка (малюнок).', cats: [], user: U.maryana },
  { name: 'Бандура.png', art: 'bandura', page: true, desc: 'Бандура (схематично).', cats: [], user: U.olena },
  { name: 'Трембіта.gif', art: 'trembita', page: true, desc: 'Трембіта, анімація з двох кадрів.', cats: ['Схеми'], user: U.ostap },
  { name: 'Схема_метро.svg', art: 'metro', page: true, desc: 'Умовна схема метро.', cats: ['Схеми'], user: U.admin },
  { name: 'Документ.pdf', art: 'pdf', page: true, desc: 'Демонстраційний PDF-документ.', cats: [], user: U.admin },
  { name: 'Примітки.txt', art: 'txt', page: true, desc: 'Текстовий файл із примітками.', cats: [], user: U.taras },
  { name: 'Small_icon.png', art: 'small', page: true, desc: 'Маленька іконка 16×16.', cats: ['Логотипи'], user: U.bot },
  { name: 'Велика_картинка.png', art: 'big', page: true, desc: 'Велике зображення 320×200.', cats: ['Фотографії'], user: U.olena },
  { name: 'Рось.png', art: 'ros', page: true, desc: 'Річка Рось.', cats: ['Фотографії'], user: U.taras },
  { name: 'Логотип_Демовікі.png', art: 'logo', page: true, desc: 'Логотип Демовікі.', cats: ['Логотипи'], user: U.admin },
  { name: 'Сирники.png', art: 'syrnyky', page: true, desc: 'Сирники зі сметаною.', cats: ['Фотографії'], user: U.maryana },
  { name: 'Чорне_море.png', art: 'sea', page: true, desc: 'Чорне море.', cats: ['Фотографії'], user: U.olena },
  // uploaded, but no description page in the dump
  { name: 'Upload_only_photo.png', art: 'upload-only', page: false, desc: 'завантажено без опису', cats: [], user: U.ivan, ts: '2015-06-01T00:00:00Z' },
  { name: 'Фото_без_сторінки.png', art: 'no-page', page: false, desc: 'фото без сторінки опису', cats: [], user: U.olena, ts: '2016-02-29T12:00:00Z' },
];
/** description pages whose file is missing from files/ */
const MISSING_FILE_PAGES = ['Втрачене фото.jpg', 'Missing scan.png'];

function makeArt(art: string): Buffer {
  const solid = (w: number, h: number, c: RGB) => encodePng(w, h, () => c);
  const grad = (w: number, h: number, a: RGB, b: RGB) =>
    encodePng(w, h, (x, y) => {
      const t = (x + y) / (w + h - 2 || 1);
      return [Math.round(a[0] + (b[0] - a[0]) * t), Math.round(a[1] + (b[1] - a[1]) * t), Math.round(a[2] + (b[2] - a[2]) * t)];
    });
  const hstripes = (w: number, h: number, cols: RGB[]) => encodePng(w, h, (_x, y) => cols[Math.min(cols.length - 1, Math.floor((y * cols.length) / h))]!);
  const vstripes = (w: number, h: number, cols: RGB[]) => encodePng(w, h, (x) => cols[Math.min(cols.length - 1, Math.floor((x * cols.length) / w))]!);
  const circle = (w: number, h: number, bg: RGB, fg: RGB) =>
    encodePng(w, h, (x, y) => {
      const dx = x - w / 2 + 0.5;
      const dy = y - h / 2 + 0.5;
      return dx * dx + dy * dy < (Math.min(w, h) / 2.6) ** 2 ? fg : bg;
    });
  const checker = (w: number, h: number, s: number, a: RGB, b: RGB) => encodePng(w, h, (x, y) => ((Math.floor(x / s) + Math.floor(y / s)) % 2 ? a : b));
  const BLUE: RGB = [0, 87, 183];
  const YELLOW: RGB = [255, 215, 0];
  switch (art) {
    case 'flag-ua': return hstripes(60, 40, [BLUE, YELLOW]);
    case 'arms-kyiv': return circle(64, 64, BLUE, YELLOW);
    case 'tux': return checker(48, 48, 6, [0, 0, 0], [255, 255, 255]);
    case 'borshch': return circle(120, 90, [240, 235, 220], [150, 20, 40]);
    case 'blank': return solid(16, 16, [255, 255, 255]);
    case 'dnipro': return grad(320, 200, [20, 60, 140], [160, 210, 240]);
    case 'flag-kyiv': return hstripes(60, 40, [BLUE, BLUE, YELLOW]);
    case 'flag-lviv': return hstripes(60, 40, [YELLOW, BLUE, YELLOW]);
    case 'arms-lviv': return circle(64, 64, [0, 70, 160], [230, 190, 30]);
    case 'carpathians': return grad(320, 200, [20, 90, 40], [200, 230, 255]);
    case 'hoverla': return grad(200, 150, [90, 110, 90], [255, 255, 255]);
    case 'svitiaz': return grad(160, 120, [0, 120, 170], [190, 240, 255]);
    case 'varenyky': return circle(100, 80, [250, 250, 240], [235, 220, 170]);
    case 'halushky': return circle(90, 90, [210, 200, 160], [250, 245, 220]);
    case 'salo': return hstripes(80, 60, [[240, 230, 225], [200, 120, 110], [245, 240, 235]]);
    case 'palianytsia': return circle(120, 100, [255, 255, 255], [200, 140, 60]);
    case 'sofia': return vstripes(140, 180, [[255, 255, 255], [120, 200, 170], [230, 190, 60], [120, 200, 170], [255, 255, 255]]);
    case 'hanok': return checker(64, 48, 8, [140, 90, 40], [190, 140, 80]);
    case 'yizhak': return circle(64, 64, [100, 170, 60], [110, 80, 60]);
    case 'yenot': return hstripes(64, 64, [[90, 90, 90], [20, 20, 20], [200, 200, 200]]);
    case 'yolka': return grad(48, 64, [0, 90, 20], [0, 160, 60]);
    case 'miaso': return circle(80, 60, [180, 140, 90], [170, 30, 40]);
    case 'friday': return solid(32, 32, [220, 40, 40]);
    case 'object': return checker(40, 40, 5, [60, 60, 200], [240, 240, 240]);
    case 'iphone': return encodePng(36, 72, (x, y) => (x > 2 && x < 33 && y > 6 && y < 62 ? [30, 30, 40] : [200, 200, 205]));
    case 'zoo': return vstripes(100, 60, [[250, 180, 0], [0, 0, 0], [250, 180, 0], [0, 0, 0], [250, 180, 0]]);
    case 'y2014': return grad(100, 100, [255, 255, 255], [0, 87, 183]);
    case 'kotyhoroshko': return circle(80, 80, [250, 250, 250], [60, 160, 60]);
    case 'mavka': return grad(90, 120, [0, 100, 60], [240, 250, 200]);
    case 'bandura': return circle(60, 100, [250, 245, 235], [150, 90, 30]);
    case 'small': return checker(16, 16, 4, [0, 87, 183], [255, 215, 0]);
    case 'big': return grad(320, 200, [255, 200, 0], [0, 60, 200]);
    case 'ros': return grad(150, 100, [40, 80, 60], [90, 150, 190]);
    case 'logo': return circle(135, 135, [255, 255, 255], [0, 87, 183]);
    case 'syrnyky': return circle(100, 100, [255, 250, 240], [230, 180, 100]);
    case 'sea': return hstripes(200, 120, [[150, 200, 255], [10, 40, 90]]);
    case 'upload-only': return grad(50, 50, [255, 0, 0], [0, 0, 255]);
    case 'no-page': return grad(70, 40, [0, 0, 0], [255, 255, 255]);
    case 'map': {
      const pal: RGB[] = [[255, 255, 255], [0, 87, 183], [255, 215, 0], [80, 80, 80]];
      return encodeGif(100, 70, pal, [(x, y) => ((x - 50) ** 2 / 2500 + (y - 35) ** 2 / 900 < 1 ? (y < 35 ? 1 : 2) : x % 25 === 0 ? 3 : 0)]);
    }
    case 'trembita': {
      const pal: RGB[] = [[250, 250, 240], [120, 70, 20], [200, 150, 80]];
      return encodeGif(80, 24, pal, [(x, y) => (y > 9 && y < 15 && x > 4 ? 1 : 0), (x, y) => (y > 8 && y < 16 && x > 4 ? 2 : 0)]);
    }
    case 'star':
      return Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
          '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="95" viewBox="0 0 100 95">\n' +
          '  <polygon points="50,0 61,35 98,35 68,57 79,92 50,71 21,92 32,57 2,35 39,35" fill="#ffd700" stroke="#0057b7" stroke-width="2"/>\n' +
          '</svg>\n',
        'utf8',
      );
    case 'metro':
      return Buffer.from(
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
          '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="160" viewBox="0 0 240 160">\n' +
          '  <title>Умовна схема метро</title>\n' +
          '  <line x1="10" y1="80" x2="230" y2="80" stroke="#d22" stroke-width="6"/>\n' +
          '  <line x1="120" y1="10" x2="120" y2="150" stroke="#22a" stroke-width="6"/>\n' +
          '  <line x1="30" y1="140" x2="210" y2="20" stroke="#2a2" stroke-width="6"/>\n' +
          '  <circle cx="120" cy="80" r="9" fill="#fff" stroke="#000" stroke-width="2"/>\n' +
          '</svg>\n',
        'utf8',
      );
    case 'pdf':
      return encodePdf(['Demowiki demo document', 'This PDF was generated for tests.', 'Page 1 of 1']);
    case 'txt':
      return Buffer.from('Примітки до Демовікі\n\n1. Усі зображення згенеровано програмно.\n2. Дублікати файлів мають однакові байти.\n', 'utf8');
    default:
      throw new Error(`unknown art ${art}`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------------------

function linkTo(title: string, rng: Rng, label?: string): string {
  // sometimes write the link lowercase-first or with underscores, as editors do
  let t = title;
  const r = rng.next();
  if (r < 0.15 && /^[А-ЯҐЄІЇЁ]/.test(t)) t = lcfirst(t);
  else if (r < 0.22 && t.includes(' ')) t = t.replace(/ /g, '_');
  return label ? `[[${t}|${label}]]` : `[[${t}]]`;
}
function displayName(title: string): string {
  return title.replace(/ \(.*\)$/, '');
}

// ---------------------------------------------------------------------------------------------------------
// Building the wiki
// ---------------------------------------------------------------------------------------------------------

function buildTemplates(): void {
  add(
    10,
    'Місто',
    `<noinclude>Картка населеного пункту. Задає семантичні властивості й додає сторінку до [[:Категорія:Міста]].

== Використання ==
<pre>
{{Місто
| назва = 
| населення = 
| регіон = 
| код = 
| засновано = 
| сайт = 
| обласний центр = так
| сортування = 
}}
</pre>
Форма для редагування: [[Форма:Місто]].
[[Категорія:Шаблони-картки]]</noinclude><includeonly>{| class="infobox" style="float:right"
! colspan="2" | {{{назва|{{PAGENAME}}}}} {{Прапор}}
|-
| Населення || [[Населення::{{{населення|}}}]] осіб
|-
| Регіон || [[Розташоване в::{{{регіон|невідомо}}}]]
|-
{{#if:{{{засновано|}}}|{{!}} Засновано {{!!}} [[Дата заснування::{{{засновано}}}]] ({{Вік|{{{засновано}}}}} років)
{{!}}-
}}| Сайт || {{#if:{{{сайт|}}}|[[Офіційний сайт::{{{сайт}}}]]|—}}
|}
{{#set:Код={{{код|}}}|Регіон={{{регіон|}}}}}
{{#if:{{{сортування|}}}|[[Категорія:Міста|{{{сортування}}}]]|[[Категорія:Міста]]}}{{#ifeq:{{{обласний центр|}}}|так|[[Категорія:Обласні центри]]}}</includeonly>`,
  );
  add(10, '!', `|<noinclude>Допоміжний шаблон: вертикальна риска для таблиць усередині функцій парсера.
[[Категорія:Службові шаблони]]</noinclude>`);
  add(10, '!!', `||<noinclude>Допоміжний шаблон: подвійна вертикальна риска.
[[Категорія:Службові шаблони]]</noinclude>`);
  add(
    10,
    'Прапор',
    `<includeonly>[[Файл:Прапор_України.png|20px|link=|Прапор]]</includeonly><noinclude>Показує маленький прапор. Приклад: [[Файл:Flag of Ukraine.png|20px]]
Використовується всередині [[Шаблон:Місто]].
[[Категорія:Службові шаблони]]</noinclude>`,
  );
  add(
    10,
    'Вік',
    `<includeonly>{{#expr: {{{2|2015}}} - {{{1|2015}}} }}</includeonly><noinclude>Обчислює кількість років між двома роками: <code><nowiki>{{Вік|1991|2015}}</nowiki></code> дає {{Вік|1991|2015}}.
[[Категорія:Службові шаблони]]</noinclude>`,
  );
  add(
    10,
    'Річка',
    `<noinclude>Картка річки.
[[Категорія:Шаблони-картки]]</noinclude><includeonly>{| class="infobox"
! colspan="2" | {{{назва|{{PAGENAME}}}}}
|-
| Довжина || [[Довжина::{{{довжина|0}}}]] км
|-
| Впадає в || [[Впадає в::{{{впадає|}}}]]
|}
{{#ifexist:{{{впадає|}}}|<!-- гирло описано -->|Статтю про {{{впадає|гирло}}} ще не написано.}}
[[Категорія:Річки]]{{#ifeq:{{{басейн|}}}|Дніпро|[[Категорія:Притоки Дніпра]]}}</includeonly>`,
  );
  add(
    10,
    'Страва',
    `<noinclude>Картка страви української кухні. Параметр <code>тип</code>: суп, напій, тісто, мʼясо.
[[Категорія:Шаблони-картки]]</noinclude><includeonly>{| class="infobox"
! {{{назва|{{PAGENAME}}}}}
|-
| {{#if:{{{фото|}}}|[[Файл:{{{фото}}}|150px]]|''немає фото''}}
|-
| Опис: [[Опис::{{{опис|Традиційна страва.}}}]]
|-
| Вегетаріанська: [[Вегетаріанська::{{{вегетаріанська|ні}}}]]
|}
{{#if:{{{інгредієнт1|}}}|[[Інгредієнт::{{{інгредієнт1}}}]]}} {{#if:{{{інгредієнт2|}}}|[[Інгредієнт::{{{інгредієнт2}}}]]}} {{#if:{{{інгредієнт3|}}}|[[Інгредієнт::{{{інгредієнт3}}}]]}}
[[Категорія:Українська кухня]]{{#switch:{{{тип|}}}
 |суп=[[Категорія:Супи]]
 |напій=[[Категорія:Напої]]
 |тісто=[[Категорія:Страви з тіста]]
 |мʼясо=[[Категорія:Мʼясні страви]]
 |#default=
}}</includeonly>`,
  );
  add(
    10,
    'Персонаж',
    `<noinclude>Картка вигаданого персонажа. Перший позиційний параметр — імʼя, другий — стать.
[[Категорія:Шаблони-картки]]</noinclude><includeonly>'''{{{1|{{PAGENAME}}}}}''' — {{#switch:{{{2|}}}|жіноча=вигадана героїня|чоловіча=вигаданий герой|#default=вигаданий персонаж}} Демовікі.
* Прізвисько: [[Прізвисько::{{{прізвисько|немає}}}]]
* Дата народження: [[Дата народження::{{{дата|}}}]]
* Пошта: [[Електронна пошта::{{{пошта|}}}]]
* Телефон: [[Телефон::{{{телефон|}}}]]
{{#if:{{{друг|}}}|* Друг: [[Друг::{{{друг}}}]]}}
[[Категорія:Персонажі]]{{#ifeq:{{{вид|}}}|казковий|[[Категорія:Казкові персонажі]]}}{{#ifeq:{{{вид|}}}|науковець|[[Категорія:Вигадані науковці]]}}</includeonly>`,
  );
  add(
    10,
    'Без джерел',
    `<includeonly>{| class="ambox"
| Сторінка «{{FULLPAGENAME}}» не містить джерел{{#if:{{{дата|}}}|&#32;(позначено {{{дата}}})}}.
|}[[Категорія:Статті без джерел]]</includeonly><noinclude>Позначає статті без джерел і додає їх до прихованої категорії.
[[Категорія:Службові шаблони]]</noinclude>`,
  );
  add(
    10,
    'Заглушка',
    `<includeonly>''Це незавершена стаття{{#if:{{{1|}}}|&#32;про {{{1}}}}}. Ви можете допомогти, доповнивши її.''[[Категорія:Незавершені статті]]</includeonly><noinclude>
Шаблон-заглушка.
[[Категорія:Службові шаблони]]</noinclude>`,
  );
  add(
    10,
    'Див. також',
    `<includeonly>Див. також: {{#ifexist:{{{1|}}}|[[{{{1}}}]]|{{{1|?}}} (ще не написано)}}{{#if:{{{2|}}}|, {{#ifexist:{{{2}}}|[[{{{2}}}]]|{{{2}}} (ще не написано)}}}}</includeonly><noinclude>
Посилання «див. також» з перевіркою існування сторінок.
[[Категорія:Навігаційні шаблони]]</noinclude>`,
  );
  add(
    10,
    'Області',
    `Цей текст не включається в інші сторінки.
<onlyinclude>{| class="navbox"
! Області України
|-
| [[Київська область]] · [[Львівська область]] · [[Одеська область]] · [[Харківська область]] · [[Закарпатська область]] · [[Автономна Республіка Крим]] · [[Полтавська область]]
|}</onlyinclude>
І цей також: лише частина між мітками onlyinclude потрапляє на сторінки.
[[Категорія:Навігаційні шаблони]]`,
  );
  add(
    10,
    'Цитата',
    `<includeonly><blockquote>{{{1|}}}{{#if:{{{2|}}}|<br />— ''{{{2}}}''}}</blockquote></includeonly><noinclude>Оформлення цитати: <nowiki>{{Цитата|текст|автор}}</nowiki>.
[[Категорія:Службові шаблони]]</noinclude>`,
  );
  add(
    10,
    'Простір назв',
    `<includeonly>{{#switch:{{NAMESPACE}}|=Це стаття.|Шаблон=Це шаблон.|Категорія=Це категорія.|#default=Це сторінка простору «{{NAMESPACE}}».}}</includeonly><noinclude>Показує, у якому просторі назв перебуває сторінка: {{Простір назв}}
[[Категорія:Службові шаблони]]</noinclude>`,
  );
  add(
    10,
    'Сортування',
    `<includeonly>{{DEFAULTSORT:{{{1|{{PAGENAME}}}}}}}</includeonly><noinclude>Задає ключ сортування сторінки в категоріях.
[[Категорія:Службові шаблони]]</noinclude>`,
  );
  add(
    10,
    'Галерея прапорів',
    `<includeonly><gallery>
Файл:Прапор України.png|Україна
Файл:Прапор Києва.png|Київ
Прапор_Львова.png|Львів
</gallery></includeonly><noinclude>Галерея прапорів, що вставляється в статті.
[[Категорія:Навігаційні шаблони]]</noinclude>`,
  );
  add(
    10,
    'Coord',
    `<includeonly>[[Координати::{{{1|0}}}, {{{2|0}}}]]</includeonly><noinclude>Географічні координати: <nowiki>{{Coord|50.45|30.52}}</nowiki>.
[[Категорія:Службові шаблони]]</noinclude>`,
  );
  add(
    10,
    'Власна робота',
    `<includeonly>''Автор цього файлу — {{{1|учасник Демовікі}}}. Дозволено вільне використання.''[[Категорія:Власні роботи]]</includeonly><noinclude>Ліцензійний шаблон для файлів.
[[Категорія:Службові шаблони]]</noinclude>`,
  );
  add(
    10,
    'Свято',
    `<noinclude>Картка свята.
[[Категорія:Шаблони-картки]]</noinclude><includeonly>'''{{{назва|{{PAGENAME}}}}}''' святкують {{{дата|невідомо коли}}}.{{#subobject:|Рік={{{рік|}}}|Подія={{{назва|{{PAGENAME}}}}}}}[[Категорія:Свята]]</includeonly>`,
  );
  add(10, 'Town', '#REDIRECT [[Шаблон:Місто]]', { redirect: 'Шаблон:Місто' });
}

/**
 * SMW concepts: a query stored on a Concept: page, used as [[Concept:…]] in other queries. Their one
 * revision each comes after every other revision (the sandbox's last edit, 2016-11-20 15:30), so that no
 * other page or revision id moves.
 */
function buildConcepts(): void {
  let minute = 0;
  const concept = (title: string, text: string) =>
    add(108, title, [{ ts: `2016-11-20T16:${String(minute++).padStart(2, '0')}:00Z`, user: U.olena, comment: 'Нова концепція', text }]);
  concept('Міста-мільйонники', '{{#concept:[[Категорія:Міста]] [[Населення::>1000000]]|Міста, де живе понад мільйон людей.}}\n\nДив. також [[Concept:Великі обласні центри]].');
  concept('Великі обласні центри', '{{#concept:[[Concept:Міста-мільйонники]] [[Категорія:Обласні центри]]}}\n\nЦе: {{#ask:[[Concept:Великі обласні центри]]|format=list}}.');
  concept('Довгі притоки Дніпра', '{{#concept:\n [[Впадає в::Dnieper]]\n [[Довжина::>700]]\n|Притоки Дніпра, довші за 700 км (&lt;q&gt; та <b>розмітка</b> в описі).}}');
  concept('Страви й напої', '{{#concept:[[Категорія:Супи]] OR <q>[[Категорія:Напої]]</q>}}');
  concept('Циклічна', '{{#concept:[[Concept:Циклічна]] OR [[Категорія:Супи]]}}');
  concept(
    'Забагато умов',
    '{{#concept:[[Категорія:Міста]] [[Населення::>1]] [[Населення::<100000000]] [[Населення::!5]] [[Населення::!6]] [[Населення::!7]] [[Населення::!8]]}}',
  );
  concept('Дві концепції', '{{#concept:[[Категорія:Супи]]}}\n{{#concept:[[Категорія:Напої]]}}');
  concept('Без означення', 'Ця сторінка концепції ще не має означення.');
}

function buildProperties(): void {
  const prop = (title: string, text: string) => add(102, title, text + '\n[[Категорія:Властивості]]');
  prop('Населення', 'Кількість жителів населеного пункту.\n\nТип: [[Has type::Number]]');
  prop('Має столицю', 'Столиця країни або регіону.\n\nТип: [[Has type::Page]]');
  prop('Розташоване в', 'Адміністративна одиниця, у якій розташований обʼєкт. Значення пропонуються автодоповненням у [[Форма:Місто]].\n\nТип: [[Має тип::Сторінка]]');
  prop('Опис', 'Короткий опис обʼєкта.\n\nТип: [[Has type::Text]]');
  prop('Код', 'Умовний код обʼєкта.\n\nТип: [[Has type::String]]');
  prop('Вегетаріанська', 'Чи є страва вегетаріанською.\n\nТип: [[Має тип::Булеве]]');
  prop('Дата заснування', 'Рік або дата заснування.\n\nТип: [[Has type::Date]]');
  prop('Дата народження', 'Дата народження персонажа.\n\nТип: [[Має тип::Дата]]');
  prop('Офіційний сайт', 'Адреса сайту.\n\nТип: [[Has type::URL]]');
  prop('Електронна пошта', 'Адреса електронної пошти.\n\nТип: [[Має тип::Email]]');
  prop('Телефон', 'Номер телефону.\n\nТип: [[Has type::Telephone number]]');
  prop('Координати', 'Географічні координати.\n\nТип: [[Має тип::Географічна координата]]');
  prop('Довжина', 'Довжина річки в кілометрах.\n\nТип: [[Має тип::Число]]');
  prop('Впадає в', 'Водойма, у яку впадає річка.\n\nТип: [[Has type::Page]]');
  prop('Інгредієнт', 'Складник страви.\n\nТип: [[Має тип::Сторінка]]');
  prop('Рік', 'Рік події.\n\nТип: [[Has type::Number]]');
  prop('Подія', 'Опис події.\n\nТип: [[Має тип::Текст]]');
  prop('Прізвисько', 'Прізвисько персонажа.\n\nТип: [[Має тип::Рядок]]');
  prop('Сторінка в мережі', 'Ще одна адреса.\n\nТип: [[Має тип::URL]]');
  // a subproperty: queries on Телефон find Контактний телефон's values too
  prop('Контактний телефон', 'Ще один телефон.\n\nТип: [[Має тип::Номер телефону]]\n\nРізновид властивості [[Subproperty of::Телефон]].');
  prop('Публічна пошта', 'Ще одна пошта.\n\nТип: [[Has type::Email]]');
  prop('Активне', 'Логічне значення англійською назвою типу.\n\nТип: [[Has type::Boolean]]');
  prop('Місце', 'Координати місця.\n\nТип: [[Has type::Geographic coordinate]]');
  // "Регіон", "Друг" and "Автор" are used without a Property page (undeclared ⇒ Page type)
}

function buildForms(): void {
  add(
    106,
    'Місто',
    `<noinclude>Ця форма створює та редагує статті про міста.
[[Категорія:Форми]]
{{#forminput:form=Місто|autocomplete on category=Міста}}
</noinclude><includeonly>
{{{for template|Місто}}}
{| class="formtable"
! Назва:
| {{{field|назва}}}
|-
! Населення:
| {{{field|населення|input type=text|size=10}}}
|-
! Регіон:
| {{{field|регіон|input type=combobox|values from property=Розташоване в|autocomplete on property=Розташоване в}}}
|-
! Код:
| {{{field|код}}}
|-
! Засновано:
| {{{field|засновано|input type=year}}}
|-
! Сайт:
| {{{field|сайт|input type=URL}}}
|-
! Обласний центр:
| {{{field|обласний центр|input type=radiobutton|values=так,ні}}}
|}
{{{end template}}}

'''Вільний текст:'''

{{{standard input|free text|rows=10}}}

{{{standard input|summary}}}
{{{standard input|minor edit}}} {{{standard input|watch}}}
{{{standard input|save}}} {{{standard input|preview}}} {{{standard input|changes}}} {{{standard input|cancel}}}
</includeonly>`,
  );
  add(
    106,
    'Страва',
    `<noinclude>Форма для статей про страви.
[[Категорія:Форми]]</noinclude><includeonly>
{{{for template|Страва}}}
* Тип: {{{field|тип|input type=dropdown|values=суп,напій,тісто,мʼясо}}}
* Опис: {{{field|опис|input type=textarea}}}
* Вегетаріанська: {{{field|вегетаріанська|input type=checkbox}}}
* Інгредієнт: {{{field|інгредієнт1|values from property=Інгредієнт}}}
{{{end template}}}
{{{standard input|free text}}}
{{{standard input|save}}}
</includeonly>`,
  );
  add(
    106,
    'Персонаж',
    `<noinclude>Форма для персонажів.
[[Категорія:Форми]]</noinclude><includeonly>
{{{for template|Персонаж}}}
{{{field|1|mandatory}}} {{{field|2|input type=dropdown|values=чоловіча,жіноча}}}
{{{field|друг|values from category=Персонажі}}}
{{{end template}}}
{{{standard input|save}}}
</includeonly>`,
  );
  add(107, 'Місто', 'Чи варто додати до форми поле для герба? --[[Користувач:Тарас|Тарас]] 12:00, 5 березня 2014 (UTC)');
}

const CITY_SENTENCES: Array<(c: City, rng: Rng) => string> = [
  (c, rng) => `Перша письмова згадка про поселення датується ${c.year ?? rng.int(1100, 1900)} роком.`,
  (_c, rng) => `Тут працюють ${rng.int(3, 90)} шкіл, ${rng.int(2, 40)} бібліотек і невеликий краєзнавчий музей.`,
  () => 'Місцеві жителі пишаються своїми садами та старим ринком.',
  (_c, rng) => `Через місто проходить залізниця, що сполучає його з містами ${linkTo(rng.pick(CITIES).t, rng)} та ${linkTo(rng.pick(CITIES).t, rng)}.`,
  (_c, rng) => `Щоосени тут відбувається ярмарок, на якому продають страви «${linkTo(rng.pick(FOODS).t, rng)}» і «${linkTo(rng.pick(FOODS).t, rng)}».`,
  () => 'Головна площа забудована двоповерховими будинками позаминулого століття.',
  (_c, rng) => `У міському парку стоїть памʼятник вигаданому персонажу на імʼя ${linkTo(rng.pick(CHARACTERS).t, rng)}.`,
  (_c, rng) => `Кліматом місто подібне до сусіднього міста ${linkTo(rng.pick(CITIES).t, rng)}.`,
  (_c, rng) => `Про міські легенди див. статтю ${linkTo(rng.pick(RED_LINKS), rng)}.`,
  () => 'Взимку вулиці прикрашають вогнями, а влітку тут цвітуть липи.',
  (_c, rng) => `За легендою, місто заснували три брати, які прийшли сюди з берегів ${linkTo(rng.pick(RIVERS).t, rng, 'річки')}.`,
  () => 'Найстаріша будівля — дерев’яна церква з трьома банями.',
  (_c, rng) => `Населення поступово зростало до ${rng.int(1950, 1990)}-х років.`,
];

function buildCities(): void {
  CITIES.forEach((c, i) => {
    const rng = new Rng(hashString(c.t) ^ 0x1234);
    const name = c.name ?? c.t;
    const params = [`назва=${name}`, `населення=${c.pop}`, `регіон=${c.region}`, `код=МС-${String(i + 1).padStart(3, '0')}`];
    if (c.year !== undefined) params.push(`засновано=${c.year}`);
    if (rng.chance(0.5) || c.t === 'Київ') params.push(`сайт=https://misto${i + 1}.example.org/`);
    if (c.centre) params.push('обласний центр=так');
    if (c.t === "Кам'янець-Подільський") params.push('сортування=Камянець-Подільський');
    if (c.t === 'Ґалаґанівка') params.push('сортування=Галаганівка');
    const call = i % 7 === 3 ? `{{Місто\n| ${params.join('\n| ')}\n}}` : i % 11 === 5 ? `{{Town|${params.join('|')}}}` : `{{Місто|${params.join('|')}}}`;
    const lines: string[] = [call];
    const kind = c.pop === 'багато' ? 'село' : typeof c.pop === 'number' && c.pop < 30000 ? 'містечко' : 'місто';
    lines.push(
      `'''${name}''' — ${kind} в Україні${c.centre ? ', обласний центр' : ''} (${linkTo(c.region.replace(/_/g, ' '), rng)}).` +
        (c.river ? ` Розташоване на березі ${linkTo(c.river, rng, 'річки ' + displayName(c.river))}.` : ''),
    );
    lines.push('', '== Історія ==', rng.sample(CITY_SENTENCES, 3).map((f) => f(c, rng)).join(' '));
    if (c.t === 'Київ') {
      lines.push(
        '',
        "Київ — столиця [[Україна|України]]. Історичний центр розташований на правому березі [[дніпро (річка)|Дніпра]]. Див. також [[Історія Києва]] та [[:Файл:Герб Києва.png|герб міста]].",
        '{{#subobject:перша згадка|Рік=482|Подія=Умовна дата заснування міста}}',
        '{{#subobject:|Рік=1991|Подія=Столиця незалежної України}}',
        '[[Має столицю::Київ]] — так, місто саме собі столиця (демонстрація властивості на сторінці).',
        '',
        '[[Файл:Прапор України.png|thumb|Прапор]]',
        '[[Файл:Герб Києва.png|thumb|left|Герб міста]]',
        '[[File:Софійський собор.png|200px|Собор]]',
        '[[Image:Дніпро з висоти.png|міні|Дніпро в межах міста]]',
        '<gallery>',
        'Файл:Kyiv coat of arms.png|Герб (англійська назва файлу)',
        'Small icon.png|Іконка',
        'File:Схема метро.svg|Схема метро',
        'Неіснуюче фото Києва.jpg|Фото, якого немає',
        '</gallery>',
        '{{Coord|50.45|30.52}}',
        "{{Цитата|Київ — мати городів руських.|народний вислів}}",
      );
    }
    if (c.t === 'Львів') {
      lines.push('', '[[Файл:Прапор_Львова.png|thumb|Прапор Львова]] [[Файл:Герб Львова.png|thumb|Герб Львова]]', '{{Coord|49.84|24.03}}');
      lines.push('[[Розташоване в::Львівська область|Львівщина]] — так місцеві називають свій край.');
    }
    lines.push('', '== Географія ==', rng.sample(CITY_SENTENCES, 2).map((f) => f(c, rng)).join(' '));
    if (i % 3 === 0) lines.push('', `[[Файл:Мапа України.gif|thumb|${name} на мапі]]`);
    if (i % 10 === 4) lines.push('', '{{Галерея прапорів}}');
    if (i % 9 === 2) lines.push('', `{{Див. також|${rng.pick(CITIES).t}|${rng.pick(RED_LINKS)}}}`);
    if (i % 8 === 1) lines.push('', '{{Області}}');
    lines.push('', '== Посилання ==', `* [http://example.org/uk/misto/${i + 1} Сторінка міста на example.org]`, `* https://example.com/mista?id=${i + 1}`);
    if (i % 6 === 5) lines.push('', '{{Без джерел|дата=березень 2014}}');
    if (i % 13 === 7) lines.push('', '{{Заглушка|місто}}');
    if (c.resort) lines.push(`[[Категорія:Курортні міста|${name}]]`);
    if (c.t === 'Київ') lines.push('[[Категорія:Столиці|Київ]]', '[[категорія:столиці україни]]');
    if (c.pop === 'багато' || c.t === 'Їжакове') lines.push('[[Категорія:Села]]', '[[Категорія:Вигадані місця]]');
    if (c.t === 'Київ') lines.push('', '[[en:Kyiv]]', '[[pl:Kijów]]', '[[de:Kiew]]', '[[fr:Kiev]]', '[[ru:Киев]]');
    if (c.t === 'Львів') lines.push('', '[[en:Lviv]]', '[[pl:Lwów]]', '[[de:Lemberg]]');
    if (c.t === 'Одеса') lines.push('', '[[en:Odesa]]', '[[pl:Odessa]]');
    if (c.t === 'Харків') lines.push('', '[[en:Kharkiv]]');
    add(0, c.t, lines.join('\n'), { history: c.t === 'Київ' ? 4 : c.t === 'Львів' ? 3 : 0 });
  });
}

function buildRivers(): void {
  RIVERS.forEach((r, i) => {
    const rng = new Rng(hashString(r.t) ^ 0x5678);
    const name = r.name ?? r.t;
    const params = [`назва=${name}`, `довжина=${r.len}`, `впадає=${r.into}`];
    if (r.basin) params.push(`басейн=${r.basin}`);
    const towns = CITIES.filter((c) => c.river === r.t).map((c) => linkTo(c.t, rng));
    const lines = [
      `{{Річка|${params.join('|')}}}`,
      `'''${name}''' — річка ${r.len > 1000 ? 'Східної Європи' : 'в Україні'}, завдовжки ${r.len} км. Впадає в ${linkTo(r.into.replace(/_/g, ' '), rng)}.`,
      towns.length ? `На річці розташовані: ${towns.join(', ')}.` : `Береги річки здебільшого ${rng.pick(['лісисті', 'степові', 'скелясті', 'заболочені'])}.`,
      '',
      '== Опис ==',
      `Навесні річка розливається, а влітку місцями ${rng.pick(['міліє', 'заростає очеретом', 'стає спокійною'])}. У воді водяться ${rng.pick(['щуки й окуні', 'коропи і лящі', 'форелі', 'соми'])}.`,
    ];
    if (r.t === 'Дніпро (річка)') {
      lines.push('[[Файл:Дніпро з висоти.png|thumb|Дніпро з висоти]]', '[[Image:Dnipro aerial.png|100px]]', 'Див. [[Дніпро]] (неоднозначність).');
    }
    if (r.t === 'Рось') lines.push('[[файл:рось.png|thumb|Рось біля [[Біла Церква|Білої Церкви]]]]');
    lines.push('', '== Посилання ==', `* [https://rivers.example.net/${i + 1} Довідка про річку]`);
    if (i % 4 === 0) lines.push('{{Без джерел}}');
    if (i % 2 === 0) lines.push('[[Category:Rivers]]');
    lines.push(`[[Категорія:Річки України|${name}]]`);
    if (r.en) lines.push('', `[[en:${r.en}]]`, `[[pl:${r.en === 'Dnieper' ? 'Dniepr' : 'Dniestr'}]]`);
    add(0, r.t, lines.join('\n'));
  });
}

function buildFoods(): void {
  const photos: Record<string, string> = {
    Борщ: 'Борщ.png',
    Вареники: 'Вареники.png',
    Галушки: 'Галушки.png',
    Сало: 'Сало.png',
    Паляниця: 'Паляниця.png',
    Мʼясо: 'Мʼясо.png',
    Сирники: 'Сирники.png',
  };
  const descs = [
    'Страва, яку готують на свята й у будні.',
    'Улюблена страва багатьох родин.',
    'Готують за старовинними рецептами.',
    'Смак залежить від регіону й господині.',
    'Часто подають зі сметаною.',
  ];
  FOODS.forEach((f, i) => {
    const rng = new Rng(hashString(f.t) ^ 0x9abc);
    const params = [`тип=${f.kind}`, `опис=${rng.pick(descs)}`, `вегетаріанська=${f.veg ? 'так' : 'ні'}`];
    f.ingr.slice(0, 3).forEach((g, k) => params.push(`інгредієнт${k + 1}=${g}`));
    if (photos[f.t]) params.push(`фото=${photos[f.t]}`);
    const lines = [
      `{{Страва|${params.join('|')}}}`,
      `'''${f.t}''' — ${rng.pick(['традиційна', 'популярна', 'святкова', 'проста'])} страва української кухні. Основні складники: ${f.ingr.map((g) => g.toLowerCase()).join(', ')}.`,
      '',
      '== Приготування ==',
      `${rng.pick(['Спочатку', 'Насамперед', 'Перш за все'])} усі складники ретельно готують, а потім ${rng.pick(['варять', 'запікають', 'смажать', 'настоюють'])} протягом ${rng.int(10, 120)} хв.`,
      `Подають разом зі стравою «${linkTo(rng.pick(FOODS).t, rng)}» або «${linkTo(rng.pick(FOODS).t, rng)}». Особливо шанують цю страву в місті ${linkTo(rng.pick(CITIES).t, rng)}.`,
    ];
    if (f.t === 'Борщ') {
      lines.push(
        '',
        '[[Файл:Борщ.png|thumb|Борщ]] [[Файл:Borscht.png|left|50px]] [[Зображення:Сало.png|thumb|До борщу подають сало]]',
        '<gallery>',
        'Файл:Пампушки неіснуючі.png|Пампушки (файлу немає)',
        'Паляниця.png|Хліб',
        '</gallery>',
        'Рецепт див. на [https://recipes.example.com/borshch сайті рецептів] або http://example.net/borshch.',
        '[[Мʼясо::Так]] — ця анотація використовує неоголошену властивість з назвою, схожою на статтю.',
        '',
        '[[en:Borscht]]',
        '[[pl:Barszcz]]',
        '[[de:Borschtsch]]',
      );
    }
    if (f.t === 'Мʼясо') lines.push('', 'Див. також [[Мясо]] (перенаправлення без апострофа) та [[м’ясо]] з іншим апострофом.');
    if (i % 5 === 2) lines.push('{{Без джерел}}');
    if (i % 6 === 4) lines.push('{{Заглушка|страву}}');
    if (f.t === 'Деруни') lines.push('[[Категорія:Страви з картоплі]]');
    if (f.t === 'Вареники') lines.push('[[Категорія:Страви з картоплі|Вареники з картоплею]]', '[[en:Varenyky]]');
    add(0, f.t, lines.join('\n'));
  });
}

function buildCharacters(): void {
  CHARACTERS.forEach((c, i) => {
    const rng = new Rng(hashString(c.t) ^ 0xdef0);
    const params = [c.t, c.sex, `вид=${c.kind}`, `прізвисько=${c.nick}`, `дата=${c.born}`, `пошта=person${i + 1}@example.org`, `телефон=+380 44 ${String(200 + i * 7)} ${String(1000 + i * 37)}`];
    if (c.friend) params.push(`друг=${c.friend}`);
    const he = c.sex === 'жіноча';
    const lines = [
      `{{Персонаж|${params.join('|')}}}`,
      '',
      '== Життєпис ==',
      `${he ? 'Вона народилася' : 'Він народився'} у місті ${linkTo(rng.pick(CITIES).t, rng)} і змалку ${rng.pick(he ? ['любила', 'вивчала', 'шукала'] : ['любив', 'вивчав', 'шукав'])} ${rng.pick(['зорі', 'старі мапи', 'казки', 'ріки й озера', 'рецепти бабусі'])}.`,
      `Найвідоміша пригода — подорож уздовж річки ${linkTo(rng.pick(RIVERS).t, rng)} до міста ${linkTo(rng.pick(CITIES).t, rng)}, де ${he ? 'вона скуштувала' : 'він скуштував'} страву «${linkTo(rng.pick(FOODS).t, rng)}».`,
      `Друзі кличуть ${he ? 'її' : 'його'} «${c.nick}».`,
    ];
    if (c.t === 'Котигорошко') lines.push('[[Файл:Котигорошко.png|thumb|Котигорошко]]', '[[Медіа:Котигорошко.png|Завантажити малюнок]]');
    if (c.t === 'Мавка') lines.push('[[Файл:Мавка.png|thumb|Мавка]]');
    if (c.t === 'Ёж Ёжикович') lines.push('[[Файл:Їжак.png|thumb|Родич]] [[Файл:Ёлка.png|50px]]');
    if (c.sort) lines.push(i % 2 ? `{{DEFAULTSORT:${c.sort}}}` : `{{Сортування|${c.sort}}}`);
    if (i % 5 === 3) lines.push('{{Без джерел}}');
    add(0, c.t, lines.join('\n'));
  });
}

function buildMisc(): void {
  // main page
  add(
    0,
    'Головна сторінка',
    [
      { ts: '2009-01-01T00:00:00Z', user: U.admin, comment: 'Створено головну сторінку', text: "'''Вітаємо в Демовікі!'''" },
      {
        user: U.admin,
        text: "'''Вітаємо в Демовікі!'''\n\nЦе демонстраційна вікі про [[Україна|Україну]]: [[Київ|міста]], [[Дніпро (річка)|річки]], [[Борщ|страви]] та вигаданих [[Котигорошко|персонажів]].",
      },
      {
        user: U.olena,
        comment: 'оновлено розділи',
        text:
          "'''Вітаємо в Демовікі!'''\n\nЦе демонстраційна вікі про [[Україна|Україну]]: [[Київ|міста]], [[Дніпро (річка)|річки]], [[Борщ|страви]] та вигаданих [[Котигорошко|персонажів]].\n\n" +
          '== Розділи ==\n* [[:Категорія:Міста]]\n* [[:Категорія:Річки]]\n* [[:Категорія:Українська кухня]]\n* [[:Категорія:Персонажі]]\n\n[[Файл:Логотип Демовікі.png|center|100px|Демовікі]]',
      },
      {
        ts: '2016-08-24T09:00:00Z',
        user: U.admin,
        comment: 'святкове оновлення',
        text:
          "'''Вітаємо в Демовікі!'''\n\nЦе демонстраційна вікі про [[Україна|Україну]]: [[Київ|міста]], [[Дніпро (річка)|річки]], [[Борщ|страви]] та вигаданих [[Котигорошко|персонажів]].\n\n" +
          '== Розділи ==\n* [[:Категорія:Міста]]\n* [[:Категорія:Річки]]\n* [[:Категорія:Українська кухня]]\n* [[:Категорія:Персонажі]]\n* [[Демонстраційна сторінка]]\n* [[Списки міст]]\n\n[[Файл:Логотип Демовікі.png|center|100px|Демовікі]]\n{{Галерея прапорів}}\n__NOTOC__',
      },
    ],
  );
  add(
    0,
    'Україна',
    `'''Україна''' — держава у Східній Європі. Столиця — [[Має столицю::Київ]].

Найбільші міста: [[Київ]], [[Харків]], [[Одеса]], [[Дніпро (місто)|Дніпро]], [[Львів]].

Найдовша річка — [[Дніпро (річка)|Дніпро]]. Найвища гора — [[Говерла]].
{{Області}}
{{Галерея прапорів}}
[[Файл:Мапа України.gif|thumb|Мапа]]
[[Категорія:Україна]]

[[en:Ukraine]]
[[pl:Ukraina]]
[[de:Ukraine]]`,
    { history: 3 },
  );
  add(0, 'Дніпро', `'''Дніпро''' може означати:\n* [[Дніпро (річка)]] — річка;\n* [[Дніпро (місто)]] — місто;\n* [[Дніпро (значення)]] — інші значення.\n\n__DISAMBIG__`);
  // geography
  add(0, 'Карпати', `'''Карпати''' — гірська система. Найвища точка в Україні — [[Говерла]].\n[[Зображення:Карпати.png|thumb|Карпати]]\n[[Категорія:Гори]]\n[[en:Carpathian Mountains]]`);
  add(0, 'Говерла', `'''Говерла''' — найвища вершина [[карпати|Карпат]] в Україні ([[Висота::2061]] м).\n[[Файл:Говерла.png|thumb]]\n{{Coord|48.16|24.50}}\n[[Категорія:Гори|Говерла]]`);
  add(0, 'Світязь', `'''Світязь''' — найбільше природне озеро в Україні.\n[[Файл:Світязь.png|thumb|Світязь]]\n[[Категорія:Озера]]`);
  add(0, 'Чорне море', `'''Чорне море''' — внутрішнє море. У нього впадають [[Дніпро (річка)|Дніпро]], [[Дністер]] і [[Південний Буг]].\n[[Файл:Чорне море.png|thumb]]\n[[Категорія:Моря]]`);
  add(0, 'Азовське море', `'''Азовське море''' — найменше море. Порти: [[Маріуполь]], [[Бердянськ]].\n{{Заглушка}}\n[[Категорія:Моря]]`);
  for (const r of REGION_PAGES) {
    add(0, r, `'''${r}''' — регіон України.\n{{Області}}\n{{Заглушка|регіон}}\n[[Категорія:Регіони України]]`);
  }
  // words with special letters / apostrophes
  add(0, 'Ґанок', `'''Ґанок''' — прибудова перед входом до хати.\n[[файл:ґанок.png|thumb|Дерев’яний ґанок]]\nДив. також [[їжак]], [[єнот]] та [[іній]].\n[[Категорія:Слова]]`);
  add(0, 'Їжак', `'''Їжак''' — невелика колюча тварина.\n[[файл:їжак.png]]\nЇжак часто приходить до [[ґанок|ґанку]].\n[[Категорія:Тварини]]`);
  add(0, 'Єнот', `'''Єнот''' — звір, що полоще їжу у воді.\n[[Файл:Єнот.png|thumb]]\n[[Категорія:Тварини]]\n[[Категорія:Тварини|Єнот-полоскун]]`);
  add(0, 'Іній', `'''Іній''' — тонкий шар льоду на холодних поверхнях. Часто буває на [[ґанок|ґанку]] зимового ранку.\n[[Категорія:Слова]]`);
  add(0, "П'ятниця", `'''П'ятниця''' — пʼятий день тижня (ASCII-апостроф у назві).\n[[Файл:П'ятниця.png|thumb]]\nДив. [[Пятниця]] (перенаправлення).\n[[Категорія:Слова]]`);
  add(0, 'Об’єкт', `'''Об’єкт''' — те, на що спрямована дія (типографський апостроф U+2019 у назві).\n[[Файл:Об’єкт.png|thumb]]\n[[Категорія:Слова]]`);
  add(0, 'Ёлка', `'''Ёлка''' — назва з літерою Ё, щоб перевірити сортування. Див. [[Ёж Ёжикович]].\n[[File:Ёлка.png|thumb]]\n[[Категорія:Слова]]`);
  add(0, 'IPhone', `'''iPhone''' — смартфон. Назва сторінки зберігається як «IPhone», але в тексті пишуть [[iPhone]].\n[[Файл:IPhone.png|thumb]]\n[[Категорія:Техніка]]\n[[en:IPhone]]\n{{DISPLAYTITLE:iPhone}}<indicator name="logo">[[Файл:IPhone.png|20px|link=]]</indicator><indicator name="a-mark">★</indicator>`);
  add(0, 'Zoo', `'''Zoo''' — латинська назва для зоопарку. Тут живуть [[Їжак|їжаки]] та [[Єнот|єноти]].\n[[Файл:Zoo.png|thumb]]\n[[Категорія:Тварини]]`);
  add(0, 'Linux', `'''Linux''' — вільна операційна система.\n[[Файл:Linux logo.png|thumb|Логотип]] [[File:Tux.png|50px]]\n[[Категорія:Програмне забезпечення]]\n[[en:Linux]]\n[[pl:Linux]]`);
  add(0, 'Wi-Fi у місті', `'''Wi-Fi у місті''' — стаття з латиницею й кирилицею в назві. Безкоштовний доступ є в [[Київ|Києві]] та [[Львів|Львові]].\n[[Категорія:Техніка]]`);
  add(0, '1991 рік', `'''1991 рік''' — рік проголошення незалежності.\n{{#subobject:|Рік=1991|Подія=Проголошення незалежності}}\n{{#subobject:референдум|Рік=1991|Подія=Всеукраїнський референдум}}\n[[Файл:2014 рік.png|50px]]\n[[Категорія:Історія]]`);
  add(0, '2014 в Україні', `'''2014 в Україні''' — огляд подій року (назва починається з цифри).\n[[Файл:2014 рік.png|thumb]]\n[[Категорія:Історія]]`);
  add(0, 'Пам’ятник Котигорошкові', `'''Пам’ятник [[Котигорошко|Котигорошкові]]''' стоїть у [[Їжакове|Їжаковому]].\n[[Категорія:Культура України]]`);
  // holidays with subobjects
  const HOLIDAYS: Array<[string, string, number]> = [
    ['Різдво', '25 грудня', 988],
    ['Великдень', 'навесні', 988],
    ['Івана Купала', '7 липня', 1500],
    ['Маланка', '13 січня', 1600],
    ['День незалежності', '24 серпня', 1991],
    ['Свято врожаю', 'восени', 1800],
  ];
  for (const [t, d, y] of HOLIDAYS) add(0, t, `{{Свято|дата=${d}|рік=${y}}}\n\nУ цей день готують [[Кутя|кутю]] та [[Узвар|узвар]].`);
  // music (ancient tie group: equal latest timestamps)
  const ANCIENT_TIE = '2009-06-15T10:20:30Z';
  add(0, 'Сопілка', [{ ts: ANCIENT_TIE, user: U.taras, comment: 'нова стаття', text: `'''Сопілка''' — дерев’яний духовий інструмент.\n[[Категорія:Музичні інструменти]]` }]);
  add(0, 'Трембіта', [{ ts: ANCIENT_TIE, user: U.taras, comment: 'нова стаття', text: `'''Трембіта''' — довга гуцульська труба.\n[[Файл:Трембіта.gif|thumb]]\n[[Категорія:Музичні інструменти]]` }]);
  add(0, 'Кобза', [{ ts: ANCIENT_TIE, user: U.taras, comment: 'нова стаття', text: `'''Кобза''' — струнний інструмент.\n[[Категорія:Музичні інструменти]]` }]);
  add(0, 'Бандура', `'''Бандура''' — багатострунний інструмент. Див. також [[Кобза]].\n[[Файл:Бандура.png|thumb]]\n[[Категорія:Музичні інструменти]]`);
  // ancient pages
  add(0, 'Прадавня легенда', [{ ts: '2009-01-10T08:00:00Z', user: U.admin, comment: 'найстаріша стаття', text: `'''Прадавня легенда''' — найстаріша незмінна стаття Демовікі.\n[[Категорія:Історія]]` }]);
  add(0, 'Стара хроніка', [{ ts: '2009-02-14T12:00:00Z', ip: '192.0.2.15', text: `'''Стара хроніка''' — записи про давні події в [[Київ|Києві]].\n[[Категорія:Історія]]` }]);
  add(0, 'Перший запис', [
    { ts: '2009-01-05T09:00:00Z', user: U.olena, comment: 'чернетка', text: 'Перший запис.' },
    { ts: '2009-03-01T09:30:00Z', user: U.olena, minor: true, comment: 'дрібне виправлення', text: `'''Перший запис''' — одна з перших статей вікі.\n[[Категорія:Історія]]` },
  ]);
  // equal latest timestamps in the middle of the range
  const MID_TIE = '2013-07-07T07:07:07Z';
  for (const t of ['Пісня про Дніпро', 'Казка про Їжака', 'Легенда про Світязь']) {
    add(0, t, [{ ts: MID_TIE, user: U.maryana, comment: 'пакетне створення', text: `'''${t}''' — коротка розповідь. Див. [[${t.split(' про ')[1]}]].\n[[Категорія:Культура України]]` }]);
  }
  // SMW showcase
  add(
    0,
    'Демонстраційна сторінка',
    `Ця сторінка містить значення '''всіх типів даних''' Semantic MediaWiki.

* Сторінка: [[Має столицю::Київ]]
* Сторінка (неоголошена властивість): [[Регіон::Київська область]]
* Текст: [[Опис::Сторінка, що показує всі типи даних разом, з апострофами (Кам'янець-Подільський, Мʼясо) та кількома словами.]]
* Рядок: [[Код::DEMO-001]]
* Число: [[Населення::12345]]
* Булеве: [[Вегетаріанська::так]]
* Булеве (англ. тип): [[Активне::false]]
* Дата: [[Дата заснування::1991-08-24]]
* URL: [[Офіційний сайт::https://demo.example.org/path?x=1#frag]]
* Email: [[Електронна пошта::demo@example.org]]
* Телефон: [[Телефон::+380 44 123 4567]]
* Координати: [[Координати::50.45, 30.52]]
* Значення з підписом: [[Розташоване в::Автономна Республіка Крим|Крим]]
* Дві властивості одним значенням: [[Має столицю::Розташоване в::Київ]]
* Значення, що не відповідає типу: [[Населення::багато]]
* Значення зі знаком підкреслення і малою літерою: [[Розташоване в::київська_область]]

{{#set:Сторінка в мережі=http://example.net/demo|Контактний телефон=+380 32 765 4321|Публічна пошта=public@example.net|Місце=49.84, 24.03}}
{{#subobject:|Рік=2014|Подія=Створено демонстраційну сторінку}}
{{#subobject:подія-друга|Рік=2015|Подія=Додано запит і підобʼєкт}}

== Запит ==
{{#ask:[[Розташоване в::Київська область]]|?Населення|format=ul|limit=3}}

{{Простір назв}}
[[Файл:Логотип Демовікі.png|50px]]
[[Категорія:Демовікі]]`,
    { history: 3 },
  );
  add(
    0,
    'Списки міст',
    `Перші п'ять міст за запитом Semantic MediaWiki:

{{#ask:[[Категорія:Міста]]|?Населення|format=table|limit=5}}

Обласні центри:
{{#ask:[[Категорія:Обласні центри]]|?Розташоване в|format=ul|sort=Населення|order=desc|limit=10}}
[[Категорія:Демовікі]]`,
  );
  add(
    0,
    'Галерея',
    `Галерея всіх видів вбудовування файлів.

[[Файл:Прапор України.png|thumb|Підпис]] [[File:Flag of Ukraine.png]] [[Image:Ukraine map.gif]] [[Зображення:Зірка.svg|30px]] [[Медіа:Документ.pdf|PDF]] [[файл:прапор Києва.png|20px]]
[[:Файл:Примітки.txt|Посилання на сторінку файлу (не вбудовування)]]
[[Файл:Неіснуючий файл.png|thumb|Файлу немає]] [[File:Nonexistent image.jpg]] [[Файл:Ukraine flag copy.png|20px|Файл без сторінки опису]]

<gallery>
Файл:Карпати.png|Гори
Говерла.png|Вершина
Файл:Світязь.png|Озеро
Image:Рось.png|Річка
File:Велика картинка.png|Велике
Файл:Анімація неіснуюча.gif|Немає такого
Файл:Втрачене фото.jpg|Опис є, файлу немає
</gallery>
[[Категорія:Демовікі]]`,
  );
  // a page that links a lot but is not linked (lonely) and a dead-end page
  add(0, 'Сторінка без посилань', 'Ця сторінка не містить жодного посилання і не належить жодній категорії.');
  add(0, 'Дуже довга стаття', 'Довгий текст для звіту Longpages.\n\n' + Array.from({ length: 60 }, (_, k) => `== Розділ ${k + 1} ==\nАбзац номер ${k + 1}: ${'слово '.repeat(30).trim()}.`).join('\n\n') + '\n[[Категорія:Демовікі]]');
}

function buildRedirects(): void {
  const R = (ns: number, title: string, word: string, link: string, target: string, opts: Partial<PageSpec> = {}) =>
    add(ns, title, `${word} [[${link}]]`, { redirect: target, ...opts });
  R(0, 'Kyiv', '#REDIRECT', 'Київ', 'Київ');
  R(0, 'Місто Київ', '#ПЕРЕНАПРАВЛЕННЯ', 'Київ', 'Київ');
  R(0, 'Столиця України', '#REDIRECT', 'Місто Київ', 'Місто Київ'); // double redirect
  R(0, 'Історія Києва', '#REDIRECT', 'Київ#Історія', 'Київ'); // fragment
  R(0, 'Загублена сторінка', '#ПЕРЕНАПРАВЛЕННЯ', 'Сторінка, якої немає', 'Сторінка, якої немає'); // broken
  R(0, 'Borscht', '#REDIRECT', 'борщ', 'Борщ');
  R(0, 'Вареник', '#ПЕРЕНАПРАВЛЕННЯ', 'вареники', 'Вареники');
  R(0, 'Одесса', '#REDIRECT', 'Одеса', 'Одеса');
  R(0, "Кам'янець", '#ПЕРЕНАПРАВЛЕННЯ', "Кам'янець-Подільський", "Кам'янець-Подільський");
  R(0, 'Мясо', '#REDIRECT', 'Мʼясо', 'Мʼясо');
  R(0, 'Пятниця', '#ПЕРЕНАПРАВЛЕННЯ', "П'ятниця", "П'ятниця");
  R(0, 'Dnieper', '#REDIRECT', 'Дніпро_(річка)', 'Дніпро (річка)');
  R(0, 'Старий вокзал', '#ПЕРЕНАПРАВЛЕННЯ', 'Ще один неіснуючий вокзал', 'Ще один неіснуючий вокзал'); // broken
  // a page that was an article and later became a redirect
  add(
    0,
    'Lviv',
    [
      { user: U.ivan, comment: 'stub', text: "'''Lviv''' is a city. [[Категорія:Міста]]" },
      { user: U.olena, comment: 'перенаправлено на [[Львів]]', text: '#REDIRECT [[Львів]]' },
    ],
    { redirect: 'Львів' },
  );
  R(14, 'Річки (стара назва)', '#ПЕРЕНАПРАВЛЕННЯ', ':Категорія:Річки', 'Категорія:Річки');
  R(6, 'Старий прапор.png', '#REDIRECT', 'Файл:Прапор України.png', 'Файл:Прапор України.png');
  R(2, 'Тарас Старий', '#REDIRECT', 'Користувач:Тарас', 'Користувач:Тарас');
}

function buildCategories(): void {
  const C = (title: string, parents: string[], extra = '', opts: Partial<PageSpec> = {}) =>
    add(14, title, `${extra}${extra ? '\n' : ''}${parents.map((p) => `[[Категорія:${p}]]`).join('\n')}`.trim() || 'Категорія.', opts);
  C('Україна', [], 'Коренева категорія про Україну.');
  C('Географія України', ['Україна'], 'Статті про географію.');
  C('Населені пункти', ['Географія України'], 'Міста, містечка й села.');
  C('Міста', ['Населені пункти'], 'Усі міста Демовікі. Сторінки додаються шаблоном [[Шаблон:Місто]].\n{{#default_form:Місто}}');
  C('Обласні центри', ['Міста'], 'Адміністративні центри областей.');
  C('Курортні міста', ['Міста'], 'Міста біля моря та цілющих джерел.');
  C('Столиці', ['Міста']);
  C('Села', ['Населені пункти']);
  C('Водойми', ['Географія України']);
  C('Річки', ['Водойми'], 'Річки, описані шаблоном [[Шаблон:Річка]].');
  C('Річки України', ['Річки']);
  C('Притоки Дніпра', ['Річки України', 'Річки'], 'Найглибша гілка дерева категорій: Україна → Географія України → Водойми → Річки → Річки України → Притоки Дніпра.');
  C('Озера', ['Водойми']);
  C('Моря', ['Водойми']);
  C('Гори', ['Географія України']);
  C('Регіони України', ['Географія України']);
  C('Культура України', ['Україна']);
  C('Українська кухня', ['Культура України'], 'Страви та напої. {{#default_form:Страва}}', { history: 2 });
  C('Супи', ['Українська кухня']);
  C('Напої', ['Українська кухня']);
  C('Страви з тіста', ['Українська кухня']);
  C('Мʼясні страви', ['Українська кухня']);
  C('Свята', ['Культура України']);
  C('Музичні інструменти', ['Культура України']);
  C('Персонажі', ['Культура України'], 'Вигадані персонажі. {{#default_form:Персонаж}}');
  C('Казкові персонажі', ['Персонажі']);
  C('Вигадані науковці', ['Персонажі']);
  C('Історія', ['Україна']);
  C('Техніка', []);
  C('Програмне забезпечення', ['Техніка']);
  C('Тварини', []);
  C('Слова', [], 'Статті про окремі слова з літерами Ґ, Ї, Є, І та апострофами.');
  C('Шаблони', []);
  C('Шаблони-картки', ['Шаблони']);
  C('Навігаційні шаблони', ['Шаблони']);
  C('Службові шаблони', ['Шаблони', 'Службові категорії']);
  C('Файли', []);
  C('Прапори', ['Файли']);
  C('Герби', ['Файли']);
  C('Фотографії', ['Файли']);
  C('Логотипи', ['Файли']);
  C('Схеми', ['Файли']);
  C('Власні роботи', ['Файли']);
  C('Властивості', [], 'Семантичні властивості.');
  C('Форми', [], 'Форми Semantic Forms.');
  C('Службові категорії', []);
  C('Статті без джерел', ['Службові категорії'], '__HIDDENCAT__\nПрихована категорія: статті, позначені шаблоном [[Шаблон:Без джерел]].');
  C('Порожня категорія', ['Службові категорії'], 'У цій категорії немає жодної сторінки.');
  C('Демовікі', [], 'Сторінки про саму вікі.');
  C('Користувачі', ['Демовікі']);
  // not created on purpose (used, but without a category page): Rivers, Незавершені статті, Вигадані місця,
  // Страви з картоплі, Столиці україни, Обговорення
}

function buildOtherNamespaces(): void {
  add(2, 'Адміністратор', 'Я адмініструю Демовікі.\n[[Файл:Логотип Демовікі.png|80px]]\n[[Категорія:Користувачі]]');
  add(2, 'Олена Коваль', 'Пишу про міста й кухню. Улюблена страва — [[борщ]].\n[[Файл:Борщ.png|80px]]\n[[Категорія:Користувачі]]');
  add(2, 'Тарас', 'Фотографую гори: [[Файл:Карпати.png|100px]] [[Файл:Говерла.png|100px]].\n[[Категорія:Користувачі]]');
  add(2, 'Ivan Petrenko', 'I upload English-named copies of files, e.g. [[:File:Flag of Ukraine.png]].\n[[Category:Користувачі]]');
  add(3, 'Тарас', '== Фото ==\nДякую за світлини! --[[Користувач:Олена Коваль|Олена Коваль]] 10:20, 5 березня 2014 (UTC)');
  add(1, 'Київ', '== Дата заснування ==\nЧи варто писати 482 рік? --[[Користувач:Тарас|Тарас]]\n: Так, з поміткою «умовно». --[[Користувач:Олена Коваль|Олена]]');
  add(1, 'Борщ', '== Фото ==\nФото [[:Файл:Borscht.png]] дублює [[:Файл:Борщ.png]]. Видалимо одне?');
  add(4, 'Про Демовікі', 'Демовікі — навчальна вікі для тестування API.\n[[Медіа:Документ.pdf|Завантажити опис (PDF)]]\n[[Медіа:примітки.txt|Примітки]]\n[[Категорія:Демовікі]]');
  add(4, 'Правила', '# Пишіть українською.\n# Додавайте джерела ({{tl|Без джерел}} позначає статті без них).\n# Не копіюйте чужі тексти.\n[[Категорія:Демовікі]]');
  // The sandbox: the longest history of the demo (registered users, addresses, minor edits, section
  // comments), all of it later than every other edit, so the other pages' revision and page ids stay as
  // they were; its last edit is the newest of the wiki (the start of the recent-changes window).
  const SANDBOX = 'Ця сторінка — для випробувань. Її регулярно очищує бот.';
  add(4, 'Пісочниця', [
    { ts: '2016-10-01T08:00:00Z', user: U.admin, comment: 'Створено пісочницю', text: SANDBOX },
    { ts: '2016-10-03T12:30:00Z', ip: '198.51.100.7', comment: 'тест', text: `${SANDBOX}\n\nпривіт!!!` },
    { ts: '2016-10-05T09:15:00Z', user: U.taras, minor: true, comment: 'дрібне', text: `${SANDBOX}\n\nПривіт!` },
    { ts: '2016-10-12T17:45:00Z', user: U.maryana, comment: 'спроба таблиці', text: `${SANDBOX}\n\nПривіт!\n{| class="wikitable"\n| А || Б\n|}` },
    { ts: '2016-10-20T06:05:00Z', user: U.bot, minor: true, comment: 'Бот: очищення пісочниці', text: SANDBOX },
    { ts: '2016-11-02T21:10:00Z', ip: '2001:DB8::42', comment: '', text: `${SANDBOX}\n\n'''жирний''' і ''курсив''` },
    { ts: '2016-11-14T10:00:00Z', user: U.olena, comment: '/* Розділ */ новий розділ', text: `${SANDBOX}\n\n'''жирний''' і ''курсив''\n\n== Розділ ==\nТекст розділу.` },
    { ts: '2016-11-20T15:30:00Z', user: U.bot, minor: true, comment: 'Бот: очищення пісочниці', text: SANDBOX },
  ]);
  add(5, 'Правила', 'Пропоную додати правило про назви файлів. --[[Користувач:Ivan Petrenko|Ivan]]');
  add(12, 'Редагування', 'Щоб вставити картинку, пишіть <nowiki>[[Файл:Назва.png|thumb|Підпис]]</nowiki>.\n[[Файл:Small icon.png]]\n[[Категорія:Демовікі]]');
  add(12, 'Категорії', 'Категорію додають так: <nowiki>[[Категорія:Назва]]</nowiki>. Ключ сортування: <nowiki>[[Категорія:Міста|Київ]]</nowiki>.\n[[Категорія:Демовікі]]');
  add(11, 'Місто', 'Параметр «сортування» тепер підтримується.');
  add(15, 'Міста', 'Чи варто розділити категорію за областями?');
  add(7, 'Прапор України.png', 'Цей файл має два дублікати.');
  add(13, 'Редагування', 'Додайте приклад галереї.');
}

function buildFilePages(): void {
  const lic = ['{{Власна робота}}', '{{Власна робота|[[Користувач:Тарас|Тарас]]}}', 'Ліцензія: вільна.'];
  FILES.forEach((f, i) => {
    if (!f.page) return;
    const title = f.name.replace(/_/g, ' ');
    const text = [`== Опис ==`, f.desc, '', '== Ліцензія ==', lic[i % lic.length]!, ...f.cats.map((c) => `[[Категорія:${c}]]`)].join('\n');
    add(6, title, [{ user: f.user, comment: f.comment ?? `Завантажено ${title}`, text }], { upload: f, history: i % 5 === 0 ? 2 : 1 });
  });
  for (const t of MISSING_FILE_PAGES) {
    add(6, t, `== Опис ==\nОпис файлу, який так і не було завантажено (або його видалено).\n[[Категорія:Фотографії]]`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Interface messages
// ---------------------------------------------------------------------------------------------------------

const MONTH_KEYS = ['january', 'february', 'march', 'april', 'may_long', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

function messageCatalogs(): { en: Record<string, string>; uk: Record<string, string>; ru: Record<string, string> } {
  const en: Record<string, string> = {};
  const uk: Record<string, string> = {};
  const ru: Record<string, string> = {};
  const monthsEn = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const monthsUk = ['січень', 'лютий', 'березень', 'квітень', 'травень', 'червень', 'липень', 'серпень', 'вересень', 'жовтень', 'листопад', 'грудень'];
  const monthsRu = ['январь', 'февраль', 'март', 'апрель', 'май', 'июнь', 'июль', 'август', 'сентябрь', 'октябрь', 'ноябрь', 'декабрь'];
  const abbrKeys = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
  const abbrUk = ['січ', 'лют', 'бер', 'кві', 'тра', 'чер', 'лип', 'сер', 'вер', 'жов', 'лис', 'гру'];
  MONTH_KEYS.forEach((k, i) => {
    en[k] = monthsEn[i]!;
    uk[k] = monthsUk[i]!;
    ru[k] = monthsRu[i]!;
  });
  abbrKeys.forEach((k, i) => {
    en[k] = monthsEn[i]!.slice(0, 3);
    if (i < 9) uk[k] = abbrUk[i]!; // oct, nov, dec: only en and ru
    ru[k] = monthsRu[i]!.slice(0, 3);
  });
  const days: Array<[string, string, string, string]> = [
    ['sunday', 'Sunday', 'неділя', 'воскресенье'],
    ['monday', 'Monday', 'понеділок', 'понедельник'],
    ['tuesday', 'Tuesday', 'вівторок', 'вторник'],
    ['wednesday', 'Wednesday', 'середа', 'среда'],
    ['thursday', 'Thursday', 'четвер', 'четверг'],
    ['friday', 'Friday', 'пʼятниця', 'пятница'],
    ['saturday', 'Saturday', 'субота', 'суббота'],
  ];
  for (const [k, e, u, r] of days) {
    en[k] = e;
    uk[k] = u;
    ru[k] = r;
  }
  // [key, en, uk (undefined = untranslated), ru (undefined = untranslated)]
  const rows: Array<[string, string, string | undefined, string | undefined]> = [
    ['mainpage', 'Front page', 'Головна сторінка', 'Заглавная страница'],
    ['mainpage-description', 'Front page', 'Головна', 'Главная'],
    ['about', 'About the wiki', 'Про вікі', 'О вики'],
    ['aboutpage', 'Project:About', 'Project:Про Демовікі', 'Project:О вики'],
    ['search', 'Find', 'Пошук', 'Поиск'],
    ['searchbutton', 'Find pages', 'Знайти', 'Найти'],
    ['go', 'Open', 'Перейти', 'Перейти'],
    ['history', 'Earlier versions', 'Попередні версії', 'Прежние версии'],
    ['edit', 'Change', 'Змінити', 'Изменить'],
    ['view', 'Read', 'Читати', 'Читать'],
    ['talk', 'Discussion', 'Обговорення', 'Обсуждение'],
    ['categories', 'All categories', 'Усі категорії', 'Все категории'],
    ['pagecategories', '{{PLURAL:$1|Category|Categories}}', '{{PLURAL:$1|Категорія|Категорії|Категорій}}', '{{PLURAL:$1|Категория|Категории|Категорий}}'],
    ['hidden-categories', '{{PLURAL:$1|Hidden category|Hidden categories}}', '{{PLURAL:$1|Прихована категорія|Приховані категорії|Прихованих категорій}}', undefined],
    ['category-empty', "''Nothing is in this category yet.''", "''У цій категорії поки нічого немає.''", undefined],
    ['subcategories', 'Subcategories', 'Підкатегорії', 'Подкатегории'],
    ['category-subcat-count', 'This category holds {{PLURAL:$2|one subcategory|$2 subcategories}}; $1 {{PLURAL:$1|is|are}} shown.', 'Ця категорія має {{PLURAL:$2|одну підкатегорію|$2 підкатегорії|$2 підкатегорій}}; показано $1.', undefined],
    ['nstab-main', 'Article', 'Стаття', 'Статья'],
    ['nstab-user', 'User page', 'Сторінка користувача', 'Страница участника'],
    ['nstab-image', 'File', 'Файл', 'Файл'],
    ['nstab-category', 'Category', 'Категорія', 'Категория'],
    ['nstab-template', 'Template', 'Шаблон', 'Шаблон'],
    ['redirectedfrom', '(Arrived here from $1)', '(Сюди перенаправлено з $1)', '(Сюда перенаправлено с $1)'],
    ['retrievedfrom', 'Taken from "$1"', 'Взято з «$1»', 'Взято с «$1»'],
    ['lastmodifiedat', 'Last changed on $1 at $2.', 'Востаннє змінено $1 о $2.', 'Последнее изменение: $1 в $2.'],
    ['nbytes', '$1 {{PLURAL:$1|byte|bytes}}', '$1 {{PLURAL:$1|байт|байти|байтів}}', '$1 {{PLURAL:$1|байт|байта|байт}}'],
    ['nmembers', '$1 {{PLURAL:$1|member|members}}', '$1 {{PLURAL:$1|елемент|елементи|елементів}}', '$1 {{PLURAL:$1|элемент|элемента|элементов}}'],
    ['ncategories', '$1 {{PLURAL:$1|category|categories}}', '$1 {{PLURAL:$1|категорія|категорії|категорій}}', undefined],
    ['size-bytes', '$1 B', '$1 байтів', '$1 байт'],
    ['size-kilobytes', '$1 KB', '$1 КБ', '$1 КБ'],
    ['size-megabytes', '$1 MB', '$1 МБ', '$1 МБ'],
    ['size-gigabytes', '$1 GB', '$1 ГБ', '$1 ГБ'],
    ['size-terabytes', '$1 TB', undefined, undefined],
    ['demo-welcome', '{{GENDER:$1|He|She}} joined Demowiki on $2. Welcome, $1!', '{{GENDER:$1|він|вона}} приєднав{{GENDER:$1||ла}}ся до Демовікі $2. Вітаємо, $1!', '{{GENDER:$1|он|она}} присоединил{{GENDER:$1||ась|ся}} к Демовики $2.'],
    ['demo-greeting', '{{int:demo-welcome}} Enjoy reading.', '{{int:demo-welcome}} Приємного читання.', undefined],
    ['demo-empty', '', '', ''],
    ['demo-only-en', 'This text exists in English only.', undefined, undefined],
    ['demo-ru-fallback', 'This message has a Russian translation but no Ukrainian one.', undefined, 'У этого сообщения есть русский перевод, но нет украинского.'],
    ['demo-ru-fallback-2', 'Second English-and-Russian-only message: $1.', undefined, 'Второе сообщение только на русском: $1.'],
    ['demo-files', '$1 {{PLURAL:$1|file|files}}', '$1 {{PLURAL:$1|файл|файли|файлів}}', '$1 {{PLURAL:$1|файл|файла|файлов}}'],
    ['demo-edits', '{{GENDER:$1|He|She}} made $2 {{PLURAL:$2|edit|edits}}.', '{{GENDER:$1|Він зробив|Вона зробила}} $2 {{PLURAL:$2|редагування|редагування|редагувань}}.', undefined],
    ['demo-back-to-main', 'Return to [[{{int:mainpage}}]].', 'Повернутися на [[{{int:mainpage}}]].', 'Вернуться на [[{{int:mainpage}}]].'],
    ['demo-date', '$2 $1, $3', '$1 $2 $3 року', '$1 $2 $3 года'],
    ['demo-apostrophe', "Don't forget the apostrophe", "Не забувайте про апостроф: пам'ять, м’ята, сімʼя", undefined],
    ['demo-html', 'Text with <b>markup</b> & "quotes"', 'Текст із <b>розміткою</b> & «лапками»', undefined],
    ['demo-multiline', 'First line\nSecond line', 'Перший рядок\nДругий рядок', undefined],
    ['demo-footer', 'Demowiki, $1', 'Демовікі, $1', 'Демовики, $1'],
    ['ancientpages', 'Least recently changed pages', 'Найдавніше змінені сторінки', 'Давно не редактировавшиеся страницы'],
    ['ancientpages-summary', 'Pages ordered by the time of their last change, oldest first.', undefined, undefined],
    ['listfiles', 'Uploaded files', 'Завантажені файли', 'Загруженные файлы'],
    ['listredirects', 'All redirects', undefined, 'Все перенаправления'],
    ['brokenredirects', 'Redirects to nowhere', 'Розірвані перенаправлення', 'Разорванные перенаправления'],
    ['doubleredirects', 'Redirects to redirects', 'Подвійні перенаправлення', 'Двойные перенаправления'],
    ['wantedpages', 'Pages people link to but nobody wrote', 'Потрібні сторінки', 'Требуемые страницы'],
    ['allpages', 'Every page', 'Усі сторінки', 'Все страницы'],
    ['randompage', 'Surprise me', undefined, 'Случайная статья'],
    ['recentchanges', 'Latest edits', 'Нові редагування', 'Свежие правки'],
    ['unusedimages', 'Files nobody uses', 'Невикористані файли', undefined],
    ['duplicatesoffile', '{{PLURAL:$1|This file has a copy|These $1 files are copies of this one}}:', '{{PLURAL:$1|Цей файл має копію|Ці $1 файли є копіями цього|Ці $1 файлів є копіями цього}}:', undefined],
    ['word-separator', ' ', undefined, undefined],
    ['comma-separator', ', ', ', ', undefined],
    ['colon-separator', ': ', undefined, undefined],
    ['parentheses', '($1)', '($1)', '($1)'],
    // 1.25's texts (OutputPage's <title>; CoreTagHooks::indicator's error, untranslated here: uk falls back to en)
    ['pagetitle', '$1 - {{SITENAME}}', '$1 — {{SITENAME}}', '$1 — {{SITENAME}}'],
    ['invalid-indicator-name', "Error: Page status indicators' <code>name</code> attribute must not be empty.", undefined, undefined],
  ];
  for (const [k, e, u, r] of rows) {
    en[k] = e;
    if (u !== undefined) uk[k] = u;
    if (r !== undefined) ru[k] = r;
  }
  const sorted = (o: Record<string, string>) => Object.fromEntries(Object.keys(o).sort().map((k) => [k, o[k]!]));
  return { en: sorted(en), uk: sorted(uk), ru: sorted(ru) };
}

/** MediaWiki: pages overriding catalog messages (title → text). */
function buildMessagePages(): void {
  const overrides: Array<[string, string]> = [
    ['August', 'серпень (змінено локально)'],
    ['January', 'січень (змінено локально)'],
    ['Jan', 'січ.'],
    ['Sunday', 'неділенька'],
    ['Mainpage', 'Головна сторінка'], // identical to the uk catalog text on purpose
    ['Mainpage-description', 'Головна Демовікі'],
    ['Aboutpage', 'Демовікі:Про Демовікі'],
    ['Search', 'Шукати в Демовікі'],
    ['Edit', 'Редагувати'],
    ['Talk', 'Обговорити'],
    ['Categories', 'Категорії Демовікі'],
    ['Pagecategories', '{{PLURAL:$1|Категорія сторінки|Категорії сторінки|Категорій сторінки}}'],
    ['Hidden-categories', '{{PLURAL:$1|Службова категорія|Службові категорії|Службових категорій}}'],
    ['Nstab-main', 'Стаття Демовікі'],
    ['Retrievedfrom', 'Джерело: «$1»'],
    ['Lastmodifiedat', 'Сторінку змінено $1 о $2 (локальний текст).'],
    ['Nbytes', '$1 {{PLURAL:$1|байт|байти|байтів}} (локально)'],
    ['Size-bytes', '$1 Б'],
    ['Demo-welcome', '{{GENDER:$1|Він|Вона}} з нами з $2 — локальне вітання для $1.'],
    ['Demo-greeting', '{{int:demo-welcome}} (змінено на вікі)'],
    ['Demo-empty', 'Тепер не порожнє'],
    ['Demo-only-en', 'Тепер є й українською (локально)'],
    ['Demo-ru-fallback', 'Локальний український текст замість російського'],
    ['Listfiles', 'Список файлів'],
    ['Demo-local-only', 'Це повідомлення існує лише як сторінка MediaWiki: у Демовікі.'],
    ['August/ru', 'август (изменено локально)'],
  ];
  for (const [t, text] of overrides) add(8, t, [{ user: U.admin, comment: 'локалізація', text }]);
}

// ---------------------------------------------------------------------------------------------------------
// Timestamps, ids, output
// ---------------------------------------------------------------------------------------------------------

const T_MIN = parseIso('2009-07-01T00:00:00Z');
const T_MIN_MAIN = parseIso('2009-09-01T00:00:00Z');
const T_MAX = parseIso('2016-06-30T00:00:00Z');
const T_END = parseIso('2016-12-31T23:59:59Z');

interface FinalRev {
  page: PageSpec;
  idx: number;
  ts: number;
  contributor: Contributor;
  minor: boolean;
  comment: string;
  text: string;
  id?: number;
}

function earlierVersions(text: string, n: number): string[] {
  // n-1 earlier texts: prefixes of the final text cut at line boundaries, each different from the next
  const lines = text.split('\n');
  const out: string[] = [];
  let prev = '';
  for (let k = 1; k < n; k++) {
    const cut = Math.max(1, Math.floor((lines.length * k) / n));
    let t = lines.slice(0, cut).join('\n').trimEnd();
    if (t === '' || t === prev || t === text) t = `${prev || 'Чернетка'} …`;
    out.push(t);
    prev = t;
  }
  return out;
}

function expandRevisions(): FinalRev[] {
  const all: FinalRev[] = [];
  for (const p of pages) {
    const rng = new Rng(hashString(`${p.ns}:${p.title}`) ^ 0x2468ace);
    // decide the history length
    let specs = p.revs;
    if (specs.length === 1 && specs[0]!.ts === undefined) {
      let n = p.history ?? 0;
      if (n === 0) n = rng.chance(0.3) ? rng.int(2, 4) : 1;
      if (p.redirect !== undefined || p.ns === 8) n = 1;
      if (n > 1) {
        const last = specs[0]!;
        const early: RevSpec[] = earlierVersions(last.text, n).map((text) => ({ text }));
        // the page creator (e.g. the uploader of a file) keeps the first revision
        early[0] = { ...early[0]!, user: last.user, comment: last.comment };
        specs = [...early, { text: last.text }];
      }
    }
    // timestamps: pinned ones are kept, free ones fall between neighbours
    // main-namespace pages start after the pinned "ancient" ones (see buildMisc)
    const lo = p.ns === 0 ? T_MIN_MAIN : T_MIN;
    let t = lo + Math.floor(rng.next() * (T_MAX - lo));
    const times: number[] = [];
    specs.forEach((r, k) => {
      if (r.ts !== undefined) t = parseIso(r.ts);
      else if (k > 0) t += rng.int(3600, Math.max(3600, Math.min(400 * 86400, Math.floor((T_END - t) / (specs.length - k + 1)))));
      times.push(t);
    });
    // free first revision before a pinned later one must be earlier
    for (let k = times.length - 2; k >= 0; k--) if (times[k]! >= times[k + 1]!) times[k] = times[k + 1]! - rng.int(3600, 30 * 86400);
    specs.forEach((r, k) => {
      let contributor: Contributor;
      if (r.ip !== undefined) contributor = { ip: r.ip };
      else if (r.user) contributor = { name: r.user.name, id: r.user.id };
      else if (k > 0 && rng.chance(0.12)) contributor = { ip: rng.pick(IPS) };
      else {
        const u = rng.pick(EDITORS);
        contributor = { name: u.name, id: u.id };
      }
      const comment = r.comment ?? (k === 0 ? rng.pick(COMMENTS_FIRST) : rng.pick(COMMENTS_LATER));
      all.push({ page: p, idx: k, ts: times[k]!, contributor, minor: r.minor ?? (k > 0 && rng.chance(0.25)), comment, text: r.text.trimEnd() });
    });
  }
  return all;
}

/** Build the whole demo wiki in memory (it is small) and write it to outDir. */
export function generateDemo(outDir: string): void {
  pages.length = 0;
  byKey.clear();
  buildMisc();
  buildCities();
  buildRivers();
  buildFoods();
  buildCharacters();
  buildTemplates();
  buildProperties();
  buildConcepts();
  buildForms();
  buildCategories();
  buildFilePages();
  buildRedirects();
  buildOtherNamespaces();
  buildMessagePages();

  // ---- revisions, ids
  const revs = expandRevisions();
  const firstTs = new Map<PageSpec, number>();
  for (const r of revs) if (r.idx === 0) firstTs.set(r.page, r.ts);
  const order = pages.map((p, i) => ({ p, i })).sort((a, b) => firstTs.get(a.p)! - firstTs.get(b.p)! || a.i - b.i);
  const pageId = new Map<PageSpec, number>();
  order.forEach(({ p }, k) => pageId.set(p, k + 1));
  const revOrder = revs.map((r, i) => ({ r, i })).sort((a, b) => a.r.ts - b.r.ts || pageId.get(a.r.page)! - pageId.get(b.r.page)! || a.r.idx - b.r.idx);
  revOrder.forEach(({ r }, k) => (r.id = k + 1));
  const revsByPage = new Map<PageSpec, FinalRev[]>();
  for (const r of revs) {
    const l = revsByPage.get(r.page) ?? [];
    l.push(r);
    revsByPage.set(r.page, l);
  }

  // ---- files
  fs.mkdirSync(outDir, { recursive: true });
  const filesDir = path.join(outDir, 'files');
  fs.rmSync(filesDir, { recursive: true, force: true });
  fs.mkdirSync(filesDir, { recursive: true });
  const artCache = new Map<string, Buffer>();
  const uploadsLog: Array<{ name: string; user: string; timestamp: string; comment: string }> = [];
  const uploadFor = new Map<PageSpec, DumpUpload>();
  for (const f of FILES) {
    let data = artCache.get(f.art);
    if (!data) {
      data = makeArt(f.art);
      artCache.set(f.art, data);
    }
    fs.writeFileSync(path.join(filesDir, f.name), data);
    let ts = f.ts;
    let user = f.user;
    const page = f.page ? byKey.get(key(6, f.name.replace(/_/g, ' '))) : undefined;
    if (page) {
      const first = revsByPage.get(page)![0]!;
      ts = isoTime(first.ts);
      if (first.contributor.name) user = { name: first.contributor.name, id: first.contributor.id ?? 0 };
    }
    if (!ts) throw new Error(`no upload time for ${f.name}`);
    const comment = f.comment ?? f.desc;
    uploadsLog.push({ name: f.name, user: user.name, timestamp: ts, comment });
    if (page) {
      const { src, rel } = uploadLocation('http://127.0.0.1:8080', f.name);
      uploadFor.set(page, {
        timestamp: ts,
        contributor: { name: user.name, id: user.id },
        comment,
        filename: f.name,
        src,
        size: data.length,
        sha1base36: sha1Base36(data),
        rel,
      });
    }
  }
  uploadsLog.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  fs.writeFileSync(path.join(outDir, 'files', 'uploads.json'), JSON.stringify(uploadsLog, null, 2) + '\n');

  // ---- dump
  const chunks: string[] = [xmlHeader()];
  for (const { p } of order) {
    const list = revsByPage.get(p)!;
    const dumpRevs: DumpRevision[] = list.map((r, k) => ({
      id: r.id!,
      parentId: k > 0 ? list[k - 1]!.id : undefined,
      timestamp: isoTime(r.ts),
      contributor: r.contributor,
      minor: r.minor,
      comment: r.comment,
      text: r.text,
    }));
    const up = uploadFor.get(p);
    chunks.push(
      xmlPage({
        title: prefixed(p.ns, p.title),
        ns: p.ns,
        id: pageId.get(p)!,
        redirect: p.redirect,
        revisions: dumpRevs,
        uploads: up ? [up] : undefined,
      }),
    );
  }
  for (const l of demoLogItems([...uploadFor.values()].find((u) => u.filename === 'Прапор_України.png')!)) chunks.push(xmlLogItem(l));
  chunks.push(XML_FOOTER);
  fs.writeFileSync(path.join(outDir, 'dump.xml'), chunks.join(''));

  // ---- messages
  const msgDir = path.join(outDir, 'messages');
  fs.mkdirSync(msgDir, { recursive: true });
  const cats = messageCatalogs();
  const authors = ['Демовікі', 'Olena Koval'];
  for (const lang of ['en', 'uk', 'ru'] as const) {
    const obj = { '@metadata': { authors }, ...cats[lang] };
    fs.writeFileSync(path.join(msgDir, `${lang}.json`), JSON.stringify(obj, null, '\t') + '\n');
  }
}

/**
 * The demo's log: an account creation, uploads, a move, a deletion, a protection, a block and a rights
 * change, some older and some within the 90 days before the newest edit (so list=recentchanges shows
 * log entries too). Ids follow the timestamps, as they would in a wiki's logging table.
 */
function demoLogItems(flag: DumpUpload): DumpLogItem[] {
  const who = (u: User): Contributor => ({ name: u.name, id: u.id });
  const items: Array<Omit<DumpLogItem, 'id'>> = [
    { timestamp: '2009-01-05T08:00:00Z', contributor: who(U.olena), comment: '', type: 'newusers', action: 'create', logtitle: 'Користувач:Олена Коваль', params: phpSerialize({ '4::userid': 2 }) },
    { timestamp: '2009-06-15T10:00:00Z', contributor: who(U.admin), comment: '', type: 'newusers', action: 'create2', logtitle: 'Користувач:Тарас', params: phpSerialize({ '4::userid': 3 }) },
    // the upload of a file of the dump, as the file's <upload> element describes it
    {
      timestamp: flag.timestamp,
      contributor: flag.contributor,
      comment: flag.comment,
      type: 'upload',
      action: 'upload',
      logtitle: 'Файл:' + flag.filename.replace(/_/g, ' '),
      params: phpSerialize({ img_sha1: flag.sha1base36, img_timestamp: flag.timestamp.replace(/[-:TZ]/g, '') }),
    },
    { timestamp: '2014-02-01T09:15:00Z', contributor: who(U.admin), comment: 'захист головної сторінки', type: 'protect', action: 'protect', logtitle: 'Головна сторінка', params: '\u200e[edit=sysop] (безстроково) \u200e[move=sysop] (безстроково)\n' },
    { timestamp: '2015-11-20T18:30:00Z', contributor: who(U.admin), comment: 'прапорець бота', type: 'rights', action: 'rights', logtitle: 'Користувач:ДемоБот', params: phpSerialize({ '4::oldgroups': [], '5::newgroups': ['bot'] }) },
    { timestamp: '2016-08-25T14:00:00Z', contributor: who(U.admin), comment: 'вандалізм', type: 'block', action: 'block', logtitle: 'Користувач:203.0.113.200', params: '3 days\nanononly,nocreate' },
    { timestamp: '2016-09-10T11:45:00Z', contributor: who(U.taras), comment: 'точніша назва', type: 'move', action: 'move', logtitle: 'Київ (місто)', params: phpSerialize({ '4::target': 'Київ', '5::noredir': '1' }) },
    { timestamp: '2016-09-01T07:20:00Z', contributor: who(U.admin), comment: 'спам', type: 'delete', action: 'delete', logtitle: 'Рекламна сторінка', params: '' },
  ];
  items.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : 0));
  return items.map((l, i) => ({ id: i + 1, ...l }));
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
  const out = process.argv[2];
  if (!out) {
    process.stderr.write('usage: node dist/scripts/generate-demo.js OUTDIR\n');
    process.exit(2);
  }
  generateDemo(out);
  process.stdout.write(`demo wiki written to ${out}\n`);
}
