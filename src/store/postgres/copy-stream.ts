import type { Writable } from 'node:stream';

/** Write a chunk of COPY input, waiting for the stream to drain when its buffer is full (or to fail). */
export async function writeToCopy(stream: Writable, chunk: string): Promise<void> {
  if (stream.write(chunk)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (e?: Error) => {
      stream.off('drain', done);
      stream.off('error', done);
      if (e) reject(e);
      else resolve();
    };
    stream.once('drain', done);
    stream.once('error', done);
  });
}
