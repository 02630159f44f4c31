/**
 * A log entry's parameters as the API lists them, back into log_params as MediaWiki stores them (PHP
 * serialize() of the new-style '4::target' keys), so that the logging table of a followed wiki holds what
 * a dump of the upstream would: the log modules show them from there.
 */
import { phpSerialize } from '../demo/dump-xml.js';
import { isoToMw } from '../wiki/timestamps.js';

export function logParamsToRaw(type: string, action: string, params: Record<string, unknown>): string {
  if (type === 'move') {
    const out: Record<string, string> = { '4::target': String(params.target_title ?? '') };
    out['5::noredir'] = params.suppressredirect !== undefined ? '1' : '0';
    return phpSerialize(out);
  }
  if (type === 'newusers') {
    return params.userid !== undefined ? phpSerialize({ '4::userid': Number(params.userid) }) : '';
  }
  if (type === 'delete' && (action === 'delete' || action === 'restore')) return '';
  const entries = Object.entries(params).filter(([, v]) => typeof v === 'string' || typeof v === 'number');
  if (entries.length === 0) return '';
  const out: Record<string, string | number> = {};
  for (const [k, v] of entries)
    out[k] = k === 'img_timestamp' && typeof v === 'string' && v.includes('T') ? isoToMw(v) : (v as string | number);
  return phpSerialize(out);
}
