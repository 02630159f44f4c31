/**
 * One continuation mechanism for action=query (ApiContinuationManager of 1.25), rendering all three
 * forms: raw `query-continue` (with the "will be changing soon" warning unless `rawcontinue`), and the
 * `continue` object with `batchcomplete` when the client sent `continue`.
 */
import { ApiError, texts } from './errors.js';
import type { ApiResult } from './result.js';

/** the empty map of a manager that was given nothing (never written: the add methods make their own) */
const NO_DATA: ReadonlyMap<string, Map<string, string | number>> = new Map();
const NO_PARAMS: ReadonlyMap<string, string> = new Map();

export class ContinuationManager {
  // every request to action=query makes one: the sets and maps below are made when first needed

  /** modules that are skipped because the client's `continue` says they are done */
  private readonly skip: Set<string> | null = null;
  /** generator params copied back while prop modules work through the same generator batch */
  private readonly generatorParams: ReadonlyMap<string, string> = NO_PARAMS;
  private readonly generatorDone: boolean;
  private data: ReadonlyMap<string, Map<string, string | number>> = NO_DATA;
  private generatorData: ReadonlyMap<string, Map<string, string | number>> = NO_DATA;
  /** modules that ran (or were skipped), in request order: prop, list, meta */
  private readonly modules: string[];

  /**
   * @param continueParam the `continue` request value (undefined = raw mode)
   * @param allModules names of the prop, list and meta modules of the request, in that order
   * @param generatedModules names of the prop modules working on a generator's output
   */
  constructor(
    readonly continueParam: string | undefined,
    allModules: string[],
    private readonly generatedModules: string[],
    raw: Record<string, string>,
  ) {
    this.modules = allModules;
    let generatorDone = false;
    if (continueParam !== undefined && continueParam !== '') {
      const parts = continueParam.split('||');
      if (parts.length !== 2) throw new ApiError('badcontinue', texts.badContinue());
      generatorDone = parts[0] === '-';
      const skip = (this.skip = new Set<string>());
      for (const m of parts[1].split('|')) if (m !== '') skip.add(m);
      if (generatorDone) for (const m of generatedModules) skip.add(m);
      else {
        const params = (this.generatorParams = new Map<string, string>());
        for (const p of parts[0].split('|')) if (p !== '' && raw[p] !== undefined) params.set(p, raw[p]);
      }
    }
    this.generatorDone = generatorDone;
  }

  get isRawMode(): boolean {
    return this.continueParam === undefined;
  }

  isGeneratorDone(): boolean {
    return this.generatorDone;
  }

  isSkipped(module: string): boolean {
    return this.skip?.has(module) === true;
  }

  addContinue(module: string, encodedName: string, value: string | number): void {
    const data = this.data === NO_DATA ? (this.data = new Map()) : (this.data as Map<string, Map<string, string | number>>);
    let m = data.get(module);
    if (!m) data.set(module, (m = new Map()));
    m.set(encodedName, value);
  }

  addGeneratorContinue(module: string, encodedName: string, value: string | number): void {
    const data =
      this.generatorData === NO_DATA ? (this.generatorData = new Map()) : (this.generatorData as Map<string, Map<string, string | number>>);
    let m = data.get(module);
    if (!m) data.set(module, (m = new Map()));
    m.set(encodedName, value);
  }

  get hasContinuation(): boolean {
    return this.data.size > 0 || this.generatorData.size > 0;
  }

  /** Write the continuation into the result, in the form the client asked for. */
  writeInto(result: ApiResult, rawcontinue: boolean, warnQuery: (text: string) => void): void {
    if (this.isRawMode) {
      if (!this.hasContinuation) return;
      const out: Record<string, Record<string, string | number>> = {};
      // a module's values merged into one object (a generator's after its own, as MediaWiki merges them)
      for (const src of [this.data, this.generatorData])
        for (const [module, kv] of src) {
          const o = (out[module] ??= {});
          for (const [k, v] of kv) o[k] = v;
        }
      result.prepend('query-continue', out);
      if (!rawcontinue) warnQuery(texts.rawContinueWarning());
      return;
    }
    const { data, batchcomplete } = this.continuation();
    if (data) result.prepend('continue', data);
    if (batchcomplete) result.prepend('batchcomplete', true);
  }

  private continuation(): { data: Record<string, string | number> | null; batchcomplete: boolean } {
    const data: Record<string, string | number> = {};
    let batchcomplete = false;
    let finished = this.modules.filter((m) => !this.data.has(m));
    const generated = new Set(this.generatedModules);
    for (const [module, kv] of this.data) if (!generated.has(module)) for (const [k, v] of kv) if (!(k in data)) data[k] = v;
    const unfinishedGenerated = [...this.data.keys()].filter((m) => generated.has(m));
    let generatorParams: string[];
    if (unfinishedGenerated.length) {
      // Prop modules still work through this generator batch: re-send the same generator position.
      for (const m of unfinishedGenerated) for (const [k, v] of this.data.get(m)!) if (!(k in data)) data[k] = v;
      for (const [k, v] of this.generatorParams) if (!(k in data)) data[k] = v;
      generatorParams = [...this.generatorParams.keys()];
    } else if (this.generatorData.size) {
      // Props are done with this batch, the generator is not: move it on and restart the props.
      generatorParams = [];
      for (const kv of this.generatorData.values())
        for (const [k, v] of kv) {
          generatorParams.push(k);
          if (!(k in data)) data[k] = v;
        }
      finished = finished.filter((m) => !generated.has(m));
      batchcomplete = true;
    } else {
      generatorParams = ['-'];
      batchcomplete = true;
    }
    if (Object.keys(data).length === 0) return { data: null, batchcomplete };
    data.continue = generatorParams.join('|') + '||' + finished.join('|');
    return { data, batchcomplete };
  }
}
