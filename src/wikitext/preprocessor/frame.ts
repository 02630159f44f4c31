/** PPFrame_Hash: the expansion context of one template call, its arguments and what it has expanded. */
import type { ArgDef } from './tree.js';

/** The expansion context of one template call (the page itself is the root frame). */
export class Frame {
  /** expanded arguments, by name */
  argCache: Map<string, string> | null = null;
  /** expansions of argument-less template calls made from this frame, by template key */
  childCache: Map<string, string> | null = null;
  constructor(
    readonly parent: Frame | null,
    readonly args: Map<string, ArgDef> | null,
    /** "ns:dbkey" of the template this frame expands; null for the page */
    readonly key: string | null,
    /** template nesting depth (0 for the page) */
    readonly depth: number,
  ) {}

  get isTemplate(): boolean {
    return this.parent !== null;
  }

  get isEmpty(): boolean {
    return this.args === null || this.args.size === 0;
  }

  /** False when `key` is already being expanded further up: a template loop. */
  loopCheck(key: string): boolean {
    for (let f: Frame | null = this; f; f = f.parent) if (f.key === key) return false;
    return true;
  }
}
