/**
 * Every module in every format: for each module action=paraminfo lists (the actions, and query's prop,
 * list and meta modules), its examples and a request with every value of its multi-valued prop
 * parameter are asked in json (formatversion 1), xml and php. The xml must be well-formed (a strict
 * parser reads it), name every list item (no `_v` element: 1.25's modules named them all) and carry
 * exactly the JSON answer's data; the php must unserialize (the real PHP: `php`) to the JSON answer, and
 * the deprecated txt, dbg and dump must be what PHP's own print_r(), var_export() and var_dump() print
 * for that answer (with the format's deprecation warning, as the printer adds it).
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SaxesParser } from 'saxes';
import { mangleName } from '../../src/api/format/xml.js';
import { demoServerForFile } from '../helpers/demo-server.js';
import { parseOrderedJson } from '../helpers/ordered-json.js';
import { describeOrSkip } from '../helpers/skip.js';

/** The php tests need the real PHP; a machine without it skips them, saying so. */
const NO_PHP = spawnSync('php', ['-v']).status === 0 ? false : 'no php CLI (Debian php-cli, which .ci/run installs)';

interface Element {
  name: string;
  attributes: Record<string, string>;
  children: Element[];
  text: string;
}

/** A strict XML parse into a small tree; throws on anything not well-formed. */
function parseXml(xml: string): Element {
  const parser = new SaxesParser();
  const stack: Element[] = [];
  let root: Element | undefined;
  let failure: Error | undefined;
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('opentag', (tag) => {
    const el: Element = { name: tag.name, attributes: tag.attributes as Record<string, string>, children: [], text: '' };
    if (stack.length) stack.at(-1)!.children.push(el);
    else root = el;
    stack.push(el);
  });
  parser.on('text', (t) => {
    if (stack.length) stack.at(-1)!.text += t;
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  parser.write(xml).close();
  if (failure) throw failure;
  assert.ok(root, 'no root element');
  return root;
}

const INT_KEY = /^(?:0|-?[1-9][0-9]*)$/;

/** The XML of a node against its formatversion 1 JSON: same members, same values, lists in order. */
function compareXml(json: unknown, el: Element, path: string, problems: string[]): void {
  if (problems.length > 20) return;
  if (Array.isArray(json)) {
    if (json.length !== el.children.length) {
      problems.push(`${path}: ${json.length} items, <${el.name}> has ${el.children.length} elements`);
      return;
    }
    json.forEach((item, i) => {
      compareItem(item, el.children[i]!, `${path}[${i}]`, problems);
    });
    return;
  }
  if (!(json instanceof Map)) {
    problems.push(`${path}: not a node`);
    return;
  }
  const seenAttributes = new Set(['_idx', 'xml:space', 'xmlns']);
  const named = new Map<string, Element>();
  for (const child of el.children) if (!named.has(child.name)) named.set(child.name, child);
  const indexed: unknown[] = [];
  let content: unknown;
  for (const [key, value] of json) {
    if (INT_KEY.test(key)) {
      indexed.push(value);
      continue;
    }
    if (key === '*') {
      content = value;
      continue;
    }
    const name = mangleName(key);
    if (value !== null && typeof value === 'object') {
      const child = named.get(name);
      if (!child) problems.push(`${path}.${key}: no <${name}> in <${el.name}>`);
      else compareXml(value, child, `${path}.${key}`, problems);
      continue;
    }
    const expected = typeof value === 'boolean' ? '' : String(value);
    seenAttributes.add(name);
    if (name in el.attributes) {
      if (el.attributes[name] !== expected)
        problems.push(`${path}.${key}: ${JSON.stringify(el.attributes[name])} ≠ ${JSON.stringify(expected)}`);
    } else {
      const child = named.get(name);
      if (!child || child.text !== expected) problems.push(`${path}.${key}: missing from <${el.name}>`);
    }
  }
  for (const a of Object.keys(el.attributes)) if (!seenAttributes.has(a)) problems.push(`${path}: <${el.name}> has ${a} the JSON lacks`);
  if (content !== undefined) {
    const holder = el.children.find((c) => c.name === mangleName('*'));
    const text = holder ? holder.text : el.text;
    if (text !== String(content))
      problems.push(`${path}: text ${JSON.stringify(text.slice(0, 80))} ≠ ${JSON.stringify(String(content).slice(0, 80))}`);
  }
  if (indexed.length) {
    const items = el.children.filter((c) => c.attributes._idx !== undefined);
    if (items.length !== indexed.length) problems.push(`${path}: ${indexed.length} keyed items, ${items.length} elements with _idx`);
    else indexed.forEach((item, i) => compareItem(item, items[i]!, `${path}[${i}]`, problems));
  }
}

function compareItem(item: unknown, el: Element, path: string, problems: string[]): void {
  if (el.name === '_v') problems.push(`${path}: an unnamed list item (<_v>)`);
  if (item !== null && typeof item === 'object') compareXml(item, el, path, problems);
  else if (el.text !== (typeof item === 'boolean' ? (item ? 'true' : 'false') : String(item)))
    problems.push(`${path}: <${el.name}> text ${JSON.stringify(el.text)} ≠ ${JSON.stringify(item)}`);
}

/** PHP's json_encode prints an array keyed 0…n-1 as a list, formatversion 1 prints an empty object {}: one form for both. */
function normalize(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(normalize);
  if (v === null || typeof v !== 'object') return v;
  const entries = Object.entries(v);
  if (entries.every(([k], i) => k === String(i))) return entries.map(([, x]) => normalize(x));
  return Object.fromEntries(entries.map(([k, x]) => [k, normalize(x)]));
}

interface ModuleInfo {
  name: string;
  path: string;
  group?: string;
  prefix: string;
  examples?: Array<{ query: string }>;
  parameters: Array<{ name: string; type: unknown; multi: boolean }>;
}

/** The parser's limit report times each request (x.xxx seconds): left out of the comparison. */
function untimed(text: string): string {
  return text.replace(/\b\d+\.\d{3}\b/g, 'T');
}

/** Answers that differ from one request to the next (the clock, a random choice): well-formedness only. */
const VOLATILE = ['list=random', 'meta=siteinfo', 'generator=random', 'action=tokens', 'meta=tokens'];

describe('every module in xml and php', () => {
  const s = demoServerForFile();
  const requests: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'wikiquery-formats-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  before(async () => {
    const main = await s.get({ action: 'paraminfo', modules: 'main|query', formatversion: 2 });
    const [mainInfo, queryInfo] = main.json.paraminfo.modules as ModuleInfo[];
    const typeOf = (m: ModuleInfo, name: string) => m.parameters.find((p) => p.name === name)!.type as string[];
    const paths = [
      ...typeOf(mainInfo!, 'action'),
      ...['prop', 'list', 'meta'].flatMap((kind) => typeOf(queryInfo!, kind).map((n) => `query+${n}`)),
    ];
    // paraminfo describes at most 50 modules a request (ApiParamInfo: modules is ISMULTI)
    const described: ModuleInfo[] = [];
    for (let i = 0; i < paths.length; i += 50) {
      const info = await s.get({
        action: 'paraminfo',
        modules: paths.slice(i, i + 50).join('|'),
        helpformat: 'wikitext',
        formatversion: 2,
      });
      described.push(...(info.json.paraminfo.modules as ModuleInfo[]));
    }
    for (const m of described) {
      for (const e of m.examples ?? []) requests.push(e.query);
      const kind = m.group;
      const base =
        kind === 'prop'
          ? `action=query&prop=${m.name}&titles=Київ|Файл:Kyiv.png|Категорія:Міста|Шаблон:Infobox|Немає`
          : kind === 'list' || kind === 'meta'
            ? `action=query&${kind}=${m.name}`
            : `action=${m.name}`;
      requests.push(base);
      // every value of the module's prop parameter at once
      const prop = m.parameters.find((p) => p.name === `${m.prefix}prop` && p.multi && Array.isArray(p.type));
      if (prop) requests.push(`${base}&${prop.name}=${(prop.type as string[]).join('|')}`);
    }
  });

  // modules with a printer of their own (ApiBase::getCustomPrinter: the feeds, rsd) answer their document whatever
  // format= says: nothing for the walk to compare
  before(async () => {
    const own = new Set<string>();
    for (const q of requests) {
      const type = (await fetch(`${s.url}?${q}&format=json`)).headers.get('content-type') ?? '';
      if (!type.startsWith('application/json')) own.add(q);
    }
    requests.splice(0, requests.length, ...requests.filter((q) => !own.has(q)));
  });

  it('walks every module paraminfo lists', () => {
    assert.ok(requests.length > 100, `${requests.length} requests`);
  });

  it('prints well-formed xml that carries the json answer, every list item named', async () => {
    const problems: string[] = [];
    for (const q of requests) {
      if (q.startsWith('action=help') || q.startsWith('action=opensearch')) continue;
      const json = untimed(await (await fetch(`${s.url}?${q}&format=json`)).text());
      const xml = untimed(await (await fetch(`${s.url}?${q}&format=xml`)).text());
      let root: Element;
      try {
        root = parseXml(xml);
      } catch (e) {
        problems.push(`${q}: not well-formed: ${(e as Error).message}`);
        continue;
      }
      assert.equal(root.name, 'api', q);
      if (VOLATILE.some((v) => q.includes(v))) continue;
      const found: string[] = [];
      compareXml(parseOrderedJson(json), root, '', found);
      problems.push(...found.map((p) => `${q}: ${p}`));
    }
    assert.deepEqual(problems, []);
  });

  it('prints php that PHP unserializes to the json answer', { skip: NO_PHP }, async () => {
    const pairs: Array<{ q: string; json: string; php: string }> = [];
    for (const q of requests) {
      if (q.startsWith('action=help') || q.startsWith('action=opensearch') || VOLATILE.some((v) => q.includes(v))) continue;
      const json = untimed(await (await fetch(`${s.url}?${q}&format=json`)).text());
      const php = await (await fetch(`${s.url}?${q}&format=php`)).text();
      pairs.push({ q, json, php });
    }
    const input = join(dir, 'answers.txt');
    writeFileSync(input, pairs.map((p) => Buffer.from(p.php).toString('base64')).join('\n'));
    // one PHP process for all the answers: each unserialized (objects refused) and printed as JSON
    const script =
      'foreach (file($argv[1], FILE_IGNORE_NEW_LINES) as $line) {' +
      ' $v = unserialize(base64_decode($line), ["allowed_classes" => false]);' +
      ' echo $v === false ? "FAILED" : json_encode($v, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES), "\\n"; }';
    const out = execFileSync('php', ['-r', script, input], { encoding: 'utf8', timeout: 60_000, maxBuffer: 256 << 20 }).split('\n');
    pairs.forEach((p, i) => {
      assert.notEqual(out[i], 'FAILED', `${p.q}: php does not unserialize`);
      assert.deepEqual(normalize(JSON.parse(untimed(out[i]!))), normalize(JSON.parse(p.json)), p.q);
    });
  });
});

describeOrSkip('txt, dbg and dump are what PHP prints', { skip: NO_PHP }, () => {
  const s = demoServerForFile();
  const dir = mkdtempSync(join(tmpdir(), 'wikiquery-dumps-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const requests = [
    'action=query&list=allpages&aplimit=5&continue=',
    'action=query&titles=Київ|Немає|Спеціальна:Версія|<x>&prop=info|categories&continue=',
    'action=query&meta=siteinfo&siprop=namespaces|statistics|rightsinfo&continue=',
    'action=query&prop=revisions&titles=Київ&rvprop=content|ids|comment&continue=',
    "action=query&list=allpages&apfrom=O'&aplimit=2&requestid=a'b\\c",
    'action=parse&page=Київ&prop=sections|links&disablepp=',
    'action=nope',
  ];

  it('print_r, var_export and var_dump of the php answer, with the deprecation warning on top', async () => {
    const rows: string[] = [];
    const ours: string[] = [];
    for (const q of requests) {
      const php = await (await fetch(`${s.url}?${q}&format=php`)).text();
      for (const format of ['txt', 'dbg', 'dump']) {
        rows.push(`${format} ${Buffer.from(php).toString('base64')}`);
        ours.push(await (await fetch(`${s.url}?${q}&format=${format}`)).text());
      }
    }
    const input = join(dir, 'answers.txt');
    writeFileSync(input, rows.join('\n'));
    // ApiFormatBase::markDeprecated's warning, added as ApiResult adds warnings: on top, after any others
    const script =
      'foreach (file($argv[1], FILE_IGNORE_NEW_LINES) as $line) {' +
      ' list($f, $b) = explode(" ", $line); $v = unserialize(base64_decode($b), ["allowed_classes" => false]);' +
      ' $w = array("*" => "format=$f has been deprecated. Please use format=json instead.");' +
      ' if (isset($v["warnings"])) { $v["warnings"][$f] = $w; } else { $v = array("warnings" => array($f => $w)) + $v; }' +
      ' if ($f === "txt") $out = print_r($v, true);' +
      ' elseif ($f === "dbg") $out = var_export($v, true);' +
      ' else { ob_start(); var_dump($v); $out = ob_get_clean(); }' +
      ' echo base64_encode($out), "\n"; }';
    const out = execFileSync('php', ['-r', script, input], { encoding: 'utf8', timeout: 60_000, maxBuffer: 256 << 20 })
      .trim()
      .split('\n');
    assert.equal(out.length, ours.length);
    out.forEach((b64, i) => {
      assert.equal(ours[i], Buffer.from(b64, 'base64').toString('utf8'), rows[i]!.split(' ')[0] + ' ' + requests[Math.floor(i / 3)]);
    });
  });
});
