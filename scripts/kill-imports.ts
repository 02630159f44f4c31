/**
 * `npm run kill-imports -- [--kills 20] [--pages 5000] [--seed 15]`
 *
 * Issue 15's interrupted-import check: a synthetic wiki of N pages is imported once (the "old" database,
 * its SHA-1 noted), then `wikiquery import` into the same file is started K times and stopped at a random
 * moment of its run — SIGTERM or SIGINT, and every fourth time SIGKILL, which no process can handle. After
 * each: the exit code, whether the old database is byte-identical, and which temporary files are left. A
 * SIGKILLed import leaves its FILE.tmp-<pid> behind; the next import must sweep it, which is checked by a
 * last, uninterrupted import at the end.
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { generateBig } from './generate-big.js';
import { CLI } from './abuse-server.js';
import { Rng } from './random.js';

const sha = (f: string) => crypto.createHash('sha1').update(fs.readFileSync(f)).digest('hex');

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      kills: { type: 'string', default: '20' },
      pages: { type: 'string', default: '5000' },
      seed: { type: 'string', default: '15' },
    },
  });
  const kills = Number(values.kills);
  const rng = new Rng(Number(values.seed));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-kills-'));
  try {
    await generateBig(path.join(dir, 'wiki'), Number(values.pages));
    const dump = path.join(dir, 'wiki', 'dump.xml');
    const db = path.join(dir, 'wiki.sqlite');
    const args = [CLI, 'import', dump, '--db', db];
    const leftovers = () => fs.readdirSync(dir).filter((n) => n.startsWith('wiki.sqlite.tmp-'));

    let t0 = Date.now();
    const first = spawnSync(process.execPath, args, { encoding: 'utf8' });
    if (first.status !== 0) throw new Error(first.stderr);
    const importMs = Date.now() - t0;
    let old = sha(db);
    console.log(
      `kill-imports: ${values.pages} pages, a full import takes ${(importMs / 1000).toFixed(1)} s; old database ${old.slice(0, 12)}`,
    );

    let intact = 0;
    let cleanExits = 0;
    let killed9 = 0;
    let completed = 0;
    // K imports actually interrupted; one that completes before its signal does not count (its database
    // becomes the old one)
    for (let i = 1, tries = 0; i <= kills && tries < kills * 3; tries++) {
      const signal: NodeJS.Signals = i % 4 === 0 ? 'SIGKILL' : rng.chance(0.5) ? 'SIGTERM' : 'SIGINT';
      const at = Math.round(importMs * (0.02 + rng.next() * 0.88));
      t0 = Date.now();
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      const exited = new Promise<{ code: number | null; sig: NodeJS.Signals | null }>((r) =>
        child.on('exit', (code, sig) => r({ code, sig })),
      );
      const timer = setTimeout(() => child.kill(signal), at);
      const { code, sig } = await exited;
      clearTimeout(timer);
      const ms = Date.now() - t0;
      const left = leftovers();
      if (code === 0) {
        completed++;
        old = sha(db);
        console.log(`  (an import completed before its ${signal} at ${(at / 1000).toFixed(2)} s; not counted)`);
        continue;
      }
      const same = sha(db) === old;
      if (same) intact++;
      // its own temporary file (an earlier SIGKILLed import's waits for the next import that gets going)
      const own = left.filter((n) => n === `wiki.sqlite.tmp-${child.pid}`);
      if (signal === 'SIGKILL') killed9++;
      else if (own.length === 0) cleanExits++;
      const phase = (stderr.match(/^(pass \d|files|link indexes|reports|indexes)[^\n]*/gm) ?? []).pop() ?? 'start, pass 1';
      console.log(
        `  #${String(i).padStart(2)} ${signal.padEnd(7)} at ${(at / 1000).toFixed(2)} s (after "${phase.slice(0, 30)}"): ` +
          `exit ${code ?? sig} after ${(ms / 1000).toFixed(2)} s, old database ${same ? 'byte-identical' : 'CHANGED'}, ` +
          `temporary files left: ${left.length ? left.join(' ') : 'none'}`,
      );
      i++;
    }
    const last = spawnSync(process.execPath, [CLI, 'import', dump, '--db', db], { encoding: 'utf8' });
    const swept = (last.stderr.match(/^removed .*$/gm) ?? []).length;
    console.log(
      `result: ${kills} interrupted imports (${killed9} SIGKILL); old database byte-identical ${intact}/${kills}; ` +
        `SIGTERM/SIGINT exits that left no temporary file of their own ${cleanExits}/${kills - killed9}; completed before the signal ${completed}; ` +
        `the next import exited ${last.status}, swept ${swept} stale temporary file(s), left ${leftovers().length}`,
    );
    process.exitCode = intact === kills && cleanExits === kills - killed9 && last.status === 0 && leftovers().length === 0 ? 0 : 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
