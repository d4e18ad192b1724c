-- The engines' translation memory belongs to the account whose job stored
-- each entry (issue 26): a job recalls only its own account's entries,
-- unless the operator shares the memory (DRAGOMAN_SHARED_MEMORY), and even
-- then another account's hits never show in a job's metrics. Entries
-- stored before this had no owner: they keep account '' and serve only a
-- shared memory.
ALTER TABLE translation_memory ADD COLUMN account_id TEXT NOT NULL DEFAULT '';
ALTER TABLE translation_memory DROP CONSTRAINT translation_memory_pkey;
ALTER TABLE translation_memory ADD PRIMARY KEY (account_id, engine, mode, src, tgt, hash);
-- The shared memory's lookups, across accounts.
CREATE INDEX translation_memory_shared ON translation_memory (engine, mode, src, tgt, hash);
