/**
 * `npm start`: builds only when dist/ is missing or older than a source file, then serves the demo wiki in
 * this very process (dist/src/cli/start-demo.js), so that the server runs in the foreground: npm hands a
 * supervisor's SIGTERM or a terminal's Ctrl-C to this process, and the server stops gracefully on it.
 * Plain JavaScript: it runs before anything is compiled. Arguments after `npm start --` are serve's options.
 */
import { spawnSync } from 'node:child_process';
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = path.join(root, 'dist', 'src', 'cli', 'start-demo.js');

/** The newest modification time of what the build compiles for serving (src/ and the build's settings). */
function newestSource() {
  let newest = 0;
  for (const file of ['package.json', 'tsconfig.json']) newest = Math.max(newest, fs.statSync(path.join(root, file)).mtimeMs);
  for (const name of fs.readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })) {
    if (name.endsWith('.ts')) newest = Math.max(newest, fs.statSync(path.join(root, 'src', name)).mtimeMs);
  }
  return newest;
}

// the workers of the cluster run this script again: the primary has built what they run
if (cluster.isPrimary) {
  const built = fs.statSync(entry, { throwIfNoEntry: false });
  if (built === undefined || built.mtimeMs < newestSource()) {
    // the compiler's output on stderr: stdout carries only the ready line
    const build = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (build.status !== 0) {
      process.stderr.write(`wikiquery: npm run build failed (exit ${build.status ?? build.signal})\n`);
      process.exit(1);
    }
  }
}
await import(pathToFileURL(entry).href);
