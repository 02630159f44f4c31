/**
 * The write modules of 1.25 as this read-only wiki answers them: declared with their 1.25 parameters
 * (paraminfo lists them, and `serve --upstream` can forward them), refused by the core in 1.25's order
 * (ApiMain::setupModule's token checks, then checkExecutePermissions' `readonly`, then the POST check).
 */
import { ApiError } from '../../api/errors.js';
import type { ParamDecl, ParamDecls, PlainActionModule } from '../../api/types.js';
import { DEFAULT_READ_ONLY_REASON } from '../../wiki/users.js';

export interface WriteModuleDecl {
  name: string;
  description: string;
  params: ParamDecls;
  /** ApiBase::needsToken: the token type (csrf, watch, patrol, rollback, userrights) */
  needsToken?: string;
  /** default true, as nearly every write module of 1.25 */
  mustBePosted?: boolean;
  className: string;
  /** default true (ApiBase::isReadMode) */
  readRights?: boolean;
  internal?: boolean;
  examples?: string[];
}

/** ApiBase::getFinalParams' token: required, a string; where the module declares `token` it stays in place */
const TOKEN: ParamDecl = { type: 'string', required: true, help: 'A token retrieved from action=query&meta=tokens' };

/** the `watchlist` parameter several write modules share */
export const WATCHLIST_PARAM: ParamDecl = {
  type: ['watch', 'unwatch', 'preferences', 'nochange'],
  default: 'preferences',
  help: "Unconditionally add or remove the page from the current user's watchlist, use preferences or do not change watch.",
};

export function writeModule(decl: WriteModuleDecl): PlainActionModule {
  const params: ParamDecls = {};
  for (const [name, d] of Object.entries(decl.params)) params[name] = name === 'token' && decl.needsToken !== undefined ? TOKEN : d;
  if (decl.needsToken !== undefined && params.token === undefined) params.token = TOKEN;
  return {
    kind: 'action',
    name: decl.name,
    prefix: '',
    description: decl.description,
    params,
    className: decl.className,
    readRights: decl.readRights ?? true,
    internal: decl.internal,
    writeMode: true,
    mustBePosted: decl.mustBePosted ?? true,
    needsToken: decl.needsToken,
    examples: decl.examples,
    run() {
      // the core refuses every write module before it runs; this stays true if that ever changes
      throw new ApiError('readonly', 'The wiki is currently in read-only mode', { readonlyreason: DEFAULT_READ_ONLY_REASON });
    },
  };
}

/** the `token` of a module that declares it among its parameters (edit, rollback, userrights): it stays there */
export const TOKEN_IN_PLACE: ParamDecl = TOKEN;
