-- Engine answers are appended here first (one page a commit, no index to
-- update) and merged into translation_memory behind the jobs: the memory
-- is a job's checkpoint, written before each batch is done (issue 23), and
-- inserting into its indexes was most of a large job's work. A process
-- that dies leaves its journal for the next open to merge.
CREATE TABLE tm_journal (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    account_id TEXT NOT NULL,
    engine     TEXT NOT NULL,
    mode       TEXT NOT NULL,
    src        TEXT NOT NULL,
    tgt        TEXT NOT NULL,
    hash       TEXT NOT NULL,
    target     TEXT NOT NULL,
    created_at TEXT NOT NULL
);
