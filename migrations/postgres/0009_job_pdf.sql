-- The PDF rendition a job asked for (POST /translate's pdf field): ''
-- when not asked, then requested, ready or failed.
ALTER TABLE jobs ADD COLUMN pdf TEXT NOT NULL DEFAULT '';
