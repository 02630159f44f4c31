/**
 * glibc's malloc gives memory above its trim threshold (128 KB at start) back to the kernel whenever the
 * top of the heap is free, and the next large allocation takes it back page by page (brk, and a page
 * fault with a zeroed page for every 4 KB touched). An answer of ~100 KB (sfautocomplete's 1,000 values)
 * is one such Buffer per request, made and freed, so each such request paid the kernel for its pages
 * again (system time most of it) until the heap stops shrinking.
 *
 * glibc raises both thresholds by itself when a block it had to mmap (≥ 128 KB) is freed: the mmap
 * threshold becomes that block's size and the trim threshold twice it (mallopt(3), "dynamic mmap
 * threshold"). One 8 MB buffer, dropped at start, is that block: from its collection on, blocks under
 * 8 MB come from the heap and at most 16 MB of free heap is kept. Other allocators ignore it (one 8 MB
 * allocation, freed).
 */
const BLOCK = 8 << 20;

let done = false;

/** Once per process: an 8 MB buffer touched and dropped (freed by the next GC that finds it dead). */
export function raiseMallocThresholds(): void {
  if (done) return;
  done = true;
  // allocUnsafeSlow: its own malloc'd store (not the Buffer pool's), filled so that it is really mapped
  Buffer.allocUnsafeSlow(BLOCK).fill(0);
}
