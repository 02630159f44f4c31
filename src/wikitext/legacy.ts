/**
 * The one bridge from the new engine to the wikitext code that still lives under src/importer/wikitext/
 * (it is being edited by other work; the move of those files into src/wikitext/ is the next step, after
 * which this file disappears). Nothing else in src/wikitext/ reaches into the importer.
 */
export { expandWikitext, TemplateTreeCache, type PreprocessContext, type ExpandResult } from './preprocessor.js';
export { DOUBLE_UNDERSCORES } from '../importer/wikitext/magic-words.js';
