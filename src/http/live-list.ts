/**
 * The objects of one kind that are alive now (requests in flight, open connections), oldest first,
 * threaded through the objects themselves.
 *
 * Not a Map keyed by the objects: a Map that gains and loses an entry per request rebuilds its table every
 * few hundred requests, and once one of those tables has been promoted to the old generation (a slow
 * request, large answers and a full collection are enough), the dead table still points at the keys it
 * held and at the table that replaced it. The young-generation collector treats old objects as roots, so
 * every request object and every later table survived its collections, was promoted in turn and kept the
 * chain going until the next full collection: scavenges promoted much of what requests allocated, full
 * collections ran often and every request cost more CPU, for as long as the process lived.
 * Here an object that leaves the list has its links cleared, so a dead one points at nothing.
 */
const PREV = Symbol('live.prev');
const NEXT = Symbol('live.next');
const OWNER = Symbol('live.owner');

type Linked = { [PREV]?: Linked; [NEXT]?: Linked; [OWNER]?: LiveList<object> };

export class LiveList<T extends object> {
  private head: Linked | undefined;
  private tail: Linked | undefined;
  size = 0;

  /** at the end (the newest); an object already in a list stays where it is */
  add(item: T): void {
    const linked = item as Linked;
    if (linked[OWNER] !== undefined) return;
    linked[OWNER] = this as LiveList<object>;
    linked[PREV] = this.tail;
    linked[NEXT] = undefined;
    if (this.tail) this.tail[NEXT] = linked;
    else this.head = linked;
    this.tail = linked;
    this.size++;
  }

  delete(item: T): boolean {
    const linked = item as Linked;
    if (linked[OWNER] !== (this as LiveList<object>)) return false;
    const prev = linked[PREV];
    const next = linked[NEXT];
    if (prev) prev[NEXT] = next;
    else this.head = next;
    if (next) next[PREV] = prev;
    else this.tail = prev;
    linked[PREV] = linked[NEXT] = linked[OWNER] = undefined;
    this.size--;
    return true;
  }

  /** the oldest */
  first(): T | undefined {
    return this.head as T | undefined;
  }

  /** each object, oldest first; `fn` may delete the one it is given */
  forEach(fn: (item: T) => void): void {
    for (let linked = this.head; linked !== undefined; ) {
      const next = linked[NEXT];
      fn(linked as T);
      linked = next;
    }
  }

  clear(): void {
    while (this.head) this.delete(this.head as T);
  }
}
