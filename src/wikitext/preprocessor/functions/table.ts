/** Parser functions by name, as Parser::setFunctionHook keeps them: case-insensitive unless flagged otherwise. */
import type { ParserFunction, ParserFunctionLookup } from '../expander.js';

export class ParserFunctionTable implements ParserFunctionLookup {
  /** lower-cased names */
  private readonly caseInsensitive = new Map<string, ParserFunction>();
  private readonly caseSensitive = new Map<string, ParserFunction>();

  registerCaseInsensitive(names: readonly string[], fn: ParserFunction): void {
    for (const n of names) this.caseInsensitive.set(n.toLowerCase(), fn);
  }

  registerCaseSensitive(names: readonly string[], fn: ParserFunction): void {
    for (const n of names) this.caseSensitive.set(n, fn);
  }

  parserFunction(name: string): ParserFunction | undefined {
    return this.caseSensitive.get(name) ?? this.caseInsensitive.get(name.toLowerCase());
  }
}
