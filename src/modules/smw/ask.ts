/**
 * action=ask (Semantic MediaWiki 2.2, SMW\MediaWiki\Api\Ask): a query in SMW's ask language,
 * `query=[[conditions]]|?printout|sort=…|order=…|limit=…|offset=…|mainlabel=…`, split at single '|'.
 *
 * The shared part (SMW\MediaWiki\Api\Query + ApiQueryResultFormatter + QueryResultSerializer) is here
 * too; askargs.ts builds the same query from separate parameters.
 *
 * Output: {"query-continue-offset":N (when more results follow: count + offset),
 *          "query":{"printrequests":[{label,typeid,mode,format}],"results":{<full text>:{printouts,fulltext,
 *          fullurl,namespace,exists}},"serializer":"SMW\\Serializers\\QueryResultSerializer","version":0.5,
 *          "meta":{hash,count,offset}}}
 * `results` is keyed by the subject's full text (a subobject: "Page# name", as Title::getFullText writes
 * the fragment); `meta.hash` is the md5 of FormatJson::encode of the serialized result.
 * Any query error (parser, size/depth limits, sort property): {"error":{"query":[texts]}} (HTTP 200, as
 * SMW adds it as a plain result member), the texts in the content language.
 *
 * Booleans (`exists`, a print request's `format` false) go through the API's formatversion=1 rules as
 * every 1.25 result does: true is "" and false is left out.
 */
import type { ActionModule, ModuleContext } from '../../api/types.js';
import { pageUrl, serverOf } from '../../wiki/files.js';
import { NS_CATEGORY } from '../../wiki/namespaces.js';
import { DI } from '../../semantic/types.js';
import { phpJsonEncode, PhpMap, type PhpValue } from '../../php/json.js';
import { md5 } from '../../php/strings.js';
import {
  PRINT_CCAT,
  PRINT_PROP,
  PRINT_THIS,
  addThisPrintout,
  printRequestFromString,
  type PrintRequest,
} from '../../semantic/query/print-requests.js';
import { componentsFromParams, queryOptions, splitAskQuery } from '../../semantic/query/parameters.js';
import { parseConditions } from '../../semantic/query/parser.js';
import { typeOfKey, userProperty } from '../../semantic/query/properties.js';
import { expandConcepts } from '../../semantic/engine/concept-expansion.js';
import { answerConditions, printoutSpecs, queryLanguage } from '../../semantic/engine/query-engine.js';
import type { AskPrintValue, AskSubject } from '../../store/semantic-store.js';

export const QUERY_SERIALIZER = 'SMW\\Serializers\\QueryResultSerializer';

/** What both modules hand to the query: the condition string, the raw parameters, the printouts. */
export interface AskInput {
  queryString: string;
  parameters: Map<string, string>;
  /** printout strings of `?P` (ask) or property names (askargs) */
  printouts: string[];
  /** askargs' printouts are property names, not `?` strings */
  plainPrintouts: boolean;
}

/** Sanitizer::escapeId($id, 'noninitial') of 1.25 (HTML4 style): the fragment of a full URL. */
function escapeId(id: string): string {
  return encodeURIComponent(id.replace(/ /g, '_'))
    .replace(/[!'()*~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase())
    .replace(/%20/g, '+')
    .replace(/%3A/g, ':')
    .replace(/%/g, '.');
}

/** SMWDITime::getMwTimestamp(TS_UNIX): the Unix time of the item's fields, as a string; false when MediaWiki cannot read it. */
function unixTime(item: string): string | false {
  const [, y, mo = '1', d = '1', h = '0', mi = '0', s = '0'] = item.split('/');
  const pad = (v: string, n: number) => v.padStart(n, '0');
  const ts = pad(y.replace(/^\+/, ''), 4) + pad(mo, 2) + pad(d, 2) + pad(h, 2) + pad(mi, 2) + pad(s, 2);
  const m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(ts);
  if (!m) return false;
  const date = new Date(0);
  date.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  date.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  return String(Math.floor(date.getTime() / 1000));
}

interface PageSerialization {
  fulltext: string;
  fullurl: string;
  namespace: number;
  exists: boolean;
}

function pageSerialization(
  ctx: ModuleContext,
  server: string,
  ns: number,
  dbkey: string,
  subobject: string,
  exists: boolean,
): PageSerialization {
  // Title::makeTitleSafe($ns, $dbkey, $subobject): the fragment gets spaces for underscores
  const fragment = subobject.replace(/_/g, ' ');
  const text = ctx.wiki.codec.prefixedText(ns, dbkey);
  return {
    fulltext: fragment === '' ? text : `${text}#${fragment}`,
    fullurl: pageUrl(server, ctx.wiki.codec.prefixedDbKey(ns, dbkey)) + (fragment === '' ? '' : '#' + escapeId(fragment)),
    namespace: ns,
    exists,
  };
}

/** QueryResultSerializer::getSerialization of one value. */
function serializeValue(ctx: ModuleContext, server: string, v: AskPrintValue, typeid: string): unknown {
  switch (v.di) {
    case DI.WIKIPAGE:
      return pageSerialization(ctx, server, v.ns!, v.dbkey!, v.subobject ?? '', v.exists ?? false);
    case DI.NUMBER: {
      const n = Number(v.item);
      // a quantity without declared units has no unit to show
      return typeid === '_qty'
        ? new Map<string, unknown>([
            ['value', n],
            ['unit', ''],
          ])
        : n;
    }
    case DI.GEO: {
      const [lat, lon] = v.item.split(',').map(Number);
      return new Map<string, unknown>([
        ['lat', lat],
        ['lon', lon],
      ]);
    }
    case DI.TIME:
      return unixTime(v.item);
    default:
      return v.item;
  }
}

/** The serialized value as PHP held it, for the hash. */
function toPhp(v: unknown): PhpValue {
  if (v instanceof Map) return new PhpMap([...v.entries()].map(([k, x]) => [k, toPhp(x)]));
  if (Array.isArray(v)) return v.map(toPhp);
  if (v !== null && typeof v === 'object') return new PhpMap(Object.entries(v).map(([k, x]) => [k, toPhp(x)]));
  return v as PhpValue;
}

/** FormatJson::encode of 1.25 with default escaping: json_encode plus JSON_HEX_TAG | JSON_HEX_AMP. */
function formatJsonEncode(v: PhpValue): string {
  return phpJsonEncode(v).replace(/</g, '\\u003C').replace(/>/g, '\\u003E').replace(/&/g, '\\u0026');
}

function printRequestTypeId(pr: PrintRequest): string {
  return pr.mode === PRINT_PROP ? pr.prop!.type : '_wpg';
}

/** Runs a query and writes SMW's answer (or its errors) into the result. */
export async function runAsk(ctx: ModuleContext, input: AskInput): Promise<void> {
  const codec = ctx.wiki.codec;
  const lang = await queryLanguage(ctx.store.semantic, codec, {
    queryString: input.queryString,
    printouts: input.printouts,
    plainPrintouts: input.plainPrintouts,
    sort: input.parameters.get('sort'),
  });

  const printRequests: PrintRequest[] = [];
  for (const p of input.printouts) {
    if (input.plainPrintouts) {
      const u = userProperty(p);
      if ('error' in u) continue; // SMW throws on it (an internal error); the printout is left out here
      printRequests.push({
        mode: PRINT_PROP,
        label: p,
        format: false,
        // askargs' printouts are plain property names: a predefined one has SMW's own type (_MDAT: _dat)
        prop: { key: u.key, inverse: u.inverse, type: u.inverse ? '_wpg' : typeOfKey(lang, u.key) },
      });
    } else {
      const pr = printRequestFromString(p, lang);
      if (pr) printRequests.push(pr);
    }
  }
  const options = queryOptions(input.parameters);
  addThisPrintout(printRequests, options.mainlabel);
  const parsed = parseConditions(input.queryString, lang);
  const errors = [...parsed.errors, ...options.errors];
  if (errors.length > 0) {
    ctx.result.set('error', { query: errors });
    return;
  }

  // a random order is a new answer each time: not one for the response cache
  if (options.sort.some(([, o]) => o === 'RANDOM')) ctx.markVolatile('clock');
  // SMW's QueryEngine reports its own errors (concepts) as the parser's: the answer is the error list
  const engineErrors: string[] = [];
  const description = await expandConcepts(parsed.description, codec, ctx.store.semantic, engineErrors);
  if (engineErrors.length > 0) {
    ctx.result.set('error', { query: engineErrors });
    return;
  }
  const answer = await answerConditions(ctx.store.semantic, lang, {
    description,
    sort: options.sort,
    limit: options.limit,
    offset: options.offset,
  });

  const { specs, specIndex } = printoutSpecs(printRequests);
  const ids = answer.subjects.map((s) => s.id);
  const values = specs.length > 0 ? await ctx.store.semantic.askPrintouts(ids, specs) : [];

  const server = serverOf(ctx.request.apiUrl);
  const printrequests = printRequests.map((pr) => ({ label: pr.label, typeid: printRequestTypeId(pr), mode: pr.mode, format: pr.format }));
  const results = new Map<string, unknown>();
  answer.subjects.forEach((subject: AskSubject, i) => {
    const printouts = new Map<string, unknown>();
    let self: PageSerialization | undefined;
    printRequests.forEach((pr, p) => {
      if (pr.mode === PRINT_THIS) {
        self ??= pageSerialization(ctx, server, subject.ns, subject.dbkey, subject.subobject, subject.exists);
        return;
      }
      const vals = values[specIndex[p]][i];
      let out: unknown[];
      if (pr.mode === PRINT_CCAT) {
        const item = `${pr.category}#${NS_CATEGORY}#`;
        out = [vals.some((v) => v.item === item) ? 't' : 'f'];
      } else {
        out = vals.map((v) => serializeValue(ctx, server, v, printRequestTypeId(pr)));
      }
      printouts.set(pr.label, out);
    });
    const entry: Record<string, unknown> = { printouts: printouts.size > 0 ? printouts : [] };
    if (self) Object.assign(entry, self);
    results.set(
      entry.fulltext !== undefined
        ? (entry.fulltext as string)
        : pageSerialization(ctx, server, subject.ns, subject.dbkey, subject.subobject, subject.exists).fulltext,
      entry,
    );
  });

  const serialized = {
    printrequests,
    results: results.size > 0 ? results : [],
    serializer: QUERY_SERIALIZER,
    version: 0.5,
  };
  const hash = md5(formatJsonEncode(toPhp(serialized)));
  const count = answer.subjects.length;
  // SMW tests the offset for truth: 0 (limit=0 at offset 0) adds nothing
  if (answer.further && count + options.offset > 0) ctx.result.set('query-continue-offset', count + options.offset);
  ctx.result.set('query', Object.assign({}, serialized, { meta: { hash, count, offset: options.offset } }));
}

export const askModule: ActionModule = {
  kind: 'action',
  name: 'ask',
  prefix: '',
  description: 'API module to query SMW by providing a query in the ask language.',
  params: {
    query: { type: 'string', required: true, help: 'The query string in ask-language' },
  },
  examples: ['action=ask&query=[[Modification%20date::%2B]]|%3FModification%20date|sort%3DModification%20date|order%3Ddesc'],
  async run(ctx) {
    const { queryString, parameters, printouts } = componentsFromParams(splitAskQuery(ctx.params.query as string));
    await runAsk(ctx, { queryString, parameters, printouts, plainPrintouts: false });
  },
};
