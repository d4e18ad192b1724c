-- The folder (under the job's prefix in the blob store) of the current
-- revision's files: '' for the machine translation's. A revision writes
-- its files to a new folder and switches this in the write that checks
-- the revision, so two edits saved at once cannot mix their files.
ALTER TABLE jobs ADD COLUMN files TEXT NOT NULL DEFAULT '';
