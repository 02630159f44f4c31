/**
 * The article path: /index.php/Title and /index.php?title=Title show a plain, readable HTML page of
 * the rendered article (title, content, categories, a link to its API data), in Ukrainian; action=raw
 * returns the wikitext as index.php does (text/x-wiki, 404 for a missing page). Every link of rendered
 * HTML, imageinfo's descriptionurl and siteinfo's base point here.
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../store/store.js';
import type { Wiki } from '../wiki/wiki.js';
import { wfUrlencode } from '../wiki/files.js';
import { MessageLoader } from '../modules/message-loader.js';
import { DEFAULT_RENDER_OPTIONS, renderRevision, type RenderedPage } from '../modules/page-renderer.js';
import { escapeHtml, escapeId } from '../wikitext/sanitizer.js';
import { compareBytes } from '../wiki/collation.js';
import { articleUrl } from '../wikitext/render/urls.js';
import { categoryMembers, fileView } from './article-extras.js';
import { resolveSpecialAlias } from '../wiki/special-pages.js';
import { BaseUrls } from './base-url.js';
import { answerSpecialExport } from './special-export.js';

const BASE_URLS = new BaseUrls();

const STYLE = `body{font-family:sans-serif;max-width:60em;margin:1em auto;padding:0 1em;line-height:1.5;color:#202122}
a{color:#0645ad}a.new{color:#ba0000}.mw-editsection{font-size:small;margin-left:1em}
.mw-indicators{float:right}.mw-indicator{display:inline-block;margin-left:.5em}
.toc{border:1px solid #a2a9b1;background:#f8f9fa;padding:.5em;display:inline-block}.toc ul{list-style:none;margin:.3em 0 0 1em;padding:0}
.thumb.tright,.floatright{float:right;clear:right;margin:.5em 0 1em 1em}.thumb.tleft,.floatleft{float:left;clear:left;margin:.5em 1em 1em 0}
.thumbinner{border:1px solid #c8ccd1;padding:3px;background:#f8f9fa;font-size:94%;text-align:center}.thumbcaption{text-align:left;padding:3px}
.center{text-align:center}.center .thumb{margin:0 auto}table{border-collapse:collapse}
.catlinks{border:1px solid #a2a9b1;background:#f8f9fa;padding:5px;margin-top:1em;clear:both}.catlinks ul{display:inline;margin:0;padding:0}
.catlinks li{display:inline-block;padding:0 .5em;border-left:1px solid #aaa}.catlinks li:first-child{border-left:0}
.gallery{list-style:none;padding:0}.gallerybox{display:inline-block;vertical-align:top;margin:2px}
footer{margin-top:2em;font-size:small;color:#54595d}header a{color:#202122;text-decoration:none;font-size:large}
header img{vertical-align:middle;margin-right:.5em}`;

/** $wgLogo's default path (siteinfo's `logo`), served with the page view: the image is a data file */
const LOGO_PATH = '/resources/assets/wiki.png';
const LOGO_FILE = new URL('../../../src/http/assets/wiki.png', import.meta.url);

function page(wiki: Wiki, title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="${wiki.lang}" dir="ltr">
<head>
<meta charset="UTF-8">
<title>${escapeHtml(title)} — ${escapeHtml(wiki.info.sitename)}</title>
<style>${STYLE}</style>
</head>
<body>
<header><a href="${articleUrl('')}"><img src="${LOGO_PATH}" alt="" width="48" height="48">${escapeHtml(wiki.info.sitename)}</a></header>
${body}
</body>
</html>
`;
}

function categoryLinks(wiki: Wiki, out: RenderedPage): string {
  if (out.categories.length === 0) return '';
  const items = out.categories.map((category) => {
    const tooltip = escapeHtml(wiki.titleText(14, category.name));
    const shown = escapeHtml(category.name.replace(/_/g, ' '));
    return category.missing
      ? `<li><a href="/index.php?title=${wfUrlencode(wiki.codec.prefixedDbKey(14, category.name))}&amp;action=edit&amp;redlink=1" class="new" title="${tooltip} (такої сторінки не існує)">${shown}</a></li>`
      : `<li><a href="${articleUrl(wiki.codec.prefixedDbKey(14, category.name))}" title="${tooltip}">${shown}</a></li>`;
  });
  return `<div id="catlinks" class="catlinks">${out.categories.length === 1 ? 'Категорія' : 'Категорії'}: <ul>${items.join('')}</ul></div>`;
}

/**
 * The page status indicators as 1.25's skins show them (SkinTemplate: div.mw-indicators before the
 * heading), ordered by name as OutputPage::setIndicators keeps them.
 */
function indicators(out: RenderedPage): string {
  if (out.indicators.length === 0) return '';
  const sorted = [...out.indicators].sort(([a], [b]) => compareBytes(a, b));
  return `<div class="mw-indicators">\n${sorted.map(([name, html]) => `<div id="${escapeId(`mw-indicator-${name}`)}" class="mw-indicator">${html}</div>\n`).join('')}</div>\n`;
}

/** An edit-section link as the renderer writes it (Linker::makeEditSectionLink: nothing else nests in it). */
const EDIT_SECTION =
  /<span class="mw-editsection"><span class="mw-editsection-bracket">\[<\/span>.*?<span class="mw-editsection-bracket">\]<\/span><\/span>/g;

/** `withWiki` runs a handler on the database being served (and its Wiki), which a re-import may replace */
export function registerArticleRoutes(
  app: FastifyInstance,
  withWiki: <T>(use: (store: Store, wiki: Wiki) => Promise<T>) => Promise<T>,
): void {
  const handler = (request: FastifyRequest, reply: FastifyReply) => withWiki((store, wiki) => answer(request, reply, store, wiki));
  app.get('/index.php', handler);
  app.get('/index.php/*', handler);
  // the short article path most wikis use ($wgArticlePath = /wiki/$1): the same page
  app.get('/wiki/*', handler);
  app.get('/wiki', handler);
  // once per process
  const logo = readFileSync(LOGO_FILE);
  app.get(LOGO_PATH, (_request, reply) =>
    reply.type('image/png').header('Cache-Control', 'max-age=86400').header('X-Content-Type-Options', 'nosniff').send(logo),
  );
}

async function answer(request: FastifyRequest, reply: FastifyReply, store: Store, wiki: Wiki) {
  {
    const url = request.raw.url ?? '/';
    const queryStart = url.indexOf('?');
    const query = new URLSearchParams(queryStart < 0 ? '' : url.slice(queryStart + 1));
    const path = queryStart < 0 ? url : url.slice(0, queryStart);
    let titleText = query.get('title');
    const prefix = path.startsWith('/index.php/') ? '/index.php/' : path.startsWith('/wiki/') ? '/wiki/' : null;
    if (prefix !== null) {
      try {
        titleText = decodeURIComponent(path.slice(prefix.length));
      } catch {
        titleText = null;
      }
    }
    if (titleText === null || titleText === '') titleText = (await mainPageTitle(store, wiki)) ?? 'Головна сторінка';
    const action = query.get('action') ?? 'view';
    const parsed = wiki.codec.parse(titleText, 0);
    reply.header('X-Content-Type-Options', 'nosniff');
    const special = parsed && parsed.ns === -1 ? resolveSpecialAlias(parsed.dbkey) : null;
    if (special && special.page.realname === 'Export') {
      // WebRequest::getText('pages', $par): line ends as \n
      const pagesText = (query.get('pages') ?? special.subpage?.replace(/_/g, ' ') ?? '').replace(/\r\n/g, '\n');
      return answerSpecialExport(reply, store, wiki, BASE_URLS.ofRequest(request), pagesText, (title, body) => page(wiki, title, body));
    }
    if (!parsed || parsed.ns < 0) {
      return reply
        .code(400)
        .type('text/html; charset=utf-8')
        .send(
          page(
            wiki,
            'Неправильна назва',
            `<h1>Неправильна назва</h1>\n<p>Запитана назва сторінки неправильна: «${escapeHtml(titleText)}».</p>`,
          ),
        );
    }
    let [row] = await store.pages.byTitles([{ ns: parsed.ns, dbkey: parsed.dbkey }]);
    const shown = wiki.titleText(parsed.ns, parsed.dbkey);
    if (action === 'raw') {
      if (!row) return reply.code(404).type('text/x-wiki; charset=UTF-8').send('');
      const text = (await store.pages.latestTexts([row.pageid])).get(row.pageid) ?? '';
      return reply.code(200).type('text/x-wiki; charset=UTF-8').header('Content-Disposition', 'inline').send(text);
    }
    if (!row) {
      return reply
        .code(404)
        .type('text/html; charset=utf-8')
        .send(
          page(
            wiki,
            shown,
            `<h1 id="firstHeading">${escapeHtml(shown)}</h1>\n<p>Такої сторінки не існує. Повернутися на <a href="${articleUrl('')}">головну сторінку</a>.</p>`,
          ),
        );
    }
    let redirectedFrom = '';
    if (row.isRedirect && query.get('redirect') !== 'no') {
      const target = (await store.pages.redirectTargets([row.pageid])).get(row.pageid);
      const [to] = target ? await store.pages.byTitles([{ ns: target.ns, dbkey: target.dbkey }]) : [];
      if (to) {
        const from = wiki.codec.prefixedDbKey(row.ns, row.title);
        redirectedFrom = `<p class="mw-redirectedfrom">(Перенаправлено з <a href="/index.php?title=${wfUrlencode(from)}&amp;redirect=no" class="mw-redirect" title="${escapeHtml(wiki.titleText(row.ns, row.title))}">${escapeHtml(wiki.titleText(row.ns, row.title))}</a>)</p>\n`;
        row = to;
      }
    }
    const shownRow = row;
    const out = await renderRevision(store, wiki, {
      pageid: row.pageid,
      revid: row.latestRevId,
      title: { ns: row.ns, dbkey: row.title },
      ...DEFAULT_RENDER_OPTIONS,
      text: async () => (await store.pages.latestTexts([shownRow.pageid])).get(shownRow.pageid) ?? '',
    });
    const title = wiki.titleText(row.ns, row.title);
    // a read-only server offers no editing: the sections' edit links go (the parser cache keeps them for action=parse)
    const html = out.html.replace(EDIT_SECTION, '');
    const before = row.ns === 6 ? await fileView(store, row.title) : '';
    const after = row.ns === 14 ? await categoryMembers(store, wiki, row.title, query) : '';
    const api = `/api.php?action=parse&amp;page=${wfUrlencode(wiki.codec.prefixedDbKey(row.ns, row.title))}&amp;format=json`;
    // OutputPage::setPageTitle: the heading shows the {{DISPLAYTITLE:}} HTML (sanitised when parsed)
    const body = `${indicators(out)}<h1 id="firstHeading">${out.displayTitle ?? escapeHtml(title)}</h1>
<div id="bodyContent">
${redirectedFrom}${before}<div id="mw-content-text" lang="${wiki.lang}" dir="ltr">${html}</div>
${after}${categoryLinks(wiki, out)}
</div>
<footer>${escapeHtml(wiki.info.sitename)} · <a href="${api}">дані сторінки через API</a> · <a href="/index.php?title=${wfUrlencode(wiki.codec.prefixedDbKey(row.ns, row.title))}&amp;action=raw">вікітекст</a></footer>`;
    return reply
      .code(200)
      .type('text/html; charset=utf-8')
      .send(page(wiki, title, body));
  }
}

async function mainPageTitle(store: Store, wiki: Wiki): Promise<string | null> {
  const message = await new MessageLoader(store, wiki).get('mainpage', wiki.lang);
  return message === false ? null : message;
}
