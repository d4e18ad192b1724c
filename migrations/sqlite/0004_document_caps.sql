-- Per-account overrides of the plan's per-document caps (admin set-plan
-- --max-document-words/--max-document-segments); NULL: the plan's.
ALTER TABLE accounts ADD COLUMN max_doc_words_override INTEGER;
ALTER TABLE accounts ADD COLUMN max_doc_segments_override INTEGER;
