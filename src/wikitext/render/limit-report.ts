/**
 * The limit report of MediaWiki 1.25's Parser::parse: ParserOutput's limit report data (what
 * action=parse&prop=limitreportdata lists), the "NewPP limit report" and "Transclusion expansion time
 * report" comments appended to the HTML (always in English, from the message files, never the wiki's
 * overrides), and EditPage::getPreviewLimitReport's table (prop=limitreporthtml, in the user language).
 * Message texts go through the wikitext engine like any other message ({{PLURAL}} of the values).
 */
import { commentSafe, htmlspecialchars, htmlspecialcharsDecode } from '../../wiki/html.js';
import { Messages, type ParserEnv } from '../../wiki/messages.js';
import type { TitleCodec } from '../../wiki/titles.js';
import { messageText } from '../message-transform.js';
import { DEFAULT_LIMITS, type ExpansionReport } from '../preprocessor/context.js';

/** A value of the report: a preformatted string (the times) or a count with its limit. */
export type LimitReportValue = string | [number, number];

/** languages/i18n/en.json of 1.25 */
const LIMIT_REPORT_EN: Readonly<Record<string, string>> = {
  'limitreport-title': 'Parser profiling data:',
  'limitreport-cputime': 'CPU time usage',
  'limitreport-cputime-value': '$1 {{PLURAL:$1|second|seconds}}',
  'limitreport-walltime': 'Real time usage',
  'limitreport-walltime-value': '$1 {{PLURAL:$1|second|seconds}}',
  'limitreport-ppvisitednodes': 'Preprocessor visited node count',
  'limitreport-ppvisitednodes-value': '$1/$2',
  'limitreport-ppgeneratednodes': 'Preprocessor generated node count',
  'limitreport-ppgeneratednodes-value': '$1/$2',
  'limitreport-postexpandincludesize': 'Post-expand include size',
  'limitreport-postexpandincludesize-value': '$1/$2 {{PLURAL:$2|byte|bytes}}',
  'limitreport-templateargumentsize': 'Template argument size',
  'limitreport-templateargumentsize-value': '$1/$2 {{PLURAL:$2|byte|bytes}}',
  'limitreport-expansiondepth': 'Highest expansion depth',
  'limitreport-expansiondepth-value': '$1/$2',
  'limitreport-expensivefunctioncount': 'Expensive parser function count',
  'limitreport-expensivefunctioncount-value': '$1/$2',
};

/** The limits of a default 1.25 ParserOptions the report states: the engine's, and the two it does not enforce */
const LIMITS = {
  maxPPNodeCount: DEFAULT_LIMITS.maxNodes,
  maxGeneratedPPNodeCount: 1_000_000,
  maxIncludeSize: DEFAULT_LIMITS.maxExpandedBytes,
  maxPPExpandDepth: DEFAULT_LIMITS.maxDepth,
  expensiveParserFunctionLimit: 100,
};

/** ParserOutput::setLimitReportData of Parser::parse, in its order */
export function limitReportData(cpuSeconds: number, wallSeconds: number, r: ExpansionReport): Array<[string, LimitReportValue]> {
  return [
    ['limitreport-cputime', cpuSeconds.toFixed(3)],
    ['limitreport-walltime', wallSeconds.toFixed(3)],
    ['limitreport-ppvisitednodes', [r.visitedNodes, LIMITS.maxPPNodeCount]],
    ['limitreport-ppgeneratednodes', [r.generatedNodes, LIMITS.maxGeneratedPPNodeCount]],
    ['limitreport-postexpandincludesize', [r.postExpandBytes, LIMITS.maxIncludeSize]],
    ['limitreport-templateargumentsize', [r.argBytes, LIMITS.maxIncludeSize]],
    ['limitreport-expansiondepth', [r.highestDepth, LIMITS.maxPPExpandDepth]],
    ['limitreport-expensivefunctioncount', [r.expensiveCount, LIMITS.expensiveParserFunctionLimit]],
  ];
}

/**
 * The rows of the transclusion expansion time report: SectionProfiler's "-total" (100%) and the pages
 * transcluded, by time spent, ten at most ("%6.2f%% %8.3f %6d - %s": share, ms, calls, name).
 */
export function timingProfile(r: ExpansionReport): string[] {
  const total = r.profileTotalMs ?? 0;
  const rows = [
    { name: '-total', calls: 1, ms: total, pct: 100 },
    ...(r.profile ?? []).map((p) => Object.assign({}, p, { pct: total ? (100 * p.ms) / total : 0 })),
  ];
  rows.sort((a, b) => b.ms - a.ms);
  return rows
    .slice(0, 10)
    .map(
      (p) => `${p.pct.toFixed(2).padStart(6)}% ${p.ms.toFixed(3).padStart(8)} ${String(p.calls).padStart(6)} - ${htmlspecialchars(p.name)}`,
    );
}

const english = new WeakMap<TitleCodec, Messages>();

/** the message files' English texts, with no wiki behind them (useDatabase(false)); one set per wiki */
function englishMessages(codec: TitleCodec): Messages {
  let m = english.get(codec);
  if (!m) {
    const env: ParserEnv = { codec, siteName: '', contentLang: 'en', fetchTemplate: () => null };
    m = new Messages(
      { catalogText: (lang, key) => (lang === 'en' ? LIMIT_REPORT_EN[key] : undefined), overrideText: () => undefined },
      env,
    );
    english.set(codec, m);
  }
  return m;
}

const API_TITLE = { ns: 0, dbkey: 'API' };

/**
 * A line of the English report, remembered: the texts are fixed and the values repeat (the limits, the
 * times in milliseconds), so most lines were transformed before. Bounded, cleared when full.
 */
const englishLines = new Map<string, string>();

function englishLine(codec: TitleCodec, key: string, params: string[]): string {
  const memo = key + '\u0000' + params.join('\u0000');
  let line = englishLines.get(memo);
  if (line === undefined) {
    const en = englishMessages(codec);
    const valueKey = en.exists(`${key}-value-text`, 'en', false) ? `${key}-value-text` : `${key}-value`;
    const valueText = en.exists(valueKey, 'en', false) ? messageText(en, valueKey, params, 'en', API_TITLE) : params[0];
    line = `${messageText(en, key, [], 'en', API_TITLE)}: ${valueText}\n`;
    if (englishLines.size >= 4096) englishLines.clear();
    englishLines.set(memo, line);
  }
  return line;
}

/** The comments Parser::parse appends to the HTML when the limit report is enabled. */
export function limitReportComment(data: ReadonlyArray<[string, LimitReportValue]>, profile: readonly string[], codec: TitleCodec): string {
  let report = 'NewPP limit report\n';
  for (const [key, value] of data) report += englishLine(codec, key, Array.isArray(value) ? value.map(String) : [value]);
  // not HTML inside a comment: entities decoded, then what could end or confuse the comment hidden
  report = commentSafe(htmlspecialcharsDecode(report));
  return `\n<!-- \n${report}-->\n\n<!-- \nTransclusion expansion time report (%,ms,calls,template)\n${profile.join('\n')}\n-->\n`;
}

/**
 * EditPage::getPreviewLimitReport: the report as a table. `message(key, params)` is the text of a message
 * in the user language with {{…}} transformed, or false when the wiki has no such message; the English
 * texts stand in then (the message files' last fallback).
 */
export function limitReportHtml(
  data: ReadonlyArray<[string, LimitReportValue]>,
  codec: TitleCodec,
  message: (key: string, params: string[]) => string | false,
): string {
  const en = englishMessages(codec);
  const text = (key: string, params: string[]): string | false => {
    const t = message(key, params);
    if (t !== false) return t;
    return en.exists(key, 'en', false) ? messageText(en, key, params, 'en', API_TITLE) : false;
  };
  let out = `<div class="mw-limitReportExplanation"><p>${text('limitreport-title', []) || ''}\n</p></div>`;
  out += '<div class="preview-limit-report-wrapper"><table class="preview-limit-report wikitable"><tbody>';
  for (const [key, value] of data) {
    const params = Array.isArray(value) ? value.map(String) : [value];
    const valueText = text(`${key}-value-html`, params) || text(`${key}-value`, params) || params[0];
    out += `<tr><th>${text(key, []) || key}</th><td>${valueText}</td></tr>`;
  }
  return out + '</tbody></table></div>';
}
