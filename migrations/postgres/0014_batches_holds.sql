-- Several targets (or documents) in one submission: the jobs of a batch
-- share its id ('' for a job submitted alone).
ALTER TABLE jobs ADD COLUMN batch_id TEXT NOT NULL DEFAULT '';
CREATE INDEX jobs_batch ON jobs (account_id, batch_id);

-- A job submitted with hold waits for POST /jobs/{job_id}/confirm until
-- held_until, then is dropped; NULL for a job not held.
ALTER TABLE jobs ADD COLUMN held_until TIMESTAMPTZ;

-- The engines' measured throughput, for the estimated time of a quote:
-- characters sent and seconds spent in successful calls, decayed so that
-- recent calls weigh most.
CREATE TABLE engine_throughput (
    engine     TEXT PRIMARY KEY,
    chars      DOUBLE PRECISION NOT NULL,
    seconds    DOUBLE PRECISION NOT NULL,
    calls      BIGINT  NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
);

-- The bilingual document a job asked for (bilingual: true): '' when not
-- asked, then requested, ready or failed.
ALTER TABLE jobs ADD COLUMN bilingual TEXT NOT NULL DEFAULT '';
