/**
 * Users as this server knows them: everyone is anonymous (the HTTP surface is read-only, there is no
 * login), member of the implicit group '*', with only the right to read.
 */
export const ANON_GROUPS = ['*'];
export const ANON_RIGHTS = ['read'];

/** The user right each action=tokens type needs (ApiQueryInfo::get*Token of 1.25). */
export const TOKEN_RIGHTS: Record<string, string> = {
  block: 'block',
  unblock: 'block',
  delete: 'delete',
  edit: 'edit',
  email: 'sendemail',
  import: 'import',
  move: 'move',
  options: 'editmyoptions',
  patrol: 'patrol',
  protect: 'protect',
  watch: 'editmywatchlist',
};

/** $wgReadOnly of the served wiki: the `readonlyreason` of every write module's `readonly` error */
export const DEFAULT_READ_ONLY_REASON = 'This wiki is served read-only: it is a copy of its MediaWiki, answering only the read API.';

/** Every token of an anonymous user (EDIT_TOKEN_SUFFIX): meta=tokens hands it out, write modules accept it */
export const ANON_TOKEN = '+\\';
