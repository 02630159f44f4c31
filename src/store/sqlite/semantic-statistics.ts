/**
 * SMW 2.2's usage statistics (UsageStatisticsListLookup::fetchList, what `action=smwinfo` and
 * Special:SemanticStatistics show), counted from the semantic tables into `smw_statistics` at the end of
 * the import (a PostgreSQL import publishes the table with the others) and again at the end of each
 * update, so that a request reads a handful of rows instead of counting the wiki's values.
 *
 * SMW counts each property's rows in its property tables (smw_prop_stats' usage_count): PROPUSES is
 * their sum, USEDPROPS the properties used at least once, ERRORUSES the uses of `_ERRP`; DECLPROPS,
 * QUERY, QUERYSIZE, CONCEPTS and SUBOBJECTS count the rows of `_TYPE`, `_ASK`, `_ASKSI` (rows, not the
 * sizes: SMW counts s_id), `_CONC` and `_SOBJ`; OWNPAGE the pages of the Property namespace;
 * QUERYFORMATS the inline queries by result format (`_ASKFO`).
 */
import type Database from 'better-sqlite3';
import { QUERY_FORMAT_PREFIX } from '../semantic-sql-store.js';

const NS_PROPERTY = 102;

export const SEMANTIC_STATISTICS_TABLE = 'CREATE TABLE IF NOT EXISTS smw_statistics (st_key TEXT PRIMARY KEY, st_count INTEGER NOT NULL)';

/** the counts of one predefined property's rows, under SMW's statistic name */
const PROPERTY_COUNTS: ReadonlyArray<[name: string, property: string]> = [
  ['ERRORUSES', '_ERRP'],
  ['DECLPROPS', '_TYPE'],
  ['QUERY', '_ASK'],
  ['QUERYSIZE', '_ASKSI'],
  ['CONCEPTS', '_CONC'],
  ['SUBOBJECTS', '_SOBJ'],
];

const REFRESH_SQL = /* sql */ `
WITH per AS (SELECT sv_property AS p, count(*) AS n FROM smw_value GROUP BY sv_property)
INSERT INTO smw_statistics (st_key, st_count)
SELECT 'PROPUSES', coalesce(sum(n), 0) FROM per
UNION ALL SELECT 'USEDPROPS', count(*) FROM per
${PROPERTY_COUNTS.map(([name, key]) => `UNION ALL SELECT '${name}', coalesce((SELECT n FROM per JOIN smw_property ON sp_id = p WHERE sp_key = '${key}'), 0)`).join('\n')}
UNION ALL SELECT 'OWNPAGE', count(*) FROM page WHERE page_namespace = ${NS_PROPERTY}
UNION ALL SELECT '${QUERY_FORMAT_PREFIX}' || sv_item, count(*) FROM smw_value
  WHERE sv_property = (SELECT sp_id FROM smw_property WHERE sp_key = '_ASKFO') AND sv_item IS NOT NULL GROUP BY sv_item`;

/** Count the statistics again (in the caller's transaction, if any). */
export function refreshSemanticStatistics(db: Database.Database): void {
  db.exec(SEMANTIC_STATISTICS_TABLE);
  db.exec('DELETE FROM smw_statistics');
  db.exec(REFRESH_SQL);
}
