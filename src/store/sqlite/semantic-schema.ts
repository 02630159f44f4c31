/**
 * The Semantic MediaWiki part of an imported wiki: SMW's data (SQLStore3's object ids and property
 * tables, folded into one value table) and the word-prefix index of Semantic Forms autocompletion.
 * Created by the import writer (sqlite/import/semantic.ts, for importer/semantic-hook.ts) after the core
 * SCHEMA; the secondary indexes are created once the tables are filled (SEMANTIC_INDEXES).
 *
 * Autocompletion index (sources: a property id > 0, or -1 - namespace for the namespace source):
 *
 *   smw_ac_value  every distinct value of a source as Semantic Forms shows it (underscores as spaces),
 *                 numbered in (source, stored value) byte order, AC_ID_STRIDE apart, so that sorting value
 *                 ids gives the answer's order (an update puts new values in the gaps)
 *   smw_ac_word   (source, word key, value id): the folded text from each word start of the value, cut
 *                 to 64 characters. A substring's matches are one range scan `aw_key >= f AND aw_key < f+∞`.
 *   smw_ac_node   "heavy" prefixes: every node of the (compressed) trie of word keys under which more than
 *                 HEAVY_ROWS word rows lie, with the answer below it, the first 1000 values in id order
 *                 (one row read instead of 1000 seeks scattered over smw_ac_value: what a heavy prefix
 *                 cost grew with), printed as Semantic Forms' answer list in MediaWiki's two compact JSON
 *                 forms (semantic/completion-answer.ts): an_values in UTF-8 bytes, an_json with every
 *                 non-ASCII character escaped (the default output, 2.6× the size: escaping it per request
 *                 was two thirds of a heavy answer's cost). Other outputs parse an_values.
 *
 * A lookup first seeks the smallest heavy key >= f: when it starts with f, f's matches are that node's
 * (a node and the chain of prefixes above it share their rows), and the answer is its list; otherwise f
 * has at most HEAVY_ROWS word rows and they are read, sorted and cut to 1000. Either way a request reads
 * a bounded number of rows, whatever the wiki's size.
 */

/**
 * A prefix with more word rows than this gets its answer precomputed. The light path costs ~0.4 µs per
 * row (seek and UTF-8 decoding of each value), so this bounds it near 100 µs; the lists it adds cost ~6%
 * of the database (46 MB on the 100,000-page synthetic wiki, 15 MB at 2000 rows).
 */
export const HEAVY_ROWS = 250;

/**
 * smw_ac_value ids are numbered this far apart at import: an incremental update gives a new value the id
 * halfway between its neighbours in byte order, so that the ids stay in that order.
 */
export const AC_ID_STRIDE = 1024;

export const SEMANTIC_SCHEMA = /* sql */ `
-- properties: user properties by DB key ('Населення'), predefined ones by SMW key ('_INST');
-- sp_type is the type id ('_wpg', '_num', …), resolved from the Property: pages at the end of the import
CREATE TABLE smw_property (
  sp_id INTEGER PRIMARY KEY,
  sp_key TEXT NOT NULL UNIQUE,
  sp_type TEXT NOT NULL DEFAULT '_wpg'
);

-- subjects SMW knows (smw_object_ids): pages of semantic namespaces, their subobjects (named, '_<md5>'
-- anonymous ones, '_QUERY<md5>' queries) and pages used as values; ss_sortkey is what _SKEY shows
CREATE TABLE smw_subject (
  ss_id INTEGER PRIMARY KEY,
  ss_namespace INTEGER NOT NULL,
  ss_title TEXT NOT NULL,
  ss_subobject TEXT NOT NULL DEFAULT '',
  ss_sortkey TEXT NOT NULL
);

-- property values (SMW's property tables in one): sv_type is the data item type code
-- (SMWDataItem::TYPE_*), sv_item its serialization; sv_seq keeps the annotation order. Page and text
-- values of user properties keep their title (sv_ns, sv_key) or text (sv_key) instead -- what baseprop/
-- basevalue matches -- and sv_item is NULL: the serialization is sv_key || '#' || sv_ns || '#' for a
-- page (type 9), sv_key for a text (type 2) (semanticItem in ../semantic-query.ts). sv_num is SMW's numeric sort key of
-- numbers, dates (the Julian day) and booleans (0/1): what query comparisons and sorts use
CREATE TABLE smw_value (
  sv_subject INTEGER NOT NULL,
  sv_property INTEGER NOT NULL,
  sv_seq INTEGER NOT NULL,
  sv_type INTEGER NOT NULL,
  sv_item TEXT,
  sv_ns INTEGER,
  sv_key TEXT,
  sv_num REAL,
  PRIMARY KEY (sv_subject, sv_property, sv_seq)
) WITHOUT ROWID;

-- import staging: the conditions of queries (for _ASKST), normalised at the end, when every property's
-- type is known; st_kind = the value's sv_seq
CREATE TABLE smw_stage (
  st_subject INTEGER NOT NULL,
  st_property INTEGER NOT NULL,
  st_kind INTEGER NOT NULL,
  st_text TEXT NOT NULL
);
-- [[Has type::…]] of Property: pages (the last one counts)
CREATE TABLE smw_type_decl (sd_property INTEGER PRIMARY KEY, sd_type TEXT NOT NULL);
-- autocompletion values collected while typing
CREATE TABLE smw_ac_stage (as_source INTEGER NOT NULL, as_value TEXT NOT NULL);

CREATE TABLE smw_ac_value (
  av_id INTEGER PRIMARY KEY,
  av_source INTEGER NOT NULL,
  av_value TEXT NOT NULL
);
CREATE TABLE smw_ac_word (
  aw_source INTEGER NOT NULL,
  aw_key TEXT NOT NULL,
  aw_value INTEGER NOT NULL,
  PRIMARY KEY (aw_source, aw_key, aw_value)
) WITHOUT ROWID;
CREATE TABLE smw_ac_node (
  an_id INTEGER PRIMARY KEY,
  an_source INTEGER NOT NULL,
  an_key TEXT NOT NULL,
  an_values BLOB NOT NULL,
  an_json TEXT NOT NULL
);
`;

/** Secondary indexes, created after the bulk load. */
export const SEMANTIC_INDEXES = /* sql */ `
CREATE UNIQUE INDEX smw_subject_name ON smw_subject (ss_namespace, ss_title, ss_subobject);
CREATE INDEX smw_value_key ON smw_value (sv_property, sv_key, sv_subject) WHERE sv_key IS NOT NULL;
CREATE INDEX smw_value_item ON smw_value (sv_property, sv_item, sv_subject) WHERE sv_item IS NOT NULL;
CREATE INDEX smw_value_num ON smw_value (sv_property, sv_num, sv_subject) WHERE sv_num IS NOT NULL;
CREATE INDEX smw_subject_sort ON smw_subject (ss_sortkey, ss_namespace, ss_title, ss_subobject);
CREATE UNIQUE INDEX smw_ac_node_key ON smw_ac_node (an_source, an_key);
`;

/** Staging tables dropped once the import is done. */
export const SEMANTIC_STAGING = ['smw_stage', 'smw_type_decl', 'smw_ac_stage'];
