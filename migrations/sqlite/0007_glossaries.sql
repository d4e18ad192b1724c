-- Glossaries: an account's terminology for one language pair, enforced in
-- the core for every engine. Entries are a JSON array of
-- {"source","target"} (at most 10,000, validated by core/glossary).
CREATE TABLE glossaries (
    id          TEXT PRIMARY KEY,
    account_id  TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name        TEXT NOT NULL,
    source_lang TEXT NOT NULL,
    target_lang TEXT NOT NULL,
    entry_count INTEGER NOT NULL,
    entries     TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX glossaries_account ON glossaries (account_id, created_at);

-- The glossary a job was submitted with; '' for none.
ALTER TABLE jobs ADD COLUMN glossary_id TEXT NOT NULL DEFAULT '';
