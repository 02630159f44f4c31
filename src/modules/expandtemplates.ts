/**
 * action=expandtemplates (ApiExpandTemplates of 1.25): the wikitext with templates, parameters, parser
 * functions and variables expanded by the wikitext engine, templates read from the wiki in the
 * expansion rounds every expansion over the store uses (src/wikitext/expansion-rounds.ts).
 */
import { roundFetcher } from './transclusion.js';
import type { ActionModule, ModuleContext } from '../api/types.js';
import { withContent, type Obj } from '../api/result.js';
import { texts } from '../api/errors.js';
import { MessageLoader } from './message-loader.js';
import type { ExpandResult } from '../wikitext/preprocessor/context.js';
import { preprocessToXml } from '../wikitext/preprocessor/xml.js';
import { expandInRounds, PageSnapshot } from '../wikitext/expansion-rounds.js';
import { MAGIC_WORDS } from '../wiki/site-facts.js';
import { MEDIAWIKI_VERSION } from '../wiki/wiki.js';
import { formatNum } from '../wiki/language.js';
import { serverOf } from '../wiki/files.js';
import { userLanguage } from '../wiki/messages.js';

const PROPS = ['wikitext', 'categories', 'properties', 'volatile', 'ttl', 'parsetree'];
/** The tracking category each expansion limit puts the page in (Parser::addTrackingCategory) */
const LIMIT_CATEGORIES: Record<string, string> = {
  depth: 'expansion-depth-exceeded-category',
  size: 'post-expand-template-inclusion-category',
  nodes: 'node-count-exceeded-category',
};

export const expandtemplatesModule: ActionModule = {
  kind: 'action',
  name: 'expandtemplates',
  prefix: '',
  description: 'Expands all templates within wikitext.',
  params: {
    title: { type: 'string', default: 'API', help: 'Title of page.' },
    text: { type: 'text', required: true, help: 'Wikitext to convert.' },
    revid: { type: 'integer', help: 'Revision ID, for {{REVISIONID}} and similar variables.' },
    prop: {
      type: PROPS,
      multi: true,
      help: 'Which pieces of information to get. Without it the result is the deprecated format: the expanded text as content.',
    },
    includecomments: { type: 'boolean', default: false, help: 'Whether to include HTML comments in the output.' },
    generatexml: { type: 'boolean', default: false, deprecated: true, help: 'Generate XML parse tree (replaced by prop=parsetree).' },
  },
  examples: ['action=expandtemplates&text={{Project:Sandbox}}'],
  async run(ctx) {
    const p = ctx.params;
    if (p.generatexml) ctx.warn('The generatexml parameter has been deprecated.');
    if (p.prop !== undefined && p.generatexml) ctx.die('invalidparammix', 'The parameters prop, generatexml can not be used together');
    if (p.prop === undefined) {
      ctx.warn(
        'Because no values have been specified for the prop parameter, a legacy format has been used for the output. This format is deprecated, and in the future, a default value will be set for the prop parameter, causing the new format to always be used.',
      );
    }
    const title = ctx.wiki.codec.parse(p.title as string);
    if (title === null) return ctx.die('invalidtitle', texts.invalidTitle(p.title as string));
    const props = new Set((p.prop as string[] | undefined) ?? []);
    const retval: Obj = {};
    // ApiExpandTemplates 1.25: the tree of the text (not for inclusion) first; generatexml puts it beside the module
    if (props.has('parsetree') || p.generatexml) {
      const xml = preprocessToXml(p.text as string);
      if (props.delete('parsetree')) retval.parsetree = xml;
      else ctx.result.set('parsetree', ctx.formatVersion === 2 ? xml : { '*': xml });
    }
    if (p.prop === undefined || props.size > 0) {
      // {{CURRENTTIME}} and friends: the answer holds for this second only
      ctx.markVolatile('clock');
      const r = await expand(ctx, p.text as string, title, !!p.includecomments, p.revid as number | undefined);
      if (p.prop === undefined) withContent(retval, 'wikitext', r.text);
      else {
        if (props.has('categories') && r.limitHit !== undefined && LIMIT_CATEGORIES[r.limitHit]) {
          const name = await new MessageLoader(ctx.store, ctx.wiki).get(LIMIT_CATEGORIES[r.limitHit], ctx.wiki.lang);
          if (name !== false && name !== '')
            retval.categories = [withContent({ sortkey: r.defaultSort ?? '' }, 'category', name.replace(/ /g, '_'))];
        }
        // ApiExpandTemplates.php:128-135 of 1.25: the parser output's properties; {{DEFAULTSORT:}} sets
        // 'defaultsort' (Parser::setDefaultSort, Parser.php:6075-6078), listed as action=parse lists them
        if (props.has('properties') && r.defaultSort !== undefined)
          retval.properties = [withContent({ name: 'defaultsort' }, 'value', r.defaultSort)];
        if (props.has('wikitext')) retval.wikitext = r.text;
      }
    }
    ctx.result.set('expandtemplates', retval);
  },
};

/** Parser::preprocess of 1.25 over the store: what expandtemplates and prop=revisions' rvexpandtemplates give. */
export async function expand(
  ctx: ModuleContext,
  text: string,
  title: { ns: number; dbkey: string },
  keepComments: boolean,
  revid: number | undefined,
): Promise<ExpandResult> {
  const variable = await variables(ctx, text, revid);
  // ApiExpandTemplates parses with ParserOptions::newFromContext: {{int:}} reads the uselang language
  const userLang = userLanguage(ctx.request.raw.uselang, ctx.wiki.lang);
  const options = {
    codec: ctx.wiki.codec,
    title,
    siteName: ctx.wiki.info.sitename,
    now: new Date(),
    keepComments,
    variable,
    checkDisplayTitle: false,
    contentLang: ctx.wiki.lang,
    userLang,
  };
  return (await expandInRounds(text, new PageSnapshot(), options, roundFetcher(ctx.store))).result;
}

/** Magic word id → its aliases as written, and whether they match in any case */
const WORDS = new Map(MAGIC_WORDS.map((m) => [m.name, m]));

/**
 * The variables of Parser::getVariableValue that need the site, the request or the statistics, for the
 * preprocessor's variable hook: {{SERVER}}, {{SCRIPTPATH}}, {{CURRENTVERSION}}, {{REVISIONID}} (revid, or
 * empty), {{NUMBEROF…}} (Language::formatNum of SiteStats). The statistics are read only when the text
 * names one of them.
 */
async function variables(ctx: ModuleContext, text: string, revid: number | undefined): Promise<(word: string) => string | undefined> {
  const server = serverOf(ctx.request.apiUrl);
  const values = new Map<string, string>([
    ['server', server],
    ['servername', new URL(server).hostname],
    ['scriptpath', ''],
    ['stylepath', '/skins'],
    ['currentversion', MEDIAWIKI_VERSION],
    ['revisionid', revid === undefined ? '' : String(revid)],
  ]);
  const statWords: Array<[string, keyof Awaited<ReturnType<typeof ctx.store.site.statistics>>]> = [
    ['numberofpages', 'pages'],
    ['numberofarticles', 'articles'],
    ['numberoffiles', 'images'],
    ['numberofusers', 'users'],
    ['numberofactiveusers', 'activeusers'],
    ['numberofedits', 'edits'],
    ['numberofadmins', 'admins'],
  ];
  const upper = text.toUpperCase();
  if (statWords.some(([id]) => WORDS.get(id)!.aliases.some((a) => upper.includes(a.toUpperCase())))) {
    const stats = await ctx.store.site.statistics();
    for (const [id, key] of statWords) values.set(id, formatNum(stats[key]));
  }
  const exact = new Map<string, string>();
  const anyCase = new Map<string, string>();
  for (const [id, value] of values) {
    const w = WORDS.get(id);
    if (!w) continue;
    for (const alias of w.aliases) (w['case-sensitive'] ? exact : anyCase).set(w['case-sensitive'] ? alias : alias.toLowerCase(), value);
  }
  return (word) => exact.get(word) ?? anyCase.get(word.toLowerCase());
}
