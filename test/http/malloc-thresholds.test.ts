/**
 * raiseMallocThresholds (src/http/malloc-thresholds.ts): after it, a ~100 KB buffer made and dropped over
 * and over (an sfautocomplete answer per request) no longer costs page faults, because glibc stops giving
 * the top of its heap back. Measured in fresh processes (a test process may have raised the thresholds
 * already), as minor page faults per buffer: a count, not a time. Without glibc's behaviour (another
 * allocator, or thresholds raised by something else) the control shows no faults and the check is skipped.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const moduleUrl = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'http', 'malloc-thresholds.js')).href;

/** minor page faults per 104 KB buffer made, filled and dropped, in a fresh process */
function faultsPerBuffer(raise: boolean): number {
  const script = `
    import { raiseMallocThresholds } from ${JSON.stringify(moduleUrl)};
    if (${raise}) raiseMallocThresholds();
    // young-generation churn, so that the dropped buffers are collected as a server's would be
    let junk = [];
    for (let i = 0; i < 200000; i++) { junk.push({ i }); if (junk.length > 1000) junk = []; }
    const f0 = process.resourceUsage().minorPageFault;
    let keep;
    for (let i = 0; i < 2000; i++) {
      keep = Buffer.allocUnsafeSlow(104 * 1024);
      keep.fill(1);
      for (let j = 0; j < 3000; j++) junk.push({ j });
      junk = [];
    }
    process.stdout.write(String((process.resourceUsage().minorPageFault - f0) / 2000));
  `;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

describe('malloc thresholds', () => {
  it('a large buffer made and dropped per request costs no page faults once raised', (t) => {
    const control = faultsPerBuffer(false);
    if (control < 10) {
      t.skip(`this allocator does not give the heap back per buffer (${control} faults per buffer without the call)`);
      return;
    }
    const raised = faultsPerBuffer(true);
    assert.ok(raised < control / 4, `faults per 104 KB buffer: ${raised} with the thresholds raised, ${control} without`);
  });
});
