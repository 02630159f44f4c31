/**
 * The list of live requests and connections (src/http/live-list.ts) that replaced Maps keyed by them: the
 * order the load shedding's lag is read from, and the property that keeps dead requests from holding
 * later ones alive (a removed object keeps no link to any other).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LiveList } from '../../src/http/live-list.js';

type Item = { n: number };
const items = (k: number): Item[] => Array.from({ length: k }, (_, n) => ({ n }));
const order = (l: LiveList<Item>) => {
  const out: number[] = [];
  l.forEach((i) => out.push(i.n));
  return out;
};
/** every value the list put on the object (its symbol-keyed properties) */
const links = (o: object) => Object.getOwnPropertySymbols(o).map((s) => (o as Record<symbol, unknown>)[s]);

describe('LiveList', () => {
  it('keeps insertion order; the oldest is first; removal from the head, middle and tail', () => {
    const l = new LiveList<Item>();
    const [a, b, c, d, e] = items(5);
    for (const i of [a, b, c, d, e]) l.add(i!);
    assert.deepEqual(order(l), [0, 1, 2, 3, 4]);
    assert.equal(l.size, 5);
    assert.equal(l.first(), a);
    assert.equal(l.delete(c!), true);
    assert.deepEqual(order(l), [0, 1, 3, 4]);
    assert.equal(l.delete(a!), true);
    assert.equal(l.first(), b);
    assert.equal(l.delete(e!), true);
    assert.deepEqual(order(l), [1, 3]);
    l.add(e!);
    assert.deepEqual(order(l), [1, 3, 4]);
    assert.equal(l.size, 3);
  });

  it('adding an object twice keeps its place; deleting one that is not in the list changes nothing', () => {
    const l = new LiveList<Item>();
    const other = new LiveList<Item>();
    const [a, b, c] = items(3);
    l.add(a!);
    l.add(b!);
    l.add(a!);
    assert.deepEqual(order(l), [0, 1]);
    assert.equal(l.delete(c!), false);
    other.add(c!);
    assert.equal(l.delete(c!), false, 'a member of another list');
    assert.deepEqual(order(other), [2]);
    assert.equal(l.delete(b!), true);
    assert.equal(l.delete(b!), false);
    assert.deepEqual(order(l), [0]);
    assert.equal(l.size, 1);
  });

  it('a removed object points at no other object (a dead request must not keep later ones alive)', () => {
    const l = new LiveList<Item>();
    const all = items(6);
    for (const i of all) l.add(i);
    l.delete(all[2]!);
    l.delete(all[0]!);
    l.delete(all[5]!);
    for (const i of [all[0]!, all[2]!, all[5]!])
      assert.deepEqual(
        links(i).filter((v) => v !== undefined),
        [],
      );
    // the members still link each other (and only the list's members)
    const members = new Set<unknown>([all[1], all[3], all[4], l]);
    for (const i of [all[1]!, all[3]!, all[4]!]) for (const v of links(i)) if (v !== undefined) assert.ok(members.has(v));
    l.clear();
    assert.equal(l.size, 0);
    assert.equal(l.first(), undefined);
    for (const i of all)
      assert.deepEqual(
        links(i).filter((v) => v !== undefined),
        [],
      );
  });

  it('forEach visits every member once when the visited one is removed on the way', () => {
    const l = new LiveList<Item>();
    for (const i of items(5)) l.add(i);
    const seen: number[] = [];
    l.forEach((i) => {
      seen.push(i.n);
      if (i.n % 2 === 0) l.delete(i);
    });
    assert.deepEqual(seen, [0, 1, 2, 3, 4]);
    assert.deepEqual(order(l), [1, 3]);
  });
});
