/**
 * The SQLite schema of an imported wiki. Names follow MediaWiki's own tables where there is one, so that
 * a reader who knows MediaWiki's schema finds their way; every access path the API needs has an index
 * (each request is an index seek or a range scan, whatever the size of the wiki).
 *
 * Text columns hold UTF-8 and SQLite's default BINARY collation compares them with memcmp, i.e. in UTF-8
 * byte order -- exactly MediaWiki's binary collation of titles.
 *
 * Titles are stored as DB keys: no namespace prefix, spaces as underscores, first letter already uppercased.
 * Timestamps are MediaWiki's 14-digit TS_MW form (YYYYMMDDhhmmss, UTC).
 */
export const SCHEMA_VERSION = 16; // 3: smw_value.sv_num and the query indexes (SMW ask); 4: the full-text search index; 5: history (revisions, users, log, recent changes); 6: link tables (externallinks, iwlinks, interwiki, page_random, rd_interwiki); 7: parser_cache (import --render); 8: autocompletion answers of heavy prefixes in smw_ac_node, values as shown; 9: those answers printed as compact JSON (smw_ac_node.an_values UTF-8, an_json escaped); 10: img_sha1 covers a duplicate's uploader and time; 11: revision texts under 4 KiB kept as they are (revision_text.rt_deflated); 12: image.img_dups, img_dup_count, img_page (a file's duplicates and description page, made at import); 13: the search index's lemma columns, search_title_lemma and search_vocab (Ukrainian morphology, suggestions); 14: SMW's usage statistics (smw_statistics, action=smwinfo); 15: the top-k postings search_block, search_term, search_df; 16: BM25 bounds per column set in the postings' directories, search_bitmap

/**
 * History: every revision of the dump (texts compressed apart from the metadata), the users the dump's
 * contributors are, per-page contributor lists, the log and the recent-changes window.
 */
const HISTORY_SCHEMA = /* sql */ `
CREATE TABLE revision (
  rev_id INTEGER PRIMARY KEY,
  rev_page INTEGER NOT NULL,
  rev_namespace INTEGER NOT NULL,   -- the page's namespace (usercontribs' namespace filter without a join)
  rev_parent_id INTEGER NOT NULL DEFAULT 0,
  rev_timestamp TEXT NOT NULL,
  rev_user INTEGER NOT NULL DEFAULT 0,
  rev_user_text TEXT NOT NULL,
  rev_comment TEXT NOT NULL DEFAULT '',
  rev_minor_edit INTEGER NOT NULL DEFAULT 0,
  rev_deleted INTEGER NOT NULL DEFAULT 0,  -- Revision::DELETED_TEXT (1) when the dump has no text
  rev_len INTEGER,
  rev_sha1 TEXT NOT NULL DEFAULT '',      -- base-36
  rev_content_model TEXT NOT NULL DEFAULT 'wikitext',
  rev_content_format TEXT NOT NULL DEFAULT 'text/x-wiki'
);
CREATE INDEX rev_page_timestamp ON revision (rev_page, rev_timestamp, rev_id);
CREATE INDEX rev_page_id ON revision (rev_page, rev_id);
CREATE INDEX rev_user_text_timestamp ON revision (rev_user_text, rev_timestamp, rev_id);
CREATE INDEX rev_user_text_ns_timestamp ON revision (rev_user_text, rev_namespace, rev_timestamp, rev_id);

-- revision texts: the UTF-8 bytes of the text, or from 4 KiB (src/store/revision-text.ts) their raw deflate
CREATE TABLE revision_text (
  rt_rev_id INTEGER PRIMARY KEY,
  rt_data BLOB NOT NULL,
  rt_deflated INTEGER NOT NULL DEFAULT 0  -- 1: rt_data is the zlib raw deflate of the text's UTF-8 bytes
);

-- the dump's registered contributors (and log performers): editcount = their revisions in the dump,
-- registration = their account creation in the log, else their first revision or log entry
CREATE TABLE user (
  user_id INTEGER PRIMARY KEY,
  user_name TEXT NOT NULL,          -- with spaces
  user_editcount INTEGER NOT NULL DEFAULT 0,
  user_registration TEXT
);
CREATE UNIQUE INDEX user_name ON user (user_name);

-- prop=contributors: registered contributors per page, and the number of distinct anonymous ones
CREATE TABLE page_contributor (
  pc_page INTEGER NOT NULL,
  pc_user INTEGER NOT NULL,
  pc_user_text TEXT NOT NULL,
  PRIMARY KEY (pc_page, pc_user)
) WITHOUT ROWID;
CREATE TABLE page_anon_contributors (pac_page INTEGER PRIMARY KEY, pac_count INTEGER NOT NULL);

CREATE TABLE logging (
  log_id INTEGER PRIMARY KEY,
  log_type TEXT NOT NULL,
  log_action TEXT NOT NULL,
  log_timestamp TEXT NOT NULL,
  log_user INTEGER NOT NULL DEFAULT 0,
  log_user_text TEXT NOT NULL DEFAULT '',
  log_namespace INTEGER NOT NULL DEFAULT 0,
  log_title TEXT NOT NULL DEFAULT '',
  log_page INTEGER NOT NULL DEFAULT 0,    -- the page of log_title when the dump was imported (0: none)
  log_comment TEXT NOT NULL DEFAULT '',
  log_params TEXT NOT NULL DEFAULT '',
  log_deleted INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX log_times ON logging (log_timestamp, log_id);
CREATE INDEX log_type_time ON logging (log_type, log_timestamp, log_id);
CREATE INDEX log_type_action ON logging (log_type, log_action, log_timestamp, log_id);
CREATE INDEX log_user_text_time ON logging (log_user_text, log_timestamp, log_id);
CREATE INDEX log_page_time ON logging (log_namespace, log_title, log_timestamp, log_id);

-- MediaWiki's recentchanges as rebuildrecentchanges.php fills it: revisions, then log entries of
-- registered users, each newest first, within $wgRCMaxAge (90 days) of the newest edit of the dump
CREATE TABLE recentchanges (
  rc_id INTEGER PRIMARY KEY,
  rc_timestamp TEXT NOT NULL,
  rc_type INTEGER NOT NULL,         -- 0 edit, 1 new, 3 log
  rc_namespace INTEGER NOT NULL,
  rc_title TEXT NOT NULL,
  rc_cur_id INTEGER NOT NULL,
  rc_this_oldid INTEGER NOT NULL,
  rc_last_oldid INTEGER NOT NULL,
  rc_user INTEGER NOT NULL,
  rc_user_text TEXT NOT NULL,
  rc_comment TEXT NOT NULL,
  rc_minor INTEGER NOT NULL,
  rc_bot INTEGER NOT NULL,
  rc_old_len INTEGER,
  rc_new_len INTEGER,
  rc_deleted INTEGER NOT NULL,
  rc_logid INTEGER NOT NULL,
  rc_log_type TEXT,
  rc_log_action TEXT,
  rc_params TEXT
);
CREATE INDEX rc_timestamp ON recentchanges (rc_timestamp, rc_id);
`;

export const SCHEMA = /* sql */ `
-- key/value facts about the import: siteinfo (JSON), content language, statistics (JSON), import time
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

-- namespaces as the dump's <siteinfo> declares them (local names), merged with MediaWiki's uk defaults
CREATE TABLE namespace (
  ns_id INTEGER PRIMARY KEY,
  ns_name TEXT NOT NULL,            -- local name with spaces ('' for main)
  ns_canonical TEXT,                -- English canonical name with spaces (NULL for main)
  ns_case TEXT NOT NULL DEFAULT 'first-letter'
);

CREATE TABLE page (
  page_id INTEGER PRIMARY KEY,
  page_namespace INTEGER NOT NULL,
  page_title TEXT NOT NULL,
  page_is_redirect INTEGER NOT NULL DEFAULT 0,
  page_len INTEGER NOT NULL,        -- bytes of the latest text
  page_latest INTEGER NOT NULL,     -- latest revision id
  page_touched TEXT NOT NULL,       -- latest revision timestamp (TS_MW)
  page_rev_count INTEGER NOT NULL,
  page_content_model TEXT NOT NULL DEFAULT 'wikitext',
  first_rev_id INTEGER NOT NULL,
  first_timestamp TEXT NOT NULL,
  first_user TEXT NOT NULL DEFAULT '',
  first_user_id INTEGER NOT NULL DEFAULT 0,
  first_len INTEGER,                -- bytes of the first revision's text (the dump's bytes="…"), NULL if unknown
  first_sha1 TEXT NOT NULL DEFAULT '',
  first_comment TEXT NOT NULL DEFAULT '',
  first_minor INTEGER NOT NULL DEFAULT 0,
  latest_timestamp TEXT NOT NULL,
  latest_user TEXT NOT NULL DEFAULT '',
  latest_user_id INTEGER NOT NULL DEFAULT 0,
  latest_comment TEXT NOT NULL DEFAULT '',
  latest_sha1 TEXT NOT NULL DEFAULT '',   -- base-36 SHA-1 of the latest text, as the dump gives it
  latest_minor INTEGER NOT NULL DEFAULT 0,
  latest_parent_id INTEGER NOT NULL DEFAULT 0,
  page_random REAL NOT NULL DEFAULT 0    -- uniform in [0, 1): list=random seeks here (MediaWiki's page_random)
);
CREATE UNIQUE INDEX page_name ON page (page_namespace, page_title);
CREATE INDEX page_random_namespace ON page (page_is_redirect, page_namespace, page_random);
CREATE INDEX page_redirect_namespace_title ON page (page_is_redirect, page_namespace, page_title);

-- latest revision text of every page
CREATE TABLE page_text (page_id INTEGER PRIMARY KEY, old_text TEXT NOT NULL);

CREATE TABLE redirect (
  rd_from INTEGER PRIMARY KEY,
  rd_namespace INTEGER NOT NULL,
  rd_title TEXT NOT NULL,
  rd_fragment TEXT NOT NULL DEFAULT '',
  rd_interwiki TEXT NOT NULL DEFAULT ''  -- prefix of an interwiki target ('' for a page of this wiki)
);
CREATE INDEX redirect_target ON redirect (rd_namespace, rd_title, rd_from);

-- cl_sortkey is the binary sort key (uppercased sort key prefix + newline + title, as MediaWiki's
-- 'uppercase' collation); cl_sortkey_prefix is the human part given in [[Категорія:X|prefix]].
CREATE TABLE categorylinks (
  cl_from INTEGER NOT NULL,
  cl_to TEXT NOT NULL,
  cl_sortkey TEXT NOT NULL,
  cl_sortkey_prefix TEXT NOT NULL DEFAULT '',
  cl_timestamp TEXT NOT NULL,
  cl_type TEXT NOT NULL,            -- 'page' | 'subcat' | 'file'
  PRIMARY KEY (cl_from, cl_to)
) WITHOUT ROWID;
CREATE INDEX cl_sortkey ON categorylinks (cl_to, cl_type, cl_sortkey, cl_from);
CREATE INDEX cl_to_sortkey ON categorylinks (cl_to, cl_sortkey, cl_from);
CREATE INDEX cl_timestamp ON categorylinks (cl_to, cl_timestamp, cl_from);

CREATE TABLE imagelinks (
  il_from INTEGER NOT NULL,
  il_to TEXT NOT NULL,
  il_from_namespace INTEGER NOT NULL,
  PRIMARY KEY (il_to, il_from)
) WITHOUT ROWID;
CREATE INDEX il_from ON imagelinks (il_from, il_to);
-- the pages of one namespace that use a file, in page id order (imageusage/fileusage with a namespace)
CREATE INDEX il_to_from_namespace ON imagelinks (il_to, il_from_namespace, il_from);

CREATE TABLE pagelinks (
  pl_from INTEGER NOT NULL,
  pl_namespace INTEGER NOT NULL,
  pl_title TEXT NOT NULL,
  pl_from_namespace INTEGER NOT NULL,
  PRIMARY KEY (pl_namespace, pl_title, pl_from)
) WITHOUT ROWID;
CREATE INDEX pl_from ON pagelinks (pl_from, pl_namespace, pl_title);
-- the pages of one namespace that link to a title, in page id order (backlinks with a namespace)
CREATE INDEX pl_backlinks_namespace ON pagelinks (pl_namespace, pl_title, pl_from_namespace, pl_from);

CREATE TABLE templatelinks (
  tl_from INTEGER NOT NULL,
  tl_namespace INTEGER NOT NULL,
  tl_title TEXT NOT NULL,
  tl_from_namespace INTEGER NOT NULL,
  PRIMARY KEY (tl_namespace, tl_title, tl_from)
) WITHOUT ROWID;
CREATE INDEX tl_from ON templatelinks (tl_from, tl_namespace, tl_title);
CREATE INDEX tl_backlinks_namespace ON templatelinks (tl_namespace, tl_title, tl_from_namespace, tl_from);

-- interlanguage links ([[en:Title]] with a known language code)
CREATE TABLE langlinks (
  ll_from INTEGER NOT NULL,
  ll_lang TEXT NOT NULL,
  ll_title TEXT NOT NULL,
  PRIMARY KEY (ll_from, ll_lang)
) WITHOUT ROWID;
CREATE INDEX ll_lang ON langlinks (ll_lang, ll_title);

-- external links: el_to the URL as linked, el_index its reversed-host form (wfMakeUrlIndexes; two rows,
-- http: and https:, for a protocol-relative URL) for list=exturlusage by domain
CREATE TABLE externallinks (
  el_id INTEGER PRIMARY KEY,
  el_from INTEGER NOT NULL,
  el_to TEXT NOT NULL,
  el_index TEXT NOT NULL
);
CREATE INDEX el_from ON externallinks (el_from, el_to, el_id);
CREATE INDEX el_index ON externallinks (el_index, el_id);

-- interwiki links ([[wikipedia:X]], [[:en:X]]): prefix and title as written (no capitalisation)
CREATE TABLE iwlinks (
  iwl_from INTEGER NOT NULL,
  iwl_prefix TEXT NOT NULL,
  iwl_title TEXT NOT NULL,
  PRIMARY KEY (iwl_from, iwl_prefix, iwl_title)
) WITHOUT ROWID;
CREATE INDEX iwl_prefix_title_from ON iwlinks (iwl_prefix, iwl_title, iwl_from);

-- the interwiki map the import used (--interwiki FILE, or MediaWiki's default list plus language prefixes)
CREATE TABLE interwiki (
  iw_prefix TEXT PRIMARY KEY,
  iw_url TEXT NOT NULL,
  iw_api TEXT NOT NULL DEFAULT '',
  iw_local INTEGER NOT NULL DEFAULT 0,
  iw_trans INTEGER NOT NULL DEFAULT 0,
  iw_wikiid TEXT NOT NULL DEFAULT '',
  iw_language INTEGER NOT NULL DEFAULT 0  -- 1: an interlanguage prefix
) WITHOUT ROWID;

-- page properties such as hiddencat (__HIDDENCAT__), defaultsort
CREATE TABLE page_props (
  pp_page INTEGER NOT NULL,
  pp_propname TEXT NOT NULL,
  pp_value TEXT NOT NULL,
  PRIMARY KEY (pp_page, pp_propname)
) WITHOUT ROWID;
CREATE INDEX pp_propname_page ON page_props (pp_propname, pp_page);

-- every category that has members or a page; cat_pages counts all members (pages + subcats + files)
CREATE TABLE category (
  cat_id INTEGER PRIMARY KEY,
  cat_title TEXT NOT NULL UNIQUE,
  cat_pages INTEGER NOT NULL DEFAULT 0,
  cat_subcats INTEGER NOT NULL DEFAULT 0,
  cat_files INTEGER NOT NULL DEFAULT 0,
  cat_hidden INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX cat_pages ON category (cat_pages);

-- uploaded files (from --files DIR)
CREATE TABLE image (
  img_name TEXT PRIMARY KEY,        -- DB key without the namespace prefix
  img_size INTEGER NOT NULL,
  img_width INTEGER NOT NULL DEFAULT 0,
  img_height INTEGER NOT NULL DEFAULT 0,
  img_bits INTEGER NOT NULL DEFAULT 0,
  img_media_type TEXT NOT NULL,     -- BITMAP, DRAWING, AUDIO, VIDEO, MULTIMEDIA, OFFICE, TEXT, EXECUTABLE, ARCHIVE, UNKNOWN
  img_major_mime TEXT NOT NULL,
  img_minor_mime TEXT NOT NULL,
  img_sha1 TEXT NOT NULL,           -- base-36, zero-padded to 31 chars (MediaWiki's img_sha1)
  img_sha1_hex TEXT NOT NULL,       -- 40 lowercase hex digits
  img_user INTEGER NOT NULL DEFAULT 0,
  img_user_text TEXT NOT NULL,
  img_timestamp TEXT NOT NULL,      -- TS_MW
  img_description TEXT NOT NULL DEFAULT '',
  img_metadata TEXT NOT NULL DEFAULT '',  -- JSON object of metadata name -> value (may be empty)
  img_path TEXT NOT NULL,           -- path of the file relative to the files directory given at import
  -- made at import once every file is in (FileImportWriter.finish), for prop=duplicatefiles and
  -- generator=allimages: the other files with the same SHA-1 as a JSON array of [name, uploader, TS_MW
  -- time] in name order (NULL: none; most files), their number, and the description page as
  -- page_id * 2 + page_is_redirect (NULL: none). A file without duplicates then costs no img_sha1 seek,
  -- and a listing no seek of the page table.
  img_dups TEXT,
  img_dup_count INTEGER NOT NULL DEFAULT 0,
  img_page INTEGER
) WITHOUT ROWID;
-- covers generator=allimages&aisort=timestamp: its description pages and whether each file has duplicates
-- (img_dups itself, of any length, stays out of the index: PostgreSQL's B-tree entries are bounded)
CREATE INDEX img_timestamp ON image (img_timestamp, img_name, img_page, img_dup_count);
-- covering: a file's duplicates (prop=duplicatefiles) are read from the index entries alone, without a
-- seek of each duplicate's row for its uploader and time
CREATE INDEX img_sha1 ON image (img_sha1, img_name, img_user_text, img_timestamp);
CREATE INDEX img_user_timestamp ON image (img_user_text, img_timestamp, img_name);
CREATE INDEX img_size ON image (img_size);
CREATE INDEX img_media_mime ON image (img_major_mime, img_minor_mime);

-- interface messages from i18n JSON directories, per language as found (fallback is resolved when read)
CREATE TABLE message (
  msg_lang TEXT NOT NULL,
  msg_key TEXT NOT NULL,            -- key as in the JSON file
  msg_text TEXT NOT NULL,
  PRIMARY KEY (msg_lang, msg_key)
) WITHOUT ROWID;

-- local overrides from the dump's MediaWiki: pages: 'MediaWiki:August' -> (content language, 'august'),
-- 'MediaWiki:August/ru' -> ('ru', 'august')
CREATE TABLE message_override (
  mo_lang TEXT NOT NULL,
  mo_key TEXT NOT NULL,             -- message key: the title with its first letter lowercased, underscores
  mo_text TEXT NOT NULL,
  PRIMARY KEY (mo_lang, mo_key)
) WITHOUT ROWID;

-- precomputed special pages (MediaWiki's querycache): one row per result, in result order
CREATE TABLE querycache (
  qc_type TEXT NOT NULL,            -- special page name, e.g. 'Ancientpages'
  qc_seq INTEGER NOT NULL,          -- 0-based position in the report
  qc_value TEXT NOT NULL,           -- the report's value column as a string ('' when none)
  qc_namespace INTEGER NOT NULL,
  qc_title TEXT NOT NULL,           -- DB key
  qc_extra TEXT,                    -- JSON of extra columns (databaseResult), or NULL
  PRIMARY KEY (qc_type, qc_seq)
) WITHOUT ROWID;
CREATE TABLE querycache_info (qci_type TEXT PRIMARY KEY, qci_timestamp TEXT NOT NULL) WITHOUT ROWID;

-- full-text search: one row per page that is not a redirect, rowid = page_id. Columns hold folded text
-- (src/wiki/search-text.ts: lowercase, diacritics and apostrophes folded, only letters, digits and
-- spaces), so the ascii tokenizer (split on ASCII spaces) sees exactly the tokens the folding made.
-- ns is the token 'n<namespace>' (filtered in MATCH, weight 0 in ranking); redirects holds the titles
-- of the redirects to the page. ltitle, lredirects and ltext hold the lemmas of the tokens of title,
-- redirects and text (src/wiki/morphology.ts; words the dictionary does not know have none): a query word
-- finds the other forms of its lemmas there. Contentless: snippets are made from page_text at request time.
CREATE VIRTUAL TABLE search_index USING fts5(ns, title, redirects, text, ltitle, lredirects, ltext, content='', tokenize='ascii');

-- folded titles of pages and of redirects (then st_page is the redirect's target and st_ns the target's
-- namespace): exact-title boost and near match ignoring case
CREATE TABLE search_title (st_key TEXT NOT NULL, st_ns INTEGER NOT NULL, st_page INTEGER NOT NULL);
CREATE INDEX search_title_key ON search_title (st_key, st_ns, st_page);
-- lemma keys of the titles of pages and of their redirects (morphology.ts lemmaKeys): titles named by a
-- query in other forms of their words come right after the exact titles
CREATE TABLE search_title_lemma (stl_key TEXT NOT NULL, stl_page INTEGER NOT NULL);
CREATE INDEX search_title_lemma_key ON search_title_lemma (stl_key, stl_page);
-- the index's vocabulary: each term of the title, redirects and text columns with the number of pages
-- holding it (summed over the columns), for srinfo=suggestion's "did you mean"
CREATE TABLE search_vocab (sv_term TEXT PRIMARY KEY, sv_docs INTEGER NOT NULL) WITHOUT ROWID;
-- top-k postings (search-postings.ts): each term of the six word columns with its pages in page id order,
-- in blocks (per page: namespace, row length in tokens, the term's count per column); a term's directory
-- of blocks with their spans and BM25 bounds; its pages per namespace and column set (BM25's IDF, totalhits)
CREATE TABLE search_block (sb_id INTEGER PRIMARY KEY, sb_data BLOB NOT NULL);
CREATE TABLE search_term (stt_term TEXT PRIMARY KEY, stt_dir BLOB NOT NULL);
CREATE TABLE search_df (
  sd_term TEXT NOT NULL, sd_ns INTEGER NOT NULL,
  sd_trx INTEGER NOT NULL, sd_tr INTEGER NOT NULL, sd_x INTEGER NOT NULL, sd_l INTEGER NOT NULL, sd_ltr INTEGER NOT NULL, sd_lx INTEGER NOT NULL,
  PRIMARY KEY (sd_term, sd_ns)
) WITHOUT ROWID;
-- page bitmaps (search-bitmaps.ts) of the frequent terms (in the words' columns: 'term:e', in the lemmas':
-- 'term:l') and of each namespace's indexed pages (':n<ns>'), in chunks of 4,096 page ids: a query's
-- matches counted without walking its words' postings
CREATE TABLE search_bitmap (sbm_key TEXT NOT NULL, sbm_chunk INTEGER NOT NULL, sbm_data BLOB NOT NULL, PRIMARY KEY (sbm_key, sbm_chunk)) WITHOUT ROWID;

-- the parser cache on disk (import --render, empty otherwise): a page's rendered output as the JSON of the
-- renderer's result, for one revision and one options key; pc_version is the renderer version that made
-- it (an entry of another version is ignored when served). A rowid table: outputs are large, and the
-- primary key's index stays small.
CREATE TABLE parser_cache (
  pc_page INTEGER NOT NULL,
  pc_rev INTEGER NOT NULL,
  pc_options TEXT NOT NULL,
  pc_version INTEGER NOT NULL,
  pc_output TEXT NOT NULL,
  PRIMARY KEY (pc_page, pc_rev, pc_options)
);
${HISTORY_SCHEMA}`;
