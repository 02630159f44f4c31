import { describe, it, type SuiteContext } from 'node:test';

/**
 * describe(), or -- when `skip` gives a reason -- one skipped test under the suite's name in its place.
 * node:test 20 leaves the tests of a suite skipped with describe's own `skip` option out of its
 * "skipped" count, so a run that skipped whole suites reported "skipped 0".
 */
export function describeOrSkip(
  name: string,
  options: { skip: string | false; timeout?: number },
  fn: (suite: SuiteContext) => void | Promise<void>,
): void {
  if (options.skip) it(name, { skip: options.skip }, () => {});
  else describe(name, options.timeout === undefined ? {} : { timeout: options.timeout }, fn);
}
