/**
 * Article::getRedirectHeaderHtml of 1.25 (Article.php:1480-1506), which WikitextContent::fillParserOutput
 * (WikitextContent.php:327-348) puts before the rendered text of a redirect: the `redirectto` message and
 * a Linker::link to the target with `redirect=no` (a missing target is a red link: action=edit&redlink=1
 * after it; one on another wiki an interwiki link).
 */
import type { RedirectTarget } from '../redirect.js';
import { escapeHtml, escapeId } from '../sanitizer.js';
import { linkKey, type RenderEnv } from './env.js';
import { wfUrlencode } from '../../wiki/files.js';
import { replaceParameters } from '../../wiki/messages.js';

export function redirectHeaderHtml(target: RedirectTarget, env: RenderEnv): string {
  const codec = env.codec;
  const frag = target.fragment ? `#${escapeId(target.fragment, true)}` : '';
  let link: string;
  if (target.interwiki !== undefined) {
    const shown = `${target.interwiki}:${target.dbkey.replace(/_/g, ' ')}`;
    const url = env.interwiki?.url(target.interwiki, target.dbkey) ?? '';
    // Title::getLocalURL of an interwiki title: wfAppendQuery on its URL
    const href = `${url}${url.includes('?') ? '&' : '?'}redirect=no${frag}`;
    link = `<a href="${escapeHtml(href)}" class="extiw" title="${escapeHtml(shown)}">${escapeHtml(shown + (target.fragment ? `#${target.fragment}` : ''))}</a>`;
  } else {
    const prefixed = codec.prefixedText(target.ns, target.dbkey);
    const shown = escapeHtml(prefixed + (target.fragment ? `#${target.fragment}` : ''));
    const base = `/index.php?title=${wfUrlencode(codec.prefixedDbKey(target.ns, target.dbkey))}&amp;redirect=no`;
    const page = env.pages.get(linkKey(target.ns, target.dbkey));
    if (page) {
      const cls = page.redirect ? ' class="mw-redirect"' : '';
      link = `<a href="${base}${frag}"${cls} title="${escapeHtml(prefixed)}">${shown}</a>`;
    } else {
      const title = escapeHtml(replaceParameters(env.messages['red-link-title'], [prefixed]));
      link = `<a href="${base}&amp;action=edit&amp;redlink=1" class="new" title="${title}">${shown}</a>`;
    }
  }
  return `<div class="redirectMsg"><p>${escapeHtml(env.messages.redirectto)}</p><ul class="redirectText"><li>${link}</li></ul></div>`;
}
