/**
 * Parser::replaceInternalLinks2 + LinkHolderArray of MediaWiki 1.25: [[target|text]]trail becomes a
 * link holder; categories, interlanguage links and files are taken out or rendered at once; after the
 * block pass the holders are replaced with <a> elements, knowing (from one batched lookup of every
 * target) which pages exist and which are redirects.
 */
import { decodeCharReferences } from '../../wiki/titles.js';
import { escapeTagsOnly } from '../../wiki/html.js';
import { NS_CATEGORY, NS_FILE, NS_MEDIA, NS_SPECIAL } from '../../wiki/namespaces.js';
import { fileUrlPath } from '../../wiki/files.js';
import { PROTOCOL_ALTERNATION } from '../../wiki/external-urls.js';
import { escapeHtml, escapeId } from '../sanitizer.js';
import { linkKey, type RenderEnv, type RenderOutput } from './env.js';
import { makeImage, type ImageHooks } from './images.js';
import { doQuotes } from './quotes.js';
import { articleUrl, editUrl } from './urls.js';
import { replaceParameters } from '../../wiki/messages.js';

const TC = ' %!"$&\'()*,\\-./0-9:;=?@A-Z\\\\^_`a-z~\\u0080-\\uffff+#';
const E1 = new RegExp(`^([${TC}]+)(?:\\|([\\s\\S]+?))?]]([\\s\\S]*)$`);
const E1_IMG = new RegExp(`^([${TC}]+)\\|([\\s\\S]*)$`);
const URL_PROTOCOL = new RegExp(`^(?:${PROTOCOL_ALTERNATION})`, 'i');
/** MessagesUk.php $linkPrefixCharset (with $linkPrefixExtension): opening quotes join the link */
const LINK_PREFIX_CHARS = '«„';
/** MessagesUk.php $linkTrail */
const LINK_TRAIL = /^([a-zабвгґдеєжзиіїйклмнопрстуфхцчшщьюяʼ’“»]+)([\s\S]*)$/u;

/**
 * The output of the link pass, kept as pieces: the text before each link is looked at from its end (link
 * prefixes, whitespace before a category), and indexing one long concatenated string would copy it each
 * time (quadratic on a page of many links).
 */
class Pieces {
  private readonly parts: string[];
  constructor(first: string) {
    this.parts = [first];
  }

  push(x: string): void {
    if (x !== '') this.parts.push(x);
  }

  /** remove and return the run of these characters at the end */
  takeTrailing(chars: string): string {
    let taken = '';
    while (this.parts.length) {
      const last = this.parts[this.parts.length - 1];
      let cut = last.length;
      while (cut > 0 && chars.includes(last[cut - 1])) cut--;
      taken = last.slice(cut) + taken;
      if (cut > 0) {
        this.parts[this.parts.length - 1] = last.slice(0, cut);
        break;
      }
      this.parts.pop();
    }
    return taken;
  }

  trimEnd(): void {
    while (this.parts.length) {
      const t = this.parts[this.parts.length - 1].trimEnd();
      if (t !== '') {
        this.parts[this.parts.length - 1] = t;
        break;
      }
      this.parts.pop();
    }
  }

  toString(): string {
    return this.parts.join('');
  }
}

export interface Holder {
  ns: number;
  dbkey: string;
  fragment: string;
  text: string;
  /** "[[Special:…]]" and other pages known without a lookup */
  known?: boolean;
}

/** Linker::splitTrail */
function splitTrail(trail: string): [string, string] {
  const m = LINK_TRAIL.exec(trail);
  return m ? [m[1], m[2]] : ['', trail];
}

export class LinkPass {
  readonly holders: Holder[] = [];

  constructor(
    private readonly env: RenderEnv,
    private readonly out: RenderOutput,
    /** external-link pass for image captions */
    private readonly externalLinks: (text: string) => string,
    private readonly defaultSort: () => string,
    private readonly armor: (html: string) => string,
  ) {}

  private holder(h: Holder, trail: string): string {
    const [inside, rest] = splitTrail(trail);
    h.text += inside;
    this.holders.push(h);
    return `<!--LINK ${this.holders.length - 1}-->${rest}`;
  }

  replaceInternalLinks(s0: string): string {
    const a = (' ' + s0).split('[[');
    const s = new Pieces(a[0].slice(1));
    for (let i = 1; i < a.length; i++) {
      const line = a[i];
      const prefix = s.takeTrailing(LINK_PREFIX_CHARS);
      let m = E1.exec(line);
      let text: string;
      let trail: string;
      let target: string;
      let mightBeImg = false;
      if (m) {
        text = m[2] ?? '';
        trail = m[3];
        if (text !== '' && trail.startsWith(']') && text.includes('[')) {
          text += ']';
          trail = trail.slice(1);
        }
        target = m[1];
      } else if ((m = E1_IMG.exec(line))) {
        mightBeImg = true;
        text = m[2];
        trail = '';
        target = m[1];
      } else {
        s.push(prefix + '[[' + line);
        continue;
      }
      if (target.includes('%')) {
        try {
          // 1.25 escapes < and > of a decoded target (a " is as illegal in a title either way)
          target = escapeTagsOnly(decodeURIComponent(target));
        } catch {
          /* not valid percent-encoding: kept as written */
        }
      }
      if (URL_PROTOCOL.test(target)) {
        s.push(prefix + '[[' + line);
        continue;
      }
      const noforce = !target.startsWith(':');
      const link = noforce ? target : target.slice(1);
      // interwiki and interlanguage prefixes: "en:Foo", "wikipedia:Foo"
      const iw = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*:(.*)$/s.exec(link);
      const iwPrefix = iw && this.env.codec.nsIdFromPrefix(iw[1]) === undefined ? iw[1].toLowerCase() : null;
      // a prefix of the interwiki map: a language link (not escaped with ":", not on a talk page) or an interwiki link
      if (iwPrefix && this.env.interwiki?.get(iwPrefix) !== undefined) {
        if (mightBeImg) {
          s.push(`${prefix}[[${link}|${text}`);
          continue;
        }
        const rest = decodeCharReferences(iw![2]).replace(/_/g, ' ').trim();
        if (noforce && this.env.title.ns % 2 === 0 && this.env.interwiki!.isLanguage(iwPrefix)) {
          if (!this.out.langLinks.some((l) => l.lang === iwPrefix)) this.out.langLinks.push({ lang: iwPrefix, title: rest });
          s.push(prefix);
          s.trimEnd();
          s.push(trail.replace(/^\n+|\n+$/g, '') === '' ? '' : prefix + trail);
          continue;
        }
        const url = this.env.interwiki?.url(iwPrefix, rest);
        if (!this.out.iwLinks.some((l) => l.prefix === iwPrefix && l.title === rest.replace(/ /g, '_')))
          this.out.iwLinks.push({ prefix: iwPrefix, title: rest.replace(/ /g, '_'), url });
        const shown = text === '' ? link : doQuotes(text);
        const [inside, after] = splitTrail(trail);
        // Linker::link of an interwiki title: the other wiki's URL, class extiw, the prefixed title
        s.push(
          `${prefix}<a${url ? ` href="${escapeHtml(url)}"` : ''} class="extiw" title="${escapeHtml(`${iwPrefix}:${rest}`)}">${shown}${inside}</a>${after}`,
        );
        continue;
      }
      // "[[#Section]]": a link to a section of this page
      const nt =
        link.trim().startsWith('#') && link.trim().length > 1
          ? { ns: this.env.title.ns, dbkey: '', fragment: decodeCharReferences(link.trim().slice(1)).replace(/_/g, ' ') }
          : this.env.codec.parse(link, 0);
      if (!nt || (nt.dbkey === '' && nt.fragment === '')) {
        s.push(prefix + '[[' + line);
        continue;
      }
      if (mightBeImg) {
        if (nt.ns === NS_FILE && noforce) {
          let found = false;
          while (i + 1 < a.length) {
            i++;
            const next = a[i];
            const parts = next.split(']]');
            if (parts.length >= 3) {
              found = true;
              text += `[[${parts[0]}]]${parts[1]}`;
              trail = parts.slice(2).join(']]');
              break;
            } else if (parts.length === 2) text += `[[${parts[0]}]]${parts[1]}`;
            else {
              text += '[[' + next;
              break;
            }
          }
          if (!found) {
            s.push(`${prefix}[[${link}|${this.replaceInternalLinks(text)}`);
            continue;
          }
        } else {
          s.push(`${prefix}[[${link}|${text}`);
          continue;
        }
      }
      const wasBlank = text === '';
      if (wasBlank) text = link;
      else text = doQuotes(text);
      if (noforce) {
        if (nt.ns === NS_FILE) {
          const caption = wasBlank ? '' : text;
          const hooks: ImageHooks = {
            renderCaption: (c) => this.replaceInternalLinks(this.externalLinks(c)),
            stripAlt: (c) =>
              escapeHtml(decodeCharReferences(c.replace(/<[^>]*>/g, '').replace(/\[\[(?:[^|\]]*\|)?([^\]]*)\]\]/g, '$1'))).replace(
                /'/g,
                '&#039;',
              ),
          };
          s.push(prefix + this.armor(makeImage(this.env, this.out, nt.dbkey, caption === '' ? '' : caption, hooks)) + trail);
          continue;
        }
        if (nt.ns === NS_CATEGORY) {
          s.trimEnd();
          let sortKey = wasBlank ? this.defaultSort() : text;
          sortKey = decodeCharReferences(sortKey).replace(/\n/g, '');
          // ParserOutput::addCategory: a later link to the same category replaces the sort key, keeps the place
          this.out.categories.set(nt.dbkey, sortKey);
          s.push((prefix + trail).replace(/^\n+|\n+$/g, '') === '' ? '' : prefix + trail);
          continue;
        }
      }
      if (nt.ns === this.env.title.ns && nt.dbkey === this.env.title.dbkey && nt.fragment === '') {
        const [inside, rest] = splitTrail(trail);
        s.push(`<strong class="selflink">${prefix}${text}${inside}</strong>${rest}`);
        continue;
      }
      if (nt.ns === NS_MEDIA) {
        this.out.images.set(nt.dbkey, true);
        if (!this.env.filesLoaded) this.out.filesWanted.add(nt.dbkey);
        // Parser::replaceInternalLinks2 of 1.25: a blank text is the link as written ("Медіа:X_y.png"), and
        // Linker::makeMediaLinkFile shows it as given
        const label = text;
        const [inside, rest] = splitTrail(trail);
        const html = this.env.files.has(nt.dbkey)
          ? `<a href="${fileUrlPath(nt.dbkey)}" class="internal" title="${escapeHtml(nt.dbkey.replace(/_/g, ' '))}">${label}${inside}</a>`
          : `<a href="${editUrl(this.env.codec.prefixedDbKey(NS_FILE, nt.dbkey), true)}" class="new" title="${escapeHtml(nt.dbkey.replace(/_/g, ' '))}">${label}${inside}</a>`;
        s.push(prefix + this.armor(html) + rest);
        continue;
      }
      if (nt.dbkey !== '' && nt.ns >= 0) this.out.links.set(linkKey(nt.ns, nt.dbkey), { ns: nt.ns, dbkey: nt.dbkey });
      s.push(this.holder({ ns: nt.ns, dbkey: nt.dbkey, fragment: nt.fragment, text: prefix + text, known: nt.ns === NS_SPECIAL }, trail));
    }
    return s.toString();
  }

  /** Parser::replaceLinkHoldersText: holders → their text (for headlines in the TOC) */
  holderText(text: string): string {
    return text.replace(/<!--LINK (\d+)-->/g, (_m, n: string) => this.holders[Number(n)]?.text ?? '');
  }

  /** LinkHolderArray::replace: holders → <a>, now that existence is known */
  replaceHolders(text: string): string {
    const env = this.env;
    return text.replace(/<!--LINK (\d+)-->/g, (_m, n: string) => {
      const h = this.holders[Number(n)];
      if (!h) return '';
      const frag = h.fragment ? escapeId(h.fragment, true) : '';
      if (h.dbkey === '') return `<a href="#${frag}">${h.text}</a>`;
      const pdbk = env.codec.prefixedDbKey(h.ns, h.dbkey);
      const shown = escapeHtml(env.codec.prefixedText(h.ns, h.dbkey));
      const page = env.pages.get(linkKey(h.ns, h.dbkey));
      if (page || h.known || (h.ns === env.title.ns && h.dbkey === env.title.dbkey)) {
        const cls = page?.redirect ? ' class="mw-redirect"' : '';
        return `<a href="${articleUrl(pdbk, frag)}"${cls} title="${shown}">${h.text}</a>`;
      }
      const title = escapeHtml(replaceParameters(env.messages['red-link-title'], [env.codec.prefixedText(h.ns, h.dbkey)]));
      return `<a href="${editUrl(pdbk, true)}" class="new" title="${title}">${h.text}</a>`;
    });
  }
}
