/**
 * action=parse (ApiParse of MediaWiki 1.25): a page (page=, pageid=, oldid=) or given text (title= +
 * text=) rendered to HTML, with what the parser found: links, templates, images, external links,
 * sections, categories, language and interwiki links, page properties, the limit report. Output keys in
 * ApiParse's order; fv1 wraps text/wikitext/categorieshtml in {"*": …}, fv2 gives plain strings.
 */
import type { ActionModule, ModuleContext } from '../api/types.js';
import { withContent } from '../api/result.js';
import { escapeHtml } from '../wikitext/sanitizer.js';
import { escapeElementText } from '../wiki/html.js';
import { preprocessToXml } from '../wikitext/preprocessor/xml.js';
import { getSection } from '../wikitext/sections.js';
import { languageName } from '../wiki/interwiki.js';
import { userLanguage } from '../wiki/messages.js';
import { articleUrl } from '../wikitext/render/urls.js';
import { limitReportComment, limitReportHtml } from '../wikitext/render/limit-report.js';
import { messageText } from '../wikitext/message-transform.js';
import { MessageLoader } from './message-loader.js';
import { MEDIAWIKI_VERSION } from '../wiki/wiki.js';
import { MAX_TEXT_BYTES, preSaveTransform, renderPage, renderRevision, type RenderedPage } from './page-renderer.js';

const PROPS = [
  'text',
  'langlinks',
  'categories',
  'categorieshtml',
  'links',
  'templates',
  'images',
  'externallinks',
  'sections',
  'revid',
  'displaytitle',
  'headitems',
  'headhtml',
  'modules',
  'jsconfigvars',
  'encodedjsconfigvars',
  'indicators',
  'iwlinks',
  'wikitext',
  'properties',
  'limitreportdata',
  'limitreporthtml',
  'parsetree',
];
const DEFAULT_PROP = 'text|langlinks|categories|links|templates|images|externallinks|sections|revid|displaytitle|iwlinks|properties';

function formatTitles(ctx: ModuleContext, list: Array<{ ns: number; dbkey: string; exists: boolean }>): unknown[] {
  // ApiParse::formatLinks: ns, the title (content: last in fv1), exists
  return list.map((t) => Object.assign(withContent({ ns: t.ns }, 'title', ctx.wiki.titleText(t.ns, t.dbkey)), { exists: t.exists }));
}

export const parseModule: ActionModule = {
  kind: 'action',
  name: 'parse',
  prefix: '',
  description: 'Parses content and returns parser output.',
  params: {
    title: {
      type: 'string',
      default: 'API',
      help: 'Title of page the text belongs to. If omitted, contentmodel must be specified, and "API" will be used as the title.',
    },
    text: { type: 'string', help: 'Text to parse. Use title or contentmodel to control the content model.' },
    summary: { type: 'string', help: 'Summary to parse.' },
    page: { type: 'string', help: 'Parse the content of this page. Cannot be used together with text and title.' },
    pageid: { type: 'integer', help: 'Parse the content of this page. Overrides page.' },
    oldid: { type: 'integer', help: 'Parse the content of this revision. Overrides page and pageid.' },
    redirects: { type: 'boolean', help: 'If page or pageid is set to a redirect, resolve it.' },
    prop: { type: PROPS, multi: true, default: DEFAULT_PROP, help: 'Which pieces of information to get.' },
    pst: { type: 'boolean', help: 'Do a pre-save transform on the input before parsing it. Only valid when used with text.' },
    onlypst: {
      type: 'boolean',
      help: "Do a pre-save transform (PST) on the input, but don't parse it. Returns the same wikitext, after a PST has been applied. Only valid when used with text.",
    },
    effectivelanglinks: { type: 'boolean', help: 'Includes language links supplied by extensions (for use with prop=langlinks).' },
    section: { type: 'string', help: 'Only retrieve the content of this section number.' },
    sectiontitle: { type: 'string', help: 'New section title when section is "new".' },
    disablepp: { type: 'boolean', help: 'Disable the PP Report from the parser output.' },
    disablelimitreport: { type: 'boolean', help: 'Omit the limit report ("NewPP limit report") from the parser output.' },
    disableeditsection: { type: 'boolean', help: 'Disable edit section links from the parser output.' },
    generatexml: {
      type: 'boolean',
      deprecated: true,
      help: 'Generate XML parse tree (requires content model wikitext; replaced by prop=parsetree).',
    },
    preview: { type: 'boolean', help: 'Parse in preview mode.' },
    sectionpreview: { type: 'boolean', help: 'Parse in section preview mode (enables preview mode too).' },
    disabletoc: { type: 'boolean', help: 'Disable table of contents in output.' },
    contentformat: { type: ['text/x-wiki'], help: 'Content serialization format used for the input text. Only valid when used with text.' },
    contentmodel: {
      type: ['wikitext'],
      help: 'Content model of the input text. If omitted, title must be specified, and default will be the model of the specified title. Only valid when used with text.',
    },
  },
  examples: [
    'action=parse&page=Project:Sandbox',
    'action=parse&text={{Project:Sandbox}}&contentmodel=wikitext',
    'action=parse&text={{PAGENAME}}&title=Test',
    'action=parse&summary=Some+[[link]]&prop=',
  ],
  async run(ctx) {
    const p = ctx.params;
    const raw = ctx.request.raw;
    const fv2 = ctx.formatVersion === 2;
    const props = new Set(p.prop as string[]);
    // ApiBase 1.25: a deprecated parameter that is used is warned about while the parameters are read
    if (p.generatexml) ctx.warn('The generatexml parameter has been deprecated.');
    const text = p.text as string | undefined;
    const titleGiven = raw.title !== undefined;
    if ((p.page !== undefined || p.pageid !== undefined || p.oldid !== undefined) && (text !== undefined || titleGiven)) {
      ctx.die('params', 'The page parameter cannot be used together with the text and title parameters');
    }
    if (p.page !== undefined && p.pageid !== undefined)
      return ctx.die('invalidparammix', 'The page and pageid parameters can not be used together');
    const content = (v: string) => (fv2 ? v : withContent({}, 'text', v));
    const bc = (v: string) => (fv2 ? v : { '*': v });

    let title: { ns: number; dbkey: string };
    let source: string;
    let pageid = 0;
    let revid: number | undefined;
    let redirects: Array<{ from: string; to: string }> | undefined;
    if (p.oldid !== undefined) {
      // ApiParse: oldid overrides page and pageid; a revision is rendered as its page
      const [rev] = await ctx.store.history.revisionsByIds([p.oldid as number]);
      if (!rev) return ctx.die('missingrev', `There is no revision ID ${p.oldid}`);
      if (rev.textHidden) return ctx.die('permissiondenied', "You don't have permission to view deleted revisions");
      const [[row], texts] = await Promise.all([ctx.store.pages.byIds([rev.pageid]), ctx.store.history.texts([rev.revid])]);
      if (!row) return ctx.die('missingrev', `There is no revision ID ${p.oldid}`);
      title = { ns: row.ns, dbkey: row.title };
      pageid = row.pageid;
      revid = rev.revid;
      source = texts.get(rev.revid) ?? '';
    } else if (p.page !== undefined || p.pageid !== undefined) {
      let row;
      if (p.pageid !== undefined) {
        [row] = await ctx.store.pages.byIds([p.pageid as number]);
        if (!row) return ctx.die('nosuchpageid', `There is no page with ID ${p.pageid}`);
      } else {
        const t = ctx.wiki.codec.parse(p.page as string, 0);
        if (!t || t.ns < 0) return ctx.die('invalidtitle', `Bad title "${p.page}"`);
        [row] = await ctx.store.pages.byTitles([{ ns: t.ns, dbkey: t.dbkey }]);
        if (!row) return ctx.die('missingtitle', "The page you specified doesn't exist");
      }
      if (p.redirects && row.isRedirect) {
        const targets = await ctx.store.pages.redirectTargets([row.pageid]);
        const target = targets.get(row.pageid);
        if (target) {
          const [to] = await ctx.store.pages.byTitles([{ ns: target.ns, dbkey: target.dbkey }]);
          redirects = [{ from: ctx.wiki.titleText(row.ns, row.title), to: ctx.wiki.titleText(target.ns, target.dbkey) }];
          if (to) row = to;
          else ctx.die('missingtitle', "The page you specified doesn't exist");
        }
      }
      title = { ns: row.ns, dbkey: row.title };
      pageid = row.pageid;
      revid = row.latestRevId;
      source = (await ctx.store.pages.latestTexts([row.pageid])).get(row.pageid) ?? '';
    } else {
      const t = ctx.wiki.codec.parse(p.title as string, 0);
      if (!t || t.ns < 0) return ctx.die('invalidtitle', `Bad title "${p.title}"`);
      title = { ns: t.ns, dbkey: t.dbkey };
      if (text === undefined) {
        if (titleGiven)
          return ctx.die(
            'params',
            'The text parameter should be passed with the title parameter. Should you be using the "page" parameter instead?',
          );
        source = '';
      } else source = text;
      const [row] = await ctx.store.pages.byTitles([title]);
      pageid = row?.pageid ?? 0;
    }
    if (p.section !== undefined) {
      const s = p.section as string;
      if (s === 'new') {
        if (text === undefined) return ctx.die('invalidsection', "The section parameter must be set to an integer or 'new'");
      } else if (!/^(T-)?\d+$/.test(s)) return ctx.die('invalidsection', "The section parameter must be a valid section id or 'new'");
      else {
        const sec = getSection(source, s);
        if (sec === null)
          return ctx.die(
            'nosuchsection',
            revid !== undefined
              ? `There is no section ${s} in r${revid}`
              : `There is no section ${s} in ${ctx.wiki.titleText(title.ns, title.dbkey)}`,
          );
        source = sec;
      }
    }
    // ApiParse: the section is cut out first, the pre-save transform applies to what is left
    let pstText: string | undefined;
    if (text !== undefined && (p.pst || p.onlypst)) {
      pstText = await preSaveTransform(ctx.store, ctx.wiki, title, source, ctx.request.ip, userLanguage(raw.uselang, ctx.wiki.lang));
      if (p.onlypst) {
        const r: Record<string, unknown> = { text: bc(pstText) };
        if (props.has('wikitext')) r.wikitext = bc(source);
        ctx.result.set('parse', r);
        return;
      }
    }
    const original = source;
    if (pstText !== undefined) source = pstText;
    if (Buffer.byteLength(source, 'utf8') > MAX_TEXT_BYTES)
      return ctx.die('contenttoobig', `The content you supplied exceeds the article size limit of ${MAX_TEXT_BYTES / 1024} kilobytes`);

    const editSections = !p.disableeditsection && !p.preview && !p.sectionpreview;
    const userLang = userLanguage(raw.uselang, ctx.wiki.lang);
    const options = { title, text: source, editSections, toc: !p.disabletoc, userLang };
    // a whole revision (page, pageid, oldid) goes through the parser cache; given text and sections do not
    const out: RenderedPage =
      revid !== undefined && p.section === undefined
        ? await renderRevision(ctx.store, ctx.wiki, {
            pageid,
            revid,
            title,
            editSections,
            toc: !p.disabletoc,
            userLang,
            text: async () => source,
          })
        : await renderPage(ctx.store, ctx.wiki, options);

    // disablepp turns the limit report off (ParserOptions::setEnableLimitReport): no comment, no data
    const limitReport = !p.disablepp && !p.disablelimitreport;
    const r: Record<string, unknown> = { title: ctx.wiki.titleText(title.ns, title.dbkey), pageid };
    // the messages of the limit report table and the head, in the user language: fetched together
    const messages = new MessageLoader(ctx.store, ctx.wiki);
    const messageKeys = [
      ...(props.has('limitreporthtml') && limitReport ? limitReportKeys(out) : []),
      ...(props.has('headhtml') ? HEAD_KEYS : []),
    ];
    if (messageKeys.length > 0) await messages.prefetch(messageKeys, userLang);
    if (revid !== undefined && props.has('revid')) r.revid = revid;
    if (redirects) r.redirects = redirects;
    if (props.has('text')) {
      let html = out.html;
      if (limitReport) {
        // a page from the parser cache repeats its report: written once per render
        let comment = reportComments.get(out);
        if (comment === undefined)
          reportComments.set(out, (comment = limitReportComment(out.limitReport, out.timingProfile, ctx.wiki.codec)));
        html += comment;
      }
      r.text = content(html);
    }
    if (p.summary !== undefined) r.parsedsummary = bc(escapeHtml(p.summary as string));
    // ApiParse::formatLangLinks: lang, url, langname (a stock 1.25 gives the autonym: no cldr), autonym, title
    if (props.has('langlinks')) {
      r.langlinks = out.langlinks.map((l) => {
        const url = ctx.wiki.interwiki.url(l.lang, l.title);
        const e: Record<string, unknown> = { lang: l.lang };
        if (url !== undefined) Object.assign(e, { url, langname: languageName(l.lang), autonym: languageName(l.lang) });
        return withContent(e, 'title', l.title);
      });
    }
    if (props.has('categories'))
      r.categories = out.categories.map((c) =>
        Object.assign(
          withContent({ sortkey: c.sortkey }, 'category', c.name),
          c.missing ? { missing: true } : c.hidden ? { hidden: true } : {},
        ),
      );
    if (props.has('categorieshtml')) r.categorieshtml = bc(categoriesHtml(ctx, out));
    if (props.has('links')) r.links = formatTitles(ctx, out.links);
    if (props.has('templates')) r.templates = formatTitles(ctx, out.templates);
    if (props.has('images')) r.images = out.images;
    if (props.has('externallinks')) r.externallinks = out.externallinks;
    if (props.has('sections')) r.sections = out.sections;
    // ApiParse 1.25: the parser output's display title (HTML) when the page set one, else the prefixed title
    if (props.has('displaytitle')) r.displaytitle = out.displayTitle ?? ctx.wiki.titleText(title.ns, title.dbkey);
    // ApiParse 1.25 gives the head items with headhtml too
    if (props.has('headitems') || props.has('headhtml')) r.headitems = [];
    if (props.has('headhtml')) r.headhtml = bc(await headHtml(ctx, title, userLang, messages));
    if (props.has('modules')) {
      r.modules = out.modules;
      r.modulescripts = [];
      r.modulestyles = [];
      r.modulemessages = [];
    }
    if (props.has('jsconfigvars')) r.jsconfigvars = {};
    if (props.has('encodedjsconfigvars')) r.encodedjsconfigvars = '[]';
    // ApiParse: ParserOutput::getIndicators as a 'BCkvp' array keyed by name: {name: html} in fv2, a list
    // of {name, *} in fv1; in the order the page set them (only OutputPage sorts them, for the skin)
    if (props.has('indicators'))
      r.indicators = fv2 ? Object.fromEntries(out.indicators) : out.indicators.map(([name, html]) => ({ name, '*': html }));
    // ApiParse::formatIWLinks: prefix, url (the other wiki's), the prefixed title as content
    if (props.has('iwlinks'))
      r.iwlinks = out.iwlinks.map((l) =>
        withContent({ prefix: l.prefix, ...(l.url ? { url: l.url } : {}) }, 'title', `${l.prefix}:${l.title.replace(/_/g, ' ')}`),
      );
    if (props.has('wikitext')) {
      r.wikitext = bc(original);
      if (pstText !== undefined) r.psttext = bc(pstText);
    }
    if (props.has('properties')) r.properties = out.properties.map(([name, v]) => withContent({ name }, 'value', v));
    // ApiParse::formatLimitReportData: the name, then the value's elements as 0, 1, …
    if (props.has('limitreportdata'))
      r.limitreportdata = limitReport
        ? out.limitReport.map(
            ([name, v]) =>
              new Map<string, unknown>([['name', name], ...(Array.isArray(v) ? v : [v]).map((x, i): [string, unknown] => [String(i), x])]),
          )
        : [];
    if (props.has('limitreporthtml')) r.limitreporthtml = bc(limitReport ? await limitReportTable(ctx, out, userLang, messages) : '');
    // Parser::preprocessToDom of the text itself (the section, before any pre-save transform)
    if (props.has('parsetree') || p.generatexml) r.parsetree = bc(preprocessToXml(original));
    if (out.limitHit) ctx.warn(`The expansion of this page stopped at a limit (${out.limitHit}); the rest is shown as written.`);
    ctx.result.set('parse', r);
  },
};

/** the messages headHtml reads (prefetched) */
const HEAD_KEYS = ['pagetitle'];

const reportComments = new WeakMap<RenderedPage, string>();

/** the messages limitReportTable reads */
function limitReportKeys(out: RenderedPage): string[] {
  return ['limitreport-title', ...out.limitReport.flatMap(([k]) => [k, `${k}-value-html`, `${k}-value`])];
}

/** EditPage::getPreviewLimitReport with the wiki's messages in the user language (prefetched: limitReportKeys) */
async function limitReportTable(ctx: ModuleContext, out: RenderedPage, userLang: string, loader: MessageLoader): Promise<string> {
  const title = { ns: 0, dbkey: 'API' };
  return loader.render((m) =>
    limitReportHtml(out.limitReport, ctx.wiki.codec, (key, params) =>
      m.exists(key, userLang) ? messageText(m, key, params, userLang, title) : false,
    ),
  );
}

/** Skin::getCategoryLinks of 1.25, the normal categories only */
export function categoriesHtml(ctx: ModuleContext, out: RenderedPage): string {
  if (out.categories.length === 0) return '';
  const links = out.categories.map((c) => {
    const t = ctx.wiki.titleText(14, c.name);
    const shown = escapeHtml(c.name.replace(/_/g, ' '));
    return c.missing
      ? `<li><a href="/index.php?title=${encodeURIComponent(ctx.wiki.codec.prefixedDbKey(14, c.name))}&amp;action=edit&amp;redlink=1" class="new" title="${escapeHtml(t)} (такої сторінки не існує)">${shown}</a></li>`
      : `<li><a href="${articleUrl(ctx.wiki.codec.prefixedDbKey(14, c.name))}" title="${escapeHtml(t)}">${shown}</a></li>`;
  });
  const label = out.categories.length === 1 ? 'Категорія' : 'Категорії';
  return `<div id="catlinks" class="catlinks"><div id="mw-normal-catlinks" class="mw-normal-catlinks"><a href="${articleUrl('Спеціальна:Категорії')}" title="Спеціальна:Категорії">${label}</a>: <ul>${links.join('')}</ul></div></div>`;
}

/**
 * OutputPage::headElement of 1.25, which ApiParse returns for prop=headhtml: the doctype, <html> with the
 * user language (Skin::getHtmlElementAttributes), <head> and the opening <body> with the skin's classes
 * (Skin::getPageClasses). What differs, and why: wikiquery has no ResourceLoader (load.php), so the head
 * has none of its output (the startup script, module CSS links, mw.config variables, mw.loader calls) and
 * no links to endpoints it does not serve (favicon, OpenSearch description, RSD, feeds). The body's action
 * class is that of an index.php request with action=parse, which is no page action ('nosuchaction'); the
 * skin is Vector, 1.25's default.
 *
 * The <title>: ApiParse 1.25 sets the context title and calls addParserOutputMetadata, which sets no page
 * title (categories, indicators, modules, head items only); nothing in the API calls setPageTitle. So
 * headElement finds getHTMLTitle() == '' and sets it to msg('pagetitle', getPageTitle()) with the page
 * title still '' ; setHTMLTitle then runs Message::setContext (the request's language, i.e. uselang, and
 * title) and ->text(). The result is the `pagetitle` message of the user language with $1 empty:
 * " — Site" from uk.json's "$1 — {{SITENAME}}", escaped by Html::element (& and < only).
 */
async function headHtml(
  ctx: ModuleContext,
  title: { ns: number; dbkey: string },
  userLang: string,
  loader: MessageLoader,
): Promise<string> {
  const prefixed = ctx.wiki.titleText(title.ns, title.dbkey);
  const htmlTitle = await loader.render((m) => messageText(m, 'pagetitle', [''], userLang, title));
  const kind = title.ns === -1 ? 'ns-special' : title.ns % 2 === 1 ? 'ns-talk' : 'ns-subject';
  const bodyClass = [
    'mediawiki',
    'ltr',
    'sitedir-ltr',
    `ns-${title.ns}`,
    kind,
    escapeClass(`page-${prefixed}`),
    'skin-vector',
    'action-nosuchaction',
  ].join(' ');
  return (
    `<!DOCTYPE html>\n<html lang="${escapeHtml(userLang)}" dir="ltr" class="client-nojs">\n<head>\n<meta charset="UTF-8" />\n` +
    `<title>${escapeElementText(htmlTitle)}</title>\n<meta name="generator" content="MediaWiki ${MEDIAWIKI_VERSION}" />\n</head>\n<body class="${escapeHtml(bodyClass)}">\n`
  );
}

/** Sanitizer::escapeClass: what cannot be in a class name becomes "_" */
function escapeClass(s: string): string {
  return s
    .replace(/^[0-9-]|[\x00-\x20!"#$%&'()*+,./:;<=>?@[\]^`{|}~\u00a0]/g, '_')
    .replace(/_+/g, '_')
    .replace(/_+$/, '');
}
