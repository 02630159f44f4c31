/**
 * SMWDataValue::getShortWikiText of a stored value, linked (a linker given) or not: how the result
 * printers write a value.
 */
import { URL_PROTOCOLS as WIKI_URL_PROTOCOLS } from '../../wiki/external-urls.js';
import type { TitleCodec } from '../../wiki/titles.js';
import { DI } from '../types.js';
import { formatNumber } from './number.js';
import { timeCaption } from './time.js';

/** One value of a printout, as the store gives it. */
export interface PrintValue {
  di: number;
  item: string;
  ns?: number;
  dbkey?: string;
  subobject?: string;
  /** a caption fixed by the print request's format (a category check's 'X') */
  caption?: string;
}

/** SMWDataValue::getShortWikiText of a stored value, linked (a linker given) or not. */
export function valueText(v: PrintValue, type: string, linked: boolean, codec: TitleCodec): string {
  if (v.caption !== undefined) return v.caption;
  switch (v.di) {
    case DI.WIKIPAGE: {
      const prefixed = codec.prefixedText(v.ns!, v.dbkey!);
      const fragment = v.subobject ?? '';
      if (!linked) return prefixed + (fragment !== '' ? '#' + fragment : '');
      const text = v.dbkey!.replace(/_/g, ' ') + (fragment !== '' && fragment[0] !== '_' ? '#' + fragment : '');
      const target = prefixed.replace(/'/g, '&#x0027;') + (fragment !== '' ? '#' + fragment : '');
      if (v.ns === 6) return `[[${target}|${text}|frameless|border|text-top]]`;
      return `[[:${target}|${text}]]`;
    }
    case DI.NUMBER:
      return formatNumber(Number(v.item));
    case DI.TIME:
      return timeCaption(v.item);
    case DI.URI: {
      // SMWURIValue: an e-mail address or telephone number shows without its scheme
      const caption =
        type === '_ema' && v.item.startsWith('mailto:')
          ? v.item.slice(7)
          : type === '_tel' && v.item.startsWith('tel:')
            ? v.item.slice(4)
            : v.item;
      const scheme = /^([a-z][a-z0-9+.-]*):(\/\/)?/i.exec(v.item);
      const url = scheme && URL_PROTOCOLS.has(scheme[1].toLowerCase() + ':' + (scheme[2] ?? '')) ? v.item : '';
      return linked && url !== '' && caption !== '' ? `[${url} ${caption}]` : caption;
    }
    case DI.BOOLEAN:
      // the first of smw_true_words / smw_false_words (uk)
      return v.item === 't' ? 'true' : 'false';
    default:
      // texts, codes, URLs, e-mail addresses, telephone numbers: their stored string
      return v.item;
  }
}

/** $wgUrlProtocols of MediaWiki 1.25: a URI value links only with one of these schemes */
const URL_PROTOCOLS = new Set(WIKI_URL_PROTOCOLS);
