/**
 * Answers written together at the end of an event-loop turn rather than each as soon as it is ready.
 *
 * Writing to a loopback (or same-host proxy) connection runs the receiver's side in the writer's system
 * call, and when the receiving thread sleeps the write also wakes it: on virtual CPUs that wake-up can
 * cost more than the rest of the write. A server slower than its clients finds them asleep at every
 * answer; with the answers of one turn written one after the other in the check phase, the first write
 * wakes a client thread and the others find it awake. The requests of one turn are the sockets that
 * were readable together: the answers computed from them (synchronously, or in the microtasks that
 * follow each) all wait for the last one anyway, as handlers run one after another; an answer that
 * waits on I/O is written at the end of the turn in which it completes. Order per connection is kept:
 * Node queues a pipelined request's response behind the one before it, and the queue here is first in,
 * first out.
 */
import type { ServerResponse } from 'node:http';

export class WriteBatch {
  // parallel lists: the response each write is for (destroyed if its write throws), and the write
  private readonly responses: ServerResponse[] = [];
  private readonly writes: Array<() => void> = [];
  /** writes asked for in this turn, and in the one before */
  private turn = 0;
  private lastTurn = 0;
  private readonly endTurn = () => this.flush();

  /**
   * Make `write` (of res's answer) at the end of this turn of the event loop, after those put off before
   * it; at once when it is the first of its turn and the turn before had no other: a server that is not
   * busy adds nothing to an answer's latency.
   */
  defer(res: ServerResponse, write: () => void): void {
    if (this.turn++ === 0) {
      setImmediate(this.endTurn);
      if (this.lastTurn <= 1) {
        write();
        return;
      }
    }
    this.responses.push(res);
    this.writes.push(write);
  }

  /** the writes put off in this turn, in order */
  flush(): void {
    this.lastTurn = this.turn;
    this.turn = 0;
    const { writes, responses } = this;
    for (let i = 0; i < writes.length; i++) {
      try {
        writes[i]!();
      } catch (e) {
        // not expected (a destroyed socket takes writes silently); one failed write must not lose the others
        if (!responses[i]!.destroyed) responses[i]!.destroy(e as Error);
      }
    }
    writes.length = 0;
    responses.length = 0;
  }
}
