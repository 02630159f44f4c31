/**
 * The reference MediaWiki the follow tests change (../shared/reference/mediawiki-oracle/, installed and
 * started by .ci/run on a port of its own): found through WIKIQUERY_TEST_UPSTREAM_API (its api.php),
 * WIKIQUERY_TEST_UPSTREAM_DATA (its data dir) and WIKIQUERY_TEST_UPSTREAM_SCRIPTS (the scripts' folder);
 * without them the follow tests are skipped. A bot password for the admin account is made with the
 * wiki's own maintenance script (as root, through mw.sh), and the tests edit, move, delete, upload and
 * create accounts through the API with it, as a bot would.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export interface UpstreamWikiEnv {
  api: string;
  data: string;
  scripts: string;
}

/** The reference wiki from the environment, or the reason the follow tests are skipped. */
export function upstreamWikiEnv(): UpstreamWikiEnv | string {
  const api = process.env.WIKIQUERY_TEST_UPSTREAM_API;
  const data = process.env.WIKIQUERY_TEST_UPSTREAM_DATA;
  const scripts = process.env.WIKIQUERY_TEST_UPSTREAM_SCRIPTS;
  if (!api || !data || !scripts) {
    return 'no reference MediaWiki: set WIKIQUERY_TEST_UPSTREAM_API, _DATA and _SCRIPTS (.ci/run starts one from ../shared/reference/mediawiki-oracle/)';
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0)
    return "the reference MediaWiki's maintenance scripts run as root (mw.sh)";
  return { api, data, scripts };
}

/** Runs a maintenance script of the reference wiki (mw.sh), returning its output. */
export function maintenance(env: UpstreamWikiEnv, script: string, ...args: string[]): string {
  return execFileSync('bash', [path.join(env.scripts, 'mw.sh'), script, ...args], {
    env: Object.assign({}, process.env, { REFWIKI_DATA: env.data }),
    encoding: 'utf8',
    timeout: 120_000,
    maxBuffer: 512 * 1024 * 1024,
  });
}

/** A new bot password of the admin account with the grants the tests use: `{user: 'Admin@appid', password}`. */
export function makeBotPassword(env: UpstreamWikiEnv): { user: string; password: string } {
  const appid = `wq${randomBytes(4).toString('hex')}`;
  const password = randomBytes(20).toString('hex');
  maintenance(
    env,
    'createBotPassword.php',
    '--appid',
    appid,
    '--grants',
    'basic,highvolume,editpage,createeditmovepage,delete,uploadfile,uploadeditmovefile,createaccount,editinterface,editprotected',
    'Admin',
    password,
  );
  return { user: `Admin@${appid}`, password };
}

type Params = Record<string, string | number | boolean | Blob | undefined>;

/** A logged-in API session on the reference wiki that changes it. */
export class UpstreamEditor {
  private readonly cookies = new Map<string, string>();
  private csrf = '';

  constructor(readonly api: string) {}

  static async login(api: string, user: string, password: string): Promise<UpstreamEditor> {
    const editor = new UpstreamEditor(api);
    const t = await editor.post({ action: 'query', meta: 'tokens', type: 'login' });
    const login = await editor.post({ action: 'login', lgname: user, lgpassword: password, lgtoken: t.query.tokens.logintoken });
    if (login.login?.result !== 'Success') throw new Error(`login failed: ${JSON.stringify(login)}`);
    const c = await editor.post({ action: 'query', meta: 'tokens' });
    editor.csrf = c.query.tokens.csrftoken;
    return editor;
  }

  async post(params: Params): Promise<any> {
    const form = new FormData();
    form.set('format', 'json');
    for (const [k, v] of Object.entries(params)) {
      if (v === undefined || v === false) continue;
      if (v instanceof Blob) form.set(k, v, String(params.filename ?? 'file'));
      else form.set(k, v === true ? '1' : String(v));
    }
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.api, { method: 'POST', body: form, headers, signal: AbortSignal.timeout(60_000) });
    for (const line of res.headers.getSetCookie()) {
      const m = /^([^=;\s]+)=([^;]*)/.exec(line);
      if (m) this.cookies.set(m[1], m[2]);
    }
    const json = await res.json();
    if (json.error) throw new Error(`${String(params.action)}: ${json.error.code}: ${json.error.info}`);
    return json;
  }

  edit(title: string, text: string, summary = '', minor = false): Promise<unknown> {
    return this.post({ action: 'edit', title, text, summary, minor, bot: true, token: this.csrf });
  }

  move(from: string, to: string, noredirect = false): Promise<unknown> {
    return this.post({ action: 'move', from, to, reason: 'test move', noredirect, token: this.csrf });
  }

  delete(title: string): Promise<unknown> {
    return this.post({ action: 'delete', title, reason: 'test delete', token: this.csrf });
  }

  undelete(title: string): Promise<unknown> {
    return this.post({ action: 'undelete', title, reason: 'test undelete', token: this.csrf });
  }

  upload(filename: string, bytes: Buffer, comment: string, text?: string): Promise<unknown> {
    return this.post({
      action: 'upload',
      filename,
      comment,
      text,
      ignorewarnings: true,
      file: new Blob([new Uint8Array(bytes)]),
      token: this.csrf,
    });
  }

  async createAccount(username: string): Promise<unknown> {
    const t = await this.post({ action: 'query', meta: 'tokens', type: 'createaccount' });
    const password = randomBytes(12).toString('hex');
    return this.post({
      action: 'createaccount',
      username,
      password,
      retype: password,
      createreturnurl: 'http://127.0.0.1/',
      createtoken: t.query.tokens.createaccounttoken,
    });
  }
}
