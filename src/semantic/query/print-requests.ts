/**
 * Print requests (SMW\Query\PrintRequest): what a query prints of each result, read from `?…` strings
 * as SMWQueryProcessor::getSMWPrintRequestFromString reads them.
 */
import type { TitleCodec } from '../../wiki/titles.js';
import { NS_CATEGORY } from '../../wiki/namespaces.js';
import { ucfirst } from '../../wiki/language.js';
import type { PropertyRef } from './descriptions.js';
import { typeOfKey, userProperty, type LanguageContext } from './properties.js';

/** PrintRequest::PRINT_* */
export const PRINT_CATS = 0;
export const PRINT_PROP = 1;
export const PRINT_THIS = 2;
export const PRINT_CCAT = 3;

export interface PrintRequest {
  mode: number;
  label: string;
  /** false when none was given; '-' for a plain '#' */
  format: string | false;
  /** PRINT_PROP */
  prop?: PropertyRef;
  /** PRINT_CCAT: the category's DB key */
  category?: string;
}

/** getSMWPrintRequestFromString; null when SMW gives up on it. In show mode (#show) the default labels are ''. */
export function printRequestFromString(raw: string, ctx: LanguageContext, showMode = false): PrintRequest | null {
  const eq = raw.indexOf('=');
  const head = eq < 0 ? raw : raw.slice(0, eq);
  const hash = head.indexOf('#');
  const name = hash < 0 ? head : head.slice(0, hash);
  // trim(false) is '' in PHP: a printout without '#' has the output format ''
  let format = hash < 0 ? '' : head.slice(hash + 1).trim();
  if (hash >= 0 && format === '') format = '-';
  const catName = ctx.codec.nsName(NS_CATEGORY) ?? 'Category';
  let pr: PrintRequest;
  if (name.trim() === '') {
    pr = { mode: PRINT_THIS, label: '', format: false };
  } else if (ucfirst(name.trim()) === catName) {
    pr = { mode: PRINT_CATS, label: catName, format: false };
  } else {
    const t = ctx.codec.parse(name.trim(), 102);
    if (t === null) return null;
    if (t.ns === NS_CATEGORY) {
      pr = { mode: PRINT_CCAT, label: t.dbkey.replace(/_/g, ' '), format: 'x', category: t.dbkey };
    } else {
      const p = userProperty(name.trim());
      if ('error' in p) return null;
      pr = {
        mode: PRINT_PROP,
        label: p.label,
        format: false,
        prop: { key: p.key, inverse: p.inverse, type: p.inverse ? '_wpg' : typeOfKey(ctx, p.key) },
      };
    }
  }
  pr.format = pr.mode === PRINT_CCAT && format === '' ? 'x' : format;
  if (showMode) pr.label = '';
  if (eq >= 0) pr.label = raw.slice(eq + 1).trim();
  return pr;
}

/** SMWQueryProcessor::addThisPrintout: the subject first, labelled with the main label, unless that is '-'. */
export function addThisPrintout(printRequests: PrintRequest[], mainlabel: string | null): void {
  if (mainlabel === null || mainlabel.trim() !== '-') printRequests.unshift({ mode: PRINT_THIS, label: mainlabel ?? '', format: false });
}

/** PrintRequest::getSerialisation (the further-results link repeats the printouts). */
export function printRequestSerialisation(pr: PrintRequest, codec: TitleCodec): string {
  const fmt = pr.format === false || pr.format === '' ? '' : '#' + pr.format;
  switch (pr.mode) {
    case PRINT_CATS: {
      const cat = codec.nsName(14) ?? 'Category';
      return '?' + cat + (pr.label !== cat ? '=' + pr.label : '');
    }
    case PRINT_CCAT: {
      const name = codec.prefixedText(14, pr.category!);
      return '?' + name + (pr.format !== 'x' ? fmt : '') + (pr.label !== pr.category!.replace(/_/g, ' ') ? '=' + pr.label : '');
    }
    case PRINT_PROP: {
      const name = pr.prop!.key.startsWith('_') ? pr.label : (pr.prop!.inverse ? '-' : '') + pr.prop!.key.replace(/_/g, ' ');
      return '?' + name + fmt + (pr.label !== name ? '=' + pr.label : '');
    }
    default:
      return '?' + fmt + (pr.label !== '' ? '=' + pr.label : '');
  }
}
