/**
 * The ceiling `npm run bench` measures wikiquery against: a bare `node:http` server answering a fixed
 * 100-byte JSON body, in its own process, driven by the same load generator with the same settings.
 */
import { createServer } from 'node:http';

const body = Buffer.from(JSON.stringify({ batchcomplete: '', query: { pages: { '1': { pageid: 1, ns: 0, title: 'Головна сторінка' } } } }).padEnd(100, ' '));
const port = Number(process.argv[2] ?? 8198);
createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': body.length });
  res.end(body);
}).listen(port, '127.0.0.1');
