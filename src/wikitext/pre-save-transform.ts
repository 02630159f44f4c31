/**
 * The pre-save transform of MediaWiki 1.25 (Parser::preSaveTransform / pstPass2), after the OT_WIKI
 * expansion of {{subst:…}} (the preprocessor's outputType 'wiki'): signatures (~~~ the user, ~~~~ the
 * user and the date, ~~~~~ the date), the pipe tricks ([[a (b)|]] → [[a (b)|a]], [[a, b|]] → [[a, b|a]],
 * [[|a]] takes the context of the page's own title), trailing whitespace removed. Comments and
 * extension tags arrive as strip markers and are put back last, untouched by either pass.
 */
import { escapeWikiText } from './preprocessor/escape-wikitext.js';
import { pad2, UK_MONTHS_GEN } from './preprocessor/magic-variables.js';

/** Language::timeanddate of uk ('dmy both': "H:i, j xg Y") with the time zone's name, as pstPass2 signs */
export function signatureDate(now: Date, tzName = 'UTC'): string {
  return `${pad2(now.getUTCHours())}:${pad2(now.getUTCMinutes())}, ${now.getUTCDate()} ${UK_MONTHS_GEN[now.getUTCMonth()]} ${now.getUTCFullYear()} (${tzName})`;
}

/** IP::sanitizeIP: an IPv4-mapped address as IPv4, IPv6 written out in full, upper case, no leading zeros */
export function sanitizeIp(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1];
  if (!ip.includes(':')) return ip;
  const [head, tail] = ip.split('::');
  const a = head ? head.split(':') : [];
  const b = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const groups = tail === undefined ? a : [...a, ...Array(Math.max(0, 8 - a.length - b.length)).fill('0'), ...b];
  return groups.map((g) => g.replace(/^0+(?=.)/, '').toUpperCase()).join(':');
}

/** the two arguments of the signature messages: the user name and the nickname, escaped */
export function signatureArgs(userName: string): [string, string] {
  return [escapeWikiText(userName), escapeWikiText(userName)];
}

// Title::legalChars and the namespace characters of pstPass2, on characters rather than bytes
const TC = `[ %!"$&'()*,\\-./0-9:;=?@A-Z\\\\^_\`a-z~+\\u0080-\\uffff]`;
const NC = '[ _0-9A-Za-z\\u0080-\\uffff-]';
const P1 = new RegExp(`\\[\\[(:?${NC}+:|:|)(${TC}+?)( ?\\(${TC}+\\))\\|]]`, 'g');
const P4 = new RegExp(`\\[\\[(:?${NC}+:|:|)(${TC}+?)( ?（${TC}+）)\\|]]`, 'g');
const P3 = new RegExp(`\\[\\[(:?${NC}+:|:|)(${TC}+?)( ?\\(${TC}+\\)|)((?:, |，)${TC}+|)\\|]]`, 'g');
const P2 = new RegExp(`\\[\\[\\|(${TC}+)]]`, 'g');
const CONTEXT_PAREN = new RegExp(`^(${NC}+:|)${TC}+?( \\(${TC}+\\))$`);
const CONTEXT_COMMA = new RegExp(`^(${NC}+:|)${TC}+?(, ${TC}+|)$`);

export interface PstPass2Options {
  /** the page's title without its namespace, with spaces (Title::getText) */
  titleText: string;
  /** the user's signature as the signature message renders it */
  signature: string;
  /** signatureDate() */
  date: string;
}

/** Parser::pstPass2 on text whose {{subst:}} calls are already expanded */
export function pstPass2(text: string, o: PstPass2Options): string {
  let t = text.replace(/~~~~~|~~~~|~~~/g, (m) => (m.length === 5 ? o.date : m.length === 4 ? `${o.signature} ${o.date}` : o.signature));
  // $p1 first, to turn "[[A, B (C)|]]" into "[[A, B (C)|A, B]]"
  t = t.replace(P1, '[[$1$2$3|$2]]').replace(P4, '[[$1$2$3|$2]]').replace(P3, '[[$1$2$3$4|$2]]');
  const paren = CONTEXT_PAREN.exec(o.titleText);
  const comma = paren ? null : CONTEXT_COMMA.exec(o.titleText);
  if (paren || (comma && comma[1] + comma[2] !== '')) {
    const m = (paren ?? comma)!;
    t = t.replace(P2, (_all, name: string) => `[[${m[1]}${name}${m[2]}|${name}]]`);
  } else {
    // no context: the title is not repeated
    t = t.replace(P2, '[[$1]]');
  }
  return t.replace(/[ \t\n\r\0\x0B]+$/, '');
}
