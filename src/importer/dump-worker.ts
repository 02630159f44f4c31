/**
 * Pass 1's reading on a thread of its own (dump-thread.ts starts it): decompression, XML parsing and
 * (while the main thread has more to do than this one) the encoding of revision texts for revision_text
 * happen off the main thread, which writes rows. Items go to the main thread in batches; at most MAX_UNACKED batches are unconsumed at a time,
 * so memory stays bounded whatever the dump's size.
 */
import { parentPort, workerData } from 'node:worker_threads';
import crypto from 'node:crypto';
import { readDump, DumpError } from './dump-reader.js';
import { DumpSourceError } from './dump-source.js';
import { encodeRevisionText } from '../store/open.js';
import { sha1HexToBase36 } from '../wiki/files.js';
import { encodeItem, type DumpWorkerData, type DumpWorkerMessage } from './dump-thread.js';

/** items per message, and text bytes after which a batch goes out early */
const BATCH_ITEMS = 256;
const BATCH_BYTES = 1 << 20;
const MAX_UNACKED = 4;

const port = parentPort!;
const { file } = workerData as DumpWorkerData;
let unacked = 0;
let wake: (() => void) | null = null;
port.on('message', () => {
  unacked--;
  wake?.();
  wake = null;
});

let values: unknown[] = [];
let transfer: ArrayBuffer[] = [];
let items = 0;
let bytes = 0;
let bytesRead = 0;

async function send(): Promise<void> {
  if (items === 0) return;
  port.postMessage({ kind: 'items', values, bytesRead } satisfies DumpWorkerMessage, transfer);
  values = [];
  transfer = [];
  items = 0;
  bytes = 0;
  unacked++;
  while (unacked >= MAX_UNACKED) await new Promise<void>((r) => (wake = r));
}

try {
  for await (const item of readDump(file, {
    onBytes: (b) => (bytesRead = b),
    onWarning: (message) => port.postMessage({ kind: 'warning', message } satisfies DumpWorkerMessage),
  })) {
    // a text is deflated here while the main thread is behind (batches wait for it), else there: the
    // same bytes either way, and neither thread idles while the other has both jobs
    if (item.type === 'revision' && item.revision.text !== null && unacked >= 2) {
      // the page item that follows keeps the latest text itself: this one travels encoded only
      const rev = item.revision;
      const text = rev.text!;
      const sha1 = rev.sha1 !== '' ? rev.sha1 : sha1HexToBase36(crypto.createHash('sha1').update(text).digest('hex'));
      const len = Buffer.byteLength(text, 'utf8');
      const encoded = encodeRevisionText(text);
      transfer.push(encoded.buffer as ArrayBuffer);
      encodeItem(values, item, { encoded, len, sha1 });
      bytes += len;
    } else {
      if (item.type === 'page') bytes += item.page.latest.text?.length ?? 0;
      if (item.type === 'revision') bytes += item.revision.text?.length ?? 0;
      encodeItem(values, item);
    }
    if (++items >= BATCH_ITEMS || bytes >= BATCH_BYTES) await send();
  }
  await send();
  port.postMessage({ kind: 'end' } satisfies DumpWorkerMessage);
} catch (e) {
  const err = e as Error & Partial<DumpError>;
  port.postMessage({
    kind: 'error',
    error: {
      name: e instanceof DumpError ? 'DumpError' : e instanceof DumpSourceError ? 'DumpSourceError' : err.name,
      message: err.message ?? String(e),
      file: err.file,
      line: err.line,
      column: err.column,
      reason: err.reason,
    },
  } satisfies DumpWorkerMessage);
}
