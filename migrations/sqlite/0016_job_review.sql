-- What the review of a job's translation found (issue 28): a JSON object
-- {"segments","to_check","by_kind",…} (core/review.Summary); NULL before
-- the job is translated.
ALTER TABLE jobs ADD COLUMN review TEXT;
