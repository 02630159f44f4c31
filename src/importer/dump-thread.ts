/**
 * The dump's items read on a worker thread (dump-worker.ts): the same items as readDump, in the same
 * order; a revision's text may come already encoded for revision_text (`prepared`) instead of as text.
 */
import { Worker } from 'node:worker_threads';
import { DumpError, type DumpItem, type DumpPage, type DumpRevision, type DumpUpload, type ReadDumpOptions } from './dump-reader.js';
import { DumpSourceError } from './dump-source.js';

export interface DumpWorkerData {
  file: string;
}

/** a revision whose text the reader thread encoded: `text` is null, `prepared` says what the writer needs of it */
export interface PreparedText {
  encoded: Uint8Array;
  /** UTF-8 bytes of the text */
  len: number;
  /** the dump's <sha1>, else the text's */
  sha1: string;
}

export type DumpWorkerMessage =
  | { kind: 'items'; values: unknown[]; bytesRead: number }
  | { kind: 'warning'; message: string }
  | { kind: 'end' }
  | { kind: 'error'; error: { name: string; message: string; file?: string; line?: number; column?: number; reason?: string } };

export interface ThreadedDumpItem {
  item: DumpItem;
  /** for a revision with text: the text encoded, its length and hash (item.revision.text is null) */
  prepared?: PreparedText;
}

/*
 * Items travel as one flat array of primitives per batch: cloning objects costs a key string per field
 * on both threads, and the main thread is the one that is short of time. Revisions and pages (nearly
 * every item) are encoded field by field, the rare other items as they are.
 */
const ITEM = 0;
const REVISION = 1;
const PAGE = 2;

function encodeRevision(out: unknown[], r: DumpRevision, withText = true): void {
  out.push(
    r.id,
    r.parentId,
    r.timestamp,
    r.user,
    r.userId,
    r.comment,
    r.minor,
    r.model,
    r.format,
    r.sha1,
    withText ? r.text : null,
    r.bytes,
    r.deleted,
  );
}

function decodeRevision(v: unknown[], i: number): DumpRevision {
  const r: DumpRevision = {
    id: v[i] as number,
    parentId: v[i + 1] as number,
    timestamp: v[i + 2] as string,
    user: v[i + 3] as string,
    userId: v[i + 4] as number,
    comment: v[i + 5] as string,
    minor: v[i + 6] as boolean,
    sha1: v[i + 9] as string,
    text: v[i + 10] as string | null,
    bytes: v[i + 11] as number,
    deleted: v[i + 12] as number,
  };
  // absent, as the reader leaves them
  if (v[i + 7] !== undefined) r.model = v[i + 7] as string;
  if (v[i + 8] !== undefined) r.format = v[i + 8] as string;
  return r;
}
const REV_FIELDS = 13;

/** Appends an item (a revision with its text prepared: without the text) to a batch. */
export function encodeItem(out: unknown[], item: DumpItem, prepared?: PreparedText): void {
  if (item.type === 'revision') {
    out.push(REVISION, item.page.id, item.page.ns, item.page.title);
    encodeRevision(out, item.revision, prepared === undefined);
    if (prepared) out.push(prepared.encoded, prepared.len, prepared.sha1);
    else out.push(null, 0, '');
  } else if (item.type === 'page') {
    const p = item.page;
    out.push(PAGE, p.id, p.line, p.ns, p.title, p.redirectTitle, p.revisionCount, p.uploads);
    encodeRevision(out, p.first);
    encodeRevision(out, p.latest);
  } else out.push(ITEM, item);
}

function* decodeBatch(v: unknown[]): Generator<ThreadedDumpItem> {
  for (let i = 0; i < v.length; ) {
    const tag = v[i];
    if (tag === REVISION) {
      const page = { id: v[i + 1] as number, ns: v[i + 2] as number | undefined, title: v[i + 3] as string };
      const revision = decodeRevision(v, i + 4);
      i += 4 + REV_FIELDS;
      const encoded = v[i] as Uint8Array | null;
      const prepared = encoded !== null ? { encoded, len: v[i + 1] as number, sha1: v[i + 2] as string } : undefined;
      i += 3;
      yield { item: { type: 'revision', page, revision }, prepared };
    } else if (tag === PAGE) {
      const first = decodeRevision(v, i + 8);
      const latest = decodeRevision(v, i + 8 + REV_FIELDS);
      const page: DumpPage = {
        id: v[i + 1] as number,
        line: v[i + 2] as number,
        ns: v[i + 3] as number | undefined,
        title: v[i + 4] as string,
        redirectTitle: v[i + 5] as string | undefined,
        revisionCount: v[i + 6] as number,
        first,
        latest,
        uploads: v[i + 7] as DumpUpload[],
      };
      i += 8 + 2 * REV_FIELDS;
      yield { item: { type: 'page', page } };
    } else {
      yield { item: v[i + 1] as DumpItem };
      i += 2;
    }
  }
}

export async function* readDumpThreaded(file: string, opts: ReadDumpOptions = {}): AsyncGenerator<ThreadedDumpItem> {
  const worker = new Worker(new URL('./dump-worker.js', import.meta.url), { workerData: { file } satisfies DumpWorkerData });
  const queue: DumpWorkerMessage[] = [];
  let wake: (() => void) | null = null;
  let failure: Error | null = null;
  const push = (m: DumpWorkerMessage) => {
    queue.push(m);
    wake?.();
    wake = null;
  };
  worker.on('message', push);
  worker.on('error', (e) => {
    failure ??= e instanceof Error ? e : new Error(String(e));
    wake?.();
    wake = null;
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`the dump reader thread exited (code ${code}) before the end of the dump`);
    wake?.();
    wake = null;
  });
  try {
    for (;;) {
      while (queue.length === 0) {
        if (failure) throw failure;
        await new Promise<void>((r) => (wake = r));
      }
      const m = queue.shift()!;
      if (m.kind === 'end') return;
      if (m.kind === 'warning') opts.onWarning?.(m.message);
      else if (m.kind === 'error') {
        const e = m.error;
        if (e.name === 'DumpError') throw new DumpError(e.file!, e.line!, e.column!, e.reason!);
        if (e.name === 'DumpSourceError') throw new DumpSourceError(e.message);
        throw new Error(e.message);
      } else {
        // taken: the reader may read one batch further
        worker.postMessage(0);
        opts.onBytes?.(m.bytesRead);
        yield* decodeBatch(m.values);
      }
    }
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}
