/**
 * What an API module is: a declaration (name, prefix, parameters as data, help text) plus one run
 * function, as MediaWiki's ApiBase. The core validates the declared parameters before `run` is called.
 */
import type { ApiResult } from './result.js';
import type { Store } from '../store/store.js';
import type { Wiki } from '../wiki/wiki.js';
import type { PageSet } from './pageset.js';
import type { PageRef } from '../store/page-store.js';
import type { SameContentRow } from '../store/file-store.js';
import type { FormatName } from './format/printer.js';

export type ParamType = 'string' | 'integer' | 'limit' | 'boolean' | 'timestamp' | 'namespace' | 'user' | 'text' | 'upload';

export interface ParamDecl {
  /** a type name, or the list of allowed values of an enum */
  type: ParamType | readonly string[];
  default?: string | number | boolean | readonly string[];
  /** '|'-separated (or \x1f-prefixed) list of values */
  multi?: boolean;
  /** duplicates are dropped unless this is set */
  allowDuplicates?: boolean;
  required?: boolean;
  /** for integer and limit types */
  min?: number;
  max?: number;
  /** maximum for bots and sysops (apihighlimits); limits of anonymous users are `max` */
  highmax?: number;
  help: string;
  deprecated?: boolean;
  /**
   * For parameters whose values name modules (action, format, prop, list, meta, generator): value →
   * module path, reported by paraminfo as 1.25's PARAM_TYPE 'submodule' (type = sorted names).
   */
  submodules?: Record<string, string>;
  /** the prefix a submodule's parameters get (generator → 'g') */
  submoduleParamPrefix?: string;
}

export type ParamDecls = Record<string, ParamDecl>;

/** Validated values by unprefixed parameter name. */
export type Params = Record<string, any>;

export interface ModuleBase {
  /** the module name as used in action=, list=, prop=, meta= */
  name: string;
  /** parameter prefix ('ac' for allcategories; '' for action modules) */
  prefix: string;
  description: string;
  params: ParamDecls;
  /** examples for the help page: query strings without 'api.php?' */
  examples?: string[];
  /** 1.25's PHP class name, as paraminfo reports it (default: derived from the module name) */
  className?: string;
  /** documentation pages, as paraminfo's helpurls */
  helpUrls?: string[];
  /** false for modules that need no read right (1.25's isReadMode() === false) */
  readRights?: boolean;
  /** the whole module is deprecated */
  deprecated?: boolean;
  /** ApiBase::isInternal: paraminfo flags it `internal` */
  internal?: boolean;
  /** ApiBase::isWriteMode: it changes the wiki, so this read-only wiki refuses it with `readonly` */
  writeMode?: boolean;
  /** ApiBase::mustBePosted: a GET is refused with `mustbeposted` */
  mustBePosted?: boolean;
  /**
   * ApiBase::needsToken: the token type a `token` parameter (declared last, required) must carry; a token
   * in the query string is refused with `mustposttoken`, a wrong one with `badtoken`
   */
  needsToken?: string;
}

export interface RequestInfo {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** all parameters of the request (query string and body merged) */
  raw: Record<string, string>;
  /** address of the client */
  ip: string;
  /** absolute URL of api.php for this request, e.g. http://127.0.0.1:8080/api.php */
  apiUrl: string;
  /** warnings of the server around the API, under main (a read that waited in vain for the wiki it follows) */
  warnings?: string[];
  /** writes are taken (forwarded to the wiki this one follows: `serve --upstream`): siteinfo's writeapi */
  writeApi?: boolean;
}

/** Everything a module may use; modules never see HTTP or SQL. */
export interface ModuleContext {
  params: Params;
  result: ApiResult;
  store: Store;
  wiki: Wiki;
  request: RequestInfo;
  /** add a warning under this module's name */
  warn(text: string): void;
  /** end the request with an error; the code gets the module's prefix (g + prefix in generator mode) */
  die(code: string, info: string, extra?: Record<string, unknown>): never;
  /** the module's parameter name as the client sees it (prefix + name, with g in generator mode) */
  encodeParamName(name: string): string;
  /**
   * ApiMain::lacksSameOriginSecurity: a JSONP callback or anonymous CORS (`origin=*`) is in use, so the
   * answer may be read by any site: tokens are not handed out then
   */
  lacksSameOriginSecurity: boolean;
  /**
   * The form of a compact JSON answer (format=json, JSONP too): every non-ASCII character escaped, or
   * UTF-8; null when it is pretty-printed (jsonfm). A module may then hand the result an answer printed
   * in that form already (result.ts PrintedJson).
   */
  compactJson: 'ascii' | 'utf8' | null;
  /** the printer's formatversion (`latest` is 2): modules whose values differ by version read it here */
  formatVersion: 1 | 2;
  /**
   * Say that this answer depends on more than the request and the (immutable) database: on the clock
   * (it holds for the current second: the API's times have second resolution) or on the client's
   * address. The response cache then reuses it only within that second, or only for that client.
   */
  markVolatile(on: 'clock' | 'client' | 'always'): void;
}

/** What a custom printer makes of the finished result (ApiFormatRaw and friends). */
export interface CustomPrinter {
  contentType: string;
  /** extra response headers */
  headers?: Record<string, string>;
  /** the printer's own request parameters (never unrecognized); JSON's when not given */
  params?: ReadonlySet<string>;
  /** ApiFormatRaw's error fallback: the format that prints an error of the module (else the format= printer) */
  errorFormat?: FormatName;
  render(result: ApiResult): string | Buffer;
}

interface ActionModuleBase extends ModuleBase {
  kind: 'action';
  /**
   * ApiBase::getCustomPrinter: called before `run`; a printer returned here replaces the format= printer
   * for a successful answer (errors are still printed by the format= printer).
   */
  customPrinter?(ctx: ModuleContext): CustomPrinter | null;
}

/** An ordinary action module: sees its parameters, the result, the store and the wiki. */
export interface PlainActionModule extends ActionModuleBase {
  core?: false;
  run(ctx: ModuleContext): void | Promise<void>;
}

/** The framework's own modules (query, help, paraminfo) also see the other modules and run submodules. */
export interface CoreActionModule extends ActionModuleBase {
  core: true;
  run(ctx: CoreContext): void | Promise<void>;
}

export type ActionModule = PlainActionModule | CoreActionModule;

/** Every module the API offers, and the main module's parameters: what help and paraminfo describe. */
export interface ModuleDirectory {
  actions: readonly ActionModule[];
  query: readonly QueryModule[];
  mainParams: ParamDecls;
}

export interface CoreContext extends ModuleContext {
  modules: ModuleDirectory;
  /** the context of a submodule this module runs (query's prop/list/meta/generator), its params read with `encPrefix` */
  submoduleContext(module: ModuleBase, encPrefix: string): ModuleContext;
  /** add a warning under another module's name (query's continuation warning) */
  warnAs(module: string, text: string): void;
  /** a query without `continue` or `rawcontinue` continues in the new form (`serve --new-continuation`) */
  newContinuationByDefault: boolean;
  /** how the answer may be cached (ApiMain::setCacheMode) */
  setCacheMode(mode: CacheMode): void;
}

export type CacheMode = 'public' | 'private' | 'anon-public-user-private';

/**
 * A page a generator yields: a page id (the page set lists ids in id order, as ApiPageSet's
 * populateFromPageIDs), a title (listed in title order, missing ones under negative keys), a title the
 * generator has already looked up (`page`: its row, or null when it does not exist; listed as a title,
 * without the page set's own lookup), or an existing page row (listed in the order the generator gives,
 * as processDbRow).
 */
export type GeneratedPage = (
  | { pageid: number }
  | { ns: number; dbkey: string }
  | {
      ns: number;
      dbkey: string;
      page: PageRef | null;
      /** a file's duplicates read with it (generator.fileDuplicates asked for them; null: none) */
      duplicates?: SameContentRow[] | null;
    }
  | { row: PageRef }
  /** a revision: the page set lists its page and knows the revision (ApiPageSet::populateFromRevisionIDs) */
  | { revid: number }
) & {
  /** ApiPageSet::setGeneratorData: members added to the page's query.pages entry (search's `index`) */
  data?: Record<string, unknown>;
};

export interface QueryModuleContext extends ModuleContext {
  /** the pages the query works on (titles=, pageids=, or the generator's output): for prop modules */
  pageSet: PageSet;
  /** set when the module runs as a generator: pages go here instead of into the result */
  generator: {
    add(page: GeneratedPage): void;
    /** a module of the query needs the pages whole (needsPageRows) */
    fullRows: boolean;
    /** a module of the query reads the files' duplicates (needsFileDuplicates): a file may come with them */
    fileDuplicates: boolean;
    /** the query resolves redirects (ApiPageSet::isResolvingRedirects) */
    resolvesRedirects: boolean;
  } | null;
  /**
   * the duplicates of the page set's files when the generator brought them with every page it yielded
   * (a file not in the map has none), else null: the module reads them itself
   */
  fileDuplicates: ReadonlyMap<string, SameContentRow[]> | null;
  /** record the continuation value of one of this module's parameters (unprefixed name) */
  setContinue(name: string, value: string | number): void;
  /** limits=max: report the value chosen under result.limits.<module> */
}

export interface QueryModule extends ModuleBase {
  kind: 'prop' | 'list' | 'meta';
  /** may be used as generator=<name> */
  generator?: boolean;
  /**
   * reads the page set's pages whole (PageSet.rows()): a generator of the same query then reads them with
   * its rows instead of their identity alone
   */
  needsPageRows?: boolean;
  /**
   * reads the duplicates of the page set's files (prop=duplicatefiles): a generator that lists files then
   * brings them along (QueryModuleContext.fileDuplicates), saving a statement
   */
  needsFileDuplicates?: boolean;
  cacheMode(params: Params): CacheMode;
  run(ctx: QueryModuleContext): void | Promise<void>;
}

/** A query module as declared: `cacheMode` may be left out by a module whose answers are public (nearly all). */
export type QueryModuleDecl = Omit<QueryModule, 'cacheMode'> & { cacheMode?: QueryModule['cacheMode'] };

const publicCacheMode = (): CacheMode => 'public';

/** A query module from its declaration: one that declares no cacheMode is cached as 'public'. */
export function queryModule(decl: QueryModuleDecl): QueryModule {
  if (decl.cacheMode === undefined) decl.cacheMode = publicCacheMode;
  return decl as QueryModule;
}

export type AnyModule = ActionModule | QueryModule;
