-- The engines' translation memory belongs to the account whose job stored
-- each entry (issue 26): a job recalls only its own account's entries,
-- unless the operator shares the memory (DRAGOMAN_SHARED_MEMORY), and even
-- then another account's hits never show in a job's metrics. Entries
-- stored before this had no owner: they keep account '' and serve only a
-- shared memory.
ALTER TABLE translation_memory RENAME TO translation_memory_unowned;
CREATE TABLE translation_memory (
    account_id TEXT NOT NULL DEFAULT '',
    engine     TEXT NOT NULL,
    mode       TEXT NOT NULL,
    src        TEXT NOT NULL,
    tgt        TEXT NOT NULL,
    hash       TEXT NOT NULL,
    target     TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (account_id, engine, mode, src, tgt, hash)
);
INSERT INTO translation_memory (account_id, engine, mode, src, tgt, hash, target, created_at)
    SELECT '', engine, mode, src, tgt, hash, target, created_at FROM translation_memory_unowned;
DROP TABLE translation_memory_unowned;
-- The shared memory's lookups, across accounts.
CREATE INDEX translation_memory_shared ON translation_memory (engine, mode, src, tgt, hash);
