/**
 * Interface messages through the wikitext engine: Message::text() is Message::plain() with its {{…}}
 * transformed (MessageCache::transform → Parser::transformMsg → Parser::preprocess), and that
 * transformation is the page preprocessor's, in the message's language: {{PLURAL}}, {{GRAMMAR}} and
 * {{formatnum}} follow the user language, {{int:}} reads other messages of it, {{PAGENAME}} names the title
 * the message is shown for, templates come from the wiki. The lookup itself is MessageCache's, in
 * src/wiki/messages.ts.
 */
import { htmlspecialchars } from '../wiki/html.js';
import { MEDIAWIKI_VERSION } from '../wiki/wiki.js';
import type { Messages, RenderTitle } from '../wiki/messages.js';
import type { PreprocessContext } from './preprocessor/context.js';
import { expandWikitext } from './preprocessor/index.js';
import { pageContext, sharedTreeCache } from './expansion-rounds.js';

/** {{CURRENTVERSION}} and its uk/ru synonyms: the only variable of the live wiki a message may need */
const VERSION_WORDS = new Set(['CURRENTVERSION', 'ПОТОЧНА_ВЕРСІЯ', 'ТЕКУЩАЯ_ВЕРСИЯ']);
const versionVariable = (word: string): string | undefined => (VERSION_WORDS.has(word) ? MEDIAWIKI_VERSION : undefined);

/** Message::text(): $1… replaced, then {{…}} transformed for `title` in language `code`. */
export function messageText(messages: Messages, key: string, args: readonly string[], code: string, title: RenderTitle): string {
  const s = messages.withParameters(key, args, code);
  if (s === false) return '&lt;' + htmlspecialchars(key) + '&gt;';
  return transformMessage(messages, s, code, title);
}

/** MessageCache::transform: the text preprocessed in language `code` when it holds a "{{". */
export function transformMessage(messages: Messages, text: string, code: string, title: RenderTitle): string {
  if (!text.includes('{{')) return text;
  const env = messages.env;
  const own: Omit<PreprocessContext, keyof ReturnType<typeof pageContext>> = {
    siteName: env.siteName,
    now: new Date(),
    treeCache: sharedTreeCache,
    variable: versionVariable,
    language: code,
    contentLanguage: env.contentLang,
    interfaceMessage: (key, args) => messages.plain(key, args, code),
    depthLimitError: true,
    // read only when a loop is met: a message read is a store fetch for the loader when it was not prefetched
    templateLoopWarning: () => {
      const loop = messages.get('parser-template-loop-warning', true, env.contentLang);
      return loop === false ? undefined : loop;
    },
  };
  // the page context given these members, not spread into a literal with them: V8 (11.3) promotes such a copy
  const ctx: PreprocessContext = Object.assign(
    pageContext(env.codec, title, {
      template: (t) => {
        const page = env.fetchTemplate(t.ns, t.dbkey);
        return page === null ? null : { text: page, ns: t.ns, dbkey: t.dbkey };
      },
      // a message's {{#ifexist:}} reads the page as a transclusion would (one kind of fetch for the loader)
      exists: (t) => env.fetchTemplate(t.ns, t.dbkey) !== null,
    }),
    own,
  );
  return expandWikitext(text, ctx).text;
}
