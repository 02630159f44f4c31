/**
 * The response cache's bookkeeping: answers of one URL under different scopes (scheme and host, or a
 * client's address) are separate, the byte count follows what is held, expired answers are dropped,
 * and the least recently used URL goes first.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ResponseCache, type CachedAnswer } from '../../src/http/response-cache.js';

const answer = (text: string): CachedAnswer => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: Buffer.from(text) });

describe('ResponseCache', () => {
  it('keeps the answers of one URL under different scopes apart', () => {
    const c = new ResponseCache(1 << 20);
    c.set('http://a', '/api.php?x', answer('A'), false);
    c.set('http://b', '/api.php?x', answer('B'), false);
    c.set('127.0.0.1 http://a', '/api.php?x', answer('C'), false);
    assert.equal(c.get('http://a', '/api.php?x')?.body.toString(), 'A');
    assert.equal(c.get('http://b', '/api.php?x')?.body.toString(), 'B');
    assert.equal(c.get('127.0.0.1 http://a', '/api.php?x')?.body.toString(), 'C');
    assert.equal(c.get('https://a', '/api.php?x'), undefined);
    assert.equal(c.get('http://a', '/api.php?y'), undefined);
    assert.equal(c.size.entries, 3);
    // replacing one scope's answer leaves the others
    c.set('http://b', '/api.php?x', answer('B2'), false);
    assert.equal(c.size.entries, 3);
    assert.equal(c.get('http://b', '/api.php?x')?.body.toString(), 'B2');
    assert.equal(c.get('http://a', '/api.php?x')?.body.toString(), 'A');
  });

  it('counts bytes as answers and their compressed forms come and go', () => {
    const c = new ResponseCache(1 << 20);
    const e = c.set('http://a', '/u', answer('x'.repeat(100)), false)!;
    const one = c.size.bytes;
    assert.ok(one > 100);
    c.addEncoded(e, 'gzip', Buffer.alloc(40));
    assert.equal(c.size.bytes, one + 40);
    c.addEncoded(e, 'gzip', Buffer.alloc(40));
    assert.equal(c.size.bytes, one + 40, 'a second gzip form is not added');
    c.set('http://a', '/u', answer('y'.repeat(100)), false);
    assert.equal(c.size.bytes, one, 'the replaced answer and its compressed form are no longer counted');
    c.addEncoded(e, 'br', Buffer.alloc(40));
    assert.equal(c.size.bytes, one, 'a form of a replaced answer is not counted');
    c.clear();
    assert.deepEqual(c.size, { entries: 0, bytes: 0 });
  });

  it('drops an answer kept until the second ends once it has ended', (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: 5_000_500 });
    const c = new ResponseCache(1 << 20);
    c.set('http://a', '/clock', answer('now'), true);
    c.set('http://b', '/clock', answer('still'), false);
    assert.ok(c.get('http://a', '/clock'));
    t.mock.timers.tick(500);
    assert.equal(c.get('http://a', '/clock'), undefined);
    assert.equal(c.get('http://b', '/clock')?.body.toString(), 'still');
    assert.equal(c.size.entries, 1);
  });

  it('evicts the least recently used URL first, with all its scopes', () => {
    // room for eight answers of 1000 bytes (each costs its bytes plus an allowance; one may take an eighth)
    const c = new ResponseCache(8 * 1600);
    const big = 'z'.repeat(1000);
    c.set('http://a', '/1', answer(big), false);
    c.set('127.0.0.1 http://a', '/1', answer(big), false);
    for (let i = 2; i <= 7; i++) c.set('http://a', `/${i}`, answer(big), false);
    assert.equal(c.size.entries, 8);
    assert.ok(c.get('http://a', '/1'), 'used: now the most recent');
    c.set('http://a', '/8', answer(big), false);
    assert.equal(c.get('http://a', '/2'), undefined, '/2 was the least recently used');
    assert.ok(c.get('http://a', '/3'));
    assert.ok(c.size.bytes <= 8 * 1600);
    // /1 (two scopes) is now the least recently used
    for (let i = 4; i <= 8; i++) c.get('http://a', `/${i}`);
    c.set('http://a', '/9', answer(big), false);
    assert.equal(c.get('http://a', '/1'), undefined);
    assert.equal(c.get('127.0.0.1 http://a', '/1'), undefined, 'the URL goes with every scope');
    assert.equal(c.size.entries, 7);
  });
});
