/**
 * Parser::replaceExternalLinks and the free-URL part of doMagicLinks of MediaWiki 1.25: [url text],
 * numbered [url], bare URLs; class "external text|autonumber|free", rel="nofollow".
 */
import { decodeCharReferences } from '../../wiki/titles.js';
import { escapeHtml } from '../sanitizer.js';
import type { RenderOutput } from './env.js';

const PROTOCOLS = 'bitcoin:|ftp:\\/\\/|ftps:\\/\\/|geo:|git:\\/\\/|gopher:\\/\\/|http:\\/\\/|https:\\/\\/|irc:\\/\\/|ircs:\\/\\/|magnet:|mailto:|mms:\\/\\/|news:|nntp:\\/\\/|redis:\\/\\/|sftp:\\/\\/|sip:|sips:|sms:|ssh:\\/\\/|svn:\\/\\/|tel:|telnet:\\/\\/|urn:|worldwind:\\/\\/|xmpp:|\\/\\/';
const URL_CHAR = '[^\\][<>"\\x00-\\x20\\x7F\\p{Zs}]';
const BRACKETED = new RegExp(`\\[((?:${PROTOCOLS})${URL_CHAR}+)\\p{Zs}*([^\\]\\x00-\\x08\\x0a-\\x1F]*?)\\]`, 'giu');
const FREE = new RegExp(`(<a[ \\t\\r\\n>][\\s\\S]*?<\\/a>)|(<[\\s\\S]*?>)|(\\b(?:${PROTOCOLS.replace('|\\/\\/', '')})${URL_CHAR}+)`, 'giu');
const LINK_TRAIL = /^([a-zабвгґдеєжзиіїйклмнопрстуфхцчшщьюяʼ’“»]+)([\s\S]*)$/u;

/** Sanitizer::cleanUrl: references decoded, characters that may not stand in a URL percent-encoded */
export function cleanUrl(url: string): string {
  const u = decodeCharReferences(url);
  return u.replace(/[\][<>"\x00-\x20\x7F|]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
}

function makeExternalLink(url: string, text: string, type: string): string {
  return `<a rel="nofollow" class="external ${type}" href="${escapeHtml(url)}">${text}</a>`;
}

export class ExternalLinkPass {
  private autonumber = 0;
  constructor(private readonly out: RenderOutput) {}

  replaceExternalLinks(text: string): string {
    BRACKETED.lastIndex = 0;
    let s = '';
    let last = 0;
    const matches = [...text.matchAll(BRACKETED)];
    for (let k = 0; k < matches.length; k++) {
      const m = matches[k];
      s += text.slice(last, m.index);
      let url = m[1];
      let label = m[2];
      let trail = text.slice(m.index! + m[0].length, k + 1 < matches.length ? matches[k + 1].index : text.length);
      const lt = /&(lt|gt);/.exec(url);
      if (lt) {
        label = url.slice(lt.index) + ' ' + label;
        url = url.slice(0, lt.index);
      }
      let type = label === url ? 'free' : 'text';
      let dtrail = '';
      if (label === '') {
        label = `[${++this.autonumber}]`;
        type = 'autonumber';
      } else {
        const t = LINK_TRAIL.exec(trail);
        if (t) {
          dtrail = t[1];
          trail = t[2];
        }
      }
      const clean = cleanUrl(url);
      s += makeExternalLink(clean, label, type) + dtrail + trail;
      this.out.externalLinks.push(clean);
      last = k + 1 < matches.length ? matches[k + 1].index! : text.length;
    }
    return matches.length ? s : text;
  }

  doMagicLinks(text: string): string {
    return text.replace(FREE, (m0, a?: string, tag?: string, url?: string) => {
      if (a || tag || !url) return m0;
      let trail = '';
      let u = url;
      const lt = /&(lt|gt);/.exec(u);
      if (lt) {
        trail = u.slice(lt.index) + trail;
        u = u.slice(0, lt.index);
      }
      const sep = u.includes('(') ? ',;.:!?' : ',;.:!?)';
      let n = 0;
      while (n < u.length && sep.includes(u[u.length - 1 - n])) n++;
      if (n) {
        trail = u.slice(u.length - n) + trail;
        u = u.slice(0, u.length - n);
      }
      const clean = cleanUrl(u);
      this.out.externalLinks.push(clean);
      return makeExternalLink(clean, u, 'free') + trail;
    });
  }
}
