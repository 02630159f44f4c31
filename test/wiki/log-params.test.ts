/**
 * formatLogParams: a log entry's stored parameters as logevents shows them under `params` (and
 * recentchanges under `logparams`), LogFormatter::formatParametersForApi of 1.25.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatLogParams } from '../../src/wiki/log-params.js';

const noTitles = () => null;

describe('formatLogParams', () => {
  it('an entry without parameters shows none, whatever its type, but a move (MoveLogFormatter adds suppressredirect)', () => {
    for (const type of ['upload', 'delete', 'block', 'protect', 'rights', 'patrol', 'newusers', 'import', '']) {
      assert.deepEqual(formatLogParams('', type, '20161231235320', noTitles), new Map(), type);
    }
    assert.deepEqual(formatLogParams('', 'move', '20161231235320', noTitles), new Map([['suppressredirect', false]]));
  });

  it('each call gives a map of its own', () => {
    const a = formatLogParams('', 'upload', '20161231235320', noTitles);
    assert.notEqual(a, formatLogParams('', 'upload', '20161231235320', noTitles));
  });

  it('stored parameters are converted by their type, legacy ones by the type of the entry', () => {
    const upload = 'a:1:{s:13:"img_timestamp";s:14:"20120705024549";}';
    assert.deepEqual(formatLogParams(upload, 'upload', '20161231235320', noTitles), new Map([['img_timestamp', '2012-07-05T02:45:49Z']]));
    assert.deepEqual(
      formatLogParams('5\n6', 'patrol', '20161231235320', noTitles),
      new Map<string, unknown>([
        ['curid', 5],
        ['previd', 6],
      ]),
    );
  });
});
