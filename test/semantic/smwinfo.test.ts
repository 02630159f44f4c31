/**
 * action=smwinfo (SMW 2.2's SMW\MediaWiki\Api\Info over UsageStatisticsListLookup, SMW 2.2.3's
 * src/MediaWiki/Api/Info.php and src/SQLStore/ListLookup/UsageStatisticsListLookup.php): the demo wiki's
 * semantic statistics, on either store. The reference MediaWiki runs without SMW, so the counts are
 * checked against what the demo holds, read through other modules where one shows it. That an update
 * counts them again is checked by test/importer/update.test.ts (its request set asks smwinfo).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();
const EVERY = 'propcount|usedpropcount|declaredpropcount|proppagecount|querycount|querysize|formatcount|conceptcount|subobjectcount';

async function pagesIn(ns: number): Promise<number> {
  const r = await s.get({ action: 'query', list: 'allpages', apnamespace: ns, aplimit: 'max', format: 'json' });
  return r.json.query.allpages.length;
}

describe('action=smwinfo', () => {
  it('answers the default counts', async () => {
    const r = await s.get({ action: 'smwinfo', format: 'json' });
    assert.equal(r.text, '{"info":{"propcount":1697,"usedpropcount":40,"declaredpropcount":23}}');
    // SMW sets no cache mode: private, as every module that does not choose
    assert.equal(r.headers.get('cache-control'), 'private, must-revalidate, max-age=0');
  });

  it('answers every count in Info.php order, whatever the order asked', async () => {
    const r = await s.get({ action: 'smwinfo', info: EVERY.split('|').reverse().join('|'), format: 'json' });
    assert.equal(
      r.text,
      '{"info":{"propcount":1697,"usedpropcount":40,"declaredpropcount":23,"proppagecount":23,"querycount":4,"querysize":4,' +
        '"conceptcount":7,"subobjectcount":12,"formatcount":{"ul":2,"list":1,"table":1}}}',
    );
  });

  it('counts what the other modules show', async () => {
    const info = (await s.get({ action: 'smwinfo', info: EVERY, format: 'json' })).json.info;
    // OWNPAGE: the pages of the Property namespace; CONCEPTS: the concept pages that define one (all the
    // demo's but Concept:Без означення)
    assert.equal(info.proppagecount, await pagesIn(102));
    assert.equal(info.conceptcount, (await pagesIn(108)) - 1);
    // QUERY: one _ASK value per inline query, as browsebysubject shows them on the demo's query pages
    let asks = 0;
    for (const subject of ['Демонстраційна сторінка', 'Списки міст', 'Concept:Великі обласні центри']) {
      const page = await s.get({ action: 'browsebysubject', subject, format: 'json' });
      asks += page.json.query.data.find((d: { property: string }) => d.property === '_ASK').dataitem.length;
    }
    assert.equal(info.querycount, asks);
    assert.equal(info.querysize, info.querycount, 'SMW counts the _ASKSI rows, not the sizes');
  });

  it('errorcount is in Info.php’s map but not among its values: a warning, and nothing asked', async () => {
    const r = await s.get({ action: 'smwinfo', info: 'errorcount', format: 'json' });
    assert.equal(r.text, '{"warnings":{"smwinfo":{"*":"Unrecognized value for parameter \'info\': errorcount"}},"info":[]}');
  });

  it('an empty info is an empty list (PHP array())', async () => {
    assert.equal((await s.get({ action: 'smwinfo', info: '', format: 'json' })).text, '{"info":[]}');
  });

  it('paraminfo describes it as SMW 2.2 does', async () => {
    const m = (await s.get({ action: 'paraminfo', modules: 'smwinfo', format: 'json' })).json.paraminfo.modules[0];
    assert.equal(m.classname, 'SMW\\MediaWiki\\Api\\Info');
    assert.equal(m.source, 'Semantic MediaWiki');
    assert.deepEqual(m.parameters[0].type, EVERY.split('|'));
    assert.deepEqual(m.parameters[0].default, 'propcount|usedpropcount|declaredpropcount');
  });
});
