/**
 * What one request accumulates while modules run: the result tree, the parameters read so far (for the
 * unrecognized-parameter warning), warnings by module, the cache mode, volatility and the debug log.
 * ApiMain creates it; module contexts are made from it. It knows nothing of ApiMain, so debuginfo and
 * main can both read it without importing each other.
 */
import { ApiError } from './errors.js';
import { ApiResult, CONTENT, type Obj } from './result.js';
import { extractParams, type ValidationSink } from './params.js';
import { PRINTER_PARAMS } from './format/printer.js';
import type { CacheMode, CoreContext, ModuleBase, ModuleContext, ModuleDirectory, ParamDecls, RequestInfo } from './types.js';
import type { Store } from '../store/store.js';
import type { Wiki } from '../wiki/wiki.js';
import { DEFAULT_MAX_RESULT_SIZE, ResultSizeBudget, valueSize } from './result-size.js';

/** Per-request state shared by the core and the modules' contexts. */
export class RequestState {
  readonly result = new ApiResult();
  readonly used = new Set<string>(PRINTER_PARAMS);
  private warnings: Map<string, Obj> | null = null;
  cacheMode: CacheMode = 'private';
  /** clock: valid until the second ends; client: per client; always: a new answer every time (list=random) */
  readonly volatility = { clock: false, client: false, always: false };
  readonly log: Array<{ msg: string; type: string; caller: string }> = [];
  readonly debugLog: string[] = [];

  constructor(
    readonly request: RequestInfo,
    readonly wiki: Wiki,
    readonly store: Store,
    readonly isJsonp: boolean,
    maxResultSize = DEFAULT_MAX_RESULT_SIZE,
  ) {
    // $wgAPIMaxResultSize: what the answer held before the first checked value (page set entries,
    // normalized titles) counts too, as in 1.25
    this.result.sizeBudget = new ResultSizeBudget(
      maxResultSize,
      () => valueSize(this.result.get('query') ?? null),
      (text) => this.warn('result', text),
    );
  }

  warn(module: string, text: string): void {
    if (this.warnings === null) {
      this.warnings = new Map();
      this.result.prepend('warnings', this.warnings);
    }
    let w = this.warnings.get(module);
    if (!w) {
      w = { [CONTENT]: 'warnings', warnings: text };
      this.warnings.set(module, w);
      return;
    }
    const prev = (w.warnings as string).split('\n');
    if (!prev.includes(text)) w.warnings = prev.concat(text).join('\n');
  }

  get hasWarnings(): boolean {
    return this.warnings !== null;
  }

  getWarnings(): Map<string, Obj> | null {
    return this.warnings;
  }

  sink(module: string): ValidationSink {
    return {
      warn: (t) => this.warn(module, t),
      setLimit: (v) => {
        const limits = this.result.object('limits');
        limits[module] = v;
      },
    };
  }

  /** A module's context: its params are validated here. */
  context(module: { name: string; prefix: string; params: ParamDecls }, encPrefix = module.prefix): ModuleContext {
    const params = extractParams(module.params, encPrefix, { raw: this.request.raw, used: this.used, namespaces: this.wiki.namespaceIds }, this.sink(module.name));
    return {
      params,
      result: this.result,
      store: this.store,
      wiki: this.wiki,
      request: this.request,
      isJsonp: this.isJsonp,
      markVolatile: (on) => {
        this.volatility[on] = true;
      },
      warn: (t) => this.warn(module.name, t),
      die: (code, info, extra) => {
        throw new ApiError(encPrefix + code, info, extra);
      },
      encodeParamName: (n) => encPrefix + n,
    };
  }

  /** The context of one of the framework's own modules: it may describe and run other modules. */
  coreContext(module: ModuleBase, modules: ModuleDirectory): CoreContext {
    return Object.assign(this.context(module), {
      modules,
      submoduleContext: (m: ModuleBase, encPrefix: string) => this.context(m, encPrefix),
      warnAs: (name: string, text: string) => this.warn(name, text),
      setCacheMode: (mode: CacheMode) => {
        this.cacheMode = mode;
      },
    });
  }
}
