/**
 * Compares action=parse of every page of a running wikiquery with the oracle MediaWiki loaded with the
 * same dump: the rendered text after normalising what changed after 1.25 (see `normalise`), and the
 * link tables. Prints the share of pages whose HTML matches exactly and the first differences.
 *
 *   node dist/scripts/compare-parse.js http://127.0.0.1:18800/api.php http://127.0.0.1:8081/api.php [--show N]
 */
const [ours, oracle] = process.argv.slice(2, 4);
const showArg = process.argv.indexOf('--show');
const show = showArg > 0 ? Number(process.argv[showArg + 1]) : 5;

async function api(base: string, params: Record<string, string>): Promise<any> {
  const u = new URL(base);
  for (const [k, v] of Object.entries({ format: 'json', formatversion: '2', ...params })) u.searchParams.set(k, v);
  const r = await fetch(u);
  return r.json();
}

/** 1.39 → 1.25 and wikiquery ↔ oracle URL differences; whitespace runs collapsed */
export function normalise(html: string): string {
  let h = html;
  h = h.replace(/^<div class="mw-parser-output">([\s\S]*)<\/div>\s*$/, '$1'); // 1.39 wrapper
  h = h.replace(/<!--[\s\S]*?-->/g, ''); // limit report, transclusion report
  h = h.replace(/<\/?tbody>/g, ''); // 1.39's HTML5 serialiser adds <tbody>
  h = h.replace(/<pre([^>]*)>\n/g, '<pre$1>'); // and drops the newline after <pre> (as every HTML parser does)
  h = h.replace(/ decoding="async"/g, ''); // 1.39 <img> attribute
  // 1.39: HTML5 heading id with a legacy fallback span; 1.25: the legacy id only
  h = h.replace(/<span id="([^"]*)"><\/span><span class="mw-headline" id="[^"]*">/g, '<span class="mw-headline" id="$1">');
  // 1.39 TOC chrome (checkbox toggle, role/aria) → 1.25's
  h = h.replace(
    /<div id="toc" class="toc"[^>]*>(?:<input[^>]*>)?<div class="toctitle"[^>]*><h2 id="mw-toc-heading">([^<]*)<\/h2>(?:<span class="toctogglespan">[\s\S]*?<\/span>)?<\/div>/g,
    '<div id="toc" class="toc"><div id="toctitle"><h2>$1</h2></div>',
  );
  // TOC hrefs follow the fallback ids the same way
  // article path: the oracle uses /index.php?title=X, wikiquery /index.php/X
  h = h.replace(/href="\/index\.php\?title=([^"&]*)"/g, 'href="/index.php/$1"');
  h = h.replace(/href="\/index\.php\?title=([^"&#]*)(#[^"]*)"/g, 'href="/index.php/$1$2"');
  h = h.replace(/&#39;/g, "'").replace(/&#039;/g, "'");
  // 1.25's French spacing (no-break space before ?:;!%») is not in 1.39
  h = h.replace(/&#160;/g, ' ').replace(/\u00a0/g, ' ');
  // 1.39 self-links are <a class="mw-selflink selflink">; 1.25's <strong class="selflink">
  h = h.replace(/<a class="mw-selflink selflink">([\s\S]*?)<\/a>/g, '<strong class="selflink">$1</strong>');
  h = h.replace(/\s+/g, ' ').trim();
  // 1.39 trims list items and table cells; 1.25 keeps the space after "*" / "|"
  h = h.replace(/(<(?:li|dd|dt|td|th|caption)(?: [^>]*)?>) /g, '$1').replace(/ (<\/(?:td|th|caption)>)/g, '$1');
  return h;
}

function legacyToc(h: string): string {
  // the TOC anchors of 1.39 are HTML5 ids; map each to the heading's legacy id
  const ids = new Map<string, string>();
  for (const m of h.matchAll(/<span id="([^"]*)"><\/span><span class="mw-headline" id="([^"]*)">/g)) ids.set(m[2], m[1]);
  return h.replace(/<a href="#([^"]*)"><span class="tocnumber">/g, (m, id: string) =>
    ids.has(id) ? `<a href="#${ids.get(id)}"><span class="tocnumber">` : m,
  );
}

async function main(): Promise<void> {
  const titles: string[] = [];
  const ns = await api(ours, { action: 'query', meta: 'siteinfo', siprop: 'namespaces' });
  for (const id of Object.keys(ns.query.namespaces)
    .map(Number)
    .filter((n) => n >= 0)) {
    let cont: Record<string, string> = {};
    for (;;) {
      const r = await api(ours, {
        action: 'query',
        list: 'allpages',
        apnamespace: String(id),
        aplimit: '500',
        apfilterredir: 'nonredirects',
        continue: '',
        ...cont,
      });
      for (const p of r.query.allpages) titles.push(p.title);
      if (!r.continue) break;
      cont = r.continue;
    }
  }
  let same = 0;
  let plainSame = 0;
  let plainTotal = 0;
  const diffs: string[] = [];
  const propDiff: Record<string, number> = {};
  for (const t of titles) {
    const [a, b] = await Promise.all([
      api(ours, {
        action: 'parse',
        page: t,
        prop: 'text|links|templates|images|externallinks|categories|sections|langlinks|iwlinks|displaytitle|properties',
        disablelimitreport: '1',
      }),
      api(oracle, {
        action: 'parse',
        page: t,
        prop: 'text|links|templates|images|externallinks|categories|sections|langlinks|iwlinks|displaytitle|properties',
        disablelimitreport: '1',
      }),
    ]);
    if (!a.parse || !b.parse) continue;
    const x = normalise(a.parse.text);
    const y = normalise(legacyToc(b.parse.text));
    // pages whose text uses no parser function / SMW construct: the oracle has neither extension
    // the oracle runs neither ParserFunctions nor Semantic MediaWiki: where its output shows their
    // syntax unprocessed, the page is not comparable
    const plain = !/\{\{\s*#|::/.test(b.parse.text);
    if (plain) plainTotal++;
    if (x === y) {
      same++;
      if (plain) plainSame++;
    } else if (diffs.length < show && (plain || process.argv.includes('--all'))) {
      let i = 0;
      while (i < x.length && x[i] === y[i]) i++;
      diffs.push(
        `${t}${plain ? '' : ' (uses #functions/SMW)'}\n  ours:   …${x.slice(Math.max(0, i - 60), i + 140)}\n  oracle: …${y.slice(Math.max(0, i - 60), i + 140)}`,
      );
    }
    if (b.parse.displaytitle)
      b.parse.displaytitle = String(b.parse.displaytitle)
        .replace(/<[^>]*>/g, '')
        .replace(/&#039;/g, "'")
        .replace(/&amp;/g, '&');
    if (b.parse.properties && !Array.isArray(b.parse.properties))
      b.parse.properties = Object.entries(b.parse.properties).map(([name, value]) => ({ name, value }));
    if (plain)
      for (const k of [
        'links',
        'templates',
        'images',
        'externallinks',
        'categories',
        'langlinks',
        'iwlinks',
        'displaytitle',
        'properties',
      ]) {
        if (JSON.stringify(a.parse[k]) !== JSON.stringify(b.parse[k])) {
          propDiff[k] = (propDiff[k] ?? 0) + 1;
          if (propDiff[k] <= 2 && process.argv.includes('--props'))
            console.log(
              `${t} ${k}\n  ours:   ${JSON.stringify(a.parse[k]).slice(0, 300)}\n  oracle: ${JSON.stringify(b.parse[k]).slice(0, 300)}`,
            );
        }
      }
  }
  console.log(`pages: ${titles.length}; HTML identical after normalising: ${same} (${((100 * same) / titles.length).toFixed(1)}%)`);
  console.log(
    `pages the oracle renders fully (no ParserFunctions/SMW syntax left in its output): ${plainTotal}; identical: ${plainSame} (${((100 * plainSame) / Math.max(1, plainTotal)).toFixed(1)}%)`,
  );
  console.log(`of those, pages whose prop differs: ${JSON.stringify(propDiff)}`);
  for (const d of diffs) console.log(d);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
