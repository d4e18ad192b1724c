-- What an ended job still owes (issue 27): its terminal event on the bus
-- and, when it failed, its words given back and its files deleted. They
-- are written with the terminal state, so an outage that stops the
-- follow-up cannot lose it: a sweep finishes what is due. retrying_since
-- is when the current stage first failed with an error worth retrying,
-- which bounds its retries by time rather than by count.
ALTER TABLE jobs ADD COLUMN announce_due INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN cleanup_due INTEGER NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN retrying_since TEXT;
CREATE INDEX jobs_due ON jobs (completed_at) WHERE announce_due OR cleanup_due;
