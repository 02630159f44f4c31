/**
 * What one request accumulates while modules run: the result tree, the parameters read so far (for the
 * unrecognized-parameter warning), warnings by module, the cache mode, volatility and the debug log.
 * ApiMain creates it; module contexts are made from it. It knows nothing of ApiMain, so debuginfo and
 * main can both read it without importing each other.
 */
import { ApiError } from './errors.js';
import { ApiResult, CONTENT, type Obj } from './result.js';
import { extractParams, type ValidationSink } from './params.js';
import type { CacheMode, CoreContext, ModuleBase, ModuleContext, ModuleDirectory, ParamDecls, Params, RequestInfo } from './types.js';
import type { Store } from '../store/store.js';
import type { Wiki } from '../wiki/wiki.js';
import { DEFAULT_MAX_RESULT_SIZE, ResultSizeBudget, valueSize } from './result-size.js';

/** Per-request state shared by the core and the modules' contexts. */
export class RequestState {
  readonly result = new ApiResult();
  /** the request's parameters some module has read; the printer's own are never unrecognized (printerParams) */
  readonly used = new Set<string>();
  private warnings: Map<string, Obj> | null = null;
  private warningLines: Map<string, string[]> | null = null;
  cacheMode: CacheMode = 'private';
  /** clock: valid until the second ends; client: per client; always: a new answer every time (list=random) */
  readonly volatility = { clock: false, client: false, always: false };
  readonly log: Array<{ msg: string; type: string; caller: string }> = [];
  readonly debugLog: string[] = [];
  /** ModuleContext.compactJson: set once the printer is known, before any module runs */
  compactJson: 'ascii' | 'utf8' | null = null;
  /** ModuleContext.formatVersion, set with compactJson */
  formatVersion: 1 | 2 = 1;

  constructor(
    readonly request: RequestInfo,
    readonly wiki: Wiki,
    readonly store: Store,
    readonly lacksSameOriginSecurity: boolean,
    maxResultSize = DEFAULT_MAX_RESULT_SIZE,
    /** CoreContext.newContinuationByDefault */
    readonly newContinuationByDefault = false,
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
    // the text's lines so far; a text is added once (ApiResult's setWarning)
    this.warningLines ??= new Map();
    let lines = this.warningLines.get(module);
    if (lines === undefined) this.warningLines.set(module, (lines = (w.warnings as string).split('\n')));
    if (!lines.includes(text)) {
      w.warnings = (w.warnings as string) + '\n' + text;
      for (const line of text.split('\n')) lines.push(line);
    }
  }

  get hasWarnings(): boolean {
    return this.warnings !== null;
  }

  getWarnings(): Map<string, Obj> | null {
    return this.warnings;
  }

  sink(module: string): ValidationSink {
    return new ModuleSink(this, module);
  }

  /** A module's context: its params are validated here. */
  context(module: { name: string; prefix: string; params: ParamDecls }, encPrefix = module.prefix): ModuleContext {
    const ctx = new Context(this, module.name, encPrefix);
    ctx.params = extractParams(
      module.params,
      encPrefix,
      { raw: this.request.raw, used: this.used, namespaces: this.wiki.namespaceIds },
      ctx,
    );
    return ctx;
  }

  /** The context of one of the framework's own modules: it may describe and run other modules. */
  coreContext(module: ModuleBase, modules: ModuleDirectory): CoreContext {
    const ctx = new CoreModuleContext(this, module.name, module.prefix, modules);
    ctx.params = extractParams(
      module.params,
      module.prefix,
      { raw: this.request.raw, used: this.used, namespaces: this.wiki.namespaceIds },
      ctx,
    );
    return ctx;
  }
}

/** The validation sink of the main parameters (and of anything else not run as a module). */
class ModuleSink implements ValidationSink {
  constructor(
    private readonly state: RequestState,
    private readonly module: string,
  ) {}

  warn(text: string): void {
    this.state.warn(this.module, text);
  }

  setLimit(value: number): void {
    this.state.result.object('limits')[this.module] = value;
  }
}

const NO_PARAMS: Params = {};

/**
 * A module's context, also the sink of its parameters' warnings. Methods live on the prototype: a
 * request makes a context per module, and closures for each member cost more than the module's own work
 * on small answers. The query submodules' members (pageSet, generator, setContinue) are declared here
 * so that setting them keeps the object's shape.
 */
class Context implements ModuleContext, ValidationSink {
  params: Params = NO_PARAMS;
  readonly result: ApiResult;
  readonly store: Store;
  readonly wiki: Wiki;
  readonly request: RequestInfo;
  readonly lacksSameOriginSecurity: boolean;
  readonly compactJson: 'ascii' | 'utf8' | null;
  readonly formatVersion: 1 | 2;
  pageSet: unknown = undefined;
  generator: unknown = undefined;
  setContinue: unknown = undefined;

  constructor(
    protected readonly state: RequestState,
    private readonly moduleName: string,
    private readonly encPrefix: string,
  ) {
    this.result = state.result;
    this.store = state.store;
    this.wiki = state.wiki;
    this.request = state.request;
    this.lacksSameOriginSecurity = state.lacksSameOriginSecurity;
    this.compactJson = state.compactJson;
    this.formatVersion = state.formatVersion;
  }

  markVolatile(on: 'clock' | 'client' | 'always'): void {
    this.state.volatility[on] = true;
  }

  warn(text: string): void {
    this.state.warn(this.moduleName, text);
  }

  setLimit(value: number): void {
    this.state.result.object('limits')[this.moduleName] = value;
  }

  die(code: string, info: string, extra?: Record<string, unknown>): never {
    throw new ApiError(this.encPrefix + code, info, extra);
  }

  encodeParamName(name: string): string {
    return this.encPrefix + name;
  }
}

class CoreModuleContext extends Context implements CoreContext {
  constructor(
    state: RequestState,
    moduleName: string,
    encPrefix: string,
    readonly modules: ModuleDirectory,
  ) {
    super(state, moduleName, encPrefix);
    this.newContinuationByDefault = state.newContinuationByDefault;
  }

  readonly newContinuationByDefault: boolean;

  submoduleContext(m: ModuleBase, encPrefix: string): ModuleContext {
    return this.state.context(m, encPrefix);
  }

  warnAs(name: string, text: string): void {
    this.state.warn(name, text);
  }

  setCacheMode(mode: CacheMode): void {
    this.state.cacheMode = mode;
  }
}
