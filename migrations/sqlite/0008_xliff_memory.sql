-- XLIFF post-editing: a completed job's output can be rebuilt from edited
-- targets; each rebuild is a new revision (0 is the machine translation).
ALTER TABLE jobs ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;

-- An account's own translations: post-edits imported as XLIFF (origin
-- human) and translation memories imported as TMX (origin import). Later
-- jobs of the account take them before any engine. Keyed by the SHA-256 of
-- the source segment's tagged text; the text itself is kept for the TMX
-- export.
CREATE TABLE account_memory (
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    src        TEXT NOT NULL,
    tgt        TEXT NOT NULL,
    hash       TEXT NOT NULL,
    source     TEXT NOT NULL,
    target     TEXT NOT NULL,
    origin     TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (account_id, src, tgt, hash)
);
