/**
 * The ceiling `npm run bench` measures wikiquery against: a bare `node:http` server answering a fixed
 * 100-byte JSON body, in its own process, driven by the same load generator with the same settings.
 *
 *   node dist/bench/bare-server.js PORT [PROCESSES] [BYTES]
 *
 * PROCESSES > 1 runs it the way `wikiquery serve --workers N` runs: a node:cluster primary that answers
 * nothing and N workers sharing the port (the same scheduling policy), so `--workers 2` is compared with a
 * bare server of two processes, not of one. Prints `… serving http://127.0.0.1:PORT/` once every process
 * listens; SIGTERM stops the workers and then the primary.
 *
 * BYTES (default 100) pads the body to that size: the seed table's ceiling for an answer of ~100 kB is a
 * bare server writing as many bytes, since the socket copy alone then costs more than a 100-byte request.
 */
import cluster from 'node:cluster';
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 8198);
const processes = Number(process.argv[3] ?? 1);
const bytes = Number(process.argv[4] ?? 100);
if (!Number.isInteger(processes) || processes < 1 || !Number.isInteger(bytes) || bytes < 100) {
  console.error('usage: node dist/bench/bare-server.js PORT [PROCESSES] [BYTES ≥ 100]');
  process.exit(2);
}
// padded with spaces to `bytes` bytes (the title's Cyrillic is two bytes a letter)
const body = Buffer.alloc(bytes, ' ');
body.write(JSON.stringify({ batchcomplete: '', query: { pages: { '1': { pageid: 1, ns: 0, title: 'Головна сторінка' } } } }));
const ready = `bare node:http, ${processes} process${processes > 1 ? 'es' : ''}, serving http://127.0.0.1:${port}/\n`;

function serve(onListening: () => void): void {
  createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
    res.end(body);
  }).listen(port, '127.0.0.1', onListening);
}

if (processes === 1) {
  serve(() => process.stdout.write(ready));
} else if (cluster.isPrimary) {
  let listening = 0;
  let exited = 0;
  let stopping = false;
  cluster.on('listening', () => {
    if (++listening === processes) process.stdout.write(ready);
  });
  cluster.on('exit', () => {
    exited++;
    // a worker that dies on its own would leave the measurement with fewer processes than its label says
    if (!stopping) process.exit(1);
    if (exited === processes) process.exit(0);
  });
  process.once('SIGTERM', () => {
    stopping = true;
    for (const w of workers) w.process.kill('SIGTERM');
  });
  const workers = Array.from({ length: processes }, () => cluster.fork());
} else {
  serve(() => {});
}
