/**
 * The semantic importer's work on a page's expanded text, run on the analysis workers (see hooks.ts):
 * its annotations, subobjects and queries. semantic-hook.ts writes them.
 */
import { extractAnnotations, type PageAnnotations } from '../semantic/annotations.js';
import { SEMANTIC_NAMESPACES } from '../semantic/types.js';
import type { HookAnalyzer } from './hooks.js';

/** null: SMW keeps no data for the page (a redirect, or outside the semantic namespaces) */
export const analyzer: HookAnalyzer = (p, text, ctx): PageAnnotations | null =>
  !SEMANTIC_NAMESPACES.has(p.ns) || p.isRedirect ? null : extractAnnotations(text, ctx.codec);
